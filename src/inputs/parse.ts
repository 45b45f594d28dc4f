/**
 * Pure parsing and validation of the raw input strings (docs/api-contract.md, "Execute parameters"): every
 * problem is collected, so that all of them are reported together.
 */
import path from 'node:path';
import { isVariableStartUrl } from './start-url.js';
import { isRedactable, MIN_REDACTED_LENGTH, redactUrl } from '../api/redact.js';
import {
  ID_FORM,
  ID_PATTERN,
  INPUT_DEFAULTS,
  SECRET_INPUTS,
  type ActionInputs,
  type InputGetter,
  type InputProblem,
  type ResultRef,
} from './schema.js';

/** Records one problem: the input, its value (masked for secret inputs) and the expected form. */
export type Fail = (input: string, value: string, expected: string) => void;

/** Typed access to the raw inputs with defaults; a value of the wrong form records a problem. */
export class InputReader {
  readonly problems: InputProblem[] = [];
  readonly fail: Fail = (input, value, expected) => {
    // An empty secret reads as empty; URL credentials are never shown either (a start URL with user-info).
    const shown = SECRET_INPUTS.has(input) && value !== '' ? '***' : redactUrl(value);
    this.problems.push({ input, value: shown, expected });
  };

  constructor(readonly getRaw: InputGetter) {}

  raw(name: string): string {
    const value = this.getRaw(name).trim();
    return value !== '' ? value : (INPUT_DEFAULTS[name] ?? '');
  }

  /** A list input (newlines and commas), without duplicates. */
  list(name: string): string[] {
    return unique(splitList(this.raw(name)));
  }

  bool(name: string): boolean | undefined {
    const value = this.raw(name);
    if (value === '') return undefined;
    const parsed = parseBoolean(value);
    if (parsed === undefined) this.fail(name, value, 'true or false');
    return parsed;
  }

  boolWithDefault(name: string): boolean {
    return this.bool(name) ?? parseBoolean(INPUT_DEFAULTS[name] ?? '') ?? false;
  }

  ids(name: string): string[] {
    const values = this.list(name);
    for (const value of values) {
      if (!ID_PATTERN.test(value)) this.fail(name, value, `ids of ${ID_FORM}, newline or comma separated`);
    }
    return values;
  }

  singleId(name: string): string | undefined {
    const value = this.raw(name);
    if (value === '') return undefined;
    if (!ID_PATTERN.test(value)) this.fail(name, value, `an id of ${ID_FORM}`);
    return value;
  }

  integer(name: string, min: number, max: number, unit: string): number | undefined {
    const value = this.raw(name);
    if (value === '') return undefined;
    if (!/^\d+$/.test(value) || Number(value) < min || Number(value) > max) {
      this.fail(name, value, `an integer from ${min} to ${max}${unit ? ` (${unit})` : ''}`);
      return undefined;
    }
    return Number(value);
  }
}

export function splitList(value: string): string[] {
  return value
    .split(/[\r\n,]+/)
    .map((s) => s.trim())
    .filter((s) => s !== '');
}

/** `true`/`True`/`TRUE` and `false`/`False`/`FALSE` (YAML 1.2 core schema, as `core.getBooleanInput`). */
function parseBoolean(value: string): boolean | undefined {
  if (['true', 'True', 'TRUE'].includes(value)) return true;
  if (['false', 'False', 'FALSE'].includes(value)) return false;
  return undefined;
}

function unique(values: string[]): string[] {
  return [...new Set(values)];
}

export function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
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
  const apiKey = r.getRaw('api-key').trim();
  if (apiKey === '') r.fail('api-key', '', 'the Ghost Inspector API key (required)');
  else if (/\s/.test(apiKey)) r.fail('api-key', apiKey, 'an API key without spaces or line breaks');
  let apiBaseUrl = r.raw('api-base-url');
  const expected = 'an http or https URL ending in /v1';
  if (!isHttpUrl(apiBaseUrl)) r.fail('api-base-url', apiBaseUrl, expected);
  else {
    apiBaseUrl = apiBaseUrl.replace(/\/+$/, '');
    if (!apiBaseUrl.endsWith('/v1')) r.fail('api-base-url', apiBaseUrl, expected);
  }
  return { apiKey, apiBaseUrl, organizationId: r.singleId('organization-id') ?? null };
}

