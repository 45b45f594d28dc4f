/** The state one engine run shares between its modules, and their common helpers (run keys, ending a run). */
import { refId, refName } from '../api/refs.js';
import pLimit, { type LimitFunction } from 'p-limit';
import { setMaxListeners } from 'node:events';
import { NOT_FOUND_GRACE_MS } from '../api/limits.js';
import type { SuiteResult, TestResult } from '../api/types.js';
import type { RequestOptions } from '../api/api.js';
import type { Paging } from '../api/request-types.js';
import type { ActionApi } from './action-api.js';
import { systemClock, type Clock } from '../common/clock.js';
import type { RunEvent, RunEventListener } from './events.js';
import { classifyTestResult, suiteResultShortfall } from './outcome/outcome.js';
import { ProblemLog } from './progress.js';
import type { RepoTest } from '../inputs/test-files.js';
import type { ResultRef } from '../inputs/schema.js';
import type {
  StopReason,
  SuiteRun,
  TestRun,
  TestState,
  TriggerJob,
  UserExecuteOptions,
  Variant,
} from './types.js';

/** What to run and how to wait (a subset of `ActionInputs`). */
export interface RunPlan {
  suiteIds: string[];
  folderIds: string[];
  testIds: string[];
  repoTests: RepoTest[];
  /** Results started elsewhere, to follow without triggering (`trigger/result-ids.ts`). */
  resultIds?: ResultRef[];
  organizationId: string | null;
  execute: UserExecuteOptions;
  /** Each start URL is a separate execute; empty: the suite's or test's own. */
  startUrls: string[];
  wait: boolean;
  /** Overall deadline, ms after `startedAtMs`. */
  timeoutMs: number;
  cancelOnTimeout: boolean;
  /** The runs of `resultIds` may be cancelled like the engine's own (default: only waited for). */
  cancelResultIds?: boolean;
  /** 0 to 3. */
  retryFailed: number;
  /** At the first test failed for good, cancel every other active run and start no more (default false). */
  failFast?: boolean;
}

/** The engine's waits, ms; every one can be shortened for tests. */
export interface EngineWaits {
  /** How long a "not found" answer right after a trigger is retried (default `NOT_FOUND_GRACE_MS`). */
  notFoundGraceMs: number;
  /** Pause before asking again for a result not found yet (default 1000). */
  notFoundRetryMs: number;
  /** First pause before a failed page of a suite's tests is read again; grows per attempt (default 1000). */
  listRetryMs: number;
  /** First back-off after a failed poll; doubled per failure, jittered, at most 10 s (default 1000). */
  pollBackoffMs: number;
}

const DEFAULT_WAITS: Readonly<EngineWaits> = {
  notFoundGraceMs: NOT_FOUND_GRACE_MS,
  notFoundRetryMs: 1_000,
  listRetryMs: 1_000,
  pollBackoffMs: 1_000,
};

/** Largest back-off between failed polls, ms. */
export const POLL_BACKOFF_CAP_MS = 10_000;

/** A remote result the engine may have to cancel. */
export interface Remote {
  type: 'suite' | 'test';
  id: string;
  active: boolean;
  /**
   * Not proven this step's own (a run of `result-ids`, unless `cancel-result-ids`): never cancelled, never
   * kept for the post step.
   */
  inferred?: boolean;
}

/** Whether the stop phase may cancel a remote run: still active, and known to be the action's own. */
export function cancellable(remote: Remote): boolean {
  return remote.active && !remote.inferred;
}

/** Told when a remote result starts being followed (`active` true) and when it ends or is cancelled. */
export type RemoteListener = (remote: Readonly<Remote>) => void;

/** One run being waited for. */
export interface Handle {
  run: SuiteRun;
  remote: Remote;
  triggeredAtMs: number;
  done: boolean;
  /** True once the first result is over and `run.tests` holds it (retries may still be going). */
  settled: boolean;
  /** For retries of tests and files. */
  job: TriggerJob;
  /** The last test result seen (kind test/file). */
  lastResult?: TestResult;
  /** `tried` once the run's result was asked for, `seen` once a read of it succeeded (the execute's answer is none). */
  read?: 'tried' | 'seen';
}

