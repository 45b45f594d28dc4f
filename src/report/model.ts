/**
 * The report model: one normalized picture of a run, built once from the run model (`run/types.ts`) and
 * the service's resources (`api/types.ts`), and read by every renderer (JUnit, job summary, annotations,
 * results.json, pull-request comment). Building is pure; renderers are pure functions of a {@link Report}.
 *
 * Service text in the model is already cleaned ({@link cleanText}: no XML-invalid characters), URLs carry
 * no password, and private step values are masked. Durations are milliseconds, dates ISO 8601 strings.
 */
import { refId, refName } from '../api/refs.js';
import type { ConsoleEntry, Step, StepTarget, TestResult } from '../api/types.js';
import type { RunKind, RunSummary, SuiteRun, TestRun, TestState, Variant } from '../run/types.js';
import { cleanText, redactUrl } from './text.js';
import type { Counts } from '../run/outcome.js';

/** What counts as a failure beyond failed tests (action inputs `fail-on-screenshot-compare`, `fail-on-timeout`). */
export interface ReportPolicy {
  /** A failed screenshot comparison fails the test (and the run). */
  failOnScreenshotCompare: boolean;
  /** A test still running at the deadline fails the run; otherwise it is a warning. */
  failOnTimeout: boolean;
}

/** Files downloaded for a test result, by test result id: paths relative to the workspace, or absolute. */
export type ReportAttachments = Map<string, { screenshot?: string; comparison?: string }>;

/** The outcome of one step in a test result. */
export type StepOutcome = 'passed' | 'failed' | 'failed-optional' | 'skipped' | 'not-run';

export interface ReportStep {
  /** Zero-based position (the service's `sequence`). */
  sequence: number;
  command: string;
  /** The target as one string; several selectors are joined with ` || `. */
  target: string;
  /** The step's value; `********` for a private step. */
  value: string;
  optional: boolean;
  outcome: StepOutcome;
  error?: string;
  /** Page URL when the step ran. */
  url?: string;
}

/** The first required step that failed: what a reviewer reads first. */
export interface FailingStep {
  sequence: number;
  command: string;
  target: string;
  error: string;
}

export interface ReportConsoleError {
  output: string;
  url: string;
  dateExecuted: string;
}

export interface ReportScreenshot {
  /** `screenshot.original.defaultUrl`. */
  originalUrl: string;
  /** `screenshot.small.defaultUrl` (a thumbnail), or the original when there is none. */
  smallUrl: string;
  /** Downloaded file (attachments). */
  path?: string;
}

export interface ReportScreenshotCompare {
  /** `screenshotCompareDifference` (0.0 to 1.0), null when unknown. */
  difference: number | null;
  /** `screenshotCompareThreshold` (0.0 to 1.0). */
  threshold: number;
  /** `screenshotComparePassing`: null while unknown (no baseline yet). */
  passing: boolean | null;
  /** The comparison image (`screenshotCompare.compareOriginal.defaultUrl`). */
  imageUrl?: string;
  /** Its thumbnail (`compareSmall`). */
  smallUrl?: string;
  /** `screenshotCompareBaselineResult`. */
  baselineResultId: string | null;
  /** Downloaded comparison image (attachments). */
  path?: string;
}

/** An earlier attempt of a test (re-run under `retry-failed`). */
export interface ReportAttempt {
  resultId: string;
  resultUrl: string;
  passing: boolean | null;
  durationMs: number | null;
  failingStep?: FailingStep;
  error?: string;
}

