/** Which screenshots of a run to keep: a pure choice over the run model. */
import { resultImages } from '../api/screenshots.js';
import type { KeptTestResult } from '../run/kept-result.js';
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
  /** Path inside the artifact, forward slashes ({@link screenshotPath}). */
  relativePath: string;
  state: TestState;
}

/** States whose final screenshot `failed` mode keeps. */
const FAILED_STATES: ReadonlySet<TestState> = new Set(['failed', 'error', 'timed-out']);

/** The results of one test run that `mode` keeps, final result first, without duplicates. */
function chosenResults(test: TestRun, mode: ScreenshotMode): KeptTestResult[] {
  const final = test.result;
  const failedAttempts = test.attempts.filter((a) => a.passing === false);
  const out: KeptTestResult[] = [];
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

function jobsFor(run: SuiteRun, test: TestRun, result: KeptTestResult): ScreenshotJob[] {
  const images = resultImages(result);
  const testName = test.testName || result.name;
  return (['screenshot', 'comparison'] as const).flatMap((kind) => {
    const image = images[kind];
    if (!image) return [];
    const relativePath = screenshotPath(run.suiteName, testName, run.variant, result._id, kind);
    return [{ resultId: result._id, kind, url: image.url, relativePath, state: test.state }];
  });
}

/**
 * The screenshots to download, unique `relativePath`s in summary order: for `failed`, failed/error/timed-out
 * results, failed attempts of flaky tests and failed screenshot comparisons; for `all`, every final result too.
 */
export function selectScreenshots(summary: RunSummary, mode: ScreenshotMode): ScreenshotJob[] {
  if (mode === 'none') return [];
  const seen = new Set<string>();
  const jobs: ScreenshotJob[] = [];
  for (const run of summary.runs) {
    for (const test of run.tests) {
      for (const result of chosenResults(test, mode)) {
        const images = jobsFor(run, test, result);
        if (images.length === 0 || seen.has(result._id)) continue;
        seen.add(result._id);
        jobs.push(...images);
      }
    }
  }
  return jobs;
}
