/** The verdict, the one pure module that classifies, counts and decides; every report renders it (docs/architecture.md). */
import { MAX_LIST_RECORDS } from '../../api/limits.js';
import { plural } from '../../common/words.js';
import type { SuiteResult, TestResult } from '../../api/types.js';
import type { RunSummary, SuiteRun, TestRun, TestState } from '../types.js';

export interface VerdictPolicy {
  failOnScreenshotCompare: boolean;
  failOnTimeout: boolean;
  failOnEmpty: boolean;
}

/** Counts of test results by state (a run that never produced a test result counts once, by its state). */
export interface Counts {
  total: number;
  passed: number;
  failed: number;
  flaky: number;
  timedOut: number;
  cancelled: number;
  error: number;
  /** Test results whose screenshot comparison failed (any state). */
  screenshotCompareFailed: number;
}

/** The verdict in one word; `cancelled`: only cancels fail it; `started` / `not-started`: `wait: false`. */
export type VerdictStatus = 'passed' | 'failed' | 'cancelled' | 'started' | 'not-started';

export interface Verdict {
  passing: boolean;
  status: VerdictStatus;
  /** False for `wait: false`: only `total` and `error` are known then (the other counts are 0). */
  waited: boolean;
  counts: Counts;
  /** Why the verdict fails, one short sentence each; empty when passing. */
  reasons: string[];
  policy: VerdictPolicy;
}

/** The cancelled status of a test result (docs/api-contract.md). */
const STATUS_CANCELLED = 8;

/** The state of one test result as the service shows it; `running` while not over. docs/architecture.md. */
export function classifyTestResult(
  result: Pick<TestResult, 'passing' | 'status' | 'executionTime' | 'dateExecutionFinished'>,
): Exclude<TestState, 'flaky' | 'timed-out'> | 'running' {
  if (result.passing === true) return 'passed';
  if (result.passing === false) return 'failed';
  if (result.status === STATUS_CANCELLED) return 'cancelled';
  const finished =
    (result.executionTime !== null && result.executionTime !== undefined) ||
    realFinishDate(result.dateExecutionFinished);
  return finished ? 'error' : 'running';
}

/** A finish date that is set (not null) and not the 1970 placeholder of a run still going. */
const realFinishDate = (date: string | null | undefined): boolean => !!date && !date.startsWith('1970-');

/** What a test counts as: its state, or `failed` for a pass whose screenshot comparison failed (policy). */
export function countedAs(
  state: TestState,
  screenshotCompareFailed: boolean,
  policy: Pick<VerdictPolicy, 'failOnScreenshotCompare'>,
): TestState {
  if (screenshotCompareFailed && policy.failOnScreenshotCompare && (state === 'passed' || state === 'flaky'))
    return 'failed';
  return state;
}

/** Whether a test counted as `counted` (see {@link countedAs}) fails the step under a policy. */
export function failsStep(counted: TestState, policy: Pick<VerdictPolicy, 'failOnTimeout'>): boolean {
  if (counted === 'failed' || counted === 'error' || counted === 'cancelled') return true;
  if (counted === 'timed-out') return policy.failOnTimeout;
  return false;
}

/** The state a run with no test result counts as (once), or null when it simply held no test. */
export function testlessRunState(run: SuiteRun): TestState | null {
  if (run.tests.length > 0) return null;
  if (run.notStarted === 'fail-fast') return 'cancelled';
  if (run.notStarted || run.mayHaveStarted) return 'error';
  if (run.timedOut) return 'timed-out';
  if (run.cancelled) return 'cancelled';
  if (run.error) return 'error';
  return null;
}

function countedTests(result: SuiteResult): number | null {
  const counts = [result.countPassing, result.countFailing, result.countUnknown];
  if (!counts.every((n) => typeof n === 'number' && Number.isInteger(n) && n >= 0)) return null;
  const n = counts.reduce((a, b) => a + b, 0);
  return n > 0 ? n : null;
}

/** The tests a suite result counts; null when it gives none or more than `MAX_LIST_RECORDS` (not believed). */
export function suiteTestCount(result: SuiteResult): number | null {
  const n = countedTests(result);
  return n !== null && n <= MAX_LIST_RECORDS ? n : null;
}

