/** The report model's types: one normalized picture of a run, read by every renderer (`model.ts` builds it). */
import type { Counts, VerdictPolicy, VerdictStatus } from '../run/outcome/outcome.js';
import type { ConsoleEntry } from '../api/types.js';
import type { RunKind, StopReason, TestState, Variant } from '../run/types.js';

/** Files downloaded for a test result, by test result id: paths relative to the workspace, or absolute. */
export type ReportAttachments = Map<string, { screenshot?: string; comparison?: string }>;

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
export type FailingStep = Pick<ReportStep, 'sequence' | 'command' | 'target'> & {
  error: string;
  /**
   * The module the step came from, when it is not the test's own step: the module's test id and the step's
   * zero-based position in it (the result step's `extra.source`), and the module's name once read
   * (`module-names.ts`; absent when the read failed or was not made).
   */
  module?: { testId: string; sequence: number; name?: string };
};

/** A console entry that is an error, its text cleaned and its URL redacted. */
export type ReportConsoleError = Pick<ConsoleEntry, 'output' | 'url' | 'dateExecuted'>;

interface ReportScreenshot {
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
  imageUrl?: string;
  /** Its thumbnail (`compareSmall`). */
  smallUrl?: string;
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
  /** `suite › test`, or the test's name alone for a test run on its own; no variant. */
  title: string;
  state: TestState;
  /** What the verdict counts this test as (docs/architecture.md). */
  countedAs: TestState;
  /** True when this test makes the step fail (docs/architecture.md). */
  failing: boolean;
  /** Set on the stand-in test of a run that was never started (see `SuiteRun.notStarted`). */
  notStarted?: StopReason;
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
  /** The browser the result ran on, with the version the service names (`chrome-79`); else the one asked. */
  browser?: string;
  region?: string;
  /** `{width}x{height}`. */
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
  /** Kind `file`: the repository test file, relative to the workspace with forward slashes. */
  file?: string;
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
  notStarted?: StopReason;
  /** The run may have started but could not be found (see `SuiteRun.mayHaveStarted`). */
  mayHaveStarted?: boolean;
  tests: ReportTest[];
  totals: ReportTotals;
}

export interface Report {
  /** The verdict's status (`passed`, `failed`, `cancelled`; `started` / `not-started` for `wait: false`). */
  verdict: VerdictStatus;
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
  interrupted?: StopReason;
  runs: ReportSuiteRun[];
  totals: ReportTotals;
}
