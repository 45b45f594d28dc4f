/**
 * The contract between the emulator's run engine and its executors. An executor turns one run request
 * (a test's steps and the run's effective settings) into an outcome; the engine owns the result records,
 * timing of state changes, screenshot storage and comparison bookkeeping.
 *
 * Executors: `simulated` (deterministic scenarios) and `browser` (headless Chromium via playwright-core).
 */
import type { Step } from '../api-types.js';
import type { EmulatorClock } from '../clock.js';

export interface RunRequest {
  /** Test name (for logs). */
  testName: string;
  /** The stored test's id; null or absent for an on-demand run (the simulated executor finds scenarios by it). */
  testId?: string | null;
  /** Steps in stored form (no results yet). */
  steps: Step[];
  startUrl: string;
  viewport: { width: number; height: number };
  userAgent?: string;
  httpAuth?: { username: string; password: string };
  /** Suite, test, data-row and execute variables merged, later ones winning. */
  variables: Record<string, string>;
  /** ms between steps. */
  globalStepDelay: number;
  /** ms to wait for an element. */
  maxWaitDelay: number;
  /** ms to wait for pending network activity after a step. */
  maxAjaxDelay: number;
  /** ms before the final screenshot. */
  finalDelay: number;
  failOnJavaScriptError: boolean;
  /** The run-time limit in ms (10 minutes by default, scaled by the emulator's time scale). */
  runTimeLimitMs: number;
  /** Comma-separated CSS selectors hidden before capture. */
  screenshotExclusions?: string;
  /** CSS or XPath selector captured instead of the page. */
  screenshotTarget?: string;
  disableVisuals: boolean;
  /** Aborted when the run is cancelled. */
  signal: AbortSignal;
  /** Emulator's time scale (1 = real time); simulated durations are multiplied by it. */
  timeScale: number;
  /**
   * The emulator's clock (default real time): the simulated executor waits and dates its steps on it. The
   * browser executor drives a real browser, in real time, whatever the clock.
   */
  clock?: EmulatorClock;
}

export interface StepOutcome {
  /** The step as stored, plus result fields. */
  step: Step;
  passing: boolean | null;
  /** ISO 8601; absent when not executed. */
  dateExecuted?: string;
  url?: string;
  error?: string;
  conditionResult?: boolean;
}

export interface ConsoleOutcome {
  dateExecuted: string;
  error: boolean;
  output: string;
  url: string;
}

export interface RunOutcome {
  passing: boolean;
  steps: StepOutcome[];
  console: ConsoleOutcome[];
  /** Every URL visited, in order. */
  urls: string[];
  endUrl: string;
  /** Final screenshot as PNG (absent when visuals are disabled). */
  screenshot?: Buffer;
  /** Variables extracted by `extract`/`store` steps. */
  extractions: Record<string, string>;
  /** A run-level error (e.g. run-time limit reached, start URL unreachable). */
  error?: string;
  /** For the simulated executor: the forced screenshot difference (0..1) against the baseline, if any. */
  forcedScreenshotDifference?: number;
  /** True when the run recorded a video (the result's `video` becomes an object). */
  video?: boolean;
}

export interface Executor {
  readonly name: string;
  run(request: RunRequest): Promise<RunOutcome>;
  close(): Promise<void>;
}
