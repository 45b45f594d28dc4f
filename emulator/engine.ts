/**
 * The run engine: creates test results and suite results in the running condition, runs them in the
 * background through the executor, keeps suite results' counts and dates consistent as tests finish, cuts
 * runs at the run-time limit, cancels, and does the screenshot comparison bookkeeping
 * (docs/api-contract.md, "States and transitions", "Limits", "Resources").
 */
import type { Executor, RunOutcome } from './executors/types.js';
import type { ExecuteParams } from './params.js';
import type {
  ApiKeyRecord,
  ResultMeta,
  Store,
  SuiteRecord,
  SuiteResult,
  TestRecord,
  TestResult,
} from './store.js';
import { countEnded, newTally } from './store.js';
import { RunFiles } from './run-files.js';
import {
  checkBaseline,
  runRequest,
  type FinishRecord,
  dataRows,
  newSuiteResult,
  newTestResult,
  variants,
  type PlannedTest,
} from './run-records.js';
import { iso, Semaphore } from './util.js';
import type { ImageKit } from './images.js';
import { realClock, sleepOn, type EmulatorClock } from './clock.js';
import { expandImports, refuseModuleExecute, suiteRunTests } from './modules.js';

/** Test run-time limit in ms before time scaling (docs/api-contract.md, "Limits": 10 minutes). */
export const RUN_LIMIT_MS = 10 * 60_000;
/** `status` of a cancelled result (docs/api-contract.md, "States and transitions"). */
export const STATUS_CANCELLED = 8;

export interface EngineOptions {
  store: Store;
  executor: Executor;
  /** Multiplies every simulated duration and limit (1 = real time). */
  timeScale: number;
  /** The time runs progress on and records are dated with (default real time). */
  clock?: EmulatorClock;
  images: ImageKit;
  /** Origin the emulator serves files from, e.g. `http://127.0.0.1:4010`. */
  origin: () => string;
  onFinish: (record: FinishRecord) => void;
}

export class Engine {
  private readonly store: Store;
  private readonly files: RunFiles;
  /** The time runs progress on and records are dated with. */
  readonly clock: EmulatorClock;
  constructor(private readonly options: EngineOptions) {
    this.store = options.store;
    this.clock = options.clock ?? realClock;
    this.files = new RunFiles(options.store, options.images, options.origin);
  }

  /** The time scale: multiplies every simulated duration and limit. */
  get scale(): number {
    return this.options.timeScale;
  }

  /**
   * Execute a stored test (docs/api-contract.md, "Endpoints the action calls", execute). Creates one test result per variant and
   * data row in the running condition and starts them. `many` tells whether the response is an array.
   * Refuses a module (`importOnly`) and bad imports with a VALIDATION_ERROR (`modules.ts`).
   */
  executeTest(
    key: ApiKeyRecord,
    test: TestRecord,
    params: ExecuteParams,
  ): { results: TestResult[]; many: boolean } {
    refuseModuleExecute(test);
    checkBaseline(this.store, key, params);
    const suite = this.store.suites.get(test.suite);
    const fallbackDataSource = test.dataSource ?? suite?.dataSource ?? null;
    const rows = dataRows(this.store, key, test.organization, params, fallbackDataSource);
    return this.executeRuns(key, test, true, suite, params, rows);
  }

  /** Execute an on-demand test definition (docs/api-contract.md, "Endpoints the action calls", on-demand execute). */
  executeOnDemand(
    key: ApiKeyRecord,
    test: TestRecord,
    params: ExecuteParams,
  ): { results: TestResult[]; many: boolean } {
    const rows = dataRows(this.store, key, test.organization, params, test.dataSource);
    return this.executeRuns(key, test, false, undefined, params, rows);
  }

