/**
 * Fixture builder for report tests: realistic RunSummary objects made of TestResult objects with every
 * required field, shaped like the service's answers (contract "Test result", "Suite result").
 * Deterministic: ids and dates come from counters and a fixed clock, never from randomness.
 */
import { refId } from '../../../src/api/refs.js';
import type { ConsoleEntry, ImageRef, Step, SuiteResult, TestResult } from '../../../emulator/api-types.js';
import type { KeptTestResult } from '../../../src/run/kept-result.js';
import type { RunSummary, SuiteRun, TestRun, TestState, Variant } from '../../../src/run/types.js';
import { runSummary, testResult } from '../../support/run-factories.js';

export const APP_URL = 'https://app.ghostinspector.com';
export const ORG_ID = '5a1b2c3d4e5f60718293a4b5';
const BASE_TIME = Date.parse('2026-03-04T10:00:00.000Z');

/** A fresh id factory: 24 hex characters, like the service's, counting up from a prefix. */
export function idFactory(prefix: string): () => string {
  let n = 0;
  return () => {
    n += 1;
    return prefix + n.toString(16).padStart(24 - prefix.length, '0');
  };
}

export interface StepSpec {
  command?: string;
  target?: Step['target'];
  value?: string;
  /** true passed, false failed, null not run. */
  passing?: boolean | null;
  optional?: boolean;
  private?: boolean;
  error?: string;
  /** A conditional step whose condition was false (skipped). */
  conditionFalse?: boolean;
  /** Where the step came from (default: the result's own test, at its position). */
  source?: { test: string; sequence: number };
}

export interface ResultSpec {
  name: string;
  /** finished passing, finished failing, running (null), cancelled (status 8). */
  outcome: 'passed' | 'failed' | 'running' | 'cancelled';
  steps?: StepSpec[];
  consoleErrors?: string[];
  consoleLogs?: string[];
  executionTime?: number;
  browser?: string;
  region?: string;
  viewport?: { width: number; height: number };
  screenshotCompare?: { difference: number; threshold?: number; passing: boolean | null };
  startUrl?: string;
  endUrl?: string;
  video?: boolean;
  errorDetails?: string;
  suiteResultId?: string | null;
  suiteId?: string;
  testId?: string | null;
  variables?: Record<string, string | number>;
}

/** Builds TestResult and SuiteResult objects with every required field. */
export class Fixtures {
  private readonly resultId = idFactory('6f');
  private readonly stepId = idFactory('7a');
  private readonly consoleId = idFactory('7c');
  private readonly testIdGen = idFactory('5e');
  private clock = BASE_TIME;

  /** Advances the fixture clock and returns the ISO date. */
  at(offsetMs = 0): string {
    return new Date(this.clock + offsetMs).toISOString();
  }

  image(kind: string, id: string, w: number, h: number): ImageRef {
    const path = `results/${id}/${kind}.png`;
    return {
      defaultUrl: `https://ghostinspector-prod.s3.amazonaws.com/${path}`,
      dims: { h, w },
      path,
      size: w * h,
    };
  }