/** Stand-ins of missing test results, one each, at most this many; the rest is one line with the number. */
const MAX_STAND_INS = 10;

/**
 * The `error` stand-in tests a finished suite run lacks by its suite result's own word (docs/architecture.md,
 * "The suite result's own word"); [] when the list agrees or the run did not end with a verdict.
 */
export function suiteResultShortfall(run: SuiteRun): TestRun[] {
  const sr = run.suiteResult;
  if (run.kind !== 'suite' || !sr || sr.passing === null || sr.passing === undefined) return [];
  if (run.cancelled || run.timedOut || (run.tests.length === 0 && run.error)) return [];
  const standIn = (testName: string, error: string): TestRun => ({
    testId: null,
    testName,
    state: 'error',
    result: null,
    attempts: [],
    error,
  });
  const counted = `${sr.countPassing} passed, ${sr.countFailing} failed, ${sr.countUnknown} unknown`;
  // Added once: a run ended again keeps its stand-ins.
  if (run.tests.some((t) => !t.result && t.testId === null && t.testName.startsWith(MISSING_NAME))) return [];
  const expected = suiteTestCount(sr);
  if (expected === null && (countedTests(sr) ?? 0) > MAX_LIST_RECORDS) {
    const error =
      `The suite result counts ${countedTests(sr)} tests (${counted}), more than any list is read for ` +
      `(${MAX_LIST_RECORDS}): an answer of the wrong shape, its counts not believed.`;
    return [standIn(`${MISSING_NAME}s: counts not believed`, error)];
  }
  const listed = new Set(run.tests.flatMap((t) => (t.result ? [t.result._id] : []))).size;
  const missing = expected === null ? 0 : Math.max(0, expected - listed);
  const why =
    `The suite result counts ${expected} tests (${counted}), but its list of test results held ` +
    `${listed}, also when read again`;
  const out = Array.from({ length: Math.min(missing, MAX_STAND_INS) }, (_, i) =>
    standIn(
      `${MISSING_NAME} (${i + 1} of ${missing})`,
      `${why}: this test's result is missing, its outcome unknown.`,
    ),
  );
  if (missing > MAX_STAND_INS) {
    const rest = missing - MAX_STAND_INS;
    out.push(standIn(`${MISSING_NAME}s: ${rest} more`, `${why}: ${rest} more test results are missing.`));
  }
  const fails = (t: TestRun): boolean => t.state !== 'passed' || t.attempts.some((a) => a.passing === false);
  const saysFailed = sr.passing === false || (typeof sr.countFailing === 'number' && sr.countFailing > 0);
  if (saysFailed && out.length === 0 && !run.tests.some(fails)) {
    const said =
      sr.passing === false ? 'says it failed' : `says it passed but counts ${sr.countFailing} failing`;
    out.push(
      standIn(
        'Suite result failed',
        `The suite result ${said} (${counted}), but none of its listed test results failed: ` +
          'the list disagrees with the suite result, which is taken at its word.',
      ),
    );
  }
  return out;
}

const MISSING_NAME = 'Missing test result';

const NO_POLICY: Pick<VerdictPolicy, 'failOnScreenshotCompare'> = { failOnScreenshotCompare: false };

function emptyCounts(): Counts {
  return {
    total: 0,
    passed: 0,
    failed: 0,
    flaky: 0,
    timedOut: 0,
    cancelled: 0,
    error: 0,
    screenshotCompareFailed: 0,
  };
}

/** The count each state adds to; the state names are the count outputs' names too. */
export const STATE_COUNT: Readonly<Record<TestState, keyof Counts>> = {
  passed: 'passed',
  failed: 'failed',
  flaky: 'flaky',
  'timed-out': 'timedOut',
  cancelled: 'cancelled',
  error: 'error',
};

/** Counts by what each test counts as ({@link countedAs}); without `policy` no screenshot re-count. */
export function countResults(
  runs: SuiteRun[],
  policy: Pick<VerdictPolicy, 'failOnScreenshotCompare'> = NO_POLICY,
): Counts {
  const counts = emptyCounts();
  const add = (state: TestState): void => {
    counts.total += 1;
    counts[STATE_COUNT[state]] += 1;
  };
  for (const run of runs) {
    const testless = testlessRunState(run);
    if (testless) add(testless);
    for (const test of run.tests) {
      const compareFailed = test.result?.screenshotComparePassing === false;
      add(countedAs(test.state, compareFailed, policy));
      if (compareFailed) counts.screenshotCompareFailed += 1;
    }
  }
  return counts;
}

