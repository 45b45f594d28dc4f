/**
 * The run engine: creates test results and suite results in the running condition, runs them in the
 * background through the executor, keeps suite results' counts and dates consistent as tests finish, cuts
 * runs at the run-time limit, cancels, and does the screenshot comparison bookkeeping (contract "States and
 * transitions", "Limits"; service facts "Shapes and behaviour").
 */
import { randomUUID } from 'node:crypto';
import type { Step, StepTarget } from '../src/api/types.js';
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
import { ApiError, iso, invalid, Semaphore, sleep } from './util.js';
import type { ImageKit } from './images.js';

/** Test run-time limit in ms before time scaling (contract "Limits": 10 minutes). */
export const RUN_LIMIT_MS = 10 * 60_000;
/** Suite execute wait limit in ms before time scaling (contract "Limits": 20 minutes). */
export const SUITE_WAIT_MS = 20 * 60_000;
/** `status` of a cancelled result (contract "States and transitions"). */
export const STATUS_CANCELLED = 8;

/** The moment a run ended, kept for tests (`GET /_emulator/runs`). Times are epoch ms. */
export interface FinishRecord {
  kind: 'test-result' | 'suite-result';
  /** Test result id (kind test-result) or suite result id (kind suite-result). */
  resultId: string;
  suiteResultId: string | null;
  testId: string | null;
  suiteId: string | null;
  condition: 'finished' | 'cancelled';
  passing: boolean | null;
  createdAt: number;
  finishedAt: number;
}

export interface EngineOptions {
  store: Store;
  executor: Executor;
  /** Multiplies every simulated duration and limit (1 = real time). */
  timeScale: number;
  images: ImageKit;
  /** Origin the emulator serves files from, e.g. `http://127.0.0.1:4010`. */
  origin: () => string;
  onFinish: (record: FinishRecord) => void;
}

/** A test to run with its effective settings (stored test or on-demand definition). */
interface RunPlan {
  test: TestRecord;
  stored: boolean;
  suite: SuiteRecord | undefined;
  browser?: string;
  region?: string;
  viewport?: { width: number; height: number };
  dataRow?: Record<string, string | number>;
  suiteResultId: string | null;
}

/** `{{name}}` in `text` replaced by the variable's value; unknown names stay as they are. */
export function substitute(text: string, variables: Record<string, string>): string {
  return text.replace(/\{\{\s*([\w.-]+)\s*\}\}/g, (whole, name: string) =>
    Object.hasOwn(variables, name) ? variables[name] : whole,
  );
}

function substituteTarget(target: StepTarget, variables: Record<string, string>): StepTarget {
  return typeof target === 'string'
    ? substitute(target, variables)
    : target.map((t) => ({ ...t, selector: substitute(t.selector, variables) }));
}

/** Variants of one execute: browsers x regions x viewports. */
function variants(params: ExecuteParams): Array<Pick<RunPlan, 'browser' | 'region' | 'viewport'>> {
  const browsers = params.browsers.length ? params.browsers : [undefined];
  const regions = params.regions.length ? params.regions : [undefined];
  const viewports = params.viewports.length ? params.viewports : [undefined];
  const out: Array<Pick<RunPlan, 'browser' | 'region' | 'viewport'>> = [];
  for (const browser of browsers)
    for (const region of regions) for (const viewport of viewports) out.push({ browser, region, viewport });
  return out;
}

export class Engine {
  private readonly store: Store;
  constructor(private readonly options: EngineOptions) {
    this.store = options.store;
  }

  private get scale(): number {
    return this.options.timeScale;
  }

  /** Data rows of an execute: the uploaded data file, else the data source (parameter, test, suite). */
  private dataRows(
    key: ApiKeyRecord,
    orgId: string,
    params: ExecuteParams,
    fallbackDataSource: string | null,
  ): Array<Record<string, string | number>> | undefined {
    if (params.dataFileRows) return params.dataFileRows;
    const id = params.dataSource ?? fallbackDataSource;
    if (!id) return undefined;
    const source = this.store.dataSources.get(id);
    if (!source || source.organization !== orgId || !key.organizations.includes(orgId))
      invalid(`dataSource not found: ${id}`);
    if (source.data.length === 0) invalid(`dataSource ${id} has no rows`);
    return source.data;
  }

