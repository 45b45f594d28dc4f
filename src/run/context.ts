/** The state one engine run shares between its modules: its plan, waits, signals and run book. */
import pLimit, { type LimitFunction } from 'p-limit';
import { NOT_FOUND_GRACE_MS } from '../api/limits.js';
import type { SuiteResult, TestResult } from '../api/types.js';
import type { RequestOptions } from '../api/api.js';
import type { Paging } from '../api/request-types.js';
import type { ActionApi } from './action-api.js';
import { systemClock, type Clock } from '../common/clock.js';
import type { RunEvent, RunEventListener } from './events.js';
import { Stopper } from './stopper.js';
import { RunBook, type Remote, type RemoteListener } from './book.js';
import { ProblemLog } from './progress.js';
import type { RepoTest } from '../inputs/test-files.js';
import type { ResultRef } from '../inputs/schema.js';
import type { UserExecuteOptions } from './types.js';

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
  /** The one reason of a stop and the signals that end the waits. */
  readonly stopper: Stopper;
  /** The one writer of the run records. */
  readonly book: RunBook;
  /** Trigger problems, written as one event once every trigger is done. */
  readonly problems: ProblemLog;
  /** The one watch loop of the engine run (`follow/watcher.ts`), made when the first run is watched. */
  watcher?: RunWatch;
  triggering: boolean;
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
  const emit = options.onEvent ?? (() => undefined);
  const appUrl = (options.appUrl ?? DEFAULT_APP_URL).replace(/\/+$/, '');
  return {
    plan,
    api: options.api,
    clock,
    emit,
    appUrl,
    startedAtMs,
    waits: { ...DEFAULT_WAITS, ...options.waits },
    maxPollErrors: options.maxPollErrors ?? 6,
    limit: pLimit(options.triggerConcurrency ?? 4),
    stopper: new Stopper(clock),
    book: new RunBook(clock, emit, appUrl, options.onRemote ?? (() => undefined)),
    problems: new ProblemLog(),
    triggering: false,
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
