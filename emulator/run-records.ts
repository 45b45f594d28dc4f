/**
 * The records of one execute (docs/api-contract.md, "Resources", "Suite result"; docs/api-contract.md): which runs an execute
 * makes (variants x data rows), the data rows, and new test results and suite results in the running
 * condition with their effective settings.
 */
import { randomUUID } from 'node:crypto';
import type { Step, StepTarget, Variable } from './api-types.js';
import type { RunRequest } from './executors/types.js';
import { resultBrowser, type ExecuteParams } from './params.js';
import type { ApiKeyRecord, Store, SuiteRecord, SuiteResult, TestRecord, TestResult } from './store.js';
import { invalid, iso, maskedVariables, substitute } from './util.js';
import type { EmulatorClock } from './clock.js';
import type { SourcedStep } from './modules.js';

/** A test to run with its effective settings (stored test or on-demand definition). */
export interface PlannedTest {
  test: TestRecord;
  /** The steps the run executes: imports expanded, each with its source (`modules.ts`). */
  steps: SourcedStep[];
  stored: boolean;
  suite: SuiteRecord | undefined;
  browser?: string;
  region?: string;
  viewport?: { width: number; height: number };
  dataRow?: Record<string, string | number>;
  suiteResultId: string | null;
}

export function substituteTarget(
  target: StepTarget,
  variables: Record<string, string>,
  unknown: 'keep' | 'empty' = 'keep',
): StepTarget {
  return typeof target === 'string'
    ? substitute(target, variables, unknown)
    : target.map((t) => ({ ...t, selector: substitute(t.selector, variables, unknown) }));
}

/** Variants of one execute: browsers x regions x viewports. */
export function variants(params: ExecuteParams): Array<Pick<PlannedTest, 'browser' | 'region' | 'viewport'>> {
  const browsers = params.browsers.length ? params.browsers : [undefined];
  const regions = params.regions.length ? params.regions : [undefined];
  const viewports = params.viewports.length ? params.viewports : [undefined];
  const out: Array<Pick<PlannedTest, 'browser' | 'region' | 'viewport'>> = [];
  for (const browser of browsers)
    for (const region of regions) for (const viewport of viewports) out.push({ browser, region, viewport });
  return out;
}

/** Data rows of an execute: the uploaded data file, else the data source (parameter, test, suite). */
export function dataRows(
  store: Store,
  key: ApiKeyRecord,
  orgId: string,
  params: ExecuteParams,
  fallbackDataSource: string | null,
): Array<Record<string, string | number>> | undefined {
  if (params.dataFileRows) return params.dataFileRows;
  const id = params.dataSource ?? fallbackDataSource;
  if (!id) return undefined;
  const source = store.dataSources.get(id);
  if (!source || source.organization !== orgId || !key.organizations.includes(orgId))
    invalid(`dataSource not found: ${id}`);
  if (source.data.length === 0) invalid(`dataSource ${id} has no rows`);
  return source.data;
}

/** Refuses a `screenshotCompareBaselineResult` that is not a completed result of the key's organizations. */
export function checkBaseline(store: Store, key: ApiKeyRecord, params: ExecuteParams): void {
  const id = params.screenshotCompareBaselineResult;
  if (id === undefined) return;
  const result = store.results.get(id);
  if (!result || !key.organizations.includes(result.organization) || typeof result.passing !== 'boolean') {
    invalid(`screenshotCompareBaselineResult must be a completed test result of the organization: ${id}`);
  }
}

/** Suite variables under a run's own variables (data row, custom), as `{{name}}` substitution reads them. */
function mergedVariables(suiteVariables: Variable[], own: Record<string, string | number>) {
  const out: Record<string, string> = {};
  for (const v of suiteVariables) out[v.name] = v.value;
  for (const [k, v] of Object.entries(own)) out[k] = String(v);
  return out;
}

/**
 * A new test result in the running condition for `plan` (docs/api-contract.md, "Resources"): effective settings (execute
 * parameter, else test, else suite, else default), `{{name}}` substituted into the start URL and the steps'
 * values and targets (suite variables, data row, custom variables; unknown names kept, "" in on-demand runs),
 * `error` and `video` null.
 */