/** The engine's options as the modules see them (`EngineOptions` resolved). */
export interface EngineContext {
  readonly plan: RunPlan;
  readonly api: ActionApi;
  readonly clock: Clock;
  readonly emit: (event: RunEvent) => void;
  readonly appUrl: string;
  readonly startedAtMs: number;
  readonly waits: EngineWaits;
  readonly maxPollErrors: number;
  /** The one limit on executes in flight (first triggers and re-runs alike). */
  readonly limit: LimitFunction;
  /** Fires at the deadline or on a workflow cancel: every wait stops. */
  readonly stop: AbortController;
  stopReason: StopReason | null;
  /** Aborts the executes in flight, `TRIGGER_GRACE_MS` after a stop. */
  readonly triggerStop: AbortController;
  /** Fires `LOOKUP_END_MS` after a stop: lookups of interrupted triggers end. */
  readonly lookupEnd: AbortController;
  /** Fires at the end of the wrap-up time after a stop: every request of the wrap-up ends. */
  readonly wrapUpEnd: AbortController;
  /** Aborted when the engine is done, to end the deadline watch and the heartbeat. */
  readonly finishedAll: AbortController;
  readonly runs: SuiteRun[];
  readonly handles: Handle[];
  readonly remotes: Set<Remote>;
  readonly onRemote: RemoteListener;
  /** Trigger problems, written as one event once every trigger is done. */
  readonly problems: ProblemLog;
  readonly keys: Map<string, number>;
  /** The one watch loop of the engine run (`follow/watcher.ts`), made when the first run is watched. */
  watcher?: RunWatch;
  triggering: boolean;
  finishedTests: number;
}

const DEFAULT_APP_URL = 'https://app.ghostinspector.com';

/** The parts of `EngineOptions` the context is made from. */
export interface ContextOptions {
  api: ActionApi;
  clock?: Clock;
  onEvent?: RunEventListener;
  appUrl?: string;
  triggerConcurrency?: number;
  maxPollErrors?: number;
  startedAtMs?: number;
  waits?: Partial<EngineWaits>;
  onRemote?: RemoteListener;
}

/** A fresh context for one engine run. */
export function createContext(plan: RunPlan, options: ContextOptions): EngineContext {
  const clock = options.clock ?? systemClock;
  const startedAtMs = options.startedAtMs ?? clock.now();
  // Every request and wait of the engine run listens to the stop signal: many at once.
  const stop = new AbortController();
  setMaxListeners(0, stop.signal);
  return {
    plan,
    api: options.api,
    clock,
    emit: options.onEvent ?? (() => undefined),
    appUrl: (options.appUrl ?? DEFAULT_APP_URL).replace(/\/+$/, ''),
    startedAtMs,
    waits: { ...DEFAULT_WAITS, ...options.waits },
    maxPollErrors: options.maxPollErrors ?? 6,
    limit: pLimit(options.triggerConcurrency ?? 4),
    stop,
    stopReason: null,
    triggerStop: new AbortController(),
    lookupEnd: new AbortController(),
    wrapUpEnd: new AbortController(),
    finishedAll: new AbortController(),
    runs: [],
    handles: [],
    remotes: new Set(),
    onRemote: options.onRemote ?? (() => undefined),
    problems: new ProblemLog(),
    keys: new Map(),
    triggering: false,
    finishedTests: 0,
  };
}

/** `ms` since the epoch as an ISO 8601 string. */
export function iso(ms: number): string {
  return new Date(ms).toISOString();
}

/** The next run key of `base`: `<base>-0`, `<base>-1`, … */
export function nextKey(ctx: EngineContext, base: string): string {
  const n = ctx.keys.get(base) ?? 0;
  ctx.keys.set(base, n + 1);
  return `${base}-${n}`;
}

