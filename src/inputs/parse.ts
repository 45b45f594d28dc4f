/**
 * Pure parsing and validation of the raw input strings (docs/api-contract.md, "Execute parameters"): every
 * problem is collected, so that all of them are reported together. An input left out reads as its action.yml
 * default; one given empty too, but for the three where empty has a meaning of its own (docs/api-contract.md,
 * "Runtime").
 */
import path from 'node:path';
import { isRedactable, MIN_REDACTED_LENGTH, redactUrl } from '../api/redact.js';
import {
  ID_FORM,
  ID_PATTERN,
  SECRET_INPUTS,
  type ActionInputs,
  type InputProblem,
  type ResultRef,
} from './schema.js';

/** Records one problem: the input, its value (masked for secret inputs) and the expected form. */
export type Fail = (input: string, value: string, expected: string) => void;

/** The spellings of `core.getBooleanInput` (YAML 1.2 core schema). */
const BOOLEANS = new Set(['true', 'True', 'TRUE', 'false', 'False', 'FALSE']);

/** Inputs whose empty value means something (no JUnit file, the `GITHUB_TOKEN` variable, no labels). */
const EMPTY_HAS_MEANING = new Set(['junit-path', 'github-token', 'failure-issue-labels']);

/** What a valid value matches, or a test of it. */
type Valid = RegExp | ((value: string) => boolean);

function isValid(value: string, valid: Valid): boolean {
  return typeof valid === 'function' ? valid(value) : valid.test(value);
}

/** Typed access to the raw inputs; a value of the wrong form (empty included) records a problem. */
export class InputReader {
  readonly problems: InputProblem[] = [];
  readonly fail: Fail = (input, value, expected) => {
    // An empty secret reads as empty; URL credentials are never shown either (a start URL with user-info).
    const shown = SECRET_INPUTS.has(input) && value !== '' ? '***' : redactUrl(value);
    this.problems.push({ input, value: shown, expected });
  };

  /**
   * @param env `INPUT_<NAME>` (upper case, spaces as underscores), as `@actions/core` reads inputs
   * @param defaults action.yml's defaults by input name (`action-defaults.ts`)
   */
  constructor(
    private readonly env: NodeJS.ProcessEnv,
    private readonly defaults: Record<string, string> = {},
  ) {}

  /**
   * The value without surrounding white space. Left out (no `INPUT_<NAME>`): its default. Given empty: its
   * default too, but `''` for junit-path, github-token and failure-issue-labels, where empty means something.
   */
  text(name: string): string {
    const given = this.env[`INPUT_${name.replace(/ /g, '_').toUpperCase()}`];
    const value = (given ?? '').trim();
    const emptyMeans = given !== undefined && EMPTY_HAS_MEANING.has(name);
    return value !== '' || emptyMeans ? value : (this.defaults[name] ?? '');
  }

  /** The value; a problem unless `valid` accepts it. */
  checked(name: string, valid: Valid, expected: string): string {
    const value = this.text(name);
    if (!isValid(value, valid)) this.fail(name, value, expected);
    return value;
  }

  /** A list (split at newlines and commas, or `separator`), without duplicates; `valid` checks each value. */
  list(name: string, valid: Valid = /.?/, expected = '', separator = /[\r\n,]+/): string[] {
    const values = [...new Set(splitList(this.text(name), separator))];
    for (const value of values) if (!isValid(value, valid)) this.fail(name, value, expected);
    return values;
  }

  bool(name: string): boolean {
    return this.checked(name, (v) => BOOLEANS.has(v), 'true or false').toLowerCase() === 'true';
  }

  ids(name: string): string[] {
    return this.list(name, ID_PATTERN, `ids of ${ID_FORM}, newline or comma separated`);
  }

  id(name: string): string {
    return this.checked(name, ID_PATTERN, `an id of ${ID_FORM}`);
  }

  integer(name: string, min: number, max: number, unit: string): number {
    const expected = `an integer from ${min} to ${max} (${unit})`;
    return Number(this.checked(name, (v) => /^\d+$/.test(v) && +v >= min && +v <= max, expected));
  }

  /** A path relative to `workspace`, made absolute. */
  path(name: string, workspace: string): string {
    return path.resolve(
      workspace,
      this.checked(name, (v) => v !== '', 'a path relative to the workspace'),
    );
  }
}

export function splitList(value: string, separator = /[\r\n,]+/): string[] {
  return value
    .split(separator)
    .map((s) => s.trim())
    .filter((s) => s !== '');
}

export function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
}

/** Start URLs may begin with a custom variable (`{{ngrokUrl}}/checkout`), filled in by the service. */
/** `{{name}}` at the start of a start URL, the rest of it after the name. */
const VARIABLE_URL = /^\{\{([A-Za-z_][A-Za-z0-9_]*)\}\}(.*)$/s;

