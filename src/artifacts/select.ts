/** Which screenshots of a run to keep: a pure choice over the run model. */
import { resultImages } from '../api/screenshots.js';
import type { TestResult } from '../api/types.js';
import type { RunSummary, SuiteRun, TestRun, TestState } from '../run/types.js';
import { screenshotPath } from './names.js';

/** The `screenshots` input: `failed` (default), `all` or `none`. */
export type ScreenshotMode = 'failed' | 'all' | 'none';

/** One image to fetch. */
export interface ScreenshotJob {
  resultId: string;
  /** The final screenshot, or the screenshot comparison image. */
  kind: 'screenshot' | 'comparison';
  /** Where the image lives (public object storage). */
  url: string;
  /** Size the service reported, in bytes (0 when unknown). */
  expectedBytes: number;
  /** Path inside the artifact, forward slashes ({@link screenshotPath}). */
  relativePath: string;
  suiteName: string;
  testName: string;
  /** `SuiteRun.key` of the run the result belongs to. */
  runKey: string;
  state: TestState;
}

/** States whose final screenshot `failed` mode keeps. */
const FAILED_STATES: ReadonlySet<TestState> = new Set(['failed', 'error', 'timed-out']);

function hasImage(result: TestResult): boolean {
  const images = resultImages(result);
  return !!images.screenshot || !!images.comparison;
}

/** The results of one test run that `mode` keeps, final result first, without duplicates. */
function chosenResults(test: TestRun, mode: ScreenshotMode): TestResult[] {
  const final = test.result;
  const failedAttempts = test.attempts.filter((a) => a.passing === false);
  const out: TestResult[] = [];
  if (mode === 'all') {
    if (final) out.push(final);
    if (test.state === 'flaky') out.push(...failedAttempts);
  } else if (mode === 'failed') {
    if (final && (FAILED_STATES.has(test.state) || final.screenshotComparePassing === false)) out.push(final);
    // A flaky test passed in the end: its failing attempts show what went wrong.
    if (test.state === 'flaky') out.push(...failedAttempts);
    for (const a of test.attempts) if (a.screenshotComparePassing === false) out.push(a);
  }
  return out;
}

function jobsFor(run: SuiteRun, test: TestRun, result: TestResult): ScreenshotJob[] {
  const jobs: ScreenshotJob[] = [];
  const base = {
    resultId: result._id,
    suiteName: run.suiteName,
    testName: test.testName || result.name,
    runKey: run.key,
    state: test.state,
  };
  const images = resultImages(result);
  if (images.screenshot) {
    jobs.push({
      ...base,
      kind: 'screenshot',
      url: images.screenshot.url,
      expectedBytes: images.screenshot.bytes,
      relativePath: screenshotPath(run.suiteName, base.testName, run.variant, result._id, 'screenshot'),
    });
  }
  if (images.comparison) {
    jobs.push({
      ...base,
      kind: 'comparison',
      url: images.comparison.url,
      expectedBytes: images.comparison.bytes,
      relativePath: screenshotPath(run.suiteName, base.testName, run.variant, result._id, 'comparison'),
    });
  }
  return jobs;
}

/**
 * Picks the screenshots to download (pure): for `failed`, failed/error/timed-out results, failed attempts
 * of flaky tests and failed screenshot comparisons; for `all`, every final result too.
 * @returns jobs with unique `relativePath`s, in summary order
 */
export function selectScreenshots(summary: RunSummary, mode: ScreenshotMode): ScreenshotJob[] {
  if (mode === 'none') return [];
  const seen = new Set<string>();
  const jobs: ScreenshotJob[] = [];
  for (const run of summary.runs) {
    for (const test of run.tests) {
      for (const result of chosenResults(test, mode)) {
        if (!hasImage(result)) continue;
        if (seen.has(result._id)) continue;
        seen.add(result._id);
        jobs.push(...jobsFor(run, test, result));
      }
    }
  }
  return jobs;
}