export function newTestResult(
  store: Store,
  key: ApiKeyRecord,
  plan: PlannedTest,
  params: ExecuteParams,
  now: number,
): TestResult {
  const { test, suite } = plan;
  const id = store.newId();
  const user = store.userOf(key);
  const pick = <T>(p: T | undefined, t: T | null | undefined, s: T | undefined, d: T): T =>
    p !== undefined ? p : t !== null && t !== undefined ? t : s !== undefined ? s : d;
  const compareEnabled = pick(
    params.screenshotCompareEnabled,
    test.screenshotCompareEnabled,
    suite?.screenshotCompareEnabled,
    false,
  );
  const threshold =
    params.screenshotCompareThreshold ??
    (test.screenshotCompareEnabled !== null || !suite
      ? test.screenshotCompareThreshold
      : suite.screenshotCompareThreshold);
  const region = plan.region ?? test.region ?? suite?.region ?? 'us-east-1';
  const variables: Record<string, string | number> = { ...(plan.dataRow ?? {}), ...params.variables };
  const known = mergedVariables(suite?.variables ?? [], variables);
  // Result steps are read back: a private suite variable shows masked there (the executor gets its value).
  const shown = mergedVariables(maskedVariables(suite?.variables ?? []), variables);
  const unknown = plan.stored ? 'keep' : 'empty';
  const steps: Step[] = plan.steps.map(({ step: s, source }, i) => ({
    _id: store.newId(),
    sequence: i,
    command: s.command,
    target: substituteTarget(s.target, shown, unknown),
    value: substitute(s.value, shown, unknown),
    variableName: s.variableName,
    condition: s.condition,
    optional: s.optional,
    private: s.private,
    notes: s.notes ?? '',
    passing: null,
    extra: { source: { ...source } },
  }));
  const result: TestResult = {
    _id: id,
    uuid: randomUUID(),
    name: test.name,
    test: plan.stored
      ? { _id: test._id, name: test.name, organization: test.organization, suite: test.suite }
      : null,
    suiteResult: plan.suiteResultId,
    organization: test.organization,
    user: { _id: user._id, name: `${user.firstName} ${user.lastName}`.trim() },
    browser: resultBrowser(plan.browser ?? test.browser ?? suite?.browser ?? 'chrome'),
    region,
    language: test.language ?? suite?.language ?? null,
    startUrl: substitute(params.startUrl ?? (test.startUrl || suite?.startUrl || ''), known, unknown),
    endUrl: '',
    urls: [],
    steps,
    passing: null,
    autoRetry: test.autoRetry ?? suite?.autoRetry ?? false,
    autoRetryTriggered: false,
    commentCount: 0,
    comments: [],
    console: [],
    dateCreated: iso(now),
    dateExecutionStarted: iso(now),
    executionHost: `emulator.${region}`,
    executionTime: null,
    disableVisuals: pick(params.disableVisuals, test.disableVisuals, suite?.disableVisuals, false),
    disallowInsecureCertificates:
      test.disallowInsecureCertificates ?? suite?.disallowInsecureCertificates ?? false,
    failOnJavaScriptError: test.failOnJavaScriptError ?? suite?.failOnJavaScriptError ?? false,
    finalDelay: test.finalDelay ?? suite?.finalDelay ?? 0,
    globalStepDelay: test.globalStepDelay ?? suite?.globalStepDelay ?? 250,
    maxAjaxDelay: test.maxAjaxDelay ?? suite?.maxAjaxDelay ?? 10000,
    maxWaitDelay: test.maxWaitDelay ?? suite?.maxWaitDelay ?? 15000,
    filters: [],
    extractions: {},
    screenshotCompareBaselineResult: params.screenshotCompareBaselineResult ?? null,
    screenshotCompareDifference: null,
    screenshotCompareEnabled: compareEnabled,
    screenshotComparePassing: null,
    screenshotCompareThreshold: threshold,
    screenshotExclusions: runSetting(plan, params, 'screenshotExclusions'),
    screenshotTarget: runSetting(plan, params, 'screenshotTarget'),
    userAgent: runSetting(plan, params, 'userAgent'),
    variables,
    error: null,
    video: null,
    viewportSize: plan.viewport ?? test.viewportSize ?? suite?.viewportSize ?? { height: 768, width: 1024 },
  };
  return result;
}