  private executeRuns(
    key: ApiKeyRecord,
    test: TestRecord,
    stored: boolean,
    suite: SuiteRecord | undefined,
    params: ExecuteParams,
    rows: Array<Record<string, string | number>> | undefined,
  ): { results: TestResult[]; many: boolean } {
    const steps = expandImports(this.store, test, test.organization);
    const vs = variants(params);
    const rowList = rows ?? [undefined];
    const gate = new Semaphore(params.maxConcurrentDataRows ?? 0);
    const results: TestResult[] = [];
    if (stored) test.dateExecutionTriggered = iso(this.clock.now());
    for (const dataRow of rowList) {
      for (const v of vs) {
        const plan: PlannedTest = { test, steps, stored, suite, ...v, dataRow, suiteResultId: null };
        const result = this.createResult(key, plan, params);
        results.push(result);
        void this.runResult(result, plan, params, rows ? gate : undefined, undefined);
      }
    }
    return { results, many: results.length > 1 || rows !== undefined };
  }

  /**
   * Execute a suite (docs/api-contract.md, "Endpoints the action calls", execute). One suite result per variant and data row, each
   * with one test result per test of the suite, run at most `maxConcurrentTests` at once (0 = unlimited).
   */
  executeSuite(
    key: ApiKeyRecord,
    suite: SuiteRecord,
    params: ExecuteParams,
  ): { suiteResults: SuiteResult[]; many: boolean } {
    const rows = dataRows(this.store, key, suite.organization, params, suite.dataSource);
    const vs = variants(params);
    const gate = new Semaphore(params.maxConcurrentDataRows ?? 0);
    const tests = suiteRunTests(this.store, suite._id);
    const suiteResults: SuiteResult[] = [];
    const now = this.clock.now();
    suite.dateExecutionTriggered = iso(now);
    for (const dataRow of rows ?? [undefined]) {
      for (const v of vs) {
        const suiteResult = newSuiteResult(this.store, key, suite, params, tests.length, now);
        const id = suiteResult._id;
        let resolveDone!: () => void;
        const done = new Promise<void>((resolve) => (resolveDone = resolve));
        this.store.suiteResults.set(id, suiteResult);
        this.store.suiteResultMeta.set(id, {
          seq: this.store.nextSeq(),
          suiteId: suite._id,
          resultIds: [],
          expected: tests.length,
          ended: newTally(),
          cancelled: false,
          done,
        });
        this.suiteDone.set(id, resolveDone);
        suiteResults.push(suiteResult);
        const concurrency = new Semaphore(suite.maxConcurrentTests);
        const plans = tests.map((t) => ({ ...t, stored: true, suite, ...v, dataRow, suiteResultId: id }));
        const created = plans.map((plan) => {
          const result = this.createResult(key, plan, params);
          this.store.suiteResultMeta.get(id)!.resultIds.push(result._id);
          plan.test.dateExecutionTriggered = iso(now);
          return { plan, result };
        });
        const runAll = async () => {
          const release = rows ? await gate.acquire() : () => {};
          try {
            await Promise.all(
              created.map(({ plan, result }) => this.runResult(result, plan, params, undefined, concurrency)),
            );
          } finally {
            release();
          }
        };
        void runAll();
        this.updateSuiteResult(id);
      }
    }
    return { suiteResults, many: suiteResults.length > 1 || rows !== undefined };
  }

  private readonly suiteDone = new Map<string, () => void>();
  /** Suite results being cancelled: their updates wait until every test is cancelled. */
  private readonly suspended = new Set<string>();

  private createResult(key: ApiKeyRecord, plan: PlannedTest, params: ExecuteParams): TestResult {
    const now = this.clock.now();
    const result = newTestResult(this.store, key, plan, params, now);
    const { test } = plan;
    const id = result._id;
    let resolveDone!: () => void;
    const done = new Promise<void>((resolve) => (resolveDone = resolve));
    const meta: ResultMeta = {
      seq: this.store.nextSeq(),
      testId: plan.stored ? test._id : null,
      suiteResultId: plan.suiteResultId,
      controller: new AbortController(),
      done,
      finished: false,
    };
    this.resultDone.set(id, resolveDone);
    this.store.results.set(id, result);
    this.store.resultMeta.set(id, meta);
    const org = this.store.organizations.get(test.organization);
    if (org) {
      const month = iso(now).slice(0, 7);
      org.testRuns[month] = (org.testRuns[month] ?? 0) + 1;
    }
    return result;
  }

