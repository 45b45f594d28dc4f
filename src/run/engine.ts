/**
 * The run engine: triggers every run at once (bounded), waits for them with adaptive polling under one
 * shared request budget, re-runs failed tests (`retry-failed`), and stops at the deadline or on a workflow
 * cancel, cancelling what is still running remotely.
 *
 * Service facts followed: execute with `immediate=1`; suites: poll `GET /suite-results/{id}/` until it is
 * over (`passing` not null, or cancelled: status 8 or a finish date), then page `GET /suite-results/{id}/
 * results/?count=50`; tests and on-demand runs: poll `GET /results/{id}/`. A result that answers "not found"
 * just after its trigger is asked again for up to `notFoundGraceMs`. Polling times: see `schedule.ts`.
 */
import type { GhostInspectorApi } from '../api/api.js';
import { ApiError, isNotFound } from '../api/errors.js';
import { refId, refName } from '../api/refs.js';
import { EXECUTE_PARAMETER_NAMES } from '../api/execute-params.js';
import type { ExecuteOptions, SuiteResult, TestDefinition, TestResult } from '../api/types.js';
import { RateBudget } from './budget.js';
import { systemClock, type Clock } from './clock.js';
import {
  describeTimeout,
  LOOKUP_END_MS,
  MAY_HAVE_STARTED_ERROR,
  NOT_STARTED_ERROR,
  TRIGGER_GRACE_MS,
  WRAP_UP_MS,
  type StopReason,
} from './deadline.js';
import {
  asArray,
  expectedVariants,
  jobId,
  jobKeyBase,
  jobLabel,
  optionsFor,
  runBaseOf,
  retryOptions,
  slug,
  variantAt,
  variantCombinations,
  variantFromResult,
  type TriggerJob,
  type UserExecuteOptions,
} from './execute.js';
import { classifyTestResult, STATUS_CANCELLED } from './outcome.js';
import {
  expectedWindow,
  groupPollDelay,
  nextPollDelay,
  wallTimeMs,
  type ExpectedWindow,
} from './schedule.js';
import { definitionFor, type RepoTest } from '../inputs/test-files.js';
import { foldIds, ProblemLog } from './progress.js';
import { findTriggeredRuns, mayHaveStarted } from './reconcile.js';
import type { RunSummary, SuiteRun, TestRun, TestState, Variant } from './types.js';

/** Where the engine writes progress (already redacted text). */
export interface RunLog {
  info(line: string): void;
  warning(line: string): void;
  /** A collapsible group: a title line and its body lines. */
  group(title: string, lines: string[]): void;
  debug?(line: string): void;
}

/** What to run and how to wait (a subset of `ActionInputs`). */
export interface RunPlan {
  suiteIds: string[];
  folderIds: string[];
  testIds: string[];
  repoTests: RepoTest[];
  organizationId: string | null;
  execute: UserExecuteOptions;
  /** Each start URL is a separate execute; empty: the suite's or test's own. */
  startUrls: string[];
  wait: boolean;
  /** Overall deadline, ms after `startedAtMs`. */
  timeoutMs: number;
  cancelOnTimeout: boolean;
  /** 0 to 3. */
  retryFailed: number;
}

export interface EngineOptions {
  api: GhostInspectorApi;
  clock?: Clock;
  budget?: RateBudget;
  log?: RunLog;
  /** Workflow cancel: when it fires, active runs are cancelled at once and the engine returns. */
  signal?: AbortSignal;
  /** Base of web app links (default `https://app.ghostinspector.com`). */
  appUrl?: string;
  /** Execute requests in flight at once (default 4). */
  triggerConcurrency?: number;
  /** How long a "not found" answer right after a trigger is retried, ms (default 30000). */
  notFoundGraceMs?: number;
  /** Heartbeat period, ms (default 60000). */
  heartbeatMs?: number;
  /** Consecutive failed polls before a run is given up as `error` (default 6). */
  maxPollErrors?: number;
  /** Action start (ms since epoch); the deadline counts from it. Default: now. */
  startedAtMs?: number;
  /** Timeout of each cancel request after a workflow cancel, ms (default 3000). */
  signalCancelTimeoutMs?: number;
}

export const DEFAULT_APP_URL = 'https://app.ghostinspector.com';

/** A remote result the engine may have to cancel. */
interface Remote {
  type: 'suite' | 'test';
  id: string;
  active: boolean;
}

/** One run being waited for. */
interface Handle {
  run: SuiteRun;
  remote: Remote;
  triggeredAtMs: number;
  historyKey: string | null;
  delayMs: number;
  done: boolean;
  /** True once the first result is over and `run.tests` holds it (retries may still be going). */
  settled: boolean;
  /** For retries of tests and files. */
  job: TriggerJob;
  /** The last test result seen (kind test/file). */
  lastResult?: TestResult;
}

/** Runs of one suite or test from which on they are polled together through its results list. */
export const BATCH_MIN_RUNS = 4;

/** Runs of one suite or test waited for together (see `waitResult`). */
interface Group {
  waiters: Map<
    string,
    {
      handle: Handle;
      resolve: (value: SuiteResult | TestResult | null) => void;
      single: () => Promise<SuiteResult | TestResult | null>;
    }
  >;
}

/** A finished suite result whose test results are to be read. */
interface PendingSuiteTests {
  result: SuiteResult;
  resolve: (tests: TestResult[] | null) => void;
  /** Set when reading it by test did not give all of its tests: it is read on its own. */
  alone?: boolean;
}

/** Reads the test results of a group's finished suite results (see `suiteTestsOf`). */
interface TestReader {
  /** The suite's test ids in listing order, learned from the first suite result read; [] when unusable. */
  testIds: string[] | null;
  pending: Map<string, PendingSuiteTests>;
  busy: boolean;
  /** Runs in the group. */
  groupSize: number;
}

const noopLog: RunLog = { info: () => undefined, warning: () => undefined, group: () => undefined };