/** What to run and where: start URLs, suite, test and folder ids, test-file patterns (not yet loaded). */
export function parseTargets(r: InputReader, organizationId: string | null) {
  const startUrls = r.list('start-url');
  for (const url of startUrls) {
    if (!isHttpUrl(url) && !isVariableStartUrl(url)) {
      r.fail('start-url', url, 'http or https URLs, or {{name}}/path with a variable such as {{ngrokUrl}}');
    }
  }
  const suiteIds = r.ids('suite-ids');
  const testIds = r.ids('test-ids');
  const folderIds = r.ids('folder-ids');
  const testFilePatterns = unique(
    r
      .raw('test-files')
      .split(/\r?\n/)
      .map((s) => s.trim())
      .filter((s) => s !== ''),
  );
  if (testFilePatterns.length > 0 && !organizationId) {
    r.fail(
      'organization-id',
      r.raw('organization-id'),
      'an organization id when test-files is set (on-demand runs)',
    );
  }
  for (const pattern of testFilePatterns) {
    if (path.isAbsolute(pattern) || pattern.split(/[\\/]/).includes('..')) {
      r.fail('test-files', pattern, 'glob patterns relative to the workspace, without ".."');
    }
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
  const wait = r.boolWithDefault('wait');
  const timeout = r.raw('timeout-minutes');
  const timeoutMinutes = Number(timeout);
  if (!/^\d+(\.\d+)?$/.test(timeout) || !(timeoutMinutes > 0) || timeoutMinutes > 24 * 60) {
    r.fail('timeout-minutes', timeout, 'a positive number of minutes (at most 1440)');
  }
  return {
    wait,
    timeoutMs: Math.round(timeoutMinutes * 60_000),
    cancelOnTimeout: r.boolWithDefault('cancel-on-timeout'),
    cancelResultIds: r.boolWithDefault('cancel-result-ids'),
    failOnScreenshotCompare: r.boolWithDefault('fail-on-screenshot-compare'),
    failOnTimeout: r.boolWithDefault('fail-on-timeout'),
    failOnEmpty: r.boolWithDefault('fail-on-empty'),
    retryFailed: r.integer('retry-failed', 0, 3, 'runs') ?? 0,
    failFast: r.boolWithDefault('fail-fast'),
  };
}

export interface ReportContext {
  workspace: string;
  /** True when `junit-path` was set explicitly empty (the JUnit file is off). */
  junitOff: boolean;
  /** The workflow's token (`GITHUB_TOKEN`), used when `github-token` is empty or an unexpanded expression. */
  envToken: string;
}

/** Reports and artifacts: paths (absolute), switches, screenshots, the GitHub token. */
export function parseReports(r: InputReader, context: ReportContext) {
  const { workspace } = context;
  const junitRaw = r.getRaw('junit-path').trim();
  const junitPath = context.junitOff
    ? null
    : path.resolve(workspace, junitRaw || INPUT_DEFAULTS['junit-path']);
  const summary = r.boolWithDefault('summary');
  const summaryTitle = r.raw('summary-title');
  if (summaryTitle.length > 100 || /[\r\n]/.test(summaryTitle)) {
    r.fail('summary-title', summaryTitle, 'one line of at most 100 characters');
  }
  const annotations = r.boolWithDefault('annotations');
  const prComment = r.boolWithDefault('pr-comment');
  const commentKey = r.raw('comment-key').trim();
  let githubToken = r.getRaw('github-token').trim();
  if (githubToken === '' || githubToken.startsWith('${{')) githubToken = context.envToken;
  const screenshots = r.raw('screenshots');
  if (screenshots !== 'failed' && screenshots !== 'all' && screenshots !== 'none') {
    r.fail('screenshots', screenshots, 'failed, all or none');
  }
  const artifactName = r.raw('artifact-name');
  if (/[":<>|*?\r\n\\/]/.test(artifactName)) {
    r.fail('artifact-name', artifactName, 'a name without " : < > | * ? \\ / or line breaks');
  }
  const artifactRetentionDays = r.integer('artifact-retention-days', 1, 90, 'days') ?? null;
  const artifactsDir = path.resolve(workspace, r.raw('artifacts-dir'));
  const resultsPath = path.resolve(workspace, r.raw('results-path'));
  return {
    junitPath,
    summary,
    summaryTitle,
    annotations,
    prComment,
    commentKey,
    failureIssue: r.boolWithDefault('failure-issue'),
    failureIssueLabels: r.list('failure-issue-labels'),
    githubToken,
    screenshots: screenshots as ActionInputs['screenshots'],
    artifactName,
    artifactRetentionDays,
    artifactsDir,
    resultsPath,
  };
}

/** Checks across inputs: test-only parameters need tests; two output files may not be the same. */
export function checkCombinations(r: InputReader, inputs: ActionInputs): void {
  const hasTests = inputs.testIds.length > 0 || inputs.testFilePatterns.length > 0;
  const { webhook, screenshotCompareBaselineResult: baseline } = inputs.execute;
  if (!hasTests && webhook !== undefined) {
    const list = Array.isArray(webhook) ? webhook : [webhook];
    r.fail(
      'webhook',
      list.join(','),
      'test-ids or test-files to apply to (suites take no webhook parameter)',
    );
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
  return unique(secrets.filter((s) => s !== ''));
}

/** One warning per secret too short to be removed from free text, naming the input, never the value. */
export function shortSecretWarnings(values: Record<string, string>): string[] {
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