export interface ReportTest {
  /** Unique in the report: the test result id, or `<suite run key>#<index>` when there is no result. */
  key: string;
  resultId: string | null;
  testId: string | null;
  name: string;
  state: TestState;
  /**
   * True when this test makes the run fail: failed or error, timed out under `failOnTimeout`, a failed
   * screenshot comparison under `failOnScreenshotCompare`.
   */
  failing: boolean;
  /** Execution time in ms (the service's `executionTime`, else finish minus start); null when unknown. */
  durationMs: number | null;
  startedAt?: string;
  finishedAt?: string;
  failingStep?: FailingStep;
  /** Why the test failed or errored when no step says so (run error, `error.details`). */
  error?: string;
  steps: ReportStep[];
  consoleErrors: ReportConsoleError[];
  /** `${appUrl}/results/{id}`. */
  resultUrl?: string;
  startUrl?: string;
  endUrl?: string;
  videoUrl?: string;
  screenshot?: ReportScreenshot;
  screenshotCompare?: ReportScreenshotCompare;
  /** `screenshotComparePassing === false`. */
  screenshotCompareFailed: boolean;
  /** Earlier attempts, oldest first. */
  attempts: ReportAttempt[];
  browser?: string;
  region?: string;
  viewport?: string;
}

/** The verdict's counts (`run/outcome.ts`), for one suite run or the whole report, plus a duration. */
export interface ReportTotals extends Counts {
  /** Sum of test durations (ms) for a suite run; wall-clock of the action run for the report. */
  duration: number;
}

export interface ReportSuiteRun {
  key: string;
  kind: RunKind;
  /** Suite name plus the variant label in brackets, e.g. `Checkout [firefox · eu-west-1]`. */
  name: string;
  suiteName: string;
  suiteId: string | null;
  variant: Variant;
  /** `firefox · eu-west-1 · 1280x800 · row 3` (see {@link variantLabel}); '' when nothing varied. */
  variantLabel: string;
  suiteResultId?: string;
  /** `${appUrl}/suite-results/{id}`. */
  suiteResultUrl?: string;
  startedAt: string;
  endedAt?: string;
  /** The suite result's `executionTime`, else ended minus triggered; null when unknown. */
  durationMs: number | null;
  error?: string;
  timedOut: boolean;
  cancelled: boolean;
  tests: ReportTest[];
  totals: ReportTotals;
}

/** The verdict the report shows: `cancelled` when nothing failed but something was cancelled. */
export type ReportVerdict = 'passed' | 'failed' | 'cancelled';

export interface Report {
  verdict: ReportVerdict;
  policy: ReportPolicy;
  appUrl: string;
  startedAt: string;
  finishedAt: string;
  interrupted?: 'deadline' | 'signal';
  runs: ReportSuiteRun[];
  totals: ReportTotals;
}

const EPOCH = '1970-01-01T00:00:00.000Z';
const PRIVATE_VALUE = '********';

/**
 * Builds the report model from what the run produced.
 *
 * A suite run that ended without any test result (the trigger failed, the suite result vanished, the
 * deadline passed before the list was read) becomes one test named `(suite run)` in state `error`
 * (`timed-out` / `cancelled` when the run was), so that every renderer shows it.
 *
 * @param summary the run model (`run/types.ts`)
 * @param policy which outcomes fail the run besides failed tests
 * @param attachments downloaded screenshot files by test result id (paths relative to the workspace or absolute)
 * @returns the report; never throws on odd service data (missing fields give empty values)
 */
export function buildReport(
  summary: RunSummary,
  policy: ReportPolicy,
  attachments: ReportAttachments = new Map(),
): Report {
  const appUrl = summary.appUrl.replace(/\/+$/, '');
  const runs = summary.runs.map((run) => buildSuiteRun(run, appUrl, policy, attachments));
  const totals = sumTotals(runs.map((r) => r.totals));
  totals.duration = Math.max(0, dateMs(summary.finishedAt) - dateMs(summary.startedAt)) || 0;
  const anyFailing = runs.some((r) => r.tests.some((t) => t.failing));
  const verdict: ReportVerdict = anyFailing
    ? 'failed'
    : totals.cancelled > 0 || summary.interrupted === 'signal'
      ? 'cancelled'
      : 'passed';
  return {
    verdict,
    policy: { ...policy },
    appUrl,
    startedAt: summary.startedAt,
    finishedAt: summary.finishedAt,
    ...(summary.interrupted ? { interrupted: summary.interrupted } : {}),
    runs,
    totals,
  };
}

