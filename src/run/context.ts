/** What one engine run shares between its rooms: its plan, waits, client, clock, stopper, run book and watcher. */
import type { LimitFunction } from 'p-limit';
import type { GhostInspectorApi, RequestOptions } from '../api/api.js';
import type { Paging } from '../api/types.js';
import type { Clock } from '../common/clock.js';
import type { ResultRef } from '../inputs/schema.js';
import type { RepoTest } from '../inputs/test-files.js';
import type { Remote, RunBook } from './book.js';
import type { RunEvent } from './events.js';
import type { Answer } from './kinds.js';
import type { Stopper } from './stopper.js';
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
  /** Overall deadline, ms after the action's start. */
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

/** The parts of one engine run that most rooms read; each function takes only those it reads. */
export interface EngineContext {
  readonly plan: RunPlan;
  readonly api: GhostInspectorApi;
  readonly clock: Clock;
  readonly emit: (event: RunEvent) => void;
  readonly waits: EngineWaits;
  /** When the deadline stops the engine, ms since the epoch (the action's start + `plan.timeoutMs`). */
  readonly deadlineAtMs: number;
  /** The one limit on executes in flight (first triggers and re-runs alike). */
  readonly limit: LimitFunction;
  readonly stopper: Stopper;
  readonly book: RunBook;
  readonly watcher: RunWatch;
}

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

/** The engine run's one watch loop: `wait` gives the result once over, else null. */
export interface RunWatch {
  wait<T extends Answer>(remote: Remote, triggeredAtMs: number, target: WatchTarget<T>): Promise<T | null>;
}
