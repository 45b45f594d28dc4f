/**
 * What the run model keeps of a test result: the fields the verdict, the re-runs, the reports and the
 * screenshots read (docs/performance.md, "Memory"). A result is kept from the moment it joins the run model
 * until the reports are written, so whatever else the service answers (its ids, dates, settings, comments,
 * each step's id and notes) is dropped as the result is read.
 */
import type { RefOrId } from '../api/refs.js';
import type { Step, TestResult } from '../api/types.js';

/** A step of a kept test result: what the reports read of it. */
export type KeptStep = Pick<
  Step,
  | 'sequence'
  | 'command'
  | 'target'
  | 'value'
  | 'condition'
  | 'optional'
  | 'private'
  | 'passing'
  | 'url'
  | 'error'
  | 'extra'
>;

/** A kept test result: {@link keptResult}. */
export type KeptTestResult = Pick<
  TestResult,
  | '_id'
  | 'name'
  | 'suiteResult'
  | 'browser'
  | 'region'
  | 'startUrl'
  | 'endUrl'
  | 'passing'
  | 'status'
  | 'console'
  | 'dateExecutionStarted'
  | 'dateExecutionFinished'
  | 'executionTime'
  | 'error'
  | 'screenshot'
  | 'screenshotCompare'
  | 'screenshotCompareBaselineResult'
  | 'screenshotCompareDifference'
  | 'screenshotComparePassing'
  | 'screenshotCompareThreshold'
  | 'variables'
  | 'video'
  | 'viewportSize'
> & {
  /** The test: its id, or its id and name. */
  test: RefOrId<{ _id: string; name: string }> | null;
  steps: KeptStep[];
};

/**
 * The fields of `result` the action reads after the run, as the service answered them (an absent one is
 * `undefined`); of the test reference its id and name. Built as one literal so that every kept result
 * shares one shape (V8 keeps such objects compact). Never throws on odd service data.
 */
export function keptResult(result: TestResult | KeptTestResult): KeptTestResult {
  const r = result as Partial<TestResult>;
  const test = r.test && typeof r.test === 'object' ? { _id: r.test._id, name: r.test.name } : r.test;
  return {
    _id: r._id,
    name: r.name,
    suiteResult: r.suiteResult,
    test,
    browser: r.browser,
    region: r.region,
    startUrl: r.startUrl,
    endUrl: r.endUrl,
    steps: Array.isArray(r.steps) ? r.steps.map(keptStep) : r.steps,
    passing: r.passing,
    status: r.status,
    console: r.console,
    dateExecutionStarted: r.dateExecutionStarted,
    dateExecutionFinished: r.dateExecutionFinished,
    executionTime: r.executionTime,
    error: r.error,
    screenshot: r.screenshot,
    screenshotCompare: r.screenshotCompare,
    screenshotCompareBaselineResult: r.screenshotCompareBaselineResult,
    screenshotCompareDifference: r.screenshotCompareDifference,
    screenshotComparePassing: r.screenshotComparePassing,
    screenshotCompareThreshold: r.screenshotCompareThreshold,
    variables: r.variables,
    video: r.video,
    viewportSize: r.viewportSize,
  } as KeptTestResult;
}

function keptStep(step: Step): KeptStep {
  if (!step || typeof step !== 'object') return step;
  return {
    sequence: step.sequence,
    command: step.command,
    target: step.target,
    value: step.value,
    condition: step.condition,
    optional: step.optional,
    private: step.private,
    passing: step.passing,
    url: step.url,
    error: step.error,
    extra: step.extra,
  };
}