/**
 * `firefox · eu-west-1 · 1280x800 · https://staging.example.com/ · row 3`: the parts of a variant that were
 * varied (start URL without password); data rows counted from 1.
 */
export function variantLabel(variant: Variant): string {
  const parts: string[] = [];
  if (variant.browser) parts.push(cleanText(variant.browser));
  if (variant.region) parts.push(cleanText(variant.region));
  if (variant.viewport) parts.push(cleanText(variant.viewport));
  if (variant.startUrl) parts.push(redactUrl(cleanText(variant.startUrl)));
  if (variant.dataRow !== undefined && variant.dataRow !== null) parts.push(`row ${variant.dataRow + 1}`);
  return parts.join(' · ');
}

/** Whether a test makes the run fail under a policy (see {@link ReportTest.failing}). */
export function isFailing(state: TestState, screenshotCompareFailed: boolean, policy: ReportPolicy): boolean {
  if (state === 'failed' || state === 'error') return true;
  if (state === 'timed-out') return policy.failOnTimeout;
  if (screenshotCompareFailed && (state === 'passed' || state === 'flaky'))
    return policy.failOnScreenshotCompare;
  return false;
}

function buildSuiteRun(
  run: SuiteRun,
  appUrl: string,
  policy: ReportPolicy,
  attachments: ReportAttachments,
): ReportSuiteRun {
  const suiteName = cleanText(run.suiteName) || cleanText(run.file) || '(unnamed suite)';
  const label = variantLabel(run.variant ?? {});
  const tests = run.tests.map((t, i) => buildTest(t, `${run.key}#${i}`, run, appUrl, policy, attachments));
  if (tests.length === 0 && (run.error || run.timedOut || run.cancelled)) {
    // Same order as the verdict's counts (run/outcome.ts countResults): timed out, cancelled, error.
    const state: TestState = run.timedOut ? 'timed-out' : run.cancelled ? 'cancelled' : 'error';
    tests.push({
      key: `${run.key}#run`,
      resultId: null,
      testId: null,
      name: '(suite run)',
      state,
      failing: isFailing(state, false, policy),
      durationMs: null,
      error:
        cleanText(run.error) ||
        (state === 'timed-out' ? 'Timed out before any test result was seen.' : 'Cancelled.'),
      steps: [],
      consoleErrors: [],
      screenshotCompareFailed: false,
      attempts: [],
      ...variantFields(run.variant ?? {}),
    });
  }
  const suiteResult = run.suiteResult;
  const suiteResultId = run.suiteResultId ?? suiteResult?._id;
  const durationMs =
    numberOrNull(suiteResult?.executionTime) ??
    (run.endedAt ? Math.max(0, dateMs(run.endedAt) - dateMs(run.triggeredAt)) || null : null);
  const totals = sumTotals([]);
  for (const t of tests) addToTotals(totals, t);
  return {
    key: run.key,
    kind: run.kind,
    name: label ? `${suiteName} [${label}]` : suiteName,
    suiteName,
    suiteId: run.suiteId,
    variant: { ...run.variant },
    variantLabel: label,
    ...(suiteResultId ? { suiteResultId, suiteResultUrl: `${appUrl}/suite-results/${suiteResultId}` } : {}),
    startedAt: run.triggeredAt,
    ...(run.endedAt ? { endedAt: run.endedAt } : {}),
    durationMs,
    ...(run.error ? { error: cleanText(run.error) } : {}),
    timedOut: Boolean(run.timedOut),
    cancelled: Boolean(run.cancelled),
    tests,
    totals,
  };
}

function variantFields(variant: Variant): Pick<ReportTest, 'browser' | 'region' | 'viewport'> {
  return {
    ...(variant.browser ? { browser: cleanText(variant.browser) } : {}),
    ...(variant.region ? { region: cleanText(variant.region) } : {}),
    ...(variant.viewport ? { viewport: cleanText(variant.viewport) } : {}),
  };
}