/** The verdict of a run the action waited for, under the `fail-on-*` inputs. */
export function decideVerdict(
  summary: Pick<RunSummary, 'runs' | 'interrupted'>,
  policy: VerdictPolicy,
): Verdict {
  const counts = countResults(summary.runs, policy);
  const reasons: string[] = [];
  const signal = summary.interrupted === 'signal';
  const testless = summary.runs.filter((r) => r.tests.length === 0);
  const skipped = testless.filter((r) => r.notStarted === 'fail-fast').length;
  const notStarted = testless.filter((r) => r.notStarted && r.notStarted !== 'fail-fast').length;
  const mayHave = testless.filter((r) => !r.notStarted && r.mayHaveStarted).length;
  const otherErrors = counts.error - notStarted - mayHave;
  const cancelled = counts.cancelled - skipped;
  if (signal) reasons.push('The workflow was cancelled while the tests ran.');
  // Failed in their own right; those failed only by their screenshot comparison have a reason of their own.
  const plainFailed = countResults(summary.runs).failed;
  if (plainFailed > 0) reasons.push(`${plural(plainFailed, 'test')} failed.`);
  if (otherErrors > 0) reasons.push(`${plural(otherErrors, 'test')} ended without a result.`);
  if (notStarted > 0)
    reasons.push(`${plural(notStarted, 'run')} ${notStarted === 1 ? 'was' : 'were'} never started.`);
  if (mayHave > 0) reasons.push(`${plural(mayHave, 'run')} may have started but could not be found.`);
  if (cancelled > 0 && !signal) {
    reasons.push(`${plural(cancelled, 'test')} ${cancelled === 1 ? 'was' : 'were'} cancelled.`);
  }
  if (skipped > 0) {
    reasons.push(`${plural(skipped, 'run')} ${skipped === 1 ? 'was' : 'were'} not started (fail-fast).`);
  }
  if (counts.timedOut > 0 && policy.failOnTimeout) {
    reasons.push(`${plural(counts.timedOut, 'test')} did not finish before the timeout.`);
  }
  if (counts.screenshotCompareFailed > 0 && policy.failOnScreenshotCompare) {
    reasons.push(`${plural(counts.screenshotCompareFailed, 'screenshot comparison')} failed.`);
  }
  if (counts.total === 0 && policy.failOnEmpty) reasons.push('No test ran (empty suites or folders).');
  const passing = reasons.length === 0;
  const cancelReasons = (signal ? 1 : cancelled > 0 ? 1 : 0) + (skipped > 0 ? 1 : 0);
  const onlyCancelled = cancelReasons > 0 && reasons.length === cancelReasons;
  const status: VerdictStatus = passing ? 'passed' : onlyCancelled ? 'cancelled' : 'failed';
  return { passing, status, waited: true, counts, reasons, policy: { ...policy } };
}

/** The verdict for `wait: false`: only `total` and `error` (runs not started, which fail it) are known. */
export function decideStartedVerdict(summary: Pick<RunSummary, 'runs'>, policy: VerdictPolicy): Verdict {
  const counts = emptyCounts();
  counts.total = summary.runs.length;
  const failed = summary.runs.filter((run) => run.error || run.notStarted || run.mayHaveStarted);
  counts.error = failed.length;
  const reasons =
    failed.length > 0
      ? [`${plural(failed.length, 'run')} could not be started: ${failed[0]?.error ?? 'no reason given'}`]
      : [];
  return {
    passing: reasons.length === 0,
    status: reasons.length === 0 ? 'started' : 'not-started',
    waited: false,
    counts,
    reasons,
    policy: { ...policy },
  };
}

/** Whether a suite result is over: a verdict, or cancelled (status 8, or a finish date without verdict). */
export function isSuiteResultOver(result: SuiteResult): boolean {
  if (result.passing !== null && result.passing !== undefined) return true;
  if (result.status === STATUS_CANCELLED) return true;
  return realFinishDate(result.dateExecutionFinished);
}
