/**
 * The step outputs, computed from the run model (pure). Outputs stay small: lists of ids and links, and the
 * path of results.json for everything else (GitHub keeps about 1 MiB of outputs per job).
 */
import type { Counts, Verdict } from './outcome.js';
import type { RunSummary } from './types.js';

/** Output name → value, as `core.setOutput` takes them. */
export type Outputs = Record<
  | 'passing'
  | 'counts'
  | 'suite-result-ids'
  | 'test-result-ids'
  | 'failed-test-ids'
  | 'result-urls'
  | 'results-json',
  string
>;

/** `counts` as the output shows it (kebab-case keys). */
export function countsJson(counts: Counts): string {
  return JSON.stringify({
    total: counts.total,
    passed: counts.passed,
    failed: counts.failed,
    flaky: counts.flaky,
    'timed-out': counts.timedOut,
    cancelled: counts.cancelled,
    error: counts.error,
    'screenshot-compare-failed': counts.screenshotCompareFailed,
  });
}

/**
 * Computes every output.
 * @param verdict null when the action did not wait (`wait: false`): `passing` is then empty.
 * @param resultsPath where results.json was written ('' when it could not be).
 */
export function computeOutputs(
  summary: RunSummary,
  verdict: Verdict | null,
  counts: Counts,
  resultsPath: string,
): Outputs {
  const suiteResultIds: string[] = [];
  const testResultIds: string[] = [];
  const failedTestIds: string[] = [];
  const urls: string[] = [];
  const app = summary.appUrl.replace(/\/+$/, '');
  for (const run of summary.runs) {
    if (run.suiteResultId) {
      suiteResultIds.push(run.suiteResultId);
      urls.push(`${app}/suite-results/${run.suiteResultId}`);
    }
    if (run.tests.length === 0 && run.testResultId) {
      testResultIds.push(run.testResultId);
      urls.push(`${app}/results/${run.testResultId}`);
    }
    for (const test of run.tests) {
      if (test.result) {
        testResultIds.push(test.result._id);
        if (run.kind !== 'suite') urls.push(`${app}/results/${test.result._id}`);
      }
      if (
        (test.state === 'failed' || test.state === 'error') &&
        test.testId &&
        !failedTestIds.includes(test.testId)
      ) {
        failedTestIds.push(test.testId);
      }
    }
  }
  return {
    passing: verdict ? String(verdict.passing) : '',
    counts: countsJson(counts),
    'suite-result-ids': suiteResultIds.join(','),
    'test-result-ids': testResultIds.join(','),
    'failed-test-ids': failedTestIds.join(','),
    'result-urls': urls.join('\n'),
    'results-json': resultsPath,
  };
}
