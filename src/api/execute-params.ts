/** Encoding of execute parameters as a JSON body, form fields or a query string (docs/api-contract.md). */
import type { ExecuteOptions } from './types.js';

/** Parameters the contract allows for test execution only. */
const TEST_ONLY: ReadonlyArray<keyof ExecuteOptions> = ['webhook', 'screenshotCompareBaselineResult'];

const BOOLEANS = [
  'disableNotifications',
  'immediate',
  'disableVisuals',
  'screenshotCompareEnabled',
] as const satisfies ReadonlyArray<keyof ExecuteOptions>;
const NUMBERS = [
  'delay',
  'maxConcurrentDataRows',
  'screenshotCompareThreshold',
] as const satisfies ReadonlyArray<keyof ExecuteOptions>;
const STRINGS = [
  'startUrl',
  'userAgent',
  'dataSource',
  'httpAuthUsername',
  'httpAuthPassword',
  'screenshotCompareBaselineResult',
  'screenshotExclusions',
  'screenshotTarget',
  'chatChannel',
] as const satisfies ReadonlyArray<keyof ExecuteOptions>;
/**
 * The chat channel goes under both names (docs/api-contract.md, "Execute parameters"): the reference's
 * `chatChannel` and the official client's `slackChannel`. An unknown name becomes a custom variable.
 */
const CHAT_CHANNEL_ALIAS = 'slackChannel';
const REPEATABLE = ['browser', 'region', 'viewport', 'webhook'] as const satisfies ReadonlyArray<
  keyof ExecuteOptions
>;

/**
 * Every parameter name of the contract's execute table, plus `apiKey` and the chat channel's other name. A
 * custom variable may not use one.
 */
export const EXECUTE_PARAMETER_NAMES: ReadonlySet<string> = new Set([
  'apiKey',
  'dataFile',
  CHAT_CHANNEL_ALIAS,
  ...BOOLEANS,
  ...NUMBERS,
  ...STRINGS,
  ...REPEATABLE,
]);

export interface EncodedExecuteOptions {
  /** For a query string or form fields, in order; a repeatable parameter appears once per value. */
  pairs: Array<[string, string]>;
  /** For a JSON body: booleans as 1/0, numbers as numbers, repeated values as arrays. */
  json: Record<string, unknown>;
}

/** A call that cannot be sent as asked (raised before any request). */
export class ExecuteOptionsError extends Error {}

/**
 * Encode the execute options that are set (docs/api-contract.md, "Execute parameters"); `dataFile` is not
 * encoded here.
 * @throws ExecuteOptionsError for a test-only parameter on a suite, a custom variable named like an execute
 *   parameter or `apiKey`, or a value that is not finite
 */
export function encodeExecuteOptions(
  options: ExecuteOptions,
  target: 'suite' | 'test' | 'on-demand',
): EncodedExecuteOptions {
  const pairs: Array<[string, string]> = [];
  const json: Record<string, unknown> = {};
  if (target === 'suite') {
    for (const name of TEST_ONLY) {
      if (options[name] !== undefined) {
        throw new ExecuteOptionsError(
          `execute parameter "${name}" applies to test execution only, not to a suite`,
        );
      }
    }
  }
  for (const name of [...STRINGS, ...NUMBERS, ...BOOLEANS]) {
    const value = options[name];
    if (value === undefined) continue;
    if (typeof value === 'number' && !Number.isFinite(value))
      throw new ExecuteOptionsError(`execute parameter "${name}" must be a finite number`);
    // Booleans go as 1/0; a chat channel without its leading `#`.
    let sent = typeof value === 'boolean' ? +value : value;
    if (name === 'chatChannel' && typeof sent === 'string') sent = sent.replace(/^#+/, '');
    for (const key of name === 'chatChannel' ? [name, CHAT_CHANNEL_ALIAS] : [name]) {
      pairs.push([key, String(sent)]);
      json[key] = sent;
    }
  }
  for (const name of REPEATABLE) {
    const value = options[name];
    if (value === undefined) continue;
    const values = Array.isArray(value) ? value : [value];
    if (values.length === 0) continue;
    for (const v of values) pairs.push([name, v]);
    json[name] = values.length === 1 ? values[0] : [...values];
  }
  for (const [name, value] of Object.entries(options.variables ?? {})) {
    if (EXECUTE_PARAMETER_NAMES.has(name)) {
      throw new ExecuteOptionsError(
        `custom variable "${name}" has the name of an execute parameter; rename the variable`,
      );
    }
    if (name === '') throw new ExecuteOptionsError('a custom variable needs a name');
    pairs.push([name, String(value)]);
    json[name] = String(value);
  }
  return { pairs, json };
}