function buildTest(
  test: TestRun,
  fallbackKey: string,
  run: SuiteRun,
  appUrl: string,
  policy: ReportPolicy,
  attachments: ReportAttachments,
): ReportTest {
  const r = test.result;
  const name =
    cleanText(test.testName) || cleanText(refName(r?.test)) || cleanText(r?.name) || '(unnamed test)';
  const steps = (r?.steps ?? []).map(buildStep);
  const failingStep = firstFailingStep(steps);
  const compare = r ? buildCompare(r, attachments.get(r._id)?.comparison) : undefined;
  const screenshotCompareFailed = r?.screenshotComparePassing === false;
  const state = test.state;
  const errorText = cleanText(test.error) || cleanText(r?.error?.details) || undefined;
  const resultUrl = r ? `${appUrl}/results/${r._id}` : test.url ? cleanText(test.url) : undefined;
  const variant = variantFields(run.variant ?? {});
  const viewport = r?.viewportSize ? `${r.viewportSize.width}x${r.viewportSize.height}` : variant.viewport;
  const screenshot = r?.screenshot
    ? {
        originalUrl: cleanText(r.screenshot.original?.defaultUrl),
        smallUrl: cleanText(r.screenshot.small?.defaultUrl) || cleanText(r.screenshot.original?.defaultUrl),
        ...(attachments.get(r._id)?.screenshot ? { path: attachments.get(r._id)!.screenshot! } : {}),
      }
    : undefined;
  return {
    key: r?._id ?? fallbackKey,
    resultId: r?._id ?? null,
    testId: test.testId ?? refId(r?.test),
    name,
    state,
    failing: isFailing(state, screenshotCompareFailed, policy),
    durationMs: r ? resultDuration(r) : null,
    ...(r && validDate(r.dateExecutionStarted) ? { startedAt: r.dateExecutionStarted } : {}),
    ...(r && validDate(r.dateExecutionFinished) ? { finishedAt: r.dateExecutionFinished } : {}),
    ...(failingStep ? { failingStep } : {}),
    ...(errorText ? { error: errorText } : {}),
    steps,
    consoleErrors: (r?.console ?? []).filter((c) => c.error).map(buildConsole),
    ...(resultUrl ? { resultUrl } : {}),
    ...(r?.startUrl ? { startUrl: redactUrl(cleanText(r.startUrl)) } : {}),
    ...(r?.endUrl ? { endUrl: redactUrl(cleanText(r.endUrl)) } : {}),
    ...(r?.video?.url ? { videoUrl: cleanText(r.video.url) } : {}),
    ...(screenshot && screenshot.originalUrl ? { screenshot } : {}),
    ...(compare ? { screenshotCompare: compare } : {}),
    screenshotCompareFailed,
    attempts: test.attempts.map((a) => buildAttempt(a, appUrl)),
    ...variant,
    ...(r?.browser ? { browser: cleanText(r.browser) } : {}),
    ...(r?.region ? { region: cleanText(r.region) } : {}),
    ...(viewport ? { viewport } : {}),
  };
}

function buildAttempt(r: TestResult, appUrl: string): ReportAttempt {
  const failingStep = firstFailingStep((r.steps ?? []).map(buildStep));
  const error = cleanText(r.error?.details);
  return {
    resultId: r._id,
    resultUrl: `${appUrl}/results/${r._id}`,
    passing: r.passing,
    durationMs: resultDuration(r),
    ...(failingStep ? { failingStep } : {}),
    ...(error ? { error } : {}),
  };
}

function buildCompare(r: TestResult, path: string | undefined): ReportScreenshotCompare | undefined {
  const hasImage = Boolean(r.screenshotCompare);
  if (!hasImage && r.screenshotComparePassing == null && r.screenshotCompareDifference == null)
    return undefined;
  const imageUrl = cleanText(r.screenshotCompare?.compareOriginal?.defaultUrl);
  const smallUrl = cleanText(r.screenshotCompare?.compareSmall?.defaultUrl) || imageUrl;
  return {
    difference: numberOrNull(r.screenshotCompareDifference),
    threshold: r.screenshotCompareThreshold,
    passing: r.screenshotComparePassing ?? null,
    ...(imageUrl ? { imageUrl, smallUrl } : {}),
    baselineResultId: r.screenshotCompareBaselineResult ?? null,
    ...(path ? { path } : {}),
  };
}