  result(spec: ResultSpec): TestResult {
    const id = this.resultId();
    const started = this.clock;
    const executionTime =
      spec.outcome === 'passed' || spec.outcome === 'failed' ? (spec.executionTime ?? 4321) : null;
    this.clock += 1000;
    const viewport = spec.viewport ?? { width: 1024, height: 768 };
    const startUrl = spec.startUrl ?? 'https://shop.example.com/';
    const finished = spec.outcome === 'passed' || spec.outcome === 'failed';
    const testId = spec.testId === undefined ? this.testIdGen() : spec.testId;
    const stepSpecs = spec.steps ?? defaultSteps(spec.outcome);
    const steps: Step[] = stepSpecs.map((s, i) => ({
      _id: this.stepId(),
      sequence: i,
      command: s.command ?? 'click',
      target: s.target ?? `#element-${i + 1}`,
      value: s.value ?? '',
      variableName: '',
      condition: s.conditionFalse ? { statement: 'return false;', result: false } : null,
      optional: Boolean(s.optional),
      private: Boolean(s.private),
      notes: '',
      passing: s.conditionFalse ? null : s.passing === undefined ? finished : s.passing,
      ...(s.passing !== null && !s.conditionFalse && spec.outcome !== 'cancelled'
        ? { dateExecuted: new Date(started + 200 * (i + 1)).toISOString(), url: startUrl }
        : {}),
      ...(s.error ? { error: s.error } : {}),
      extra: { source: s.source ?? { sequence: i, test: testId ?? 'on-demand' } },
    }));
    const console: ConsoleEntry[] = [
      ...(spec.consoleLogs ?? []).map((output) => ({ output, error: false })),
      ...(spec.consoleErrors ?? []).map((output) => ({ output, error: true })),
    ].map((c, i) => ({
      _id: this.consoleId(),
      dateExecuted: new Date(started + 100 * (i + 1)).toISOString(),
      error: c.error,
      output: c.output,
      url: startUrl,
    }));
    const compare = spec.screenshotCompare;
    const result = testResult({
      _id: id,
      uuid: `0b7c6f1e-${id.slice(0, 4)}-4c1d-9e2f-${id.slice(-12)}`,
      name: spec.name,
      test: testId
        ? { _id: testId, name: spec.name, organization: ORG_ID, suite: spec.suiteId ?? 'suite-without-id' }
        : null,
      suiteResult: spec.suiteResultId ?? null,
      organization: ORG_ID,
      user: { _id: '5a0000000000000000000001', name: 'CI Robot' },
      browser: spec.browser ?? 'chrome',
      region: spec.region ?? 'us-east-1',
      startUrl,
      endUrl: finished ? (spec.endUrl ?? `${startUrl}done`) : '',
      urls: finished ? [startUrl, spec.endUrl ?? `${startUrl}done`] : [startUrl],
      steps,
      passing: spec.outcome === 'passed' ? true : spec.outcome === 'failed' ? false : null,
      ...(spec.outcome === 'cancelled' ? { status: 8 } : {}),
      console,
      dateCreated: new Date(started - 500).toISOString(),
      dateExecutionStarted: new Date(started).toISOString(),
      ...(finished || spec.outcome === 'cancelled'
        ? { dateExecutionFinished: new Date(started + (executionTime ?? 800)).toISOString() }
        : {}),
      executionHost: 'test-runner-17',
      executionTime,
      ...(spec.errorDetails ? { error: { details: spec.errorDetails } } : {}),
      ...(finished
        ? {
            screenshot: {
              original: this.image('screenshot', id, viewport.width, viewport.height),
              small: this.image(
                'screenshot-small',
                id,
                320,
                Math.round((320 * viewport.height) / viewport.width),
              ),
            },
          }
        : {}),
      ...(compare
        ? {
            screenshotCompare: {
              compareOriginal: this.image('compare', id, viewport.width, viewport.height),
              compareSmall: this.image('compare-small', id, 320, 240),
            },
          }
        : {}),
      screenshotCompareBaselineResult: compare ? '6f0000000000000000000abc' : null,
      screenshotCompareDifference: compare ? compare.difference : null,
      screenshotCompareEnabled: Boolean(compare),
      screenshotComparePassing: compare ? compare.passing : null,
      screenshotCompareThreshold: compare?.threshold ?? 0.1,
      variables: spec.variables ?? {},
      video: finished
        ? spec.video === false
          ? null
          : {
              dims: { h: viewport.height, w: viewport.width },
              path: `videos/${id}.mp4`,
              url: `https://ghostinspector-prod.s3.amazonaws.com/videos/${id}.mp4`,
            }
        : null,
      viewportSize: viewport,
    });
    // The defaults are those of a finished run: a run still going has no finish date.
    if (!finished && spec.outcome !== 'cancelled') delete result.dateExecutionFinished;
    return result;
  }

  suiteResult(
    id: string,
    suiteId: string,
    suiteName: string,
    results: KeptTestResult[],
    opts: { cancelled?: boolean } = {},
  ): SuiteResult {
    const passing = results.filter((r) => r.passing === true).length;
    const failing = results.filter((r) => r.passing === false).length;
    const unknown = results.length - passing - failing;
    const running = results.some((r) => r.passing === null && r.status !== 8);
    const cmpPass = results.filter((r) => r.screenshotComparePassing === true).length;
    const cmpFail = results.filter((r) => r.screenshotComparePassing === false).length;
    const started = results[0] ? results[0].dateExecutionStarted : this.at();
    const time = results.reduce((sum, r) => sum + (r.executionTime ?? 0), 0);
    return {
      _id: id,
      name: suiteName,
      passing: running || opts.cancelled ? null : failing === 0,
      screenshotComparePassing: cmpFail > 0 ? false : cmpPass > 0 ? true : null,
      startUrl: 'https://shop.example.com/',
      commentCount: 0,
      comments: [],
      countPassing: passing,
      countFailing: failing,
      countUnknown: unknown,
      countScreenshotComparePassing: cmpPass,
      countScreenshotCompareFailing: cmpFail,
      countScreenshotCompareUnknown: results.length - cmpPass - cmpFail,
      dateCreated: started,
      dateExecutionStarted: started,
      ...(running ? {} : { dateExecutionFinished: new Date(Date.parse(started) + time).toISOString() }),
      executionTime: running ? null : time,
      suite: { _id: suiteId, name: suiteName, organization: ORG_ID },
      user: { _id: '5a0000000000000000000001', name: 'CI Robot' },
      ...(opts.cancelled ? { status: 8 } : {}),
    };
  }
}

function defaultSteps(outcome: ResultSpec['outcome']): StepSpec[] {
  const ran = outcome === 'passed' || outcome === 'failed';
  return [
    { command: 'open', target: '', value: 'https://shop.example.com/', passing: ran ? true : null },
    { command: 'click', target: 'a.login', passing: ran ? true : null },
    { command: 'assertTextPresent', target: 'h1', value: 'Welcome', passing: ran ? true : null },
  ];
}

