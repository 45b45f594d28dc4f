/**
 * The report model: one normalized picture of a run, built once from the run model (`run/types.ts`) and
 * the service's resources (`api/types.ts`), and read by every renderer (JUnit, job summary, annotations,
 * results.json, pull-request comment). Building is pure; renderers are pure functions of a {@link Report}.
 *
 * Service text in the model is already cleaned ({@link cleanText}: no XML-invalid characters), URLs carry
 * no password, and private step values are masked. Durations are milliseconds, dates ISO 8601 strings.
 */
import {
  countResults,
  decideStartedVerdict,
  decideVerdict,
  failsStep,
  testlessRunState,
  type Counts,
  type Verdict,
  type VerdictPolicy,
  type VerdictStatus,
} from '../run/outcome.js';
import type { RunKind, RunSummary, SuiteRun, TestState, Variant } from '../run/types.js';
import { buildTest, dateMs, numberOrNull, variantFields } from './model-test.js';
import { variantLabel } from './console.js';
import { cleanText } from './text.js';

export { variantLabel } from './console.js';

export { targetText } from './model-test.js';

/**
 * The verdict's policy (`run/outcome.ts`): what counts as a failure beyond failed tests (action inputs
 * `fail-on-screenshot-compare`, `fail-on-timeout`, `fail-on-empty`; the last defaults to false).
 */
export type ReportPolicy = Omit<VerdictPolicy, 'failOnEmpty'> & { failOnEmpty?: boolean };

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
  /**
   * `suite › test` for a test of a suite or a test file, the test's name alone for a test run on its own,
   * `suite (could not start)` and the like for a run without any test result. No variant.
   */
  title: string;
  state: TestState;
  /**
   * What the verdict counts this test as (`run/outcome.ts` `countedAs`): its state, or `failed` for a
   * passed or flaky test whose screenshot comparison failed under `failOnScreenshotCompare`.
   */
  countedAs: TestState;
  /**
   * True when this test makes the step fail (`run/outcome.ts` `failsStep`): counted as failed, error or
   * cancelled, or timed out under `failOnTimeout`.
   */
  failing: boolean;
  /** Set on the stand-in test of a run that was never started (see `SuiteRun.notStarted`). */
  notStarted?: 'deadline' | 'signal' | 'fail-fast';
  /** Set on the stand-in test of a run that may have started but could not be found. */
  mayHaveStarted?: boolean;
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
  /** Kind `file`: the repository test file, relative to the workspace with forward slashes. */
  file?: string;
  variant: Variant;
  /** `firefox · eu-west-1 · 1280x800 · row 3` (see {@link variantLabel}); '' when nothing varied. */
  variantLabel: string;
  suiteResultId?: string;
  /** `${appUrl}/suite-results/{id}`. */
  suiteResultUrl?: string;
  /** Kinds `test` and `file`: `${appUrl}/results/{id}` of the test result the execute answered. */
  resultUrl?: string;
  startedAt: string;
  endedAt?: string;
  /** The suite result's `executionTime`, else ended minus triggered; null when unknown. */
  durationMs: number | null;
  error?: string;
  timedOut: boolean;
  cancelled: boolean;
  /** The run was never started (see `SuiteRun.notStarted`). */
  notStarted?: 'deadline' | 'signal' | 'fail-fast';
  /** The run may have started but could not be found (see `SuiteRun.mayHaveStarted`). */
  mayHaveStarted?: boolean;
  tests: ReportTest[];
  totals: ReportTotals;
}

/** The verdict the report shows: the one verdict's status (`run/outcome.ts`). */
export type ReportVerdict = VerdictStatus;

export interface Report {
  /** The verdict's status (`passed`, `failed`, `cancelled`; `started` / `not-started` for `wait: false`). */
  verdict: ReportVerdict;
  /** The verdict's pass or fail: the step fails exactly when this is false. */
  passing: boolean;
  /** Why the step fails, one sentence each (the verdict's reasons); empty when passing. */
  reasons: string[];
  /** False for `wait: false`: the runs were started, their outcome is not known (only `total`, `error`). */
  waited: boolean;
  policy: VerdictPolicy;
  appUrl: string;
  startedAt: string;
  finishedAt: string;
  interrupted?: 'deadline' | 'signal' | 'fail-fast';
  runs: ReportSuiteRun[];
  totals: ReportTotals;
}

/**
 * Builds the report model from what the run produced, around the one verdict (`run/outcome.ts`).
 *
 * A run that ended without any test result (never started, the trigger failed, the suite result vanished,
 * the deadline passed before the list was read) becomes one stand-in test in the state the verdict counts
 * it as (`run/outcome.ts` `testlessRunState`), named in words ("could not start", "not started before the
 * timeout", ...), so that every renderer shows it.
 *
 * @param summary the run model (`run/types.ts`)
 * @param policy which outcomes fail the run besides failed tests
 * @param attachments downloaded screenshot files by test result id (paths relative to the workspace or absolute)
 * @param verdict the verdict decided once by the caller; by default decided here from `summary` and
 *   `policy` (`decideVerdict`, or `decideStartedVerdict` when `summary` has no waited run)
 * @returns the report; never throws on odd service data (missing fields give empty values)
 */
