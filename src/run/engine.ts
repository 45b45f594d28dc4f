/**
 * The run engine: plans, triggers, follows, re-runs and stops every run of a plan (`plan/`, `trigger/`,
 * `follow/`, `read/`, `stop/`), telling what happens as typed events (`events.ts`). docs/architecture.md.
 */
import { randomUUID } from 'node:crypto';
import type { ActionApi } from './action-api.js';
import type { Clock } from '../common/clock.js';
import { iso, type Handle, type RemoteListener } from './book.js';
import { createContext, type EngineContext, type EngineWaits, type RunPlan } from './context.js';
import type { RunEventListener } from './events.js';
import { cancelActive, heartbeat, settleAtDeadline, watchDeadline } from './stop/stop.js';
import { triggerAll } from './trigger/trigger.js';
import type { RunSummary } from './types.js';
import { follow } from './follow/follow.js';
import { withStepMarker } from './plan/execute.js';

export type { RunPlan } from './context.js';
/** Period of the heartbeat while waiting, ms. */
const DEFAULT_HEARTBEAT_MS = 60_000;
/** Timeout of each cancel request after a workflow cancel, ms. */
const SIGNAL_CANCEL_TIMEOUT_MS = 3_000;

export interface EngineOptions {
  api: ActionApi;
  clock?: Clock;
  /** Told each step as a typed event (the action's console reporter writes them as log lines). */
  onEvent?: RunEventListener;
  /** Workflow cancel: when it fires, active runs are cancelled at once and the engine returns. */
  signal?: AbortSignal;
  /** Base of web app links (default `https://app.ghostinspector.com`). */
  appUrl?: string;
  /** Execute requests in flight at once (default 4). */
  triggerConcurrency?: number;
  /** How long a "not found" answer right after a trigger is retried, ms (default `NOT_FOUND_GRACE_MS`). */
  notFoundGraceMs?: number;
  /** The engine's other waits, ms (see `EngineWaits`); tests shorten them. */
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
}

/**
 * Runs everything in `plan` and returns the run model. Never throws for a remote problem (it shows as an
 * `error` run or test); returns early with `interrupted` at the deadline or when `options.signal` fires.
 */
export async function runPlan(plan: RunPlan, options: EngineOptions): Promise<RunSummary> {
  const waits: Partial<EngineWaits> = {
    ...(options.notFoundGraceMs !== undefined ? { notFoundGraceMs: options.notFoundGraceMs } : {}),
    ...options.waits,
  };
  // Every execute carries the step's marker: the proof a run found after a lost answer is this step's.
  const marked = { ...plan, execute: withStepMarker(plan.execute, randomUUID()) };
  const ctx = createContext(marked, { ...options, waits });
  await runContext(ctx, options);
  return {
    runs: ctx.book.runs,
    startedAt: iso(ctx.startedAtMs),
    finishedAt: iso(ctx.clock.now()),
    ...(ctx.stopper.reason ? { interrupted: ctx.stopper.reason } : {}),
    appUrl: ctx.appUrl,
  };
}

/** The engine's flow: each run is watched once its execute answers; a stop ends every wait. */
async function runContext(ctx: EngineContext, options: EngineOptions): Promise<void> {
  let releaseSignalled: () => void = () => undefined;
  /** Resolves on a workflow cancel; never without one. */
  const signalled = new Promise<void>((resolve) => (releaseSignalled = resolve));
  const onSignal = (): void => (ctx.stopper.halt('signal'), releaseSignalled());
  if (options.signal?.aborted) onSignal();
  options.signal?.addEventListener('abort', onSignal, { once: true });
  void watchDeadline(ctx, () => ctx.stopper.halt('deadline'));
  const follows: Array<Promise<void>> = [];
  const watchStarted = (handles: Handle[]): void => {
    if (!ctx.plan.wait || ctx.stopper.reason !== null) return;
    for (const handle of handles) follows.push(follow(ctx, handle));
  };
  let quiet = false;
  try {
    if (ctx.plan.wait) void heartbeat(ctx, options.heartbeatMs ?? DEFAULT_HEARTBEAT_MS, () => quiet);
    const triggering = triggerAll(ctx, watchStarted);
    const watched = triggering.then(() => Promise.all(follows));
    await Promise.race([watched, signalled, failFastStop(ctx)]);
    quiet = true;
    if (ctx.stopper.reason === 'signal' || ctx.stopper.reason === 'fail-fast') {
      const cancelTimeoutMs = options.signalCancelTimeoutMs ?? SIGNAL_CANCEL_TIMEOUT_MS;
      await cancelActive(ctx, triggering, cancelTimeoutMs, ctx.stopper.reason);
      // The watches ended with the stop; none may outlive the engine.
      await Promise.all(follows);
    } else {
      await watched;
      if (ctx.stopper.reason === 'deadline' && ctx.plan.wait) await settleAtDeadline(ctx);
    }
  } finally {
    quiet = true;
    options.signal?.removeEventListener('abort', onSignal);
    ctx.stopper.finish();
  }
}

/** Resolves when fail-fast stops the engine; never otherwise. */
function failFastStop(ctx: EngineContext): Promise<void> {
  return new Promise((resolve) => {
    const onStop = (): void => {
      if (ctx.stopper.reason === 'fail-fast') resolve();
    };
    if (ctx.stopper.signal.aborted) onStop();
    else ctx.stopper.signal.addEventListener('abort', onStop, { once: true });
  });
}