/**
 * A run's `userAgent`, `screenshotTarget` or `screenshotExclusions`: the execute parameter, else the test's
 * setting, else the suite's; '' when none is set (the empty string is "unset" in stored settings).
 */
function runSetting(
  plan: PlannedTest,
  params: ExecuteParams,
  name: 'userAgent' | 'screenshotTarget' | 'screenshotExclusions',
): string {
  return params[name] ?? (plan.test[name] || plan.suite?.[name] || '');
}

/** A new suite result in the running condition (docs/api-contract.md, "Resources"), counts all unknown. */
export function newSuiteResult(
  store: Store,
  key: ApiKeyRecord,
  suite: SuiteRecord,
  params: ExecuteParams,
  testCount: number,
  now: number,
): SuiteResult {
  const user = store.userOf(key);
  return {
    _id: store.newId(),
    name: suite.name,
    passing: null,
    screenshotComparePassing: null,
    startUrl: substitute(params.startUrl ?? suite.startUrl, {
      ...Object.fromEntries(maskedVariables(suite.variables).map((v) => [v.name, v.value])),
      ...Object.fromEntries(Object.entries(params.variables).map(([k, v]) => [k, String(v)])),
    }),
    commentCount: 0,
    comments: [],
    countPassing: 0,
    countFailing: 0,
    countUnknown: testCount,
    countScreenshotComparePassing: 0,
    countScreenshotCompareFailing: 0,
    countScreenshotCompareUnknown: testCount,
    dateCreated: iso(now),
    dateExecutionStarted: iso(now),
    executionTime: null,
    suite: { _id: suite._id, name: suite.name, organization: suite.organization },
    user: { _id: user._id, name: `${user.firstName} ${user.lastName}`.trim() },
  };
}

/** The moment a run ended, kept for tests (`GET /_emulator/runs`). Times are epoch ms. */
export interface FinishRecord {
  kind: 'test-result' | 'suite-result';
  /** Test result id (kind test-result) or suite result id (kind suite-result). */
  resultId: string;
  suiteResultId: string | null;
  testId: string | null;
  suiteId: string | null;
  condition: 'finished' | 'cancelled';
  passing: boolean | null;
  createdAt: number;
  finishedAt: number;
}

/**
 * The executor's request for one run: the stored steps (the executor substitutes variables itself), the
 * result's effective settings, and suite variables merged under the result's variables.
 */
export function runRequest(
  plan: PlannedTest,
  result: TestResult,
  params: ExecuteParams,
  run: {
    testId: string | null;
    signal: AbortSignal;
    limitMs: number;
    timeScale: number;
    clock: EmulatorClock;
  },
): RunRequest {
  const variables: Record<string, string> = {};
  for (const v of plan.suite?.variables ?? []) variables[v.name] = v.value;
  for (const [k, v] of Object.entries(result.variables)) variables[k] = String(v);
  return {
    testName: plan.test.name,
    testId: run.testId,
    steps: plan.steps.map((s) => s.step),
    startUrl: result.startUrl,
    viewport: result.viewportSize,
    userAgent: result.userAgent || undefined,
    httpAuth: params.httpAuth ?? storedHttpAuth(plan),
    variables,
    globalStepDelay: result.globalStepDelay,
    maxWaitDelay: result.maxWaitDelay,
    maxAjaxDelay: result.maxAjaxDelay,
    finalDelay: result.finalDelay,
    failOnJavaScriptError: result.failOnJavaScriptError,
    runTimeLimitMs: run.limitMs,
    screenshotExclusions: result.screenshotExclusions || undefined,
    screenshotTarget: result.screenshotTarget || undefined,
    disableVisuals: result.disableVisuals,
    signal: run.signal,
    timeScale: run.timeScale,
    clock: run.clock,
  };
}

/** The test's HTTP authentication, else the suite's; undefined when neither sets a username. */
function storedHttpAuth(plan: PlannedTest): { username: string; password: string } | undefined {
  const { test, suite } = plan;
  if (test.httpAuthUsername)
    return { username: test.httpAuthUsername, password: test.httpAuthPassword ?? '' };
  if (suite?.httpAuthUsername) return { username: suite.httpAuthUsername, password: suite.httpAuthPassword };
  return undefined;
}
