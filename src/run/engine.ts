/** The run engine: plans, triggers, follows, re-runs and stops every run of a plan (docs/architecture.md). */
import { randomUUID } from 'node:crypto';
import pLimit from 'p-limit';
import { NOT_FOUND_GRACE_MS } from '../api/limits.js';
import { systemClock, type Clock } from '../common/clock.js';
import type { GhostInspectorApi } from '../api/api.js';
import { iso, RunBook, type Handle, type RemoteListener } from './book.js';
import type { EngineContext, EngineWaits, RunPlan } from './context.js';
import type { RunEventListener } from './events.js';
import { follow } from './follow/follow.js';
import type { PushListener } from './follow/push.js';
import { Watcher } from './follow/watcher.js';
import { withStepMarker } from './plan/execute.js';
import { cancelActive, heartbeat, settleAtDeadline, watchDeadline } from './stop/stop.js';
import { Stopper } from './stopper.js';
import { triggerAll } from './trigger/trigger.js';
import type { RunSummary } from './types.js';

export type { RunPlan } from './context.js';

const DEFAULT_WAITS: Readonly<EngineWaits> = {
  notFoundGraceMs: NOT_FOUND_GRACE_MS,
  notFoundRetryMs: 1_000,
  listRetryMs: 1_000,
  pollBackoffMs: 1_000,
};

export interface EngineOptions {
  api: GhostInspectorApi;
  clock?: Clock;
  /** Told each step as a typed event (the action's console reporter writes them as log lines). */
  onEvent?: RunEventListener;
  /** Workflow cancel: when it fires, active runs are cancelled at once and the engine returns. */
  signal?: AbortSignal;
  /** Base of web app links (default `https://app.ghostinspector.com`). */
  appUrl?: string;
  /** Execute requests in flight at once (default 4). */
  triggerConcurrency?: number;
  /** The engine's waits, ms (see `EngineWaits`); tests shorten them. */
  waits?: Partial<EngineWaits>;
  /** Heartbeat period, ms (default 60000). */
  heartbeatMs?: number;
  /** Consecutive failed polls before a run is given up as `error` (default 6). */
  maxPollErrors?: number;
  /** Action start (ms since epoch); the deadline counts from it. Default: now. */
  startedAtMs?: number;
  /** Timeout of each cancel request after a workflow cancel, ms (default 3000). */
  signalCancelTimeoutMs?: number;
  /** Told when a remote result starts being followed and when it ends or is cancelled. */
  onRemote?: RemoteListener;
  /** Webhooks' listener (docs/architecture.md, "Push"): every test execute carries its URL as a `webhook`. */
  push?: PushListener;
}

/**
 * Runs everything in `plan` and returns the run model. Never throws for a remote problem (it shows as an
 * `error` run or test); returns early with `interrupted` at the deadline or when `options.signal` fires.
 */
export async function runPlan(plan: RunPlan, options: EngineOptions): Promise<RunSummary> {
  const clock = options.clock ?? systemClock;
  const startedAtMs = options.startedAtMs ?? clock.now();
  const emit = options.onEvent ?? (() => undefined);
  const appUrl = (options.appUrl ?? 'https://app.ghostinspector.com').replace(/\/+$/, '');
  const stopper = new Stopper(clock);
  const book = new RunBook(clock, emit, appUrl, options.onRemote ?? (() => undefined));
  const { push } = options;
  const execute = push
    ? { ...plan.execute, webhook: [plan.execute.webhook ?? []].flat().concat(push.url) }
    : plan.execute;
  const base = {
    // Every execute carries the step's marker: the proof a run found after a lost answer is this step's.
    plan: { ...plan, execute: withStepMarker(execute, randomUUID()) },
    api: options.api,
    clock,
    emit,
    waits: { ...DEFAULT_WAITS, ...options.waits },
    deadlineAtMs: startedAtMs + plan.timeoutMs,
    limit: pLimit(options.triggerConcurrency ?? 4),
    stopper,
    book,
  };
  const ctx: EngineContext = { ...base, watcher: new Watcher(base, options.maxPollErrors ?? 6, push) };
  const onSignal = (): void => stopper.halt('signal');
  if (options.signal?.aborted) onSignal();
  options.signal?.addEventListener('abort', onSignal, { once: true });
  void watchDeadline(ctx, ctx.deadlineAtMs, plan.timeoutMs);
  const follows: Array<Promise<void>> = [];
  const watchStarted = (handles: Handle[]): void => {
    if (!plan.wait || stopper.reason !== null) return;
    for (const handle of handles) follows.push(follow(ctx, handle));
  };
  let quiet = false;
  try {
    if (plan.wait) void heartbeat(ctx, startedAtMs, options.heartbeatMs ?? 60_000, () => quiet);
    const triggering = triggerAll(ctx, watchStarted);
    const watched = triggering.then(() => Promise.all(follows));
    await Promise.race([watched, stopper.cancelling]);
    quiet = true;
    if (stopper.reason === 'signal' || stopper.reason === 'fail-fast') {
      await cancelActive(ctx, triggering, options.signalCancelTimeoutMs ?? 3_000, stopper.reason);
      // The watches ended with the stop; none may outlive the engine.
      await Promise.all(follows);
    } else {
      await watched;
      if (stopper.reason === 'deadline' && plan.wait) await settleAtDeadline(ctx);
    }
  } finally {
    quiet = true;
    options.signal?.removeEventListener('abort', onSignal);
    stopper.finish();
  }
  const interrupted = stopper.reason ? { interrupted: stopper.reason } : {};
  return {
    runs: book.runs,
    startedAt: iso(startedAtMs),
    finishedAt: iso(clock.now()),
    ...interrupted,
    appUrl,
  };
}