function buildStep(step: Step): ReportStep {
  const skipped = step.condition?.result === false;
  const outcome: StepOutcome = skipped
    ? 'skipped'
    : step.passing === true
      ? 'passed'
      : step.passing === false
        ? step.optional
          ? 'failed-optional'
          : 'failed'
        : 'not-run';
  const error = cleanText(step.error);
  return {
    sequence: step.sequence,
    command: cleanText(step.command),
    target: targetText(step.target),
    value: step.private ? (step.value ? PRIVATE_VALUE : '') : cleanText(step.value),
    optional: Boolean(step.optional),
    outcome,
    ...(error ? { error } : {}),
    ...(step.url ? { url: redactUrl(cleanText(step.url)) } : {}),
  };
}

/** A step target as one string: several selectors (tried in order) are joined with ` || `. */
export function targetText(target: StepTarget | null | undefined): string {
  if (target === null || target === undefined) return '';
  if (typeof target === 'string') return cleanText(target);
  return target.map((t) => cleanText(t?.selector)).join(' || ');
}

function firstFailingStep(steps: ReportStep[]): FailingStep | undefined {
  const step = steps.find((s) => s.outcome === 'failed');
  if (!step) return undefined;
  return {
    sequence: step.sequence,
    command: step.command,
    target: step.target,
    error: step.error ?? 'Step failed (the service gave no error text).',
  };
}

function buildConsole(entry: ConsoleEntry): ReportConsoleError {
  return {
    output: cleanText(entry.output),
    url: redactUrl(cleanText(entry.url)),
    dateExecuted: entry.dateExecuted,
  };
}

function resultDuration(r: TestResult): number | null {
  const time = numberOrNull(r.executionTime);
  if (time !== null) return time;
  if (validDate(r.dateExecutionStarted) && validDate(r.dateExecutionFinished)) {
    return Math.max(0, dateMs(r.dateExecutionFinished!) - dateMs(r.dateExecutionStarted));
  }
  return null;
}

function validDate(value: string | undefined | null): value is string {
  return typeof value === 'string' && value !== EPOCH && Number.isFinite(Date.parse(value));
}

function dateMs(value: string): number {
  const ms = Date.parse(value);
  return Number.isFinite(ms) ? ms : 0;
}

function numberOrNull(value: number | null | undefined): number | null {
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}

function sumTotals(list: ReportTotals[]): ReportTotals {
  const totals: ReportTotals = {
    passed: 0,
    failed: 0,
    flaky: 0,
    timedOut: 0,
    cancelled: 0,
    error: 0,
    screenshotCompareFailed: 0,
    total: 0,
    duration: 0,
  };
  for (const t of list) {
    for (const k of Object.keys(totals) as Array<keyof ReportTotals>) totals[k] += t[k];
  }
  return totals;
}

function addToTotals(totals: ReportTotals, test: ReportTest): void {
  totals.total += 1;
  totals.duration += test.durationMs ?? 0;
  if (test.screenshotCompareFailed) totals.screenshotCompareFailed += 1;
  switch (test.state) {
    case 'passed':
      totals.passed += 1;
      break;
    case 'failed':
      totals.failed += 1;
      break;
    case 'flaky':
      totals.flaky += 1;
      break;
    case 'timed-out':
      totals.timedOut += 1;
      break;
    case 'cancelled':
      totals.cancelled += 1;
      break;
    case 'error':
      totals.error += 1;
      break;
  }
}

/** Every test of the report with its suite run, in report order. */
export function* allTests(report: Report): Generator<{ run: ReportSuiteRun; test: ReportTest }> {
  for (const run of report.runs) for (const test of run.tests) yield { run, test };
}