export function buildReport(
  summary: RunSummary,
  policy: ReportPolicy,
  attachments: ReportAttachments = new Map(),
  verdict: Verdict = decideVerdict(summary, { failOnEmpty: false, ...policy }),
): Report {
  const appUrl = summary.appUrl.replace(/\/+$/, '');
  const runs = summary.runs.map((run) => buildSuiteRun(run, appUrl, verdict, attachments));
  const duration = Math.max(0, dateMs(summary.finishedAt) - dateMs(summary.startedAt)) || 0;
  return {
    verdict: verdict.status,
    passing: verdict.passing,
    reasons: [...verdict.reasons],
    waited: verdict.waited,
    policy: { ...verdict.policy },
    appUrl,
    startedAt: summary.startedAt,
    finishedAt: summary.finishedAt,
    ...(summary.interrupted ? { interrupted: summary.interrupted } : {}),
    runs,
    totals: { ...verdict.counts, duration },
  };
}

/**
 * The report of a run the action did not wait for (`wait: false`): the runs asked for, without tests
 * (a run that could not be started gets its stand-in test), around {@link decideStartedVerdict}.
 */
export function buildStartedReport(summary: RunSummary, policy: VerdictPolicy): Report {
  return buildReport(summary, policy, new Map(), decideStartedVerdict(summary, policy));
}

function buildSuiteRun(
  run: SuiteRun,
  appUrl: string,
  verdict: Verdict,
  attachments: ReportAttachments,
): ReportSuiteRun {
  const suiteName = cleanText(run.suiteName) || cleanText(run.file) || '(unnamed suite)';
  const label = variantLabel(run.variant ?? {});
  const policy = verdict.policy;
  const tests = run.tests.map((t, i) =>
    buildTest(t, { key: `${run.key}#${i}`, suiteName, run, appUrl, policy, attachments }),
  );
  const testless = verdict.waited ? testlessRunState(run) : run.tests.length === 0 ? startedState(run) : null;
  if (testless) tests.push(standIn(run, suiteName, testless, verdict));
  const per = countResults([run], policy);
  const suiteResult = run.suiteResult;
  const suiteResultId = run.suiteResultId ?? suiteResult?._id;
  const durationMs =
    numberOrNull(suiteResult?.executionTime) ??
    (run.endedAt ? Math.max(0, dateMs(run.endedAt) - dateMs(run.triggeredAt)) || null : null);
  const totals: ReportTotals = { ...per, duration: tests.reduce((n, t) => n + (t.durationMs ?? 0), 0) };
  if (!verdict.waited) Object.assign(totals, { total: 1, error: testless ? 1 : 0 });
  return {
    key: run.key,
    kind: run.kind,
    name: label ? `${suiteName} [${label}]` : suiteName,
    suiteName,
    suiteId: run.suiteId,
    ...(run.kind === 'file' && run.file ? { file: run.file } : {}),
    variant: { ...run.variant },
    variantLabel: label,
    ...(suiteResultId ? { suiteResultId, suiteResultUrl: `${appUrl}/suite-results/${suiteResultId}` } : {}),
    ...(run.kind !== 'suite' && run.testResultId
      ? { resultUrl: `${appUrl}/results/${run.testResultId}` }
      : {}),
    startedAt: run.triggeredAt,
    ...(run.endedAt ? { endedAt: run.endedAt } : {}),
    durationMs,
    ...(run.error ? { error: cleanText(run.error) } : {}),
    timedOut: Boolean(run.timedOut),
    cancelled: Boolean(run.cancelled),
    ...(run.notStarted ? { notStarted: run.notStarted } : {}),
    ...(run.mayHaveStarted ? { mayHaveStarted: true } : {}),
    tests,
    totals,
  };
}

/** With `wait: false`: a run that could not be started counts as `error`; a started one has no state yet. */
function startedState(run: SuiteRun): TestState | null {
  return run.error || run.notStarted || run.mayHaveStarted ? 'error' : null;
}

/**
 * What a run without any test result is, in words: `not started before the timeout`, `not started before
 * the workflow was cancelled`, `not started: fail-fast`, `may have started but could not be found`, `could not start` (the trigger
 * failed), `no test result before the timeout`, `cancelled before any test result`, `no test result`.
 */
export function testlessPhrase(run: SuiteRun, state: TestState): string {
  if (run.notStarted === 'deadline') return 'not started before the timeout';
  if (run.notStarted === 'signal') return 'not started before the workflow was cancelled';
  if (run.notStarted === 'fail-fast') return 'not started: fail-fast';
  if (run.mayHaveStarted) return 'may have started but could not be found';
  if (state === 'timed-out') return 'no test result before the timeout';
  if (state === 'cancelled') return 'cancelled before any test result';
  if (!run.suiteResultId && !run.testResultId && !run.suiteResult) return 'could not start';
  return 'no test result';
}

function standIn(run: SuiteRun, suiteName: string, state: TestState, verdict: Verdict): ReportTest {
  const phrase = testlessPhrase(run, state);
  const sentence = `${phrase.charAt(0).toUpperCase()}${phrase.slice(1)}.`;
  return {
    key: `${run.key}#run`,
    resultId: null,
    testId: null,
    name: phrase,
    title: `${suiteName} (${phrase})`,
    state,
    countedAs: state,
    failing: failsStep(state, verdict.policy),
    ...(run.notStarted ? { notStarted: run.notStarted } : {}),
    ...(run.mayHaveStarted ? { mayHaveStarted: true } : {}),
    durationMs: null,
    error: cleanText(run.error) || sentence,
    steps: [],
    consoleErrors: [],
    screenshotCompareFailed: false,
    attempts: [],
    ...variantFields(run.variant ?? {}),
  };
}

/** Every test of the report with its suite run, in report order. */
export function* allTests(report: Report): Generator<{ run: ReportSuiteRun; test: ReportTest }> {
  for (const run of report.runs) for (const test of run.tests) yield { run, test };
}
