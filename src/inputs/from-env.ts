/**
 * Reads every input of `action.yml` once, from the environment and the files they name, into one validated
 * `ActionInputs`, before any remote call.
 */
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { createRedactor } from '../api/redact.js';
import {
  checkCombinations,
  collectSecrets,
  isHttpUrl,
  parseConnection,
  parseReports,
  parseResultIds,
  parseTargets,
  parseWaiting,
  shortSecretWarnings,
  InputReader,
} from './parse.js';
import { parseExecute } from './execute-options.js';
import { InputError, STEP_MARKER, type ActionInputs } from './schema.js';
import { loadTestFiles, TestFileError, type RepoTest } from './test-files.js';
import { realPathInside } from './workspace-path.js';
import { checkTunnelCombinations, parseTunnel } from './tunnel.js';

export interface ReadInputsOptions {
  /** `INPUT_<NAME>` of each input (the runner sets all with a default), `GITHUB_TOKEN`, `NGROK_AUTHTOKEN`. */
  env?: NodeJS.ProcessEnv;
  /** Where relative paths point; default `GITHUB_WORKSPACE`, else the current directory. */
  workspace?: string;
  /** action.yml's defaults by input name, for inputs given empty (default none). */
  defaults?: Record<string, string>;
}

/**
 * Reads and validates every input; files named by `data-file` and `test-files` are read and parsed.
 * @throws InputError listing every bad input (nothing remote has happened yet)
 */
export async function readInputs(options: ReadInputsOptions = {}): Promise<ActionInputs> {
  const env = options.env ?? process.env;
  const r = new InputReader(env, options.defaults);
  const workspace = path.resolve(options.workspace ?? (env.GITHUB_WORKSPACE || process.cwd()));

  const connection = parseConnection(r);
  const targets = parseTargets(r, connection.organizationId);
  const notices: string[] = [];
  const repoTests = await readTestFiles(r, targets.testFilePatterns, workspace, {
    startUrls: targets.startUrls.filter(isHttpUrl),
    notice: (line) => notices.push(line),
  });
  const { suiteIds, testIds, folderIds, testFilePatterns } = targets;
  const waiting = parseWaiting(r);
  const resultIds = parseResultIds(r, waiting.wait);
  if ([suiteIds, testIds, folderIds, testFilePatterns, resultIds].every((ids) => ids.length === 0)) {
    r.fail('suite-ids', '', 'at least one of suite-ids, test-ids, folder-ids, test-files or result-ids');
  }
  const dataFilePath = r.text('data-file') ? r.path('data-file', workspace) : null;
  const dataFile = dataFilePath ? await readDataFile(r, workspace, dataFilePath) : undefined;
  const { execute, privateVariables } = parseExecute(r, dataFile, testFilePatterns.length > 0);
  const reports = parseReports(r, workspace, env.GITHUB_TOKEN ?? '');
  const tunnel = parseTunnel(r, env.NGROK_AUTHTOKEN ?? '');

  const base = {
    ...connection,
    ...targets,
    resultIds,
    repoTests,
    execute,
    privateVariableNames: Object.keys(privateVariables),
    dataFilePath,
    ...waiting,
    ...reports,
    tunnel,
    workspace,
  };
  const secrets = collectSecrets(base, Object.values(privateVariables));
  const inputs: ActionInputs = {
    ...base,
    ...redactShownInputs(base, secrets),
    secrets,
    warnings: [
      ...stepMarkerWarning(execute.variables, privateVariables),
      ...shortSecretWarnings({
        'api-key': connection.apiKey,
        'http-auth-password': execute.httpAuthPassword,
        'ngrok-authtoken': tunnel?.authtoken,
        ...Object.fromEntries(
          Object.entries(privateVariables).map(([name, value]) => [`private-variables ${name}`, value]),
        ),
      }),
    ],
    notices,
  };
  checkCombinations(r, inputs);
  checkTunnelCombinations(r, inputs);
  if (r.problems.length > 0) throw new InputError(r.problems);
  return inputs;
}

/**
 * The inputs the reports show as given (the summary's title, also the pull-request comment's and the failure
 * issue's; the comment key in their markers; the issue's labels), each secret in them `***` (docs/redaction.md).
 * Paths and the artifact name are not rewritten: a file goes where it was asked, and `*` is not allowed in an
 * artifact name.
 */
function redactShownInputs(
  inputs: Pick<ActionInputs, 'summaryTitle' | 'commentKey' | 'failureIssueLabels'>,
  secrets: string[],
): Pick<ActionInputs, 'summaryTitle' | 'commentKey' | 'failureIssueLabels'> {
  const redact = createRedactor(secrets);
  return {
    summaryTitle: redact(inputs.summaryTitle),
    commentKey: redact(inputs.commentKey),
    failureIssueLabels: inputs.failureIssueLabels.map(redact),
  };
}

/** A warning when the user's variables set {@link STEP_MARKER}, whose value the action replaces on every run. */
function stepMarkerWarning(
  variables: Record<string, string> | undefined,
  privateVariables: Record<string, string>,
): string[] {
  if (!variables || !Object.hasOwn(variables, STEP_MARKER)) return [];
  const input = Object.hasOwn(privateVariables, STEP_MARKER) ? 'private-variables' : 'variables';
  return [
    `Input "${input}" sets ${STEP_MARKER}, which the action sets itself on every run (an id of this step, how ` +
      `it tells its own runs from others): the value given is replaced.`,
  ];
}

/** Loads the repository test files unless their patterns are already bad; a problem names `test-files`. */
async function readTestFiles(
  r: InputReader,
  patterns: string[],
  workspace: string,
  options: Parameters<typeof loadTestFiles>[2],
): Promise<RepoTest[]> {
  if (!r.problems.some((p) => p.input === 'test-files')) {
    try {
      return await loadTestFiles(patterns, workspace, options);
    } catch (error) {
      if (!(error instanceof TestFileError)) throw error;
      r.fail(
        'test-files',
        error.subject,
        `glob patterns matching native JSON tests (.json) or recorder files (.side): ${error.reason}`,
      );
    }
  }
  return [];
}

/**
 * The data file's name and bytes, read only when its real path lies inside the workspace (the rule of
 * `test-files`); one outside it, unreadable or empty is a problem of `data-file`.
 */
async function readDataFile(
  r: InputReader,
  workspace: string,
  file: string,
): Promise<ActionInputs['execute']['dataFile']> {
  let problem = 'the file is empty';
  try {
    const real = await realPathInside(workspace, file);
    if (!real) problem = 'it leads out of the workspace: its real path is outside it';
    else if (!(await stat(real)).isFile()) problem = 'not a file';
    else {
      const content = await readFile(real);
      if (content.length > 0) return { name: path.basename(file), content: new Uint8Array(content) };
    }
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    problem = code === 'ENOENT' ? 'not found' : `cannot be read (${code})`;
  }
  const expected = `the path of a readable CSV file inside the workspace (${problem})`;
  r.fail('data-file', r.text('data-file'), expected);
  return undefined;
}