  private checkBaseline(key: ApiKeyRecord, params: ExecuteParams) {
    const id = params.screenshotCompareBaselineResult;
    if (id === undefined) return;
    const result = this.store.results.get(id);
    if (!result || !key.organizations.includes(result.organization) || typeof result.passing !== 'boolean') {
      invalid(`screenshotCompareBaselineResult must be a completed test result of the organization: ${id}`);
    }
  }

  /**
   * Execute a stored test (contract "Test endpoints", execute). Creates one test result per variant and
   * data row in the running condition and starts them. `many` tells whether the response is an array.
   */
  executeTest(
    key: ApiKeyRecord,
    test: TestRecord,
    params: ExecuteParams,
  ): { results: TestResult[]; many: boolean } {
    this.checkBaseline(key, params);
    const suite = this.store.suites.get(test.suite);
    const rows = this.dataRows(key, test.organization, params, test.dataSource ?? suite?.dataSource ?? null);
    return this.executeRuns(key, test, true, suite, params, rows);
  }

  /** Execute an on-demand test definition (contract "Test endpoints", on-demand execute). */
  executeOnDemand(
    key: ApiKeyRecord,
    test: TestRecord,
    params: ExecuteParams,
  ): { results: TestResult[]; many: boolean } {
    const rows = this.dataRows(key, test.organization, params, test.dataSource);
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
    const vs = variants(params);
    const rowList = rows ?? [undefined];
    const gate = new Semaphore(params.maxConcurrentDataRows ?? 0);
    const results: TestResult[] = [];
    if (stored) test.dateExecutionTriggered = iso(Date.now());
    for (const dataRow of rowList) {
      for (const v of vs) {
        const plan: RunPlan = { test, stored, suite, ...v, dataRow, suiteResultId: null };
        const result = this.createResult(key, plan, params);
        results.push(result);
        void this.runResult(result, plan, params, rows ? gate : undefined, undefined);
      }
    }
    return { results, many: results.length > 1 || rows !== undefined };
  }