/** True for a start URL that begins with a `{{name}}` variable followed by a path, query or nothing. */
function isVariableStartUrl(value: string): boolean {
  const rest = VARIABLE_URL.exec(value)?.[2];
  return rest !== undefined && /^([/?#]\S*)?$/.test(rest);
}

/** The variable a start URL begins with (`{{name}}…`), else null. */
export function startUrlVariable(value: string): string | null {
  return VARIABLE_URL.exec(value)?.[1] ?? null;
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

/** Connection inputs: `api-key`, `api-base-url`, `organization-id`. */
export function parseConnection(r: InputReader) {
  const apiKey = r.text('api-key');
  if (apiKey === '') r.fail('api-key', '', 'the Ghost Inspector API key (required)');
  else if (/\s/.test(apiKey)) r.fail('api-key', apiKey, 'an API key without spaces or line breaks');
  const apiBaseUrl = r.checked(
    'api-base-url',
    (v) => isHttpUrl(v) && /\/v1\/*$/.test(v),
    'an http or https URL ending in /v1',
  );
  return {
    apiKey,
    apiBaseUrl: apiBaseUrl.replace(/\/+$/, ''),
    organizationId: r.text('organization-id') ? r.id('organization-id') : null,
  };
}

/** What to run and where: start URLs, suite, test and folder ids, test-file patterns (not yet loaded). */
export function parseTargets(r: InputReader, organizationId: string | null) {
  const startUrls = r.list(
    'start-url',
    (url) => isHttpUrl(url) || isVariableStartUrl(url),
    'http or https URLs, or {{name}}/path with a variable such as {{ngrokUrl}}',
  );
  const suiteIds = r.ids('suite-ids');
  const testIds = r.ids('test-ids');
  const folderIds = r.ids('folder-ids');
  // One glob per line: a comma belongs to the glob ({a,b}).
  const testFilePatterns = r.list(
    'test-files',
    (pattern) => !path.isAbsolute(pattern) && !pattern.split(/[\\/]/).includes('..'),
    'glob patterns relative to the workspace, without ".."',
    /\r?\n/,
  );
  if (testFilePatterns.length > 0 && !organizationId) {
    r.fail(
      'organization-id',
      r.text('organization-id'),
      'an organization id when test-files is set (on-demand runs)',
    );
  }
  return { startUrls, suiteIds, testIds, folderIds, testFilePatterns };
}

/** `result-ids`: `suite-result:<id>`, `test-result:<id>` or a bare id; only with `wait: true`. */
export function parseResultIds(r: InputReader, wait: boolean): ResultRef[] {
  const refs = r.list('result-ids').map((entry): ResultRef => {
    const match = /^(suite|test)-result:(.*)$/.exec(entry);
    return match ? { type: match[1] as 'suite' | 'test', id: match[2] ?? '' } : { type: null, id: entry };
  });
  for (const ref of refs) {
    if (!ID_PATTERN.test(ref.id)) {
      r.fail(
        'result-ids',
        ref.id,
        `result ids of ${ID_FORM}, each optionally after suite-result: or test-result:`,
      );
    }
  }
  if (refs.length > 0 && !wait) r.fail('wait', 'false', 'true when result-ids is set (they are waited for)');
  return refs;
}

/** Waiting and verdict: `wait`, `timeout-minutes` (returned in ms), cancel and fail policies, retries. */
export function parseWaiting(r: InputReader) {
  const timeoutMinutes = Number(
    r.checked(
      'timeout-minutes',
      (v) => /^\d+(\.\d+)?$/.test(v) && +v > 0 && +v <= 24 * 60,
      'a positive number of minutes (at most 1440)',
    ),
  );
  return {
    wait: r.bool('wait'),
    timeoutMs: Math.round(timeoutMinutes * 60_000),
    cancelOnTimeout: r.bool('cancel-on-timeout'),
    cancelResultIds: r.bool('cancel-result-ids'),
    failOnScreenshotCompare: r.bool('fail-on-screenshot-compare'),
    failOnTimeout: r.bool('fail-on-timeout'),
    failOnEmpty: r.bool('fail-on-empty'),
    retryFailed: r.integer('retry-failed', 0, 3, 'runs'),
    failFast: r.bool('fail-fast'),
    ...parseNotify(r),
  };
}

/** `notify` and `notify-url` (docs/architecture.md, "Push"): push needs the listener's public URL with its port. */
function parseNotify(r: InputReader) {
  const notify = r.checked('notify', /^(poll|push|auto)$/, 'poll, push or auto') as ActionInputs['notify'];
  const url = r.checked(
    'notify-url',
    (v) => v === '' || (isHttpUrl(v) && new URL(v).port !== '' && !/[?#]/.test(v)),
    'an http or https URL with an explicit port and no query (e.g. http://runner.example.com:8931)',
  );
  if (notify === 'push' && url === '')
    r.fail('notify-url', '', 'the public URL of this runner when notify is push');
  return { notify, notifyUrl: url || null };
}

/**
 * Reports and artifacts: paths (absolute; `junit-path` empty: no JUnit file), switches, screenshots, the
 * GitHub token (`envToken`, the workflow's `GITHUB_TOKEN`, when `github-token` is empty).
 */
export function parseReports(r: InputReader, workspace: string, envToken: string) {
  const junitPath = r.text('junit-path');
  return {
    junitPath: junitPath ? path.resolve(workspace, junitPath) : null,
    summary: r.bool('summary'),
    summaryTitle: r.checked('summary-title', /^[^\r\n]{1,100}$/, 'one line of 1 to 100 characters'),
    annotations: r.bool('annotations'),
    prComment: r.bool('pr-comment'),
    commentKey: r.text('comment-key'),
    failureIssue: r.bool('failure-issue'),
    failureIssueLabels: r.list('failure-issue-labels'),
    failureIssueEvents: events(r),
    failureIssueReopenDays: r.integer('failure-issue-reopen-days', 0, 365, 'days'),
    failureIssueAssignees: r.list(
      'failure-issue-assignees',
      /^[A-Za-z0-9][A-Za-z0-9-]{0,38}$/,
      'GitHub logins',
    ),
    githubToken: r.text('github-token') || envToken,
    screenshots: r.checked(
      'screenshots',
      /^(failed|all|none)$/,
      'failed, all or none',
    ) as ActionInputs['screenshots'],
    artifactName: r.checked(
      'artifact-name',
      /^[^":<>|*?\r\n\\/]*$/,
      'a name without " : < > | * ? \\ / or line breaks',
    ),
    artifactRetentionDays: r.text('artifact-retention-days')
      ? r.integer('artifact-retention-days', 1, 90, 'days')
      : null,
    artifactsDir: r.path('artifacts-dir', workspace),
    resultsPath: r.path('results-path', workspace),
  };
}

/** `failure-issue-events`: event names, at least one. */
function events(r: InputReader): string[] {
  const expected = 'event names such as schedule, workflow_dispatch, push, newline or comma separated';
  const names = r.list('failure-issue-events', /^[a-z_]+$/, expected);
  if (names.length === 0) r.fail('failure-issue-events', '', expected);
  return names;
}

/** Checks across inputs: test-only parameters need tests; two output files may not be the same. */
export function checkCombinations(r: InputReader, inputs: ActionInputs): void {
  const hasTests = inputs.testIds.length > 0 || inputs.testFilePatterns.length > 0;
  const { webhook, screenshotCompareBaselineResult: baseline } = inputs.execute;
  if (!hasTests && webhook !== undefined) {
    const expected = 'test-ids or test-files to apply to (suites take no webhook parameter)';
    r.fail('webhook', [webhook].flat().join(','), expected);
  }
  if (!hasTests && baseline) {
    r.fail('screenshot-compare-baseline-result', baseline, 'test-ids or test-files to apply to (tests only)');
  }
  const paths: Record<string, string | null> = {
    'results-path': inputs.resultsPath,
    'junit-path': inputs.junitPath,
    'artifacts-dir': inputs.artifactsDir,
  };
  const seen = new Map<string, string>();
  for (const [input, file] of Object.entries(paths)) {
    if (file === null) continue;
    const other = seen.get(file);
    if (other !== undefined) r.fail(input, file, `a path different from ${other} (both name the same file)`);
    else seen.set(file, input);
  }
}

/** Every secret value to mask and redact: keys, passwords, tokens, private variables, URL credentials. */
export function collectSecrets(
  inputs: Omit<ActionInputs, 'secrets' | 'warnings' | 'notices'>,
  privateValues: string[],
): string[] {
  const { execute } = inputs;
  const webhooks = execute.webhook === undefined ? [] : [execute.webhook].flat();
  const secrets = [
    inputs.apiKey,
    ...inputs.startUrls.flatMap(urlCredentials),
    ...(inputs.tunnel ? urlCredentials(inputs.tunnel.address) : []),
    execute.httpAuthPassword ?? '',
    ...webhooks.flatMap(urlCredentials),
    ...privateValues,
    inputs.githubToken,
    inputs.tunnel?.authtoken ?? '',
  ];
  return [...new Set(secrets.filter((s) => s !== ''))];
}

/** One warning per secret given too short to be removed from free text, naming the input, never the value. */
export function shortSecretWarnings(values: Record<string, string | undefined>): string[] {
  const warnings: string[] = [];
  for (const [what, value] of Object.entries(values)) {
    if (!value || isRedactable(value)) continue;
    warnings.push(
      `${what}: the value is shorter than ${MIN_REDACTED_LENGTH} characters, too short to be removed from ` +
        'free text (error messages, step errors, console lines) without damaging other text. It is hidden ' +
        "in the results' variables and GitHub masks it in the log, but may appear elsewhere in reports. " +
        `Use a value of at least ${MIN_REDACTED_LENGTH} characters.`,
    );
  }
  return warnings;
}
