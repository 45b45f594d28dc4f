/**
 * CSV listings of suite results and test results (docs/api-contract.md, "Endpoints the action calls": `results/csv/`, and "Test
 * endpoints": `results/csv/`), written with csv-stringify. Header columns are exactly the contract's, in its
 * order; Duration is in seconds as a decimal; dates are ISO 8601; fields holding commas, quotes or line
 * breaks are quoted. Rows are written in the order given (the endpoints pass them newest first).
 */
import { stringify } from 'csv-stringify/sync';
import type { SuiteResult, TestResult } from '../store.js';

/** Contract: suite results CSV header columns, in order. */
export const SUITE_RESULTS_CSV_COLUMNS = [
  'Suite Result ID',
  'Suite Result URL',
  'Name',
  'Start URL',
  'Tests Passed',
  'Screenshots Passed',
  'Tests Passing',
  'Tests Failing',
  'Test Unknown',
  'Screenshots Passing',
  'Screenshots Failing',
  'Screenshots Unknown',
  'Duration',
  'Date Triggered',
  'Date Started',
  'Date Completed',
] as const;

/** Contract: test results CSV header columns, in order. */
export const TEST_RESULTS_CSV_COLUMNS = [
  'Test Result ID',
  'Test Result URL',
  'Name',
  'Browser',
  'Screen Size',
  'Geolocation',
  'Start URL',
  'End URL',
  'Status',
  'Passed',
  'Screenshot Passed',
  'Screenshot Difference',
  'Error',
  'Duration',
  'Video URL',
  'Screenshot URL',
  'Screenshot Comparison URL',
  'Date Triggered',
  'Date Started',
  'Date Completed',
] as const;

/** Milliseconds to seconds as a decimal string with millisecond precision (`2500` -> `2.500`); empty when unknown. */
function seconds(ms: number | null | undefined): string {
  if (ms === null || ms === undefined || !Number.isFinite(ms)) return '';
  return (Math.round(ms) / 1000).toFixed(3);
}

/** An ISO 8601 UTC timestamp, or empty when absent or not a date. */
function isoDate(value: string | undefined | null): string {
  if (!value) return '';
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? '' : date.toISOString();
}

function bool(value: boolean | null | undefined): string {
  return value === true ? 'true' : value === false ? 'false' : '';
}

function base(appUrl: string): string {
  return appUrl.replace(/\/+$/, '');
}

/**
 * The suite results CSV: header plus one row per suite result. Suite Result URL is
 * `{appUrl}/suite-results/{id}`; Tests Passed and Screenshots Passed are `true`, `false` or empty (running,
 * cancelled); Duration is `executionTime` in seconds.
 */
export function suiteResultsCsv(rows: SuiteResult[], appUrl: string): string {
  const app = base(appUrl);
  const records = rows.map((r) => [
    r._id,
    `${app}/suite-results/${r._id}`,
    r.name,
    r.startUrl,
    bool(r.passing),
    bool(r.screenshotComparePassing),
    r.countPassing,
    r.countFailing,
    r.countUnknown,
    r.countScreenshotComparePassing,
    r.countScreenshotCompareFailing,
    r.countScreenshotCompareUnknown,
    seconds(r.executionTime),
    isoDate(r.dateCreated),
    isoDate(r.dateExecutionStarted),
    isoDate(r.dateExecutionFinished),
  ]);
  return stringify([[...SUITE_RESULTS_CSV_COLUMNS], ...records]);
}

/** Status of a test result: `passing`, `failing`, `cancelled` (status 8) or `running`. */
export function testResultStatus(r: Pick<TestResult, 'passing' | 'status'>): string {
  if (r.passing === true) return 'passing';
  if (r.passing === false) return 'failing';
  return r.status === 8 ? 'cancelled' : 'running';
}

/** The error text of a test result: `error.details`, else the first failing step's error, else empty. */
function resultError(r: TestResult): string {
  if (typeof r.error?.details === 'string' && r.error.details !== '') return r.error.details;
  const failing = r.steps?.find((s) => s.passing === false && !s.optional);
  return failing?.error ?? '';
}

/**
 * The test results CSV: header plus one row per test result. Test Result URL is `{appUrl}/results/{id}`;
 * Screen Size is `{width}x{height}`; Geolocation is the region; Status see `testResultStatus`; Screenshot
 * Difference is the compared fraction (0..1) or empty; Duration is `executionTime` in seconds.
 */
export function testResultsCsv(rows: TestResult[], appUrl: string): string {
  const app = base(appUrl);
  const records = rows.map((r) => [
    r._id,
    `${app}/results/${r._id}`,
    r.name,
    r.browser ?? '',
    r.viewportSize ? `${r.viewportSize.width}x${r.viewportSize.height}` : '',
    r.region ?? '',
    r.startUrl,
    r.endUrl,
    testResultStatus(r),
    bool(r.passing),
    bool(r.screenshotComparePassing),
    r.screenshotCompareDifference ?? '',
    resultError(r),
    seconds(r.executionTime),
    r.video?.url ?? '',
    r.screenshot?.original?.defaultUrl ?? '',
    r.screenshotCompare?.compareOriginal?.defaultUrl ?? '',
    isoDate(r.dateCreated),
    isoDate(r.dateExecutionStarted),
    isoDate(r.dateExecutionFinished),
  ]);
  return stringify([[...TEST_RESULTS_CSV_COLUMNS], ...records]);
}