function iso(ms: number): string {
  return new Date(ms).toISOString();
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function variantLabel(v: Variant): string {
  const parts = [
    v.browser,
    v.region,
    v.viewport,
    v.startUrl,
    v.dataRow !== undefined ? `row ${v.dataRow + 1}` : '',
  ].filter((p): p is string => !!p);
  return parts.length ? ` [${parts.join(' · ')}]` : '';
}

const STATE_MARK: Record<TestState, string> = {
  passed: '✓ passed',
  failed: '✗ failed',
  flaky: '~ flaky',
  'timed-out': '⏱ timed out',
  cancelled: '⊘ cancelled',
  error: '! error',
};

/** Whether a suite result is over: a verdict, or cancelled (status 8, or a finish date without verdict). */
export function isSuiteResultOver(result: SuiteResult): boolean {
  if (result.passing !== null && result.passing !== undefined) return true;
  if (result.status === STATUS_CANCELLED) return true;
  const finished = result.dateExecutionFinished;
  return !!finished && !finished.startsWith('1970-');
}

/**
 * Runs everything in `plan` and returns the run model. Never throws for a remote problem: each shows as a
 * run or test in state `error` with a redacted sentence. Returns early (with `interrupted`) at the deadline
 * or when `options.signal` fires.
 */
export async function runPlan(plan: RunPlan, options: EngineOptions): Promise<RunSummary> {
  const engine = new Engine(plan, options);
  return engine.run();
}

class Engine {
  private readonly api: GhostInspectorApi;
  private readonly clock: Clock;
  private readonly budget: RateBudget;
  private readonly log: RunLog;
  private readonly appUrl: string;
  private readonly startedAtMs: number;
  private readonly deadlineMs: number;
  /** Fires at the deadline or on a workflow cancel: every wait stops. */
  private readonly stop = new AbortController();
  private stopReason: 'deadline' | 'signal' | null = null;
  private readonly runs: SuiteRun[] = [];
  private readonly handles: Handle[] = [];
  private readonly remotes = new Set<Remote>();
  private readonly histories = new Map<string, Promise<ExpectedWindow | null>>();
  private triggerSlots: number;
  private readonly slotWaiters: Array<() => void> = [];
  private counter = new Map<string, number>();
  private finishedTests = 0;

  constructor(
    private readonly plan: RunPlan,
    private readonly options: EngineOptions,
  ) {
    this.api = options.api;
    this.clock = options.clock ?? systemClock;
    this.budget = options.budget ?? new RateBudget({ clock: this.clock });
    this.log = options.log ?? noopLog;
    this.appUrl = (options.appUrl ?? DEFAULT_APP_URL).replace(/\/+$/, '');
    this.startedAtMs = options.startedAtMs ?? this.clock.now();
    this.deadlineMs = this.startedAtMs + plan.timeoutMs;
    this.triggerSlots = options.triggerConcurrency ?? 4;
  }

  async run(): Promise<RunSummary> {
    const onSignal = (): void => this.halt('signal');
    if (this.options.signal?.aborted) this.halt('signal');
    this.options.signal?.addEventListener('abort', onSignal, { once: true });
    const deadlineTimer = this.watchDeadline();
    try {
      // A stop aborts the executes in flight; their runs are looked up (reconciled) within the wrap-up time.
      // A workflow cancel does not wait for that: the runs already known are cancelled at once.
      const triggering = this.triggerAll();
      await Promise.race([triggering, this.signalled]);
      if (this.plan.wait && this.stopReason === null) {
        const heartbeat = this.heartbeat();
        await Promise.all(this.handles.map((h) => this.follow(h)));
        this.quietHeartbeat = true;
        void heartbeat;
      }
      if (this.stopReason === 'signal') await this.cancelForSignal(triggering);
      else {
        await triggering;
        if (this.stopReason === 'deadline' && this.plan.wait) await this.settleAtDeadline();
      }
    } finally {
      this.options.signal?.removeEventListener('abort', onSignal);
      this.finishedAll.abort();
      void deadlineTimer;
    }
    return {
      runs: this.runs,
      startedAt: iso(this.startedAtMs),
      finishedAt: iso(this.clock.now()),
      ...(this.stopReason ? { interrupted: this.stopReason } : {}),
      appUrl: this.appUrl,
    };
  }

  // --- stopping -------------------------------------------------------------------------------------

  /** Aborted when the engine is done, to end the deadline watch and the heartbeat. */
  private readonly finishedAll = new AbortController();
  private quietHeartbeat = false;

  private halt(reason: StopReason): void {
    if (this.stopReason === 'signal') return;
    const first = this.stopReason === null;
    this.stopReason = reason;
    this.stop.abort();
    if (reason === 'signal') this.releaseSignalled();
    if (!first) return;
    // The wrap-up after a stop (lookups of interrupted triggers, cancels, listings) is bounded: lookups get
    // the first half of it, everything ends with it (see deadline.ts).
    const at = (ms: number, controller: AbortController): void =>
      void this.clock.sleep(ms, this.finishedAll.signal).then(() => controller.abort());
    at(TRIGGER_GRACE_MS[reason], this.triggerStop);
    at(LOOKUP_END_MS[reason], this.lookupEnd);
    at(WRAP_UP_MS[reason], this.wrapUpEnd);
  }

  private releaseSignalled: () => void = () => undefined;
  /** Resolves on a workflow cancel; never without one. */
  private readonly signalled = new Promise<void>((resolve) => (this.releaseSignalled = resolve));
  /** Aborts the executes in flight, `TRIGGER_GRACE_MS` after a stop. */
  private readonly triggerStop = new AbortController();
  /** Fires `LOOKUP_END_MS` after a stop: lookups of interrupted triggers end. */
  private readonly lookupEnd = new AbortController();
  /** Fires at the end of the wrap-up time after a stop: every request of the wrap-up ends. */
  private readonly wrapUpEnd = new AbortController();

  private async watchDeadline(): Promise<void> {
    const remaining = this.deadlineMs - this.clock.now();
    await this.clock.sleep(remaining, this.finishedAll.signal);
    if (this.finishedAll.signal.aborted) return;
    if (this.handles.some((h) => !h.done) || this.triggering) {
      this.log.warning(
        `Timeout: ${describeTimeout(this.plan.timeoutMs)} passed with runs still going; stopping the wait.`,
      );
      this.halt('deadline');
    }
  }

  private async heartbeat(): Promise<void> {
    const period = this.options.heartbeatMs ?? 60_000;
    for (;;) {
      await this.clock.sleep(period, this.finishedAll.signal);
      if (this.stop.signal.aborted || this.finishedAll.signal.aborted || this.quietHeartbeat) return;
      const running = this.handles.filter((h) => !h.done).length;
      if (running === 0) return;
      const elapsed = Math.round((this.clock.now() - this.startedAtMs) / 1000);
      this.log.info(
        `… ${running} run${running === 1 ? '' : 's'} still going, ${this.finishedTests} test${this.finishedTests === 1 ? '' : 's'} finished (${elapsed} s).`,
      );
    }
  }

  // --- triggering -----------------------------------------------------------------------------------

  private triggering = false;

  private async slot<T>(task: () => Promise<T>): Promise<T> {
    while (this.triggerSlots <= 0) await new Promise<void>((resolve) => this.slotWaiters.push(resolve));
    this.triggerSlots -= 1;
    try {
      return await task();
    } finally {
      this.triggerSlots += 1;
      this.slotWaiters.shift()?.();
    }
  }

  private nextKey(base: string): string {
    const n = this.counter.get(base) ?? 0;
    this.counter.set(base, n + 1);
    return `${base}-${n}`;
  }

  private async triggerAll(): Promise<void> {
    this.triggering = true;
    try {
      const suiteIds = [...this.plan.suiteIds];
      for (const folderId of this.plan.folderIds) {
        if (this.stopReason) {
          this.notStartedFolder(folderId, this.stopReason);
          continue;
        }
        try {
          await this.budget.acquire(this.stop.signal);
          const suites = await this.api.listFolderSuites(folderId, { signal: this.stop.signal });
          this.log.info(`Folder ${folderId}: ${suites.length} suite${suites.length === 1 ? '' : 's'}.`);
          for (const suite of suites) if (!suiteIds.includes(suite._id)) suiteIds.push(suite._id);
        } catch (error) {
          if (this.stopReason) {
            this.notStartedFolder(folderId, this.stopReason);
            continue;
          }
          this.pushResultless(
            { kind: 'suite', suiteId: null, suiteName: `Folder ${folderId}` },
            `folder-${folderId}`,
            {},
            { error: `The suites of folder ${folderId} could not be listed: ${messageOf(error)}` },
          );
          this.log.warning(`Folder ${folderId}: ${messageOf(error)}`);
        }
      }
      const starts: Array<string | undefined> = this.plan.startUrls.length
        ? this.plan.startUrls
        : [undefined];
      const jobs: TriggerJob[] = [];
      for (const startUrl of starts) {
        const s = startUrl === undefined ? {} : { startUrl };
        for (const suiteId of suiteIds) jobs.push({ kind: 'suite', suiteId, ...s });
        for (const testId of this.plan.testIds) jobs.push({ kind: 'test', testId, ...s });
        for (const t of this.plan.repoTests) {
          jobs.push({
            kind: 'file',
            file: t.file,
            index: t.index,
            name: t.name,
            definition: definitionFor(t, startUrl),
            ...s,
          });
        }
      }
      await Promise.all(jobs.map((job) => this.slot(() => this.trigger(job))));
    } finally {
      this.triggering = false;
      this.problems.flush(this.log);
    }
  }

  /** Trigger failures, written as one warning per kind once every trigger is done. */
  private readonly problems = new ProblemLog();

  private async send(job: TriggerJob, options: ExecuteOptions): Promise<unknown> {
    // The execute is aborted by a stop; the runs it may have started are then looked up (`reconcile`).
    const opts = { signal: this.triggerStop.signal };
    if (job.kind === 'suite') return this.api.executeSuite(job.suiteId, options, opts);
    if (job.kind === 'test') return this.api.executeTest(job.testId, options, opts);
    return this.api.executeOnDemand(this.plan.organizationId ?? '', job.definition, options, opts);
  }

  /** A folder whose suites were never listed because the action stopped first: one run, not started. */
  private notStartedFolder(folderId: string, reason: StopReason): void {
    const base = { kind: 'suite', suiteId: null, suiteName: `Folder ${folderId}` } as const;
    this.pushResultless(
      base,
      `folder-${folderId}`,
      {},
      { error: NOT_STARTED_ERROR[reason], notStarted: reason },
    );
    this.problems.add(NOT_STARTED_ERROR[reason], {
      label: `folder ${folderId}`,
      id: folderId,
      message: NOT_STARTED_ERROR[reason],
    });
  }

  /**
   * Adds a run without a result (never started, could not start, not found): no tests, an error, ended now.
   * @param triggeredAtMs when its execute was sent; default now.
   */
  private pushResultless(
    base: Pick<SuiteRun, 'kind' | 'suiteId' | 'suiteName' | 'testId' | 'file'>,
    keyBase: string,
    variant: Variant,
    outcome: Pick<SuiteRun, 'error' | 'notStarted' | 'mayHaveStarted'>,
    triggeredAtMs = this.clock.now(),
  ): void {
    const now = iso(this.clock.now());
    const key = this.nextKey(keyBase);
    this.runs.push({
      ...base,
      key,
      variant,
      triggeredAt: iso(triggeredAtMs),
      endedAt: now,
      tests: [],
      ...outcome,
    });
  }

  /** The runs a job would have started (one per variant and data row), never started: the action stopped. */
  private notStarted(job: TriggerJob, options: ExecuteOptions, reason: StopReason): void {
    for (const variant of expectedVariants(options, job.startUrl)) {
      this.pushResultless(runBaseOf(job), jobKeyBase(job), variant, {
        error: NOT_STARTED_ERROR[reason],
        notStarted: reason,
      });
    }
    this.problems.add(NOT_STARTED_ERROR[reason], {
      label: jobLabel(job),
      id: jobId(job),
      message: NOT_STARTED_ERROR[reason],
    });
  }

  /**
   * An execute that may have started runs but was not answered (`TRIGGER_UNCERTAIN`, or aborted in flight
   * by a stop): look its runs up and adopt them (followed like any run; cancelled by the stop phase when
   * the action is stopping), else report it as "may have started". Never sends the execute again.
   */
  private async reconcile(
    job: TriggerJob,
    options: ExecuteOptions,
    triggeredAtMs: number,
    error: unknown,
  ): Promise<void> {
    const variants = expectedVariants(options, job.startUrl);
    const found = await findTriggeredRuns(
      this.api,
      {
        job,
        triggeredAtMs,
        expected: variants.length,
        known: new Set([...this.remotes].map((r) => r.id)),
        organizationId: this.plan.organizationId,
        signal: this.lookupEnd.signal,
      },
      this.clock,
      (signal) => this.budget.acquire(signal),
    );
    const label = jobLabel(job);
    if (found.length === 0) {
      this.pushResultless(
        runBaseOf(job),
        jobKeyBase(job),
        job.startUrl !== undefined ? { startUrl: job.startUrl } : {},
        { error: `${label}: ${MAY_HAVE_STARTED_ERROR} ${messageOf(error)}`, mayHaveStarted: true },
        triggeredAtMs,
      );
      this.problems.add('may have started; not found', {
        label,
        id: jobId(job),
        message: `${MAY_HAVE_STARTED_ERROR} ${messageOf(error)}`,
      });
      return;
    }
    this.adopt(job, options, found, triggeredAtMs);
    this.log.info(
      `Found the run${found.length === 1 ? '' : 's'} of ${label} after its execute was not answered: ${foldIds(found.map((r) => r._id))}.`,
    );
  }

  /** Follows the results an execute started (its answer, or what reconciliation found). */
  private adopt(
    job: TriggerJob,
    options: ExecuteOptions,
    results: Array<SuiteResult | TestResult>,
    triggeredAtMs: number,
  ): void {
    const combos = variantCombinations(options);
    const hasRows = options.dataFile !== undefined || options.dataSource !== undefined;
    results.forEach((result, i) => {
      const variant = variantAt(i, combos, hasRows && results.length > 1, job.startUrl);
      this.addHandle(job, result, variant, triggeredAtMs, options.delay ?? 0);
    });
  }

  private async trigger(job: TriggerJob): Promise<void> {
    // A workflow cancel or the deadline stops new triggers: the runs not triggered are reported as not
    // started. A trigger in flight is aborted and reconciled (its runs looked up, never re-sent).
    const options = optionsFor(job, this.plan.execute);
    if (this.stopReason) return this.notStarted(job, options, this.stopReason);
    try {
      await this.budget.acquire(this.stop.signal);
    } catch {
      return this.notStarted(job, options, this.stopReason ?? 'deadline');
    }
    if (this.stopReason) return this.notStarted(job, options, this.stopReason);
    const now = this.clock.now();
    const label = jobLabel(job);
    let data: unknown;
    try {
      data = await this.send(job, options);
    } catch (error) {
      if (mayHaveStarted(error)) return this.reconcile(job, options, now, error);
      if (this.stopReason) return this.notStarted(job, options, this.stopReason);
      this.pushResultless(
        runBaseOf(job),
        jobKeyBase(job),
        job.startUrl !== undefined ? { startUrl: job.startUrl } : {},
        { error: `Could not start ${label}: ${messageOf(error)}` },
        now,
      );
      const kind = error instanceof ApiError ? error.errorType : 'error';
      this.problems.add(kind, { label, id: jobId(job), message: messageOf(error) });
      return;
    }
    const results = asArray<SuiteResult | TestResult>(data);
    if (results.length === 0) {
      const base = { ...runBaseOf(job), suiteName: job.kind === 'file' ? job.file : label };
      this.pushResultless(
        base,
        jobKeyBase(job),
        {},
        { error: `The execute of ${label} answered no result.` },
        now,
      );
      return;
    }
    this.adopt(job, options, results, now);
    this.log.info(
      `Started ${label}: ${results.length} run${results.length === 1 ? '' : 's'} (${foldIds(results.map((r) => r._id))}).`,
    );
  }

  private addHandle(
    job: TriggerJob,
    result: SuiteResult | TestResult,
    variant: Variant,
    now: number,
    delayMs: number,
  ) {
    let run: SuiteRun;
    let historyKey: string | null = null;
    if (job.kind === 'suite') {
      const sr = result as SuiteResult;
      run = {
        kind: 'suite',
        key: this.nextKey(`suite-${job.suiteId}`),
        suiteId: job.suiteId,
        suiteName: sr.name || refName(sr.suite) || `Suite ${job.suiteId}`,
        variant,
        suiteResultId: sr._id,
        suiteResult: sr,
        triggeredAt: iso(now),
        tests: [],
      };
      historyKey = `suite:${job.suiteId}`;
    } else {
      const tr = result as TestResult;
      const base = job.kind === 'test' ? `test-${job.testId}` : `file-${slug(job.file)}-${job.index}`;
      run = {
        kind: job.kind,
        key: this.nextKey(base),
        suiteId: job.kind === 'test' && tr.test && typeof tr.test === 'object' ? refId(tr.test.suite) : null,
        suiteName: job.kind === 'file' ? job.file : tr.name || `Test ${job.testId}`,
        testId: job.kind === 'test' ? job.testId : null,
        ...(job.kind === 'file' ? { file: job.file } : {}),
        testResultId: tr._id,
        variant,
        triggeredAt: iso(now),
        tests: [],
      };
      if (job.kind === 'test') historyKey = `test:${job.testId}`;
    }
    const remote: Remote = { type: job.kind === 'suite' ? 'suite' : 'test', id: result._id, active: true };
    this.remotes.add(remote);
    this.runs.push(run);
    this.handles.push({
      run,
      remote,
      triggeredAtMs: now,
      historyKey,
      delayMs,
      done: false,
      settled: false,
      job,
      ...(job.kind !== 'suite' ? { lastResult: result as TestResult } : {}),
    });
  }

  // --- waiting --------------------------------------------------------------------------------------

  /** The expected window of a suite or test, from its last 5 results (read once per suite or test). */
  private history(key: string | null, delayMs: number): Promise<ExpectedWindow | null> {
    if (!key) return Promise.resolve(null);
    let samples = this.histories.get(key);
    if (!samples) {
      samples = (async () => {
        const [type, id] = key.split(':') as ['suite' | 'test', string];
        try {
          await this.budget.acquire(this.stop.signal);
          const results =
            type === 'suite'
              ? await this.api.listSuiteResults(id, { count: 5 }, { signal: this.stop.signal })
              : await this.api.listTestResults(id, { count: 5 }, { signal: this.stop.signal });
          const durations = results.map((r) => wallTimeMs(r)).filter((n): n is number => n !== null);
          return expectedWindow(durations, 0);
        } catch {
          return null;
        }
      })();
      this.histories.set(key, samples);
    }
    return samples.then((w) => (w ? { lowMs: w.lowMs + delayMs, highMs: w.highMs + delayMs } : null));
  }

  /**
   * Polls one remote result until it is over, the deadline passes or the workflow is cancelled.
   * @returns the last answer, or null when the wait stopped or the result could not be had.
   */
  private async pollRemote<T extends SuiteResult | TestResult>(
    remote: Remote,
    triggeredAtMs: number,
    window: ExpectedWindow | null,
    get: (signal: AbortSignal) => Promise<T>,
    isOver: (value: T) => boolean,
    onProblem: (reason: string) => void,
  ): Promise<T | null> {
    const grace = this.options.notFoundGraceMs ?? 30_000;
    const maxErrors = this.options.maxPollErrors ?? 6;
    let polls = 0;
    let lastIntervalMs = 0;
    let errors = 0;
    let forceDelay: number | null = null;
    for (;;) {
      const elapsedMs = this.clock.now() - triggeredAtMs;
      const next = nextPollDelay({ elapsedMs, polls, lastIntervalMs, window }, this.clock.random());
      lastIntervalMs = next.intervalMs;
      await this.clock.sleep(forceDelay ?? next.delayMs, this.stop.signal);
      forceDelay = null;
      if (this.stop.signal.aborted) return null;
      try {
        await this.budget.acquire(this.stop.signal);
      } catch {
        return null;
      }
      polls += 1;
      try {
        const value = await get(this.stop.signal);
        errors = 0;
        if (isOver(value)) {
          remote.active = false;
          return value;
        }
      } catch (error) {
        if (this.stop.signal.aborted) return null;
        if (isNotFound(error) && this.clock.now() - triggeredAtMs < grace) {
          forceDelay = 1_000;
          continue;
        }
        errors += 1;
        this.log.debug?.(`Poll of ${remote.type} result ${remote.id} failed: ${messageOf(error)}`);
        if (isNotFound(error) || errors >= maxErrors) {
          onProblem(`Its result could not be read: ${messageOf(error)}`);
          return null;
        }
        forceDelay = Math.min(10_000, 1_000 * 2 ** errors);
      }
    }
  }

  /**
   * Waits for one run's result: alone (`single`), or, when at least `BATCH_MIN_RUNS` runs of the same suite
   * or test are waited for (variants, data rows), in a group polled through the suite's or test's results
   * list: one request covers up to 50 runs (newest first), instead of one request per run.
   */
  private waitResult(
    handle: Handle,
    window: ExpectedWindow | null,
    single: () => Promise<SuiteResult | TestResult | null>,
  ): Promise<SuiteResult | TestResult | null> {
    const key = handle.historyKey;
    if (!key || this.handles.filter((h) => h.historyKey === key).length < BATCH_MIN_RUNS) return single();
    let group = this.groups.get(key);
    if (!group) {
      group = { waiters: new Map() };
      this.groups.set(key, group);
      const g = group;
      queueMicrotask(() => void this.pollGroup(key, g, handle.triggeredAtMs, window));
    }
    const g = group;
    return new Promise((resolve) => g.waiters.set(handle.remote.id, { handle, resolve, single }));
  }

  private readonly groups = new Map<string, Group>();

  private async pollGroup(key: string, group: Group, triggeredAtMs: number, window: ExpectedWindow | null) {
    const [type, id] = key.split(':') as ['suite' | 'test', string];
    const maxErrors = this.options.maxPollErrors ?? 6;
    const misses = new Map<string, number>();
    let polls = 0;
    let lastIntervalMs = 0;
    let errors = 0;
    const settle = (rid: string, value: SuiteResult | TestResult | null): void => {
      const waiter = group.waiters.get(rid);
      if (!waiter) return;
      group.waiters.delete(rid);
      if (value) waiter.handle.remote.active = false;
      waiter.resolve(value);
    };
    while (group.waiters.size > 0) {
      const elapsedMs = this.clock.now() - triggeredAtMs;
      const runs = group.waiters.size;
      const next = groupPollDelay(
        { elapsedMs, polls, lastIntervalMs, window },
        runs,
        Math.ceil(runs / 50),
        this.clock.random(),
      );
      lastIntervalMs = next.intervalMs;
      await this.clock.sleep(
        errors > 0 ? Math.min(10_000, 1_000 * 2 ** errors) : next.delayMs,
        this.stop.signal,
      );
      if (this.stop.signal.aborted) break;
      polls += 1;
      const seen = new Set<string>();
      const pages = Math.ceil(group.waiters.size / 50) + 2;
      try {
        for (let page = 0; page < pages && seen.size < group.waiters.size; page++) {
          await this.budget.acquire(this.stop.signal);
          const paging = { count: 50, offset: page * 50 };
          const list: Array<SuiteResult | TestResult> =
            type === 'suite'
              ? await this.api.listSuiteResults(id, paging, { signal: this.stop.signal })
              : await this.api.listTestResults(id, paging, { signal: this.stop.signal });
          for (const r of list) {
            const waiter = group.waiters.get(r._id);
            if (!waiter) continue;
            seen.add(r._id);
            if (type === 'test') waiter.handle.lastResult = r as TestResult;
            const over =
              type === 'suite'
                ? isSuiteResultOver(r as SuiteResult)
                : classifyTestResult(r as TestResult) !== 'running';
            if (over) settle(r._id, r);
          }
          if (list.length < 50) break;
        }
        errors = 0;
      } catch (error) {
        if (this.stop.signal.aborted) break;
        errors += 1;
        this.log.debug?.(`Listing the results of ${type} ${id} failed: ${messageOf(error)}`);
        if (errors < maxErrors) continue;
      }
      // Runs the list does not show (others ran in between, or the list failed): followed one by one.
      for (const [rid, waiter] of [...group.waiters]) {
        if (seen.has(rid)) continue;
        const n = (misses.get(rid) ?? 0) + 1;
        misses.set(rid, n);
        if (n >= 2 || errors >= maxErrors) {
          group.waiters.delete(rid);
          void waiter.single().then(waiter.resolve);
        }
      }
      if (errors >= maxErrors) break;
    }
    for (const rid of [...group.waiters.keys()]) settle(rid, null);
  }

  private async follow(handle: Handle): Promise<void> {
    const window = await this.history(handle.historyKey, handle.delayMs);
    if (handle.remote.type === 'suite') await this.followSuite(handle, window);
    else await this.followTest(handle, window);
  }

  private async followSuite(handle: Handle, window: ExpectedWindow | null): Promise<void> {
    const id = handle.remote.id;
    const single = (): Promise<SuiteResult | null> =>
      this.pollRemote<SuiteResult>(
        handle.remote,
        handle.triggeredAtMs,
        window,
        (signal) => this.api.getSuiteResult(id, { signal }),
        isSuiteResultOver,
        (reason) => (handle.run.error = reason),
      );
    const result = (await this.waitResult(handle, window, single)) as SuiteResult | null;
    if (!result) {
      if (!this.stop.signal.aborted) this.end(handle);
      return;
    }
    handle.run.suiteResult = result;
    if (result.name) handle.run.suiteName = result.name;
    const tests = await this.suiteTestsOf(handle, result);
    if (tests === null) {
      if (!this.stop.signal.aborted) {
        handle.run.error = 'The test results of the suite result could not be listed.';
        this.end(handle);
      }
      return;
    }
    const cancelled = result.passing === null;
    handle.run.tests = tests.map((r) => this.testRunOf(r, cancelled ? 'cancelled' : 'error'));
    if (tests[0]) handle.run.variant = variantFromResult(handle.run.variant, tests[0]);
    handle.settled = true;
    for (const t of handle.run.tests) this.report(handle.run, t);
    await this.retryFailures(handle);
    this.end(handle);
  }

  private async followTest(handle: Handle, window: ExpectedWindow | null): Promise<void> {
    const id = handle.remote.id;
    const single = (): Promise<TestResult | null> =>
      this.pollRemote<TestResult>(
        handle.remote,
        handle.triggeredAtMs,
        window,
        (signal) => this.api.getTestResult(id, { signal }),
        (r) => {
          handle.lastResult = r;
          return classifyTestResult(r) !== 'running';
        },
        (reason) => (handle.run.error = reason),
      );
    const result = (await this.waitResult(handle, window, single)) as TestResult | null;
    if (!result) {
      if (!this.stop.signal.aborted) {
        handle.run.tests = [
          {
            testId: handle.run.testId ?? null,
            testName: handle.lastResult?.name || this.nameOf(handle.job),
            state: 'error',
            result: null,
            attempts: [],
            error: handle.run.error,
          },
        ];
        this.end(handle);
      }
      return;
    }
    handle.run.variant = variantFromResult(handle.run.variant, result);
    const testRun = this.testRunOf(result, 'error');
    if (handle.job.kind === 'file') testRun.testName = result.name || handle.job.name;
    handle.run.tests = [testRun];
    handle.settled = true;
    this.report(handle.run, testRun);
    await this.retryFailures(handle);
    this.end(handle);
  }

  private nameOf(job: TriggerJob): string {
    return job.kind === 'file'
      ? job.name
      : job.kind === 'test'
        ? `Test ${job.testId}`
        : `Suite ${job.suiteId}`;
  }

  private end(handle: Handle): void {
    handle.done = true;
    handle.remote.active = false;
    handle.run.endedAt = iso(this.clock.now());
  }

  // --- test results of finished suite results ---------------------------------------------------------

  private readonly readers = new Map<string, TestReader>();

  /**
   * The test results of a finished suite result. Alone: its own listing (`listSuiteTests`). Of a group (4 or
   * more runs of one suite: data rows, variants), each suite result is read as soon as it is over, through a
   * reader shared by the group: while few are waiting, one listing per suite result (20 tests: 1 request);
   * when many are waiting at once (e.g. 100 data rows finishing together), the tests' own result lists
   * (`listTestResults(testId, {count: 50})`, newest first) cover 50 suite results a request, so reading
   * them costs `tests × ⌈runs / 50⌉` requests instead of one per suite result. Returns null when the listing
   * failed or was stopped.
   */
  private suiteTestsOf(handle: Handle, result: SuiteResult): Promise<TestResult[] | null> {
    const key = handle.historyKey;
    const groupSize = key ? this.handles.filter((h) => h.historyKey === key).length : 0;
    if (!key || groupSize < BATCH_MIN_RUNS) return this.listSuiteTests(handle.remote.id);
    let reader = this.readers.get(key);
    if (!reader) {
      reader = { testIds: null, pending: new Map(), busy: false, groupSize };
      this.readers.set(key, reader);
    }
    const r = reader;
    return new Promise((resolve) => {
      r.pending.set(result._id, { result, resolve });
      void this.drainReader(r);
    });
  }

  private async drainReader(reader: TestReader): Promise<void> {
    if (reader.busy) return;
    reader.busy = true;
    try {
      // Let the suite results settled by the same poll join the queue first.
      await new Promise<void>((resolve) => setImmediate(resolve));
      while (reader.pending.size > 0) {
        if (this.stop.signal.aborted) {
          for (const p of reader.pending.values()) p.resolve(null);
          reader.pending.clear();
          return;
        }
        const testIds = reader.testIds;
        const byTest = [...reader.pending.values()].filter((p) => !p.alone).length;
        const perTest = testIds ? testIds.length * (Math.ceil(reader.groupSize / 50) + 0.5) : Infinity;
        const perSuite = byTest * Math.ceil((testIds?.length ?? 1) / 50);
        const alone = [...reader.pending.entries()].find(([, p]) => p.alone);
        if (!alone && testIds && testIds.length > 0 && perTest < perSuite) {
          await this.readByTest(reader, testIds);
          continue;
        }
        const [id, entry] = alone ?? (reader.pending.entries().next().value as [string, PendingSuiteTests]);
        reader.pending.delete(id);
        const tests = await this.listSuiteTests(id);
        if (tests && reader.testIds === null) {
          const ids = tests.map((t) => refId(t.test));
          // Reading by test needs every test result to name its test, each once.
          reader.testIds = ids.every((t): t is string => !!t) && new Set(ids).size === ids.length ? ids : [];
        }
        entry.resolve(tests);
      }
    } finally {
      reader.busy = false;
    }
  }

  /**
   * Reads the test results of every waiting suite result of a group through each test's results list;
   * a suite result not complete that way (a test missing or still running, a list failing) is read on its
   * own.
   */
  private async readByTest(reader: TestReader, testIds: string[]): Promise<void> {
    const waiting = new Map(reader.pending);
    reader.pending.clear();
    const found = new Map<string, Map<string, TestResult>>();
    for (const id of waiting.keys()) found.set(id, new Map());
    const maxPages = Math.ceil(reader.groupSize / 50) + 2;
    for (const testId of testIds) {
      const need = new Set(waiting.keys());
      for (let page = 0; page < maxPages && need.size > 0; page++) {
        let list: TestResult[];
        try {
          await this.budget.acquire(this.stop.signal);
          list = await this.api.listTestResults(
            testId,
            { count: 50, offset: page * 50 },
            { signal: this.stop.signal },
          );
        } catch (error) {
          if (this.stop.signal.aborted) break;
          this.log.debug?.(`Listing the results of test ${testId} failed: ${messageOf(error)}`);
          break;
        }
        for (const r of list) {
          const sr = r.suiteResult;
          if (!sr || !need.has(sr) || classifyTestResult(r) === 'running') continue;
          found.get(sr)?.set(testId, r);
          need.delete(sr);
        }
        if (list.length < 50) break;
      }
      if (this.stop.signal.aborted) break;
    }
    for (const [id, entry] of waiting) {
      const byTest = found.get(id);
      const expected = this.testCountOf(entry.result);
      const complete =
        !this.stop.signal.aborted &&
        byTest !== undefined &&
        byTest.size === testIds.length &&
        (expected === null || expected === testIds.length);
      if (complete) {
        entry.resolve(testIds.map((t) => byTest.get(t) as TestResult));
      } else if (this.stop.signal.aborted) {
        entry.resolve(null);
      } else {
        // Read on its own by the reader's loop.
        reader.pending.set(id, { ...entry, alone: true });
      }
    }
  }

  /** The number of tests a suite result ran, from its counts; null when it does not say. */
  private testCountOf(result: SuiteResult): number | null {
    const n = (result.countPassing ?? 0) + (result.countFailing ?? 0) + (result.countUnknown ?? 0);
    return n > 0 ? n : null;
  }

  /**
   * Every test result of a suite result, in pages of 50, each once; null when the listing failed or was
   * stopped.
   */
  private async listSuiteTests(
    suiteResultId: string,
    signal = this.stop.signal,
  ): Promise<TestResult[] | null> {
    const all: TestResult[] = [];
    const seen = new Set<string>();
    for (let offset = 0; ; offset += 50) {
      let page: TestResult[] | null = null;
      for (let attempt = 0; attempt < 3 && page === null; attempt++) {
        try {
          await this.budget.acquire(signal);
          page = await this.api.listSuiteResultTestResults(suiteResultId, { count: 50, offset }, { signal });
        } catch (error) {
          if (signal.aborted) return null;
          this.log.debug?.(`Listing the tests of suite result ${suiteResultId} failed: ${messageOf(error)}`);
          await this.clock.sleep(1_000 * (attempt + 1), signal);
        }
      }
      if (page === null) return null;
      // A list that changes while it is paged (offset paging) shifts results across pages: keep each once.
      for (const result of page) {
        if (seen.has(result._id)) continue;
        seen.add(result._id);
        all.push(result);
      }
      if (page.length < 50) return all;
    }
  }

  private testRunOf(result: TestResult, ifRunning: TestState): TestRun {
    const state = classifyTestResult(result);
    const run: TestRun = {
      testId: refId(result.test),
      testName: result.name || refName(result.test) || 'Test',
      state: state === 'running' ? ifRunning : state,
      result,
      attempts: [],
      url: `${this.appUrl}/results/${result._id}`,
    };
    if (state === 'running') run.error = 'The suite ended before this test finished.';
    else if (state === 'error') run.error = 'The test result ended without a verdict.';
    return run;
  }

  /** The grouped progress line of one finished test. */
  private report(run: SuiteRun, test: TestRun, first = true): void {
    if (first) this.finishedTests += 1;
    const seconds = test.result?.executionTime
      ? ` in ${(test.result.executionTime / 1000).toFixed(1)} s`
      : '';
    const title = `${STATE_MARK[test.state]}  ${test.testName}${variantLabel(run.variant)}${seconds}`;
    const lines: string[] = [];
    if (run.kind === 'suite') lines.push(`Suite: ${run.suiteName}`);
    if (run.file) lines.push(`File: ${run.file}`);
    if (test.url) lines.push(`Result: ${test.url}`);
    const failing = test.result?.steps?.find((s) => s.passing === false && !s.optional);
    if (failing) {
      lines.push(
        `Failing step ${failing.sequence + 1}: ${failing.command} ${typeof failing.target === 'string' ? failing.target : failing.target.map((t) => t.selector).join(' || ')}`,
      );
      if (failing.error) lines.push(`Error: ${failing.error}`);
    }
    if (test.error) lines.push(test.error);
    if (test.attempts.length) lines.push(`Attempts before: ${test.attempts.length}`);
    this.log.group(title, lines);
  }

  // --- retry-failed ---------------------------------------------------------------------------------

  private async retryFailures(handle: Handle): Promise<void> {
    if (this.plan.retryFailed <= 0) return;
    const failed = handle.run.tests.filter((t) => t.state === 'failed');
    await Promise.all(failed.map((t) => this.retryTest(handle, t)));
  }

  private async retryTest(handle: Handle, test: TestRun): Promise<void> {
    const job = handle.job;
    const testId = job.kind === 'file' ? null : test.testId;
    if (job.kind !== 'file' && !testId) return;
    const variant = test.result ? variantFromResult(handle.run.variant, test.result) : handle.run.variant;
    const options = retryOptions(this.plan.execute, variant, test.result, EXECUTE_PARAMETER_NAMES);
    // A repository test carries the start URL it runs under (see optionsFor).
    if (job.kind === 'file' && options.startUrl !== undefined && job.definition.startUrl) {
      options.startUrl = job.definition.startUrl;
    }
    for (let attempt = 1; attempt <= this.plan.retryFailed; attempt++) {
      if (this.stop.signal.aborted) return;
      const label = `${test.testName}${variantLabel(variant)}`;
      this.log.info(
        `Re-running failed test ${label} (attempt ${attempt + 1} of ${this.plan.retryFailed + 1}).`,
      );
      let started: TestResult | undefined;
      const triggeredAtMs = this.clock.now();
      try {
        started = await this.slot(async () => {
          await this.budget.acquire(this.stop.signal);
          const data =
            job.kind === 'file'
              ? await this.api.executeOnDemand(
                  this.plan.organizationId ?? '',
                  job.definition as TestDefinition,
                  options,
                  { signal: this.stop.signal },
                )
              : await this.api.executeTest(testId as string, options, { signal: this.stop.signal });
          return asArray<TestResult>(data)[0];
        });
      } catch (error) {
        if (mayHaveStarted(error)) started = await this.findRerun(job, testId, options, triggeredAtMs, label);
        if (!started) {
          if (!this.stop.signal.aborted) this.log.warning(`Could not re-run ${label}: ${messageOf(error)}`);
          return;
        }
      }
      if (!started) return;
      const startedId = started._id;
      const remote: Remote = { type: 'test', id: startedId, active: true };
      this.remotes.add(remote);
      const window = await this.history(testId ? `test:${testId}` : null, 0);
      const result = await this.pollRemote<TestResult>(
        remote,
        triggeredAtMs,
        window,
        (signal) => this.api.getTestResult(startedId, { signal }),
        (r) => classifyTestResult(r) !== 'running',
        (reason) => this.log.warning(`Re-run of ${label}: ${reason}`),
      );
      if (!result) return;
      const state = classifyTestResult(result);
      if (test.result) test.attempts.push(test.result);
      test.result = result;
      test.url = `${this.appUrl}/results/${result._id}`;
      if (state === 'passed') {
        test.state = 'flaky';
        this.report(handle.run, test, false);
        return;
      }
      if (state !== 'failed') {
        test.state = state === 'running' ? 'error' : state;
        this.report(handle.run, test, false);
        return;
      }
    }
    this.report(handle.run, test, false);
  }

  /**
   * A re-run whose execute may have started one (see `reconcile.ts`): found, it is followed, or cancelled
   * when the action is stopping; never sent again.
   */
  private async findRerun(
    job: TriggerJob,
    testId: string | null,
    options: ExecuteOptions,
    triggeredAtMs: number,
    label: string,
  ): Promise<TestResult | undefined> {
    const startUrl = options.startUrl !== undefined ? { startUrl: options.startUrl } : {};
    const lookup: TriggerJob =
      job.kind === 'file' ? job : { kind: 'test', testId: testId ?? '', ...startUrl };
    const request = {
      job: lookup,
      triggeredAtMs,
      expected: 1,
      known: new Set([...this.remotes].map((r) => r.id)),
      organizationId: this.plan.organizationId,
      signal: this.lookupEnd.signal,
    };
    const found = await findTriggeredRuns(this.api, request, this.clock, (signal) =>
      this.budget.acquire(signal),
    );
    const first = found[0] as TestResult | undefined;
    if (!first) {
      this.log.warning(`The re-run of ${label} may have started; not found.`);
      return undefined;
    }
    if (this.stop.signal.aborted) {
      await this.cancelRemote({ type: 'test', id: first._id, active: true }, this.wrapUpEnd.signal);
      return undefined;
    }
    return first;
  }

  // --- deadline and workflow cancel -----------------------------------------------------------------

  private async cancelRemote(remote: Remote, signal?: AbortSignal): Promise<SuiteResult | TestResult | null> {
    try {
      const result =
        remote.type === 'suite'
          ? await this.api.cancelSuiteResult(remote.id, { signal })
          : await this.api.cancelTestResult(remote.id, { signal });
      remote.active = false;
      return result;
    } catch (error) {
      this.log.warning(`Could not cancel ${remote.type} result ${remote.id}: ${messageOf(error)}`);
      return null;
    }
  }

  /** At the deadline: cancel (if asked) what still runs, keep what finished, mark the rest timed out. */
  private async settleAtDeadline(): Promise<void> {
    // Runs whose result is over keep it (a re-run still going is cancelled and dropped).
    for (const handle of this.handles.filter((h) => !h.done && h.settled)) this.end(handle);
    const open = this.handles.filter((h) => !h.done);
    // Every request here ends with the wrap-up time (deadline.ts): the step ends within timeout + 10 s.
    const settle = { signal: this.wrapUpEnd.signal };
    if (this.plan.cancelOnTimeout) {
      const active = [...this.remotes].filter((r) => r.active);
      await Promise.all(
        active.map(async (r) => {
          try {
            await this.budget.acquire(settle.signal);
          } catch {
            return null;
          }
          return this.cancelRemote(r, settle.signal);
        }),
      );
    }
    await Promise.all(
      open.map(async (handle) => {
        handle.run.timedOut = true;
        handle.run.cancelled = this.plan.cancelOnTimeout && !handle.remote.active;
        handle.run.error = `Still running at the timeout (${describeTimeout(this.plan.timeoutMs)})${handle.run.cancelled ? '; cancelled' : ''}.`;
        if (handle.remote.type === 'suite') {
          const tests = await this.listSuiteTests(handle.remote.id, settle.signal);
          handle.run.tests = (tests ?? []).map((r) => {
            const t = this.testRunOf(r, 'timed-out');
            if (t.state === 'cancelled' && handle.run.cancelled) t.state = 'timed-out';
            if (t.state === 'timed-out') t.error = 'Still running at the timeout.';
            return t;
          });
        } else {
          const last = handle.lastResult ?? null;
          handle.run.tests = [
            {
              testId: handle.run.testId ?? null,
              testName: last?.name || this.nameOf(handle.job),
              state: 'timed-out',
              result: last,
              attempts: [],
              error: 'Still running at the timeout.',
              ...(last ? { url: `${this.appUrl}/results/${last._id}` } : {}),
            },
          ];
        }
        for (const t of handle.run.tests) if (t.state === 'timed-out') this.report(handle.run, t);
        handle.done = true;
        handle.run.endedAt = iso(this.clock.now());
      }),
    );
  }

  /**
   * On a workflow cancel: cancel every active remote run at once (no budget wait), then those that the
   * triggers still in flight started (answered late or found by reconciliation), then mark them all.
   */
  private async cancelForSignal(triggering: Promise<void>): Promise<void> {
    const first = [...this.remotes].filter((r) => r.active);
    if (first.length > 0) {
      this.log.warning(
        `Workflow cancelled: cancelling ${first.length} remote run${first.length === 1 ? '' : 's'}.`,
      );
    }
    // GitHub sends SIGTERM 7.5 s after SIGINT: every request here ends within `signalCancelTimeoutMs` (cancels)
    // and the wrap-up time overall (the suites' test listings), leaving time to write the reports.
    const overall = this.wrapUpEnd;
    const cancelTimeoutMs = this.options.signalCancelTimeoutMs ?? 3_000;
    const suiteTests = new Map<string, TestResult[]>();
    const cancelOne = async (r: Remote): Promise<SuiteResult | TestResult | null> => {
      const answer = await this.cancelRemote(
        r,
        AbortSignal.any([overall.signal, AbortSignal.timeout(cancelTimeoutMs)]),
      );
      if (r.type === 'suite' && !overall.signal.aborted) {
        try {
          const tests = await this.api.listSuiteResultTestResults(
            r.id,
            { count: 50, offset: 0 },
            { signal: overall.signal },
          );
          suiteTests.set(r.id, tests);
        } catch {
          // Keep the run without its tests: it shows as cancelled.
        }
      }
      return answer;
    };
    const firstAnswers = Promise.all(first.map(cancelOne));
    await triggering;
    const late = [...this.remotes].filter((r) => r.active && !first.includes(r));
    if (late.length > 0) {
      this.log.warning(
        `Workflow cancelled: cancelling ${late.length} more remote run${late.length === 1 ? '' : 's'} started by triggers in flight.`,
      );
    }
    const active = [...first, ...late];
    const answers = [...(await firstAnswers), ...(await Promise.all(late.map(cancelOne)))];
    const byId = new Map<string, SuiteResult | TestResult>();
    active.forEach((r, i) => {
      const a = answers[i];
      if (a) byId.set(r.id, a);
    });
    for (const handle of this.handles.filter((h) => !h.done && h.settled)) this.end(handle);
    for (const handle of this.handles.filter((h) => !h.done)) {
      handle.run.cancelled = true;
      handle.run.error = 'Cancelled with the workflow.';
      const answer = byId.get(handle.remote.id);
      if (handle.remote.type === 'suite') {
        if (answer) handle.run.suiteResult = answer as SuiteResult;
        handle.run.tests = (suiteTests.get(handle.remote.id) ?? []).map((r) => {
          const t = this.testRunOf(r, 'cancelled');
          if (t.state === 'cancelled') t.error = 'Cancelled with the workflow.';
          return t;
        });
      } else {
        const last = (answer as TestResult | undefined) ?? handle.lastResult ?? null;
        handle.run.tests = [
          {
            testId: handle.run.testId ?? null,
            testName: last?.name || this.nameOf(handle.job),
            state: 'cancelled',
            result: last,
            attempts: [],
            error: 'Cancelled with the workflow.',
            ...(last ? { url: `${this.appUrl}/results/${last._id}` } : {}),
          },
        ];
      }
      handle.done = true;
      handle.run.endedAt = iso(this.clock.now());
    }
  }
}
