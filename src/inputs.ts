/**
 * Reads every input of `action.yml` once into one typed, validated object (`ActionInputs`).
 *
 * Validation happens before any remote call: every bad input is collected and reported together in one
 * `InputError` whose lines each name the input, the value (masked for secrets) and the expected form.
 * Defaults are applied here as well as in `action.yml` (outside GitHub nobody fills them in); a test keeps the
 * two in step.
 *
 * Implements the execute parameters of the contract ("Execute parameters (suite and test)").
 */
import { access, constants, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { DEFAULT_BASE_URL } from './api/api.js';
import { EXECUTE_PARAMETER_NAMES } from './api/execute-params.js';
import { isRedactable, MIN_REDACTED_LENGTH, redactUrl } from './api/redact.js';
import type { ExecuteOptions } from './api/types.js';
import { REGIONS } from './api/types.js';
import { loadTestFiles, TestFileError, type RepoTest } from './run/test-files.js';

/** One problem with one input. */
export interface InputProblem {
  input: string;
  /** The value as given; `***` for secrets. */
  value: string;
  /** What was expected, e.g. `an integer from 0 to 300000 (milliseconds)`. */
  expected: string;
}

/** Bad inputs: `problems` lists each; the message has one line per problem. */
export class InputError extends Error {
  readonly problems: InputProblem[];
  constructor(problems: InputProblem[]) {
    super(
      problems.length === 1
        ? describeProblem(problems[0] as InputProblem)
        : `${problems.length} inputs are not valid:\n${problems.map((p) => `- ${describeProblem(p)}`).join('\n')}`,
    );
    this.name = 'InputError';
    this.problems = problems;
  }
  /** The first bad input's name. */
  get input(): string {
    return this.problems[0]?.input ?? '';
  }
}

function describeProblem(p: InputProblem): string {
  const value = redactUrl(p.value);
  const shown = value.length > 200 ? `${value.slice(0, 200)}…` : value;
  return `Input "${p.input}" has value ${JSON.stringify(shown)}; expected ${p.expected}.`;
}

/** Which screenshots to download and upload. */
export type ScreenshotSelection = 'failed' | 'all' | 'none';

/** Everything the action was asked to do, validated. Paths are absolute. */
export interface ActionInputs {
  apiKey: string;
  apiBaseUrl: string;
  organizationId: string | null;

  suiteIds: string[];
  testIds: string[];
  folderIds: string[];
  /** The `test-files` patterns as given. */
  testFilePatterns: string[];
  /** Every test found in the repository test files, parsed. */
  repoTests: RepoTest[];

  /**
   * Execute parameters the user set, in the service's names (never the action's own settings). Lists
   * (`browser`, `region`, `viewport`, `webhook`) are arrays; `variables` holds public and private variables.
   * `startUrl` is absent here: several start URLs are separate executes (see `startUrls`).
   */
  execute: Omit<ExecuteOptions, 'startUrl' | 'immediate'>;
  /** Start URLs (each a separate execute); empty: the suite's or test's own. */
  startUrls: string[];
  /** Names of the private variables (values are in `execute.variables` and in `secrets`). */
  privateVariableNames: string[];
  /** Absolute path of the data file, when set (its content is in `execute.dataFile`). */
  dataFilePath: string | null;

  wait: boolean;
  /** Overall deadline in milliseconds. */
  timeoutMs: number;
  cancelOnTimeout: boolean;
  failOnScreenshotCompare: boolean;
  failOnTimeout: boolean;
  failOnEmpty: boolean;
  /** 0 to 3. */
  retryFailed: number;

  /** Absolute path, or null when `junit-path` is empty. */
  junitPath: string | null;
  summary: boolean;
  annotations: boolean;
  prComment: boolean;
  /** Empty when none is available. */
  githubToken: string;
  screenshots: ScreenshotSelection;
  artifactName: string;
  /** 1 to 90, or null for the repository setting. */
  artifactRetentionDays: number | null;
  /** Absolute path. */
  artifactsDir: string;
  /** Absolute path. */
  resultsPath: string;

  /** The workspace every relative path is resolved against. */
  workspace: string;
  /**
   * Every secret value to mask and redact: API key, HTTP auth password, private variable values, GitHub
   * token, and the user-info (and its password) of URL inputs.
   */
  secrets: string[];
  /** Warnings to log before the run (e.g. secrets too short to be removed from free text). */
  warnings: string[];
  /** Notices to log before the run (e.g. recorder `open` targets rebased onto `start-url`). */
  notices: string[];
}

/** Defaults of every optional input, as in `action.yml`. */
export const INPUT_DEFAULTS: Readonly<Record<string, string>> = {
  'api-base-url': DEFAULT_BASE_URL,
  'organization-id': '',
  'suite-ids': '',
  'test-ids': '',
  'folder-ids': '',
  'test-files': '',
  'start-url': '',
  browser: '',
  region: '',
  viewport: '',
  'user-agent': '',
  'http-auth-username': '',
  'http-auth-password': '',
  'data-source': '',
  'data-file': '',
  'max-concurrent-data-rows': '',
  delay: '',
  'disable-notifications': '',
  'disable-visuals': '',
  'screenshot-compare-enabled': '',
  'screenshot-compare-threshold': '',
  'screenshot-compare-baseline-result': '',
  'screenshot-exclusions': '',
  'screenshot-target': '',
  webhook: '',
  'chat-channel': '',
  variables: '',
  'private-variables': '',
  wait: 'true',
  timeout: '30',
  'cancel-on-timeout': 'true',
  'fail-on-screenshot-compare': 'false',
  'fail-on-timeout': 'true',
  'fail-on-empty': 'true',
  'retry-failed': '0',
  'junit-path': 'ghost-inspector-junit.xml',
  summary: 'true',
  annotations: 'true',
  'pr-comment': 'false',
  'github-token': '${{ github.token }}',
  screenshots: 'failed',
  'artifact-name': '',
  'artifact-retention-days': '',
  'artifacts-dir': 'ghost-inspector-screenshots',
  'results-path': 'ghost-inspector-results.json',
};

/** Inputs whose value is secret (shown as `***` in errors). */
const SECRET_INPUTS = new Set(['api-key', 'http-auth-password', 'private-variables', 'github-token']);

/**
 * Identifier form: the service's ids are 24 hexadecimal characters; letters, digits, `-` and `_` (at most 64)
 * are accepted so that other instances (a local emulator) work too. Anything else could not be a path segment.
 */
export const ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;
const ID_FORM = 'letters, digits, - and _ (e.g. 5a1b2c3d4e5f60718293a4b5)';
const BROWSER_PATTERN = /^(chrome|firefox)(-\d+(\.\d+)*)?$/;
const VIEWPORT_PATTERN = /^([1-9]\d{1,4})x([1-9]\d{1,4})$/;
const VARIABLE_NAME_PATTERN = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * Execute parameter names a custom variable may not take: it would change the run's settings (every
 * parameter of the contract, plus `apiKey`).
 */
