import type { Step } from '../../src/api/types.js';
import { chromiumAvailable, defaultChromiumPath } from '../../demo/executor/chromium.js';
import type { RunRequest } from '../../emulator/executors/types.js';

export const hasChromium = chromiumAvailable();
if (!hasChromium) {
  console.log(`Browser executor tests skipped: no Chromium at ${defaultChromiumPath()} (set CHROMIUM_PATH)`);
}

/** Time limit of a test or hook that drives Chromium, ms: a bound against a hang (busy cores slow a browser). */
export const BROWSER_TIMEOUT_MS = 180_000;

/** A stored-form step. */
export function step(
  command: string,
  target: Step['target'] = '',
  value = '',
  extra: Partial<Step> = {},
): Step {
  return {
    sequence: 0,
    command,
    target,
    value,
    variableName: '',
    condition: null,
    optional: false,
    private: false,
    ...extra,
  };
}

/**
 * A run request with quick settings; steps are numbered in order. Element waits are long (a step that
 * passes returns as soon as its element is there, also on a slow machine): a test of a failing step sets
 * a short `maxWaitDelay`. No screenshot unless a test asks for one (`disableVisuals: false`).
 */
export function request(startUrl: string, steps: Step[], over: Partial<RunRequest> = {}): RunRequest {
  return {
    testName: 'browser test',
    steps: steps.map((s, i) => ({ ...s, sequence: i })),
    startUrl,
    viewport: { width: 800, height: 600 },
    variables: {},
    globalStepDelay: 0,
    maxWaitDelay: 15_000,
    maxAjaxDelay: 2000,
    finalDelay: 0,
    failOnJavaScriptError: false,
    runTimeLimitMs: 60_000,
    disableVisuals: true,
    signal: new AbortController().signal,
    timeScale: 1,
    ...over,
  };
}
