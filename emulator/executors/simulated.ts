/**
 * The `simulated` executor: deterministic runs decided by a scenario attached to the test (seed file or
 * `POST /_emulator/scenarios`). No browser is started; every duration is multiplied by the time scale.
 */
import type { Executor, RunOutcome, RunRequest, StepOutcome } from './types.js';
import { iso } from '../util.js';
import { realClock, sleepOn } from '../clock.js';

/**
 * What a simulated run does. Every field is optional; without a scenario a test passes.
 * - `outcome`: `pass` (default) or `fail`.
 * - `failFirst`: the first N runs of the test fail (at `failingStep`, with `error`), later runs pass. Runs
 *   count in the order they start (any run of the test: alone, in a suite, each variant and data row), from
 *   when the scenario was attached: attaching it again starts again at zero. Excludes `outcome: 'fail'`.
 * - `failingStep`: zero-based index of the step that fails (default: the last step); later steps are not
 *   executed (`passing` null).
 * - `error`: the failing step's error (default `Element not found: <target>`).
 * - `stepDurationsMs`: one duration for every step, or one per step (default 1500 ms).
 * - `runDurationMs`: total run time; the time left after the steps is spent before the final screenshot
 *   (default: the steps' time plus 3000 ms).
 * - `consoleErrors`, `consoleLogs`: console entries (errors fail the run when `failOnJavaScriptError`).
 * - `screenshotDifference`: the screenshot difference (0..1) reported against the baseline.
 * - `hang`: the run never finishes; the engine cuts it at the run-time limit.
 * - `video`: the run records a video (the result's `video` is an object; otherwise null).
 * - `endUrl`: the last URL (default the start URL).
 */
export interface Scenario {
  outcome?: 'pass' | 'fail';
  failFirst?: number;
  failingStep?: number;
  error?: string;
  stepDurationsMs?: number | number[];
  runDurationMs?: number;
  consoleErrors?: string[];
  consoleLogs?: string[];
  screenshotDifference?: number;
  hang?: boolean;
  endUrl?: string;
  video?: boolean;
}

/**
 * Checks a scenario from a seed file or the admin API; returns it typed or throws an Error naming the field.
 */
export function parseScenario(value: unknown): Scenario {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new Error('scenario must be an object');
  }
  const s = value as Record<string, unknown>;
  const known = [
    'outcome',
    'failFirst',
    'failingStep',
    'error',
    'stepDurationsMs',
    'runDurationMs',
    'consoleErrors',
    'consoleLogs',
    'screenshotDifference',
    'hang',
    'endUrl',
    'video',
  ];
  for (const key of Object.keys(s))
    if (!known.includes(key)) throw new Error(`scenario: unknown field ${key}`);
  const isMs = (v: unknown) => typeof v === 'number' && Number.isFinite(v) && v >= 0;
  if (s.outcome !== undefined && s.outcome !== 'pass' && s.outcome !== 'fail') {
    throw new Error('scenario.outcome must be "pass" or "fail"');
  }
  if (s.failFirst !== undefined && !(Number.isInteger(s.failFirst) && (s.failFirst as number) >= 0)) {
    throw new Error('scenario.failFirst must be a non-negative integer');
  }
  if (s.failFirst !== undefined && s.outcome === 'fail') {
    throw new Error('scenario.failFirst and outcome "fail" exclude each other');
  }
  if (s.failingStep !== undefined && !(Number.isInteger(s.failingStep) && (s.failingStep as number) >= 0)) {
    throw new Error('scenario.failingStep must be a non-negative integer');
  }
  if (s.error !== undefined && typeof s.error !== 'string')
    throw new Error('scenario.error must be a string');
  if (
    s.stepDurationsMs !== undefined &&
    !isMs(s.stepDurationsMs) &&
    !(Array.isArray(s.stepDurationsMs) && s.stepDurationsMs.every(isMs))
  ) {
    throw new Error('scenario.stepDurationsMs must be a number of ms or an array of them');
  }
  if (s.runDurationMs !== undefined && !isMs(s.runDurationMs)) {
    throw new Error('scenario.runDurationMs must be a non-negative number');
  }
  for (const key of ['consoleErrors', 'consoleLogs']) {
    const v = s[key];
    if (v !== undefined && !(Array.isArray(v) && v.every((x) => typeof x === 'string'))) {
      throw new Error(`scenario.${key} must be an array of strings`);
    }
  }
  const d = s.screenshotDifference;
  if (d !== undefined && !(typeof d === 'number' && d >= 0 && d <= 1)) {
    throw new Error('scenario.screenshotDifference must be a number from 0 to 1');
  }
  if (s.hang !== undefined && typeof s.hang !== 'boolean') throw new Error('scenario.hang must be a boolean');
  if (s.video !== undefined && typeof s.video !== 'boolean')
    throw new Error('scenario.video must be a boolean');
  if (s.endUrl !== undefined && typeof s.endUrl !== 'string')
    throw new Error('scenario.endUrl must be a string');
  // A copy: each attached scenario is its own object, and `failFirst` counts runs per object.
  return { ...s };
}