export const RESERVED_VARIABLE_NAMES: ReadonlySet<string> = new Set([
  ...EXECUTE_PARAMETER_NAMES,
  'count',
  'offset',
  'includeImports',
]);

/** Reads one raw input (`''` when unset). */
export type InputGetter = (name: string) => string;

export interface ReadInputsOptions {
  /** Default: `INPUT_<NAME>` from `env`, as `@actions/core` reads them. */
  getInput?: InputGetter;
  /** Default `process.env`. */
  env?: NodeJS.ProcessEnv;
  /** Where relative paths point; default `GITHUB_WORKSPACE`, else the current directory. */
  workspace?: string;
}

/** `INPUT_<NAME>` with spaces as underscores and upper case, as `@actions/core` reads them (dashes stay). */
export function envInputGetter(env: NodeJS.ProcessEnv): InputGetter {
  return (name) => env[`INPUT_${name.replace(/ /g, '_').toUpperCase()}`] ?? '';
}

/**
 * Reads and validates every input.
 *
 * @returns the typed inputs; files named by `data-file` and `test-files` are read and parsed.
 * @throws InputError listing every bad input (nothing remote has happened yet).
 */
export async function readInputs(options: ReadInputsOptions = {}): Promise<ActionInputs> {
  const env = options.env ?? process.env;
  const getRaw = options.getInput ?? envInputGetter(env);
  const workspace = path.resolve(options.workspace ?? (env.GITHUB_WORKSPACE || process.cwd()));
  const problems: InputProblem[] = [];
  const fail = (input: string, value: string, expected: string): void => {
    problems.push({ input, value: SECRET_INPUTS.has(input) ? '***' : value, expected });
  };
  const raw = (name: string): string => {
    const value = getRaw(name).trim();
    if (value !== '') return value;
    return INPUT_DEFAULTS[name] ?? '';
  };
  const list = (name: string): string[] => splitList(raw(name));
  const bool = (name: string): boolean | undefined => {
    const value = raw(name);
    if (value === '') return undefined;
    const parsed = parseBoolean(value);
    if (parsed === undefined) fail(name, value, 'true or false');
    return parsed;
  };
  const boolWithDefault = (name: string): boolean =>
    bool(name) ?? parseBoolean(INPUT_DEFAULTS[name] ?? '') ?? false;
  const ids = (name: string): string[] => {
    const values = list(name);
    for (const value of values) {
      if (!ID_PATTERN.test(value)) fail(name, value, `ids of ${ID_FORM}, newline or comma separated`);
    }
    return unique(values);
  };
  const singleId = (name: string): string | undefined => {
    const value = raw(name);
    if (value === '') return undefined;
    if (!ID_PATTERN.test(value)) fail(name, value, `an id of ${ID_FORM}`);
    return value;
  };
  const integer = (name: string, min: number, max: number, unit: string): number | undefined => {
    const value = raw(name);
    if (value === '') return undefined;
    if (!/^\d+$/.test(value) || Number(value) < min || Number(value) > max) {
      fail(name, value, `an integer from ${min} to ${max}${unit ? ` (${unit})` : ''}`);
      return undefined;
    }
    return Number(value);
  };

  // Connection
  const apiKey = getRaw('api-key').trim();
  if (apiKey === '') fail('api-key', '', 'the Ghost Inspector API key (required)');
  else if (/\s/.test(apiKey)) fail('api-key', apiKey, 'an API key without spaces or line breaks');
  const secrets: string[] = apiKey ? [apiKey] : [];

  let apiBaseUrl = raw('api-base-url');
  if (!isHttpUrl(apiBaseUrl)) fail('api-base-url', apiBaseUrl, 'an http or https URL ending in /v1');
  else {
    apiBaseUrl = apiBaseUrl.replace(/\/+$/, '');
    if (!apiBaseUrl.endsWith('/v1')) fail('api-base-url', apiBaseUrl, 'an http or https URL ending in /v1');
  }
  const organizationId = singleId('organization-id') ?? null;

  // What to run, and where (start URLs apply to repository test files as they are loaded)
  const startUrls = unique(list('start-url'));
  for (const url of startUrls) {
    if (!isHttpUrl(url)) fail('start-url', url, 'http or https URLs');
    secrets.push(...urlCredentials(url));
  }
  const suiteIds = ids('suite-ids');
  const testIds = ids('test-ids');
  const folderIds = ids('folder-ids');
  const testFilePatterns = unique(
    raw('test-files')
      .split(/\r?\n/)
      .map((s) => s.trim())
      .filter((s) => s !== ''),
  );
  let repoTests: RepoTest[] = [];
  const notices: string[] = [];
  if (testFilePatterns.length > 0) {
    if (!organizationId) {
      fail(
        'organization-id',
        raw('organization-id'),
        'an organization id when test-files is set (on-demand runs)',
      );
    }
    for (const pattern of testFilePatterns) {
      if (path.isAbsolute(pattern) || pattern.split(/[\\/]/).includes('..')) {
        fail('test-files', pattern, 'glob patterns relative to the workspace, without ".."');
      }
    }
    if (!problems.some((p) => p.input === 'test-files')) {
      try {
        repoTests = await loadTestFiles(testFilePatterns, workspace, {
          startUrls: startUrls.filter(isHttpUrl),
          notice: (line) => notices.push(line),
        });
      } catch (error) {
        if (!(error instanceof TestFileError)) throw error;
        fail(
          'test-files',
          error.subject,
          `glob patterns matching native JSON tests (.json) or recorder files (.side): ${error.reason}`,
        );
      }
    }
  }
  if (suiteIds.length + testIds.length + folderIds.length + testFilePatterns.length === 0) {
    fail('suite-ids', '', 'at least one of suite-ids, test-ids, folder-ids or test-files');
  }

  // Execute parameters
  const execute: ActionInputs['execute'] = {};

  const browsers = unique(list('browser'));
  for (const b of browsers) {
    if (!BROWSER_PATTERN.test(b))
      fail('browser', b, 'chrome, chrome-<version>, firefox or firefox-<version>');
  }
  if (browsers.length > 0) execute.browser = browsers;

  const regions = unique(list('region'));
  for (const r of regions) {
    if (!(REGIONS as readonly string[]).includes(r)) fail('region', r, `one of ${REGIONS.join(', ')}`);
  }
  if (regions.length > 0) execute.region = regions;

  const viewports = unique(list('viewport'));
  for (const v of viewports) {
    if (!VIEWPORT_PATTERN.test(v)) fail('viewport', v, '<width>x<height> in pixels, e.g. 1280x800');
  }
  if (viewports.length > 0) execute.viewport = viewports;

  const userAgent = raw('user-agent');
  if (userAgent) {
    if (/[\r\n]/.test(userAgent)) fail('user-agent', userAgent, 'one line of text');
    execute.userAgent = userAgent;
  }
  const httpAuthUsername = raw('http-auth-username');
  const httpAuthPassword = getRaw('http-auth-password');
  if (httpAuthUsername) execute.httpAuthUsername = httpAuthUsername;
  if (httpAuthPassword !== '') {
    execute.httpAuthPassword = httpAuthPassword;
    secrets.push(httpAuthPassword);
    if (!httpAuthUsername) fail('http-auth-username', '', 'a user name when http-auth-password is set');
  }

  const dataSource = singleId('data-source');
  if (dataSource) execute.dataSource = dataSource;

  let dataFilePath: string | null = null;
  const dataFile = raw('data-file');
  if (dataFile) {
    dataFilePath = path.resolve(workspace, dataFile);
    const content = await readDataFile(dataFilePath);
    if (typeof content === 'string') {
      fail('data-file', dataFile, `the path of a readable CSV file relative to the workspace (${content})`);
    } else {
      execute.dataFile = { name: path.basename(dataFilePath), content };
    }
    if (dataSource) fail('data-file', dataFile, 'either data-file or data-source, not both');
    if (testFilePatterns.length > 0) {
      fail('data-file', dataFile, 'no data-file with test-files (the on-demand execute takes no data file)');
    }
  }
  const maxConcurrentDataRows = integer('max-concurrent-data-rows', 1, 1000, 'rows');
  if (maxConcurrentDataRows !== undefined) execute.maxConcurrentDataRows = maxConcurrentDataRows;

  const delay = integer('delay', 0, 300000, 'milliseconds');
  if (delay !== undefined) execute.delay = delay;

  const disableNotifications = bool('disable-notifications');
  if (disableNotifications !== undefined) execute.disableNotifications = disableNotifications;
  const disableVisuals = bool('disable-visuals');
  if (disableVisuals !== undefined) execute.disableVisuals = disableVisuals;
  const screenshotCompareEnabled = bool('screenshot-compare-enabled');
  if (screenshotCompareEnabled !== undefined) execute.screenshotCompareEnabled = screenshotCompareEnabled;

  const threshold = raw('screenshot-compare-threshold');
  if (threshold) {
    const n = Number(threshold);
    if (!/^(\d+\.?\d*|\.\d+)$/.test(threshold) || !(n >= 0 && n <= 1)) {
      fail('screenshot-compare-threshold', threshold, 'a number from 0.0 to 1.0');
    } else execute.screenshotCompareThreshold = n;
  }
  const baseline = singleId('screenshot-compare-baseline-result');
  if (baseline) execute.screenshotCompareBaselineResult = baseline;
  const exclusions = raw('screenshot-exclusions');
  if (exclusions) execute.screenshotExclusions = exclusions;
  const target = raw('screenshot-target');
  if (target) execute.screenshotTarget = target;

  const webhooks = unique(list('webhook'));
  for (const w of webhooks) {
    if (!isHttpUrl(w)) fail('webhook', w, 'http or https URLs');
    secrets.push(...urlCredentials(w));
  }
  if (webhooks.length > 0) execute.webhook = webhooks;

  const chatChannel = raw('chat-channel');
  if (chatChannel) {
    if (!/^#?[^\s#]+$/.test(chatChannel)) fail('chat-channel', chatChannel, 'a channel name without spaces');
    else execute.chatChannel = chatChannel.replace(/^#/, '');
  }

  // Variables
  const publicVars = parseVariables(getRaw('variables'), 'variables', fail);
  const privateVars = parseVariables(getRaw('private-variables'), 'private-variables', fail);
  for (const name of Object.keys(privateVars)) {
    if (Object.hasOwn(publicVars, name)) {
      // The name is not secret: say which one clashes (the value stays hidden).
      fail('private-variables', '***', `names not also listed in variables (${name} is in both)`);
    }
  }
  const privateVariableNames = Object.keys(privateVars);
  for (const value of Object.values(privateVars)) if (value !== '') secrets.push(value);
  const variables: Record<string, string> = Object.assign(
    Object.create(null) as object,
    publicVars,
    privateVars,
  );
  if (Object.keys(variables).length > 0) execute.variables = variables;

  // Waiting and verdict
  const wait = boolWithDefault('wait');
  const timeoutRaw = raw('timeout');
  const timeoutMinutes = Number(timeoutRaw);
  if (!/^\d+(\.\d+)?$/.test(timeoutRaw) || !(timeoutMinutes > 0) || timeoutMinutes > 24 * 60) {
    fail('timeout', timeoutRaw, 'a positive number of minutes (at most 1440)');
  }
  const cancelOnTimeout = boolWithDefault('cancel-on-timeout');
  const failOnScreenshotCompare = boolWithDefault('fail-on-screenshot-compare');
  const failOnTimeout = boolWithDefault('fail-on-timeout');
  const failOnEmpty = boolWithDefault('fail-on-empty');
  const retryFailed = integer('retry-failed', 0, 3, 'runs') ?? 0;

  // Reports and artifacts
  // An explicitly empty junit-path (the variable is set but empty) turns the JUnit file off.
  const junitRaw = getRaw('junit-path').trim();
  const junitOff = junitRaw === '' && options.getInput === undefined && env['INPUT_JUNIT-PATH'] !== undefined;
  const junitPath = junitOff
    ? null
    : path.resolve(workspace, junitRaw || (INPUT_DEFAULTS['junit-path'] as string));
  const summary = boolWithDefault('summary');
  const annotations = boolWithDefault('annotations');
  const prComment = boolWithDefault('pr-comment');
  let githubToken = getRaw('github-token').trim();
  if (githubToken === '' || githubToken.startsWith('${{')) githubToken = env.GITHUB_TOKEN ?? '';
  if (githubToken) secrets.push(githubToken);
  const screenshots = raw('screenshots');
  if (screenshots !== 'failed' && screenshots !== 'all' && screenshots !== 'none') {
    fail('screenshots', screenshots, 'failed, all or none');
  }
  const artifactName = raw('artifact-name');
  if (/[":<>|*?\r\n\\/]/.test(artifactName)) {
    fail('artifact-name', artifactName, 'a name without " : < > | * ? \\ / or line breaks');
  }
  const artifactRetentionDays = integer('artifact-retention-days', 1, 90, 'days') ?? null;
  const artifactsDir = path.resolve(workspace, raw('artifacts-dir'));
  const resultsPath = path.resolve(workspace, raw('results-path'));

  // Parameters that apply to tests only
  const hasTests = testIds.length > 0 || testFilePatterns.length > 0;
  if (!hasTests && webhooks.length > 0) {
    fail(
      'webhook',
      webhooks.join(','),
      'test-ids or test-files to apply to (suites take no webhook parameter)',
    );
  }
  if (!hasTests && baseline) {
    fail('screenshot-compare-baseline-result', baseline, 'test-ids or test-files to apply to (tests only)');
  }

  checkDistinctPaths(
    { 'results-path': resultsPath, 'junit-path': junitPath, 'artifacts-dir': artifactsDir },
    fail,
  );

  if (problems.length > 0) throw new InputError(problems);

  const warnings = shortSecretWarnings({
    'api-key': apiKey,
    'http-auth-password': httpAuthPassword,
    ...Object.fromEntries(
      Object.entries(privateVars).map(([name, value]) => [`private-variables ${name}`, value]),
    ),
  });

  return {
    apiKey,
    apiBaseUrl,
    organizationId,
    suiteIds,
    testIds,
    folderIds,
    testFilePatterns,
    repoTests,
    execute,
    startUrls,
    privateVariableNames,
    dataFilePath,
    wait,
    timeoutMs: Math.round(timeoutMinutes * 60_000),
    cancelOnTimeout,
    failOnScreenshotCompare,
    failOnTimeout,
    failOnEmpty,
    retryFailed,
    junitPath,
    summary,
    annotations,
    prComment,
    githubToken,
    screenshots: screenshots as ScreenshotSelection,
    artifactName,
    artifactRetentionDays,
    artifactsDir,
    resultsPath,
    workspace,
    secrets: unique(secrets),
    warnings,
    notices,
  };
}

/**
 * Output files given by two inputs must differ: one would overwrite the other. Reports one problem naming
 * both inputs.
 */
function checkDistinctPaths(
  paths: Record<string, string | null>,
  fail: (input: string, value: string, expected: string) => void,
): void {
  const seen = new Map<string, string>();
  for (const [input, file] of Object.entries(paths)) {
    if (file === null) continue;
    const other = seen.get(file);
    if (other !== undefined) fail(input, file, `a path different from ${other} (both name the same file)`);
    else seen.set(file, input);
  }
}

/**
 * One warning per secret value too short to be removed from free text (`MIN_REDACTED_LENGTH`), naming the
 * input (and variable), never the value.
 */
function shortSecretWarnings(values: Record<string, string>): string[] {
  const warnings: string[] = [];
  for (const [what, value] of Object.entries(values)) {
    if (value === '' || isRedactable(value)) continue;
    warnings.push(
      `${what}: the value is shorter than ${MIN_REDACTED_LENGTH} characters, too short to be removed from ` +
        'free text (error messages, step errors, console lines) without damaging other text. It is hidden ' +
        "in the results' variables and GitHub masks it in the log, but may appear elsewhere in reports. " +
        `Use a value of at least ${MIN_REDACTED_LENGTH} characters.`,
    );
  }
  return warnings;
}

/** The user-info of a URL and its decoded password, as secrets (empty when the URL carries none). */
function urlCredentials(value: string): string[] {
  try {
    const url = new URL(value);
    const out: string[] = [];
    if (url.password) out.push(url.password, decodeURIComponent(url.password));
    if (url.username && url.password) out.push(`${url.username}:${url.password}`);
    return out;
  } catch {
    return [];
  }
}

/** Splits a list input on newlines and commas; trims; drops empty entries. */
export function splitList(value: string): string[] {
  return value
    .split(/[\r\n,]+/)
    .map((s) => s.trim())
    .filter((s) => s !== '');
}

/** `true`/`True`/`TRUE` and `false`/`False`/`FALSE` (YAML 1.2 core schema, as `core.getBooleanInput`). */
export function parseBoolean(value: string): boolean | undefined {
  if (['true', 'True', 'TRUE'].includes(value)) return true;
  if (['false', 'False', 'FALSE'].includes(value)) return false;
  return undefined;
}

function unique(values: string[]): string[] {
  return [...new Set(values)];
}

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
}

/** Reads the data file; returns its bytes, or a short reason why not. */
async function readDataFile(file: string): Promise<Uint8Array | string> {
  try {
    const info = await stat(file);
    if (!info.isFile()) return 'not a file';
    await access(file, constants.R_OK);
    const content = await readFile(file);
    if (content.length === 0) return 'the file is empty';
    return new Uint8Array(content);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code === 'ENOENT' ? 'not found' : code === 'EACCES' ? 'not readable' : 'cannot be read';
  }
}

/**
 * Parses `NAME=VALUE` lines (blank lines and lines starting with `#` skipped; the value is everything after
 * the first `=`, untrimmed on the right only of line breaks) or a JSON object of names to strings or numbers.
 * Reports problems through `fail` (values of private variables are never shown).
 */
export function parseVariables(
  text: string,
  input: string,
  fail: (input: string, value: string, expected: string) => void,
): Record<string, string> {
  const result = Object.create(null) as Record<string, string>;
  const trimmed = text.trim();
  if (trimmed === '') return result;
  const secret = input === 'private-variables';
  const checkName = (name: string, shown: string): boolean => {
    if (!VARIABLE_NAME_PATTERN.test(name)) {
      fail(input, shown, 'variable names of letters, digits and underscores, not starting with a digit');
      return false;
    }
    if (RESERVED_VARIABLE_NAMES.has(name)) {
      fail(input, shown, `a variable name that is not an execute parameter (${name} is reserved)`);
      return false;
    }
    if (Object.hasOwn(result, name)) {
      fail(input, shown, `each variable name once (${name} repeats)`);
      return false;
    }
    return true;
  };
  if (trimmed.startsWith('{')) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(trimmed);
    } catch {
      fail(input, secret ? '***' : trimmed, 'NAME=VALUE lines or a JSON object (the JSON does not parse)');
      return result;
    }
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) {
      fail(input, secret ? '***' : trimmed, 'NAME=VALUE lines or a JSON object');
      return result;
    }
    for (const [name, value] of Object.entries(parsed as Record<string, unknown>)) {
      if (!checkName(name, name)) continue;
      if (typeof value === 'string') result[name] = value;
      else if (typeof value === 'number' && Number.isFinite(value)) result[name] = String(value);
      else fail(input, name, `a string or number value for ${name}`);
    }
    return result;
  }
  for (const line of text.split(/\r?\n/)) {
    const l = line.trim();
    if (l === '' || l.startsWith('#')) continue;
    const eq = l.indexOf('=');
    if (eq <= 0) {
      fail(input, secret ? '***' : l, 'NAME=VALUE lines or a JSON object');
      continue;
    }
    const name = l.slice(0, eq).trim();
    if (!checkName(name, name)) continue;
    result[name] = l.slice(eq + 1).trim();
  }
  return result;
}
