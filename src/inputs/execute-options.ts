/** Pure parsing of the execute parameters the user set (docs/api-contract.md, "Execute parameters"). */
import { REGIONS } from '../api/types.js';
import { isHttpUrl, type InputReader } from './parse.js';
import type { ActionInputs } from './schema.js';
import { parseVariables } from './variables.js';

type Execute = ActionInputs['execute'];

/** Reads one non-empty input into its parameter's value; a value of the wrong form is a problem. */
type Rule = (r: InputReader, input: string) => Execute[keyof Execute];

const text: Rule = (r, input) => r.text(input);
const bool: Rule = (r, input) => r.bool(input);
const id: Rule = (r, input) => r.id(input);

/**
 * The inputs of the execute parameters, each with its rule; the parameter is the input's name in camel case
 * (`user-agent` → `userAgent`), sent only when the input is not empty. `data-file` is read apart.
 */
const EXECUTE_INPUTS: Record<string, Rule> = {
  browser: (r, i) =>
    r.list(i, /^(chrome|firefox)(-\d+(\.\d+)*)?$/, 'chrome, chrome-<version>, firefox or firefox-<version>'),
  region: (r, i) =>
    r.list(i, (v) => (REGIONS as readonly string[]).includes(v), `one of ${REGIONS.join(', ')}`),
  viewport: (r, i) => r.list(i, /^[1-9]\d{1,4}x[1-9]\d{1,4}$/, '<width>x<height> in pixels, e.g. 1280x800'),
  'user-agent': (r, i) => r.checked(i, /^[^\r\n]*$/, 'one line of text'),
  'http-auth-username': text,
  'http-auth-password': text,
  'data-source': id,
  'max-concurrent-data-rows': (r, i) => r.integer(i, 1, 1000, 'rows'),
  delay: (r, i) => r.integer(i, 0, 300000, 'milliseconds'),
  'disable-notifications': bool,
  'disable-visuals': bool,
  'screenshot-compare-enabled': bool,
  'screenshot-compare-threshold': (r, i) =>
    Number(r.checked(i, (v) => /^(\d+\.?\d*|\.\d+)$/.test(v) && +v <= 1, 'a number from 0.0 to 1.0')),
  'screenshot-compare-baseline-result': id,
  'screenshot-exclusions': text,
  'screenshot-target': text,
  webhook: (r, i) => r.list(i, isHttpUrl, 'http or https URLs'),
  'chat-channel': (r, i) => r.checked(i, /^#?[^\s#]+$/, 'a channel name without spaces').replace(/^#/, ''),
};

/**
 * Every execute parameter the user set, in the service's names, with the variables and the data file
 * (`dataFile`, read by `from-env.ts`; refused with `data-source` or `withTestFiles`); problems go to `r`.
 */
export function parseExecute(
  r: InputReader,
  dataFile: Execute['dataFile'],
  withTestFiles: boolean,
): { execute: Execute; privateVariables: Record<string, string> } {
  const execute: Record<string, unknown> = {};
  for (const [input, rule] of Object.entries(EXECUTE_INPUTS)) {
    if (r.text(input) === '') continue;
    execute[input.replace(/-(\w)/g, (_, c: string) => c.toUpperCase())] = rule(r, input);
  }
  if (execute.httpAuthPassword && !execute.httpAuthUsername) {
    r.fail('http-auth-username', '', 'a user name when http-auth-password is set');
  }
  const given = r.text('data-file');
  if (given) {
    if (dataFile) execute.dataFile = dataFile;
    if (execute.dataSource) r.fail('data-file', given, 'either data-file or data-source, not both');
    if (withTestFiles) {
      r.fail('data-file', given, 'no data-file with test-files (the on-demand execute takes no data file)');
    }
  }
  const publicVars = parseVariables(r.text('variables'), 'variables', r.fail);
  const privateVars = parseVariables(r.text('private-variables'), 'private-variables', r.fail);
  for (const name of Object.keys(privateVars)) {
    if (Object.hasOwn(publicVars, name)) {
      // The name is not secret: say which one clashes (the value stays hidden).
      r.fail('private-variables', '***', `names not also listed in variables (${name} is in both)`);
    }
  }
  const variables: Record<string, string> = Object.assign(
    Object.create(null) as object,
    publicVars,
    privateVars,
  );
  if (Object.keys(variables).length > 0) execute.variables = variables;
  return { execute, privateVariables: privateVars };
}
