/**
 * The files of runs and the screenshot comparison bookkeeping (docs/api-contract.md, "Endpoints the action calls", screenshot
 * comparison): screenshots and comparison images served under `/_emulator/files/`, placeholder videos, the
 * comparison against the baseline and accepting a screenshot as the new baseline.
 */
import type { RunOutcome } from './executors/types.js';
import type { ImageKit } from './images.js';
import type { PlannedTest } from './run-records.js';
import type { ResultMeta, Store, TestRecord, TestResult } from './store.js';
import { invalid } from './util.js';

/** The key of a test's screenshot baseline: the run's browser, viewport and region. */
export function baselineKey(result: TestResult): string {
  const { width, height } = result.viewportSize;
  return `${result.browser ?? 'chrome'} ${width}x${height} ${result.region ?? 'us-east-1'}`;
}

export class RunFiles {
  constructor(
    private readonly store: Store,
    private readonly images: ImageKit,
    /** Origin the emulator serves files from, e.g. `http://127.0.0.1:4010`. */
    private readonly origin: () => string,
  ) {}

  /**
   * Copies an executor's outcome into the result: step outcomes (a step with a condition gets its
   * `condition.result`), console, URLs, extractions, `error` (null when none), video, screenshots and the
   * comparison. The caller sets `passing` and the dates.
   */
  recordOutcome(result: TestResult, plan: PlannedTest, outcome: RunOutcome, meta: ResultMeta): void {
    outcome.steps.forEach((o, i) => {
      const step = result.steps[i];
      if (!step) return;
      step.passing = o.passing;
      if (o.dateExecuted) step.dateExecuted = o.dateExecuted;
      if (o.url !== undefined) step.url = o.url;
      if (o.error !== undefined) step.error = o.error;
      if (step.condition)
        step.condition = { ...step.condition, result: o.conditionResult ?? o.passing !== null };
    });
    result.console = outcome.console.map((c) => ({ _id: this.store.newId(), ...c }));
    result.urls = outcome.urls;
    result.endUrl = outcome.endUrl;
    result.extractions = outcome.extractions;
    result.error = outcome.error ? { details: outcome.error } : null;
    if (outcome.video) result.video = this.storeVideo(result);
    if (outcome.screenshot && !result.disableVisuals) {
      meta.screenshot = outcome.screenshot;
      const original = this.storeImage(`${result._id}-original.png`, outcome.screenshot);
      const small = this.storeImage(`${result._id}-small.png`, this.images.thumbnail(outcome.screenshot));
      result.screenshot = { original, small };
      if (result.screenshotCompareEnabled) this.compare(result, plan, outcome);
    }
  }

  /**
   * Compares the run's screenshot with the baseline: the `screenshotCompareBaselineResult` parameter's
   * result, else the test's baseline for the run's browser, viewport and region. Without one the run reports
   * no comparison. A passing run whose comparison did not fail becomes the baseline for its key (a failed
   * run never does). Sets the result's comparison fields and images.
   */
  compare(result: TestResult, plan: PlannedTest, outcome: RunOutcome): void {
    const meta = this.store.resultMeta.get(result._id)!;
    const test = plan.stored ? this.store.tests.get(plan.test._id) : undefined;
    const key = baselineKey(result);
    const baselineId = result.screenshotCompareBaselineResult ?? test?.baselines[key] ?? null;
    const baseline = baselineId ? this.store.resultMeta.get(baselineId)?.screenshot : undefined;
    const images = this.images;
    const forced = outcome.forcedScreenshotDifference;
    const keep = () => {
      if (test && outcome.passing === true && result.screenshotComparePassing !== false)
        test.baselines[key] = result._id;
    };
    // A simulated scenario's `screenshotDifference` stands for a baseline that differs by that much.
    if (!baseline && forced === undefined) return keep();
    let difference = 0;
    let diff: Buffer | undefined;
    if (baseline) ({ difference, diff } = images.compare(baseline, meta.screenshot!));
    // The simulated executor forces the difference it was told to show (its pixels differ about as much).
    if (forced !== undefined) difference = forced;
    result.screenshotCompareBaselineResult = baseline ? baselineId : null;
    result.screenshotCompareDifference = difference;
    result.screenshotComparePassing = difference <= result.screenshotCompareThreshold;
    keep();
    if (diff) {
      result.screenshotCompare = {
        compareOriginal: this.storeImage(`${result._id}-compare-original.png`, diff),
        compareSmall: this.storeImage(`${result._id}-compare-small.png`, images.thumbnail(diff)),
      };
    }
  }

  /** A placeholder recording served under `/_emulator/files/` (the service's `video` shape). */
  storeVideo(result: TestResult): NonNullable<TestResult['video']> {
    const name = `${result._id}-video.mp4`;
    this.store.files.set(name, { contentType: 'video/mp4', body: Buffer.from('emulator placeholder video') });
    const { width, height } = result.viewportSize;
    return {
      dims: { h: height, w: width },
      path: `videos/${name}`,
      url: `${this.origin()}/_emulator/files/${name}`,
    };
  }

  /** Stores a PNG under `/_emulator/files/NAME`; returns the service's image reference. */
  storeImage(name: string, png: Buffer) {
    this.store.files.set(name, { contentType: 'image/png', body: png });
    const { width, height } = this.images.size(png);
    return {
      defaultUrl: `${this.origin()}/_emulator/files/${name}`,
      dims: { h: height, w: width },
      path: `screenshots/${name}`,
      size: png.length,
    };
  }

  /**
   * Makes the screenshot of the test's latest finished result its baseline (docs/api-contract.md, "Endpoints the action calls").
   * Throws VALIDATION_ERROR when the test has no finished result with a screenshot.
   */
  acceptScreenshot(test: TestRecord): void {
    const suite = this.store.suites.get(test.suite);
    if (!(test.screenshotCompareEnabled ?? suite?.screenshotCompareEnabled ?? false))
      invalid(`Unable to accept screenshot: screenshot comparison is not enabled for test ${test._id}`);
    if (test.screenshotComparePassing === true)
      invalid(
        `Unable to accept screenshot: the screenshot comparison of test ${test._id} is already passing`,
      );
    let best: { seq: number; id: string } | undefined;
    for (const [id, meta] of this.store.resultMeta) {
      if (meta.testId !== test._id || !meta.screenshot) continue;
      if (!best || meta.seq > best.seq) best = { seq: meta.seq, id };
    }
    if (!best)
      invalid(`Unable to accept screenshot: test ${test._id} has no finished result with a screenshot`);
    const result = this.store.results.get(best.id)!;
    test.baselines[baselineKey(result)] = best.id;
    test.screenshotComparePassing = result.screenshotCompareEnabled ? true : test.screenshotComparePassing;
  }
}
