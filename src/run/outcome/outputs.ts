/** The step outputs (pure), small: ids, links and results.json's path (GitHub keeps about 1 MiB per job). */
import { countedAs, STATE_COUNT, type Counts, type Verdict } from './outcome.js';
import type { RunSummary } from '../types.js';

/** The count outputs, one integer (as a string) each, by the `Counts` key they show; also the `counts` JSON keys. */
const COUNT_KEYS = {
  total: 'total',
  ...STATE_COUNT,
  'screenshot-compare-failed': 'screenshotCompareFailed',
} as const;

type CountOutput = keyof typeof COUNT_KEYS;

/** Output name → value, as `core.setOutput` takes them. */
export type Outputs = Record<
  | 'passing'
  | 'counts'
  | CountOutput
  | 'suite-result-ids'
  | 'test-result-ids'
  | 'failed-test-ids'
  | 'result-urls'
  | 'results-json',
  string
>;

/** The counts by output name (kebab-case); null: not known (`wait: false` knows `total`, `error`). */
type CountValues = Record<CountOutput, number | null>;

/** The counts of a run the action waited for, by output name. */
export function countValues(counts: Counts): CountValues {
  const entries = Object.entries(COUNT_KEYS).map(([name, key]) => [name, counts[key]]);
  return Object.fromEntries(entries) as CountValues;
}

/** The counts for `wait: false`: `total` every run asked for, `error` those not started; the rest null. */
export function startedCountValues(counts: Pick<Counts, 'total' | 'error'>): CountValues {
  const unknown = Object.fromEntries(Object.keys(COUNT_KEYS).map((name) => [name, null])) as CountValues;
  return { ...unknown, total: counts.total, error: counts.error };
}

/**
 * Every output: `passing`, the counts (JSON and one per count, as strings), result ids and links, and the
 * path of results.json ('' when not written). Without waiting, `passing` and unknown counts are empty.
 */
export function computeOutputs(summary: RunSummary, verdict: Verdict, resultsPath: string): Outputs {
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
      const counted = countedAs(test.state, test.result?.screenshotComparePassing === false, verdict.policy);
      if (
        (counted === 'failed' || counted === 'error') &&
        test.testId &&
        !failedTestIds.includes(test.testId)
      ) {
        failedTestIds.push(test.testId);
      }
    }
  }
  const values = verdict.waited ? countValues(verdict.counts) : startedCountValues(verdict.counts);
  const countOutputs = Object.fromEntries(
    Object.entries(values).map(([name, value]) => [name, value === null ? '' : String(value)]),
  ) as Record<CountOutput, string>;
  return {
    passing: verdict.waited ? String(verdict.passing) : '',
    counts: JSON.stringify(values),
    ...countOutputs,
    'suite-result-ids': suiteResultIds.join(','),
    'test-result-ids': testResultIds.join(','),
    'failed-test-ids': failedTestIds.join(','),
    'result-urls': urls.join('\n'),
    'results-json': resultsPath,
  };
}
