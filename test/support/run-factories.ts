/**
 * Builders for unit tests of the run model: plain data (no I/O), and {@link runInWorld}, which runs a plan
 * against a virtual world's emulator.
 */
import { refId } from '../../src/api/refs.js';
import type { SuiteResult, TestResult } from '../../emulator/api-types.js';
import { runPlan, type EngineOptions, type RunPlan } from '../../src/run/engine.js';
import type { RunEvent } from '../../src/run/events.js';
import type { RunSummary, SuiteRun, TestRun, TestState } from '../../src/run/types.js';
import type { RunLog } from '../../src/common/log.js';
import type { Emulator } from '../../emulator/index.js';
import type { World } from './world.js';

let counter = 0;
function id(): string {
  counter += 1;
  return counter.toString(16).padStart(24, '0');
}

export function testResult(overrides: Partial<TestResult> = {}): TestResult {
  return {
    _id: id(),
    uuid: 'u',
    name: 'A test',
    test: { _id: id(), name: 'A test', organization: 'o', suite: 's' },
    suiteResult: null,
    organization: 'o',
    user: { _id: 'u', name: 'User' },
    browser: 'chrome',
    region: 'us-east-1',
    language: null,
    startUrl: 'https://example.test/',
    endUrl: '',
    urls: [],
    steps: [],
    passing: true,
    autoRetry: false,
    autoRetryTriggered: false,
    commentCount: 0,
    comments: [],
    console: [],
    dateCreated: '2026-01-01T00:00:00.000Z',
    dateExecutionStarted: '2026-01-01T00:00:00.000Z',
    dateExecutionFinished: '2026-01-01T00:00:05.000Z',
    executionHost: 'h',
    executionTime: 5000,
    disableVisuals: false,
    disallowInsecureCertificates: false,
    failOnJavaScriptError: false,
    finalDelay: 0,
    globalStepDelay: 250,
    maxAjaxDelay: 10000,
    maxWaitDelay: 15000,
    filters: [],
    extractions: {},
    screenshotCompareBaselineResult: null,
    screenshotCompareDifference: null,
    screenshotCompareEnabled: null,
    screenshotComparePassing: null,
    screenshotCompareThreshold: 0.1,
    variables: {},
    viewportSize: { width: 1024, height: 768 },
    ...overrides,
  };
}

export function suiteResult(overrides: Partial<SuiteResult> = {}): SuiteResult {
  return {
    _id: id(),
    name: 'A suite',
    passing: true,
    screenshotComparePassing: null,
    startUrl: '',
    commentCount: 0,
    comments: [],
    countPassing: 1,
    countFailing: 0,
    countUnknown: 0,
    countScreenshotComparePassing: 0,
    countScreenshotCompareFailing: 0,
    countScreenshotCompareUnknown: 0,
    dateCreated: '2026-01-01T00:00:00.000Z',
    dateExecutionStarted: '2026-01-01T00:00:00.000Z',
    dateExecutionFinished: '2026-01-01T00:00:05.000Z',
    executionTime: 5000,
    suite: { _id: id(), name: 'A suite', organization: 'o' },
    user: { _id: 'u', name: 'User' },
    ...overrides,
  };
}

/**
 * A test run in `state`: its final result made by {@link testResult} from `result` (null: none yet), its
 * earlier attempts `attempts`.
 */
export function testRun(
  state: TestState,
  result: Partial<TestResult> | null = {},
  attempts: TestResult[] = [],
): TestRun {
  const r = result === null ? null : testResult(result);
  return { testId: refId(r?.test), testName: r?.name ?? 'A test', state, result: r, attempts };
}

export function suiteRun(tests: TestRun[], overrides: Partial<SuiteRun> = {}): SuiteRun {
  return {
    kind: 'suite',
    key: `suite-${id()}-0`,
    suiteId: id(),
    suiteName: 'A suite',
    variant: {},
    triggeredAt: '2026-01-01T00:00:00.000Z',
    tests,
    ...overrides,
  };
}

/** A run summary of `runs`, started and finished at fixed times. */
export function runSummary(runs: SuiteRun[], overrides: Partial<RunSummary> = {}): RunSummary {
  return {
    runs,
    startedAt: '2026-01-01T00:00:00.000Z',
    finishedAt: '2026-01-01T00:01:00.000Z',
    appUrl: 'https://app.ghostinspector.com',
    ...overrides,
  };
}

/** A run plan for engine tests against the emulator: organization `org-acme`, visuals off, 120 s timeout. */
export function runPlanOf(overrides: Partial<RunPlan>): RunPlan {
  return {
    suiteIds: [],
    folderIds: [],
    testIds: [],
    repoTests: [],
    organizationId: 'org-acme',
    execute: { disableVisuals: true },
    startUrls: [],
    wait: true,
    timeoutMs: 120_000,
    cancelOnTimeout: true,
    retryFailed: 0,
    ...overrides,
  };
}

/** A `RunLog` that keeps every line (warnings prefixed `warning: `, a group as its title then its lines). */
export function collectingLog(): RunLog & { lines: string[] } {
  const lines: string[] = [];
  return {
    lines,
    info: (l) => lines.push(l),
    warning: (l) => lines.push(`warning: ${l}`),
    group: (title, body) => lines.push(title, ...body),
  };
}

/** The paths of the executes `emulator` received, in order, without a trailing slash. */
export const executePaths = (emulator: Emulator): string[] =>
  emulator
    .requests()
    .filter((q) => q.method === 'POST' && /\/execute\/?$/.test(q.path))
    .map((q) => q.path.replace(/\/$/, ''));

/**
 * Runs `plan` (over {@link runPlanOf}'s defaults) to its end on `world`'s virtual clock, with the real client
 * under `apiKey`; every event is kept in order. `options` add to the engine's or replace them; their
 * `onEvent` hears each event as it comes.
 */
export async function runInWorld(
  world: World,
  apiKey: string,
  plan: Partial<RunPlan>,
  options: Partial<EngineOptions> = {},
): Promise<{ summary: RunSummary; events: RunEvent[] }> {
  const events: RunEvent[] = [];
  const summary = await runPlan(runPlanOf(plan), {
    api: world.client({ apiKey }),
    clock: world.clock,
    ...options,
    onEvent: (e) => {
      events.push(e);
      options.onEvent?.(e);
    },
  });
  return { summary, events };
}