  private readonly resultDone = new Map<string, () => void>();

  private async runResult(
    result: TestResult,
    plan: PlannedTest,
    params: ExecuteParams,
    rowGate: Semaphore | undefined,
    testGate: Semaphore | undefined,
  ): Promise<void> {
    const meta = this.store.resultMeta.get(result._id)!;
    const signal = meta.controller.signal;
    let limitHit = false;
    // Ends the run-time limit's wait when the run ends first.
    const limitOver = new AbortController();
    const releases: Array<() => void> = [];
    try {
      if (params.delay > 0) await sleepOn(this.clock, params.delay * this.scale, signal);
      if (rowGate) releases.push(await rowGate.acquire());
      if (testGate) releases.push(await testGate.acquire());
      if (meta.finished) return;
      const started = this.clock.now();
      result.dateExecutionStarted = iso(started);
      const limitMs = RUN_LIMIT_MS * this.scale;
      void this.clock.sleep(limitMs, limitOver.signal).then(() => {
        if (limitOver.signal.aborted) return;
        limitHit = true;
        meta.controller.abort();
      });
      const outcome = await this.options.executor.run(
        runRequest(plan, result, params, {
          testId: meta.testId,
          signal,
          limitMs,
          timeScale: this.scale,
          clock: this.clock,
        }),
      );
      if (meta.finished) return;
      this.finish(result, plan, outcome, started);
    } catch (error) {
      if (meta.finished) return;
      const started = Date.parse(result.dateExecutionStarted);
      const message = limitHit
        ? `The test run exceeded the run-time limit of 10 minutes and was stopped.`
        : `The test could not be run: ${(error as Error).message}`;
      this.finish(
        result,
        plan,
        { passing: false, steps: [], console: [], urls: [], endUrl: '', extractions: {}, error: message },
        started,
      );
    } finally {
      limitOver.abort();
      for (const release of releases) release();
    }
  }

  private finish(result: TestResult, plan: PlannedTest, outcome: RunOutcome, started: number): void {
    const meta = this.store.resultMeta.get(result._id)!;
    const now = this.clock.now();
    this.files.recordOutcome(result, plan, outcome, meta);
    result.passing = outcome.passing;
    result.executionTime = now - started;
    result.dateExecutionFinished = iso(now);
    const test = this.store.tests.get(plan.test._id);
    if (plan.stored && test && meta.seq > test.passingFromSeq) {
      test.passingFromSeq = meta.seq;
      test.passing = result.passing;
      if (result.screenshotComparePassing !== null)
        test.screenshotComparePassing = result.screenshotComparePassing;
      test.dateExecutionStarted = result.dateExecutionStarted;
      test.dateExecutionFinished = result.dateExecutionFinished;
    }
    this.settle(result, 'finished', now);
    if (result.passing === false && plan.suiteResultId && plan.suite?.abortOnTestFailure) {
      for (const id of this.store.suiteResultMeta.get(plan.suiteResultId)?.resultIds ?? [])
        this.cancelResult(id);
    }
  }

  /** Marks a result ended, records the finish, and updates its suite result. */
  private settle(result: TestResult, condition: 'finished' | 'cancelled', now: number): void {
    const meta = this.store.resultMeta.get(result._id)!;
    meta.finished = true;
    this.options.onFinish({
      kind: 'test-result',
      resultId: result._id,
      suiteResultId: meta.suiteResultId,
      testId: meta.testId,
      suiteId: result.test?.suite ?? null,
      condition,
      passing: result.passing,
      createdAt: Date.parse(result.dateCreated),
      finishedAt: now,
    });
    this.resultDone.get(result._id)?.();
    this.resultDone.delete(result._id);
    if (meta.suiteResultId) this.updateSuiteResult(meta.suiteResultId, result);
  }