  /**
   * Execute a suite (contract "Suite endpoints", execute). One suite result per variant and data row, each
   * with one test result per test of the suite, run at most `maxConcurrentTests` at once (0 = unlimited).
   */
  executeSuite(
    key: ApiKeyRecord,
    suite: SuiteRecord,
    params: ExecuteParams,
  ): { suiteResults: SuiteResult[]; many: boolean } {
    const rows = this.dataRows(key, suite.organization, params, suite.dataSource);
    const vs = variants(params);
    const gate = new Semaphore(params.maxConcurrentDataRows ?? 0);
    const tests = this.store.testsOf(suite._id);
    const user = this.store.userOf(key);
    const suiteResults: SuiteResult[] = [];
    const now = Date.now();
    suite.dateExecutionTriggered = iso(now);
    for (const dataRow of rows ?? [undefined]) {
      for (const v of vs) {
        const id = this.store.newId();
        const suiteResult: SuiteResult = {
          _id: id,
          name: suite.name,
          passing: null,
          screenshotComparePassing: null,
          startUrl: params.startUrl ?? suite.startUrl,
          commentCount: 0,
          comments: [],
          countPassing: 0,
          countFailing: 0,
          countUnknown: tests.length,
          countScreenshotComparePassing: 0,
          countScreenshotCompareFailing: 0,
          countScreenshotCompareUnknown: tests.length,
          dateCreated: iso(now),
          dateExecutionStarted: iso(now),
          executionTime: null,
          suite: { _id: suite._id, name: suite.name, organization: suite.organization },
          user: { _id: user._id, name: `${user.firstName} ${user.lastName}`.trim() },
        };
        let resolveDone!: () => void;
        const done = new Promise<void>((resolve) => (resolveDone = resolve));
        this.store.suiteResults.set(id, suiteResult);
        this.store.suiteResultMeta.set(id, {
          seq: this.store.nextSeq(),
          suiteId: suite._id,
          resultIds: [],
          expected: tests.length,
          cancelled: false,
          done,
        });
        this.suiteDone.set(id, resolveDone);
        suiteResults.push(suiteResult);
        const concurrency = new Semaphore(suite.maxConcurrentTests);
        const plans = tests.map(
          (test) => ({ test, stored: true, suite, ...v, dataRow, suiteResultId: id }) as RunPlan,
        );
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

  /** Waits until every given test result has ended. */
  async waitResults(ids: string[]): Promise<void> {
    await Promise.all(ids.map((id) => this.store.resultMeta.get(id)?.done));
  }

  /**
   * Waits until the suite results end, at most the suite wait limit (20 minutes, scaled); then rejects with
   * TIMEOUT_ERROR while the tests go on (contract "Errors" 2).
   */
  async waitSuiteResults(ids: string[]): Promise<void> {
    const all = Promise.all(ids.map((id) => this.store.suiteResultMeta.get(id)?.done));
    const controller = new AbortController();
    const timeout = sleep(SUITE_WAIT_MS * this.scale, controller.signal).then(
      () => 'timeout' as const,
      () => 'aborted' as const,
    );
    const winner = await Promise.race([all.then(() => 'done' as const), timeout]);
    controller.abort();
    if (winner === 'timeout') {
      throw new ApiError(
        'TIMEOUT_ERROR',
        'The suite execution did not complete within 20 minutes; its tests are still running.',
      );
    }
  }

  private createResult(key: ApiKeyRecord, plan: RunPlan, params: ExecuteParams): TestResult {
    const { test, suite } = plan;
    const id = this.store.newId();
    const now = Date.now();
    const user = this.store.userOf(key);
    const pick = <T>(p: T | undefined, t: T | null | undefined, s: T | undefined, d: T): T =>
      p !== undefined ? p : t !== null && t !== undefined ? t : s !== undefined ? s : d;
    const compareEnabled = pick(
      params.screenshotCompareEnabled,
      test.screenshotCompareEnabled,
      suite?.screenshotCompareEnabled,
      false,
    );
    const threshold =
      params.screenshotCompareThreshold ??
      (test.screenshotCompareEnabled !== null || !suite
        ? test.screenshotCompareThreshold
        : suite.screenshotCompareThreshold);
    const region = plan.region ?? test.region ?? suite?.region ?? 'us-east-1';
    const variables: Record<string, string | number> = { ...(plan.dataRow ?? {}), ...params.variables };
    const known: Record<string, string> = {};
    for (const v of suite?.variables ?? []) known[v.name] = v.value;
    for (const [k, v] of Object.entries(variables)) known[k] = String(v);
    const steps: Step[] = test.steps.map((s, i) => ({
      _id: this.store.newId(),
      sequence: i,
      command: s.command,
      target: substituteTarget(s.target, known),
      value: substitute(s.value, known),
      variableName: s.variableName,
      condition: s.condition,
      optional: s.optional,
      private: s.private,
      notes: s.notes ?? '',
      passing: null,
      extra: { source: { sequence: i, test: test._id } },
    }));
    const result: TestResult = {
      _id: id,
      uuid: randomUUID(),
      name: test.name,
      test: plan.stored
        ? { _id: test._id, name: test.name, organization: test.organization, suite: test.suite }
        : null,
      suiteResult: plan.suiteResultId,
      organization: test.organization,
      user: { _id: user._id, name: `${user.firstName} ${user.lastName}`.trim() },
      browser: plan.browser ?? test.browser ?? suite?.browser ?? 'chrome',
      region,
      language: test.language ?? suite?.language ?? null,
      startUrl: params.startUrl ?? (test.startUrl || suite?.startUrl || ''),
      endUrl: '',
      urls: [],
      steps,
      passing: null,
      autoRetry: test.autoRetry ?? suite?.autoRetry ?? false,
      autoRetryTriggered: false,
      commentCount: 0,
      comments: [],
      console: [],
      dateCreated: iso(now),
      dateExecutionStarted: iso(now),
      executionHost: `emulator.${region}`,
      executionTime: null,
      disableVisuals: pick(params.disableVisuals, test.disableVisuals, suite?.disableVisuals, false),
      disallowInsecureCertificates:
        test.disallowInsecureCertificates ?? suite?.disallowInsecureCertificates ?? false,
      failOnJavaScriptError: test.failOnJavaScriptError ?? suite?.failOnJavaScriptError ?? false,
      finalDelay: test.finalDelay ?? suite?.finalDelay ?? 0,
      globalStepDelay: test.globalStepDelay ?? suite?.globalStepDelay ?? 250,
      maxAjaxDelay: test.maxAjaxDelay ?? suite?.maxAjaxDelay ?? 10000,
      maxWaitDelay: test.maxWaitDelay ?? suite?.maxWaitDelay ?? 15000,
      filters: [],
      extractions: {},
      screenshotCompareBaselineResult: params.screenshotCompareBaselineResult ?? null,
      screenshotCompareDifference: null,
      screenshotCompareEnabled: compareEnabled,
      screenshotComparePassing: null,
      screenshotCompareThreshold: threshold,
      screenshotExclusions: params.screenshotExclusions ?? '',
      screenshotTarget: params.screenshotTarget ?? '',
      userAgent: params.userAgent ?? '',
      variables,
      error: null,
      video: null,
      viewportSize: plan.viewport ?? test.viewportSize ?? suite?.viewportSize ?? { height: 768, width: 1024 },
    };
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
    plan: RunPlan,
    params: ExecuteParams,
    rowGate: Semaphore | undefined,
    testGate: Semaphore | undefined,
  ): Promise<void> {
    const meta = this.store.resultMeta.get(result._id)!;
    const signal = meta.controller.signal;
    let limitHit = false;
    let limitTimer: NodeJS.Timeout | undefined;
    const releases: Array<() => void> = [];
    try {
      if (params.delay > 0) await sleep(params.delay * this.scale, signal);
      if (rowGate) releases.push(await rowGate.acquire());
      if (testGate) releases.push(await testGate.acquire());
      if (meta.finished) return;
      const started = Date.now();
      result.dateExecutionStarted = iso(started);
      const limitMs = RUN_LIMIT_MS * this.scale;
      limitTimer = setTimeout(() => {
        limitHit = true;
        meta.controller.abort();
      }, limitMs);
      const suite = plan.suite;
      const variables: Record<string, string> = {};
      for (const v of suite?.variables ?? []) variables[v.name] = v.value;
      for (const [k, v] of Object.entries(result.variables)) variables[k] = String(v);
      const outcome = await this.options.executor.run({
        testName: plan.test.name,
        testId: meta.testId,
        steps: plan.test.steps,
        startUrl: result.startUrl,
        viewport: result.viewportSize,
        userAgent: params.userAgent,
        httpAuth: params.httpAuth,
        variables,
        globalStepDelay: result.globalStepDelay,
        maxWaitDelay: result.maxWaitDelay,
        maxAjaxDelay: result.maxAjaxDelay,
        finalDelay: result.finalDelay,
        failOnJavaScriptError: result.failOnJavaScriptError,
        runTimeLimitMs: limitMs,
        screenshotExclusions: params.screenshotExclusions,
        screenshotTarget: params.screenshotTarget,
        disableVisuals: result.disableVisuals,
        signal,
        timeScale: this.scale,
      });
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
      clearTimeout(limitTimer);
      for (const release of releases) release();
    }
  }

  private finish(result: TestResult, plan: RunPlan, outcome: RunOutcome, started: number): void {
    const meta = this.store.resultMeta.get(result._id)!;
    const now = Date.now();
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
      const small = this.storeImage(
        `${result._id}-small.png`,
        this.options.images.thumbnail(outcome.screenshot),
      );
      result.screenshot = { original, small };
      if (result.screenshotCompareEnabled) this.compare(result, plan, outcome);
    }
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

  private compare(result: TestResult, plan: RunPlan, outcome: RunOutcome): void {
    const meta = this.store.resultMeta.get(result._id)!;
    const test = plan.stored ? this.store.tests.get(plan.test._id) : undefined;
    const baselineId = result.screenshotCompareBaselineResult ?? test?.baselineResult ?? null;
    const baseline = baselineId ? this.store.resultMeta.get(baselineId)?.screenshot : undefined;
    const images = this.options.images;
    const forced = outcome.forcedScreenshotDifference;
    if (!baseline && test && !test.baselineResult) test.baselineResult = result._id;
    // The first run without a baseline becomes the baseline and reports no comparison, like the service; a
    // simulated scenario's `screenshotDifference` stands for a baseline that differs by that much.
    if (!baseline && forced === undefined) return;
    let difference = 0;
    let diff: Buffer | undefined;
    if (baseline) ({ difference, diff } = images.compare(baseline, meta.screenshot!));
    // The simulated executor forces the difference it was told to show (its pixels differ about as much).
    if (forced !== undefined) difference = forced;
    result.screenshotCompareBaselineResult = baseline ? baselineId : null;
    result.screenshotCompareDifference = difference;
    result.screenshotComparePassing = difference <= result.screenshotCompareThreshold;
    if (diff) {
      result.screenshotCompare = {
        compareOriginal: this.storeImage(`${result._id}-compare-original.png`, diff),
        compareSmall: this.storeImage(`${result._id}-compare-small.png`, images.thumbnail(diff)),
      };
    }
  }

  /** A placeholder recording served under `/_emulator/files/` (the service's `video` shape). */
  private storeVideo(result: TestResult): NonNullable<TestResult['video']> {
    const name = `${result._id}-video.mp4`;
    this.store.files.set(name, { contentType: 'video/mp4', body: Buffer.from('emulator placeholder video') });
    const { width, height } = result.viewportSize;
    return {
      dims: { h: height, w: width },
      path: `videos/${name}`,
      url: `${this.options.origin()}/_emulator/files/${name}`,
    };
  }

  private storeImage(name: string, png: Buffer) {
    this.store.files.set(name, { contentType: 'image/png', body: png });
    const { width, height } = this.options.images.size(png);
    return {
      defaultUrl: `${this.options.origin()}/_emulator/files/${name}`,
      dims: { h: height, w: width },
      path: `screenshots/${name}`,
      size: png.length,
    };
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
    if (meta.suiteResultId) this.updateSuiteResult(meta.suiteResultId);
  }

  /**
   * Cancels an active test result (contract "States and transitions": running -> cancelled): `passing` null,
   * `status` 8, steps `passing` null. Returns false when the result already ended.
   */
  cancelResult(id: string): boolean {
    const result = this.store.results.get(id);
    const meta = this.store.resultMeta.get(id);
    if (!result || !meta || meta.finished) return false;
    const now = Date.now();
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
   * Cancels an active suite result and its active tests (service facts): the suite result keeps `passing`
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

  /** Recomputes a suite result's counts, `passing` and dates from its test results. */
  private updateSuiteResult(id: string): void {
    if (this.suspended.has(id)) return;
    const sr = this.store.suiteResults.get(id);
    const meta = this.store.suiteResultMeta.get(id);
    if (!sr || !meta || sr.dateExecutionFinished) return;
    const results = meta.resultIds.map((r) => this.store.results.get(r)!);
    sr.countPassing = results.filter((r) => r.passing === true).length;
    sr.countFailing = results.filter((r) => r.passing === false).length;
    sr.countUnknown = meta.expected - sr.countPassing - sr.countFailing;
    sr.countScreenshotComparePassing = results.filter((r) => r.screenshotComparePassing === true).length;
    sr.countScreenshotCompareFailing = results.filter((r) => r.screenshotComparePassing === false).length;
    sr.countScreenshotCompareUnknown =
      meta.expected - sr.countScreenshotComparePassing - sr.countScreenshotCompareFailing;
    const ended =
      results.length === meta.expected && meta.resultIds.every((r) => this.store.resultMeta.get(r)!.finished);
    if (!ended && !meta.cancelled) return;
    const now = Date.now();
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
   * Makes the screenshot of the test's latest finished result its baseline (contract "accept-screenshot").
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
    test.baselineResult = best.id;
    const result = this.store.results.get(best.id)!;
    test.screenshotComparePassing = result.screenshotCompareEnabled ? true : test.screenshotComparePassing;
  }

  /** Cancels every active run (used when the emulator closes). */
  close(): void {
    for (const [id, meta] of this.store.resultMeta) if (!meta.finished) this.cancelResult(id);
  }
}