/** Adds a resultless run (not started, failed to start, not found) ended now; `triggeredAtMs` default now. */
export function pushResultless(
  ctx: EngineContext,
  base: Pick<SuiteRun, 'kind' | 'suiteId' | 'suiteName' | 'testId' | 'file'>,
  keyBase: string,
  variant: Variant,
  outcome: Pick<SuiteRun, 'error' | 'notStarted' | 'mayHaveStarted'>,
  triggeredAtMs = ctx.clock.now(),
): void {
  ctx.runs.push({
    ...base,
    key: nextKey(ctx, keyBase),
    variant,
    triggeredAt: iso(triggeredAtMs),
    endedAt: iso(ctx.clock.now()),
    tests: [],
    ...outcome,
  });
}

/**
 * Adds a started remote result to `ctx.remotes`, active; `onRemote` hears now and when it turns inactive.
 * `inferred`: not proven the step's own (see `Remote`).
 */
export function addRemote(ctx: EngineContext, type: Remote['type'], id: string, inferred = false): Remote {
  let active = true;
  const remote: Remote = {
    type,
    id,
    ...(inferred ? { inferred } : {}),
    get active() {
      return active;
    },
    set active(value: boolean) {
      if (value === active) return;
      active = value;
      ctx.onRemote(remote);
    },
  };
  ctx.remotes.add(remote);
  ctx.onRemote(remote);
  return remote;
}

/** Ends a run; the tests its suite result counts but lacks join it as errors (`suiteResultShortfall`). */
export function endRun(ctx: EngineContext, handle: Handle): void {
  for (const test of suiteResultShortfall(handle.run)) {
    handle.run.tests.push(test);
    testFinished(ctx, handle.run, test);
  }
  handle.done = true;
  handle.remote.active = false;
  handle.run.endedAt = iso(ctx.clock.now());
}

/** The name of a job's test or suite before any answer named it. */
export function nameOf(job: TriggerJob): string {
  return job.kind === 'file' ? job.name : job.kind === 'test' ? `Test ${job.testId}` : `Suite ${job.suiteId}`;
}

/** The run model of a test result; a result still running counts as `ifRunning`. */
export function testRunOf(ctx: EngineContext, result: TestResult, ifRunning: TestState): TestRun {
  const state = classifyTestResult(result);
  const run: TestRun = {
    testId: refId(result.test),
    testName: result.name || refName(result.test) || 'Test',
    state: state === 'running' ? ifRunning : state,
    result,
    attempts: [],
    url: `${ctx.appUrl}/results/${result._id}`,
  };
  if (state === 'running') run.error = 'The suite ended before this test finished.';
  else if (state === 'error') run.error = 'The test result ended without a verdict.';
  return run;
}

/** A test of `run` has its state: counted (unless a retry's) and told. */
export function testFinished(ctx: EngineContext, run: SuiteRun, test: TestRun, first = true): void {
  if (first) ctx.finishedTests += 1;
  ctx.emit({ type: 'test-finished', run, test });
}

/** The run model of a test or file run that ended without a usable result (timed out, cancelled). */
export function standInTest(
  ctx: EngineContext,
  handle: Handle,
  last: TestResult | null,
  state: TestState,
  error: string | undefined,
): TestRun {
  return {
    testId: handle.run.testId ?? null,
    testName: last?.name || nameOf(handle.job),
    state,
    result: last,
    attempts: [],
    error,
    ...(last ? { url: `${ctx.appUrl}/results/${last._id}` } : {}),
  };
}

/** A remote result the watch loop reads: a suite result or a test result. */
export type Answer = SuiteResult | TestResult;

/** How one remote result is read and when it is over. */
export interface WatchTarget<T extends Answer> {
  /** Reads it; `opts` carry the stop signal and whether the read may wait behind other requests. */
  get: (opts: RequestOptions) => Promise<T>;
  isOver: (value: T) => boolean;
  /** Told why the result could not be had. */
  onProblem: (reason: string) => void;
  /** Its group's list (a suite's results, newest first): results of one group due together are read from it. */
  group?: { key: string; list: (paging: Paging, opts: RequestOptions) => Promise<T[]> };
}

/** The engine run's one watch loop (`follow/watcher.ts`): `wait` gives the result once over, else null. */
export interface RunWatch {
  wait<T extends Answer>(remote: Remote, triggeredAtMs: number, target: WatchTarget<T>): Promise<T | null>;
}