  /**
   * Cancels an active test result (docs/api-contract.md, "States and transitions": running -> cancelled): `passing` null,
   * `status` 8, steps `passing` null. Returns false when the result already ended.
   */
  cancelResult(id: string): boolean {
    const result = this.store.results.get(id);
    const meta = this.store.resultMeta.get(id);
    if (!result || !meta || meta.finished) return false;
    const now = this.clock.now();
    result.passing = null;
    result.status = STATUS_CANCELLED;
    for (const step of result.steps) step.passing = null;
    result.dateExecutionFinished = iso(now);
    result.executionTime = Math.max(0, now - Date.parse(result.dateExecutionStarted));
    this.settle(result, 'cancelled', now);
    meta.controller.abort();
    return true;
  }

  /**
   * Cancels an active suite result and its active tests (docs/api-contract.md): the suite result keeps `passing`
   * null with `dateExecutionFinished` set and `status` 8. Returns false when it already ended.
   */
  cancelSuiteResult(id: string): boolean {
    const suiteResult = this.store.suiteResults.get(id);
    const meta = this.store.suiteResultMeta.get(id);
    if (!suiteResult || !meta || suiteResult.dateExecutionFinished) return false;
    this.suspended.add(id);
    for (const resultId of meta.resultIds) this.cancelResult(resultId);
    this.suspended.delete(id);
    meta.cancelled = true;
    this.updateSuiteResult(id);
    return true;
  }

  /** Counts `result` (a test result of it that ended), then sets a suite result's counts, `passing` and dates. */
  private updateSuiteResult(id: string, result?: TestResult): void {
    const sr = this.store.suiteResults.get(id);
    const meta = this.store.suiteResultMeta.get(id);
    if (meta && result) countEnded(meta.ended, result);
    if (!sr || !meta || sr.dateExecutionFinished || this.suspended.has(id)) return;
    const n = meta.ended;
    [sr.countPassing, sr.countFailing] = [n.passing, n.failing];
    sr.countUnknown = meta.expected - n.passing - n.failing;
    [sr.countScreenshotComparePassing, sr.countScreenshotCompareFailing] = [
      n.comparePassing,
      n.compareFailing,
    ];
    sr.countScreenshotCompareUnknown = meta.expected - n.comparePassing - n.compareFailing;
    const ended = meta.resultIds.length === meta.expected && n.count === meta.expected;
    if (!ended && !meta.cancelled) return;
    const now = this.clock.now();
    sr.dateExecutionFinished = iso(now);
    sr.executionTime = Math.max(0, now - Date.parse(sr.dateExecutionStarted));
    if (meta.cancelled) {
      sr.passing = null;
      sr.screenshotComparePassing = null;
      sr.status = STATUS_CANCELLED;
    } else {
      sr.passing = sr.countFailing === 0;
      sr.screenshotComparePassing = sr.countScreenshotCompareFailing === 0;
    }
    this.options.onFinish({
      kind: 'suite-result',
      resultId: id,
      suiteResultId: id,
      testId: null,
      suiteId: meta.suiteId,
      condition: meta.cancelled ? 'cancelled' : 'finished',
      passing: sr.passing,
      createdAt: Date.parse(sr.dateCreated),
      finishedAt: now,
    });
    this.suiteDone.get(id)?.();
    this.suiteDone.delete(id);
  }

  /**
   * Makes the screenshot of the test's latest finished result its baseline (docs/api-contract.md, "Endpoints the action calls").
   * Throws a VALIDATION_ERROR "Unable to accept screenshot" otherwise (see RunFiles.acceptScreenshot).
   */
  acceptScreenshot(test: TestRecord): void {
    this.files.acceptScreenshot(test);
  }

  /** Cancels every active run (used when the emulator closes). */
  close(): void {
    for (const [id, meta] of this.store.resultMeta) if (!meta.finished) this.cancelResult(id);
  }
}