/** A test run spec for {@link suiteRun}: the final result's spec, its state, and earlier attempts. */
export interface TestSpec extends ResultSpec {
  state?: TestState;
  attempts?: ResultSpec[];
  error?: string;
}

/** Builds one SuiteRun (kind `suite`) with its suite result. */
export function suiteRun(
  fx: Fixtures,
  opts: {
    key: string;
    suiteId: string;
    suiteName: string;
    suiteResultId: string;
    variant?: Variant;
    tests: TestSpec[];
    timedOut?: boolean;
    cancelled?: boolean;
    error?: string;
  },
): SuiteRun {
  const triggeredAt = fx.at();
  const tests: TestRun[] = opts.tests.map((spec) => {
    const attempts = (spec.attempts ?? []).map((a) =>
      fx.result({
        ...a,
        suiteResultId: opts.suiteResultId,
        suiteId: opts.suiteId,
        ...variantSpec(opts.variant),
      }),
    );
    const result = fx.result({
      ...variantSpec(opts.variant),
      ...spec,
      suiteResultId: opts.suiteResultId,
      suiteId: opts.suiteId,
    });
    const state: TestState =
      spec.state ??
      (spec.outcome === 'passed'
        ? attempts.length > 0
          ? 'flaky'
          : 'passed'
        : spec.outcome === 'failed'
          ? 'failed'
          : spec.outcome === 'cancelled'
            ? 'cancelled'
            : 'timed-out');
    return {
      testId: refId(result.test),
      testName: spec.name,
      state,
      result,
      attempts,
      ...(spec.error ? { error: spec.error } : {}),
      url: `${APP_URL}/results/${result._id}`,
    };
  });
  const results = tests.map((t) => t.result!).filter(Boolean);
  return {
    kind: 'suite',
    key: opts.key,
    suiteId: opts.suiteId,
    suiteName: opts.suiteName,
    variant: opts.variant ?? {},
    suiteResultId: opts.suiteResultId,
    suiteResult: fx.suiteResult(opts.suiteResultId, opts.suiteId, opts.suiteName, results, {
      cancelled: opts.cancelled,
    }),
    triggeredAt,
    endedAt: fx.at(60_000),
    tests,
    ...(opts.error ? { error: opts.error } : {}),
    ...(opts.timedOut ? { timedOut: true } : {}),
    ...(opts.cancelled ? { cancelled: true } : {}),
  };
}

function variantSpec(variant: Variant | undefined): Partial<ResultSpec> {
  if (!variant) return {};
  const out: Partial<ResultSpec> = {};
  if (variant.browser) out.browser = variant.browser;
  if (variant.region) out.region = variant.region;
  if (variant.startUrl) out.startUrl = variant.startUrl;
  if (variant.viewport) {
    const [w, h] = variant.viewport.split('x').map(Number);
    out.viewport = { width: w!, height: h! };
  }
  return out;
}

/** Wraps suite runs into a RunSummary with fixed dates. */
export function summaryOf(runs: SuiteRun[], extra: Partial<RunSummary> = {}): RunSummary {
  return runSummary(runs, {
    startedAt: '2026-03-04T09:59:58.000Z',
    finishedAt: '2026-03-04T10:02:31.500Z',
    appUrl: APP_URL,
    ...extra,
  });
}

/** A large run: `count` test results spread over suites of 50, about 10% failing and 2% flaky. */
export function largeSummary(count: number): RunSummary {
  const fx = new Fixtures();
  const runs: SuiteRun[] = [];
  const perSuite = 50;
  for (let s = 0; s * perSuite < count; s += 1) {
    const tests: TestSpec[] = [];
    for (let i = s * perSuite; i < Math.min(count, (s + 1) * perSuite); i += 1) {
      const failing = i % 10 === 3;
      const flaky = i % 50 === 7;
      tests.push({
        name: `Checkout flow ${i} | with <markup> & \`code\``,
        outcome: failing ? 'failed' : 'passed',
        steps: [
          { command: 'open', target: '', value: 'https://shop.example.com/', passing: true },
          { command: 'click', target: `#product-${i}`, passing: true },
          failing
            ? {
                command: 'assertText',
                target: '.cart-total',
                value: '$10',
                passing: false,
                error: 'Text "$12" does not match "$10" '.repeat(20),
              }
            : { command: 'assertText', target: '.cart-total', value: '$10', passing: true },
        ],
        consoleErrors: failing
          ? ['Uncaught TypeError: cannot read properties of undefined (reading "price")']
          : [],
        ...(flaky ? { attempts: [{ name: `Checkout flow ${i}`, outcome: 'failed' as const }] } : {}),
      });
    }
    runs.push(
      suiteRun(fx, {
        key: `suite-${s}-0`,
        suiteId: `5d${String(s).padStart(22, '0')}`,
        suiteName: `Regression suite ${s}`,
        suiteResultId: `6e${String(s).padStart(22, '0')}`,
        tests,
      }),
    );
  }
  return summaryOf(runs);
}