export interface SimulatedExecutorOptions {
  /** The scenario of a run (by the request's test id); undefined = pass. */
  scenarioFor: (request: RunRequest) => Scenario | undefined;
  /**
   * Renders the final screenshot PNG of a run: width x height of the viewport, a label to draw, and the
   * fraction of pixels (0..1) to change against the plain rendering (the scenario's screenshot difference).
   */
  renderScreenshot: (width: number, height: number, label: string, variant: number) => Buffer;
}

/** Default duration of one simulated step (ms, before time scaling). */
export const DEFAULT_STEP_MS = 1500;
/** Default time after the steps (ms, before time scaling). */
export const DEFAULT_TAIL_MS = 3000;

/** Executes runs by their scenario; deterministic apart from real dates. */
export class SimulatedExecutor implements Executor {
  readonly name = 'simulated';
  /** Runs started per scenario object (for `failFirst`); a scenario attached anew starts at zero. */
  private readonly started = new WeakMap<Scenario, number>();
  constructor(private readonly options: SimulatedExecutorOptions) {}

  /**
   * Plays the scenario: sleeps each step's duration (scaled), fails at the failing step, waits out the
   * run duration and renders the screenshot. Rejects with an AbortError when `request.signal` aborts
   * (cancel or run-time limit); a `hang` scenario only ends that way. Under `failFirst: N` the first N runs
   * of the scenario fail and later ones pass.
   */
  async run(request: RunRequest): Promise<RunOutcome> {
    const scenario = this.options.scenarioFor(request) ?? {};
    const scale = request.timeScale;
    const clock = request.clock ?? realClock;
    let fail = scenario.outcome === 'fail';
    if (scenario.failFirst !== undefined) {
      const earlier = this.started.get(scenario) ?? 0;
      this.started.set(scenario, earlier + 1);
      fail = earlier < scenario.failFirst;
    }
    const failingStep = fail
      ? Math.min(scenario.failingStep ?? request.steps.length - 1, request.steps.length - 1)
      : -1;
    const durationOf = (i: number) => {
      const d = scenario.stepDurationsMs;
      if (Array.isArray(d)) return d[i] ?? DEFAULT_STEP_MS;
      return d ?? DEFAULT_STEP_MS;
    };
    const startUrl = request.startUrl;
    const steps: StepOutcome[] = [];
    let spent = 0;
    let stopped = false;
    let failureError: string | undefined;
    for (let i = 0; i < request.steps.length; i++) {
      const step = request.steps[i];
      if (stopped) {
        steps.push({ step, passing: null });
        continue;
      }
      await sleepOn(clock, durationOf(i) * scale, request.signal);
      spent += durationOf(i);
      const outcome: StepOutcome = {
        step,
        passing: true,
        dateExecuted: iso(clock.now()),
        url: startUrl,
      };
      if (i === failingStep) {
        outcome.passing = false;
        const target = typeof step.target === 'string' ? step.target : (step.target[0]?.selector ?? '');
        outcome.error = scenario.error ?? `Element not found: ${target}`;
        failureError = outcome.error;
        stopped = true;
      }
      steps.push(outcome);
    }
    if (fail && request.steps.length === 0) failureError = scenario.error ?? 'The test failed.';
    if (scenario.hang) {
      await new Promise<never>((_resolve, reject) => {
        const onAbort = () => reject(Object.assign(new Error('aborted'), { name: 'AbortError' }));
        if (request.signal.aborted) onAbort();
        request.signal.addEventListener('abort', onAbort, { once: true });
      });
    }
    const total = scenario.runDurationMs ?? spent + DEFAULT_TAIL_MS;
    await sleepOn(clock, Math.max(0, total - spent) * scale, request.signal);
    const now = iso(clock.now());
    const endUrl = scenario.endUrl ?? startUrl;
    const consoleErrors = scenario.consoleErrors ?? [];
    const console = [
      ...(scenario.consoleLogs ?? []).map((output) => ({
        dateExecuted: now,
        error: false,
        output,
        url: endUrl,
      })),
      ...consoleErrors.map((output) => ({ dateExecuted: now, error: true, output, url: endUrl })),
    ];
    let passing = !fail;
    let error = failureError;
    if (passing && request.failOnJavaScriptError && consoleErrors.length > 0) {
      passing = false;
      error = `JavaScript error: ${consoleErrors[0]}`;
    }
    return {
      passing,
      steps,
      console,
      urls: endUrl === startUrl ? [startUrl] : [startUrl, endUrl],
      endUrl,
      screenshot: request.disableVisuals
        ? undefined
        : this.options.renderScreenshot(
            request.viewport.width,
            request.viewport.height,
            request.testName,
            scenario.screenshotDifference ?? 0,
          ),
      extractions: {},
      error,
      forcedScreenshotDifference: scenario.screenshotDifference,
      video: scenario.video === true,
    };
  }

  async close(): Promise<void> {}
}
