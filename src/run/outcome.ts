/**
 * The verdict: one pure function from every result and the policy inputs to pass or fail, with counts and
 * the reasons. Nothing else in the action decides whether the step fails.
 *
 * Rules (contract "States and transitions"; service facts on cancelled results):
 * - `passing: null` is never a pass: a cancelled result (status 8) or one that ended without a verdict
 *   counts as cancelled or error, and fails the verdict.
 * - A screenshot comparison that did not run (`screenshotComparePassing: null`) is neutral; one that failed
 *   (`false`) is counted, and fails the verdict only under `fail-on-screenshot-compare`.
 * - A test that failed and then passed when re-run (`retry-failed`) is flaky: counted, not a failure.
 * - A run still going at the deadline is timed out: its own state, a failure only under `fail-on-timeout`.
 * - Nothing run at all fails under `fail-on-empty`.
 * - A workflow cancel (signal) always fails.
 */
import type { TestResult } from '../api/types.js';
import type { RunSummary, SuiteRun, TestState } from './types.js';

/** Policy inputs of the verdict. */
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

export interface Verdict {
  passing: boolean;
  counts: Counts;
  /** Why the verdict fails, one short sentence each; empty when passing. */
  reasons: string[];
}

/** The cancelled status of a test result (service facts). */
export const STATUS_CANCELLED = 8;

/**
 * The state of one test result as the service shows it (contract "States and transitions"):
 * `passing` true/false → passed/failed; `passing` null with `status` 8 → cancelled; `passing` null with a
 * finish (execution time or finish date) → error (ended without a verdict); otherwise `running`.
 */
export function classifyTestResult(
  result: TestResult,
): Exclude<TestState, 'flaky' | 'timed-out'> | 'running' {
  if (result.passing === true) return 'passed';
  if (result.passing === false) return 'failed';
  if (result.status === STATUS_CANCELLED) return 'cancelled';
  const finished =
    (result.executionTime !== null && result.executionTime !== undefined) ||
    (result.dateExecutionFinished !== undefined && !result.dateExecutionFinished.startsWith('1970-'));
  return finished ? 'error' : 'running';
}

/** Counts by state over every run (see `Counts`). */
export function countResults(runs: SuiteRun[]): Counts {
  const counts: Counts = {
    total: 0,
    passed: 0,
    failed: 0,
    flaky: 0,
    timedOut: 0,
    cancelled: 0,
    error: 0,
    screenshotCompareFailed: 0,
  };
  const add = (state: TestState): void => {
    counts.total += 1;
    if (state === 'passed') counts.passed += 1;
    else if (state === 'failed') counts.failed += 1;
    else if (state === 'flaky') counts.flaky += 1;
    else if (state === 'timed-out') counts.timedOut += 1;
    else if (state === 'cancelled') counts.cancelled += 1;
    else counts.error += 1;
  };
  for (const run of runs) {
    if (run.tests.length === 0) {
      // A run with no test result: it counts by its own state, unless it simply held no test.
      if (run.timedOut) add('timed-out');
      else if (run.cancelled) add('cancelled');
      else if (run.error) add('error');
      continue;
    }
    for (const test of run.tests) {
      add(test.state);
      if (test.result?.screenshotComparePassing === false) counts.screenshotCompareFailed += 1;
    }
  }
  return counts;
}

/**
 * Decides the verdict.
 * @param summary every run, as `run/` produced it.
 * @param policy the `fail-on-*` inputs.
 */
export function decideVerdict(
  summary: Pick<RunSummary, 'runs' | 'interrupted'>,
  policy: VerdictPolicy,
): Verdict {
  const counts = countResults(summary.runs);
  const reasons: string[] = [];
  const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;
  if (summary.interrupted === 'signal') reasons.push('The workflow was cancelled while the tests ran.');
  if (counts.failed > 0) reasons.push(`${plural(counts.failed, 'test')} failed.`);
  if (counts.error > 0) reasons.push(`${plural(counts.error, 'test')} ended without a result.`);
  if (counts.cancelled > 0 && summary.interrupted !== 'signal') {
    reasons.push(`${plural(counts.cancelled, 'test')} were cancelled.`);
  }
  if (counts.timedOut > 0 && policy.failOnTimeout) {
    reasons.push(`${plural(counts.timedOut, 'test')} did not finish before the timeout.`);
  }
  if (counts.screenshotCompareFailed > 0 && policy.failOnScreenshotCompare) {
    reasons.push(`${plural(counts.screenshotCompareFailed, 'screenshot comparison')} failed.`);
  }
  if (counts.total === 0 && policy.failOnEmpty) reasons.push('No test ran (empty suites or folders).');
  return { passing: reasons.length === 0, counts, reasons };
}
