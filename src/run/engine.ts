/**
 * The run engine: plans every run (`plan.ts`), triggers them at once, bounded (`trigger.ts`), follows each
 * from the moment its own execute is answered (`follow/`: one watch loop for all runs, then the read of
 * its tests through `read.ts`), re-runs failed tests (`retry.ts`), and stops at the deadline or on a
 * workflow cancel, cancelling what is still running remotely (`stop.ts`). It tells what happens as typed
 * events (`events.ts`); the console reporter (`src/report/console.ts`) renders them. Every request takes
 * its token of the request budget in the API client's transport.
 *
 * What the service does (docs/api-contract.md, "Polling a run"): execute with `immediate=1`; a suite
 * result is over when `passing` is not null, or cancelled (status 8 or a finish date); its tests are then
 * paged from `GET /suite-results/{id}/results/?count=50`; tests and on-demand runs: `GET /results/{id}/`.
 * A result that answers "not found" just after its trigger is asked again for up to `notFoundGraceMs`.
 */
import { consoleReporter, type RunLog } from '../report/console.js';
import type { ActionApi } from './action-api.js';
import type { Clock } from './clock.js';
import {
  createContext,
  iso,
  type EngineContext,
  type EngineWaits,
  type Handle,
  type RemoteListener,
  type RunPlan,
} from './context.js';
import type { RunEventListener } from './events.js';
import { cancelActive, halt, heartbeat, settleAtDeadline, watchDeadline } from './stop/stop.js';
import { triggerAll } from './trigger/trigger.js';
import type { RunSummary } from './types.js';
import { follow } from './follow/follow.js';

export type { RunLog } from '../report/console.js';
export type { RunPlan, EngineWaits } from './context.js';
export { DEFAULT_APP_URL } from './context.js';
export { isSuiteResultOver } from './outcome/outcome.js';

/** Period of the heartbeat while waiting, ms. */
export const DEFAULT_HEARTBEAT_MS = 60_000;
/** Timeout of each cancel request after a workflow cancel, ms. */
export const SIGNAL_CANCEL_TIMEOUT_MS = 3_000;

export interface EngineOptions {
  api: ActionApi;
  clock?: Clock;
  /** Receives the engine's events (`events.ts`). */
  onEvent?: RunEventListener;
  /** Where the console reporter writes the events as log lines (with `onEvent`, both get them). */
  log?: RunLog;
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

/** The listener of `options.onEvent` and the console reporter of `options.log`, together. */
function listenerOf(options: EngineOptions): RunEventListener | undefined {
  const listeners = [options.onEvent, options.log ? consoleReporter(options.log) : undefined].filter(
    (l): l is RunEventListener => !!l,
  );
  if (listeners.length <= 1) return listeners[0];
  return (event) => listeners.forEach((l) => l(event));
}

/**
 * Runs everything in `plan` and returns the run model. Never throws for a remote problem: each shows as a
 * run or test in state `error` with a redacted sentence. Returns early (with `interrupted`) at the deadline
 * or when `options.signal` fires.
 */
export async function runPlan(plan: RunPlan, options: EngineOptions): Promise<RunSummary> {
  const waits: Partial<EngineWaits> = {
    ...(options.notFoundGraceMs !== undefined ? { notFoundGraceMs: options.notFoundGraceMs } : {}),
    ...options.waits,
  };
  const ctx = createContext(plan, { ...options, onEvent: listenerOf(options), waits });
  await runContext(ctx, options);
  return {
    runs: ctx.runs,
    startedAt: iso(ctx.startedAtMs),
    finishedAt: iso(ctx.clock.now()),
    ...(ctx.stopReason ? { interrupted: ctx.stopReason } : {}),
    appUrl: ctx.appUrl,
  };
}

/**
 * The engine's flow. Every run is watched from the moment its own execute is answered, while later
 * executes still wait for their turn (the limiter), so an early failure is noticed at once. A stop
 * (deadline, workflow cancel, fail-fast) ends every wait; the executes not yet sent are not sent (their
 * runs are reported not started), those in flight are aborted after their grace time and reconciled. At
 * the deadline what still runs is settled (timed out, cancelled under `cancel-on-timeout`); on a workflow
 * cancel or fail-fast every active remote run is cancelled at once, without waiting for the triggers.
 */
async function runContext(ctx: EngineContext, options: EngineOptions): Promise<void> {
  let releaseSignalled: () => void = () => undefined;
  /** Resolves on a workflow cancel; never without one. */
  const signalled = new Promise<void>((resolve) => (releaseSignalled = resolve));
  const stopFor = (reason: 'deadline' | 'signal') => (): void => halt(ctx, reason, releaseSignalled);
  const onSignal = stopFor('signal');
  if (options.signal?.aborted) onSignal();
  options.signal?.addEventListener('abort', onSignal, { once: true });
  void watchDeadline(ctx, stopFor('deadline'));
  const follows: Array<Promise<void>> = [];
  const watchStarted = (handles: Handle[]): void => {
    if (!ctx.plan.wait || ctx.stopReason !== null) return;
    for (const handle of handles) follows.push(follow(ctx, handle));
  };
  let quiet = false;
  try {
    if (ctx.plan.wait) void heartbeat(ctx, options.heartbeatMs ?? DEFAULT_HEARTBEAT_MS, () => quiet);
    const triggering = triggerAll(ctx, watchStarted);
    // Every execute answered, then every run watched; or a workflow cancel / fail-fast first.
    const watched = triggering.then(() => Promise.all(follows));
    await Promise.race([watched, signalled, failFastStop(ctx)]);
    quiet = true;
    if (ctx.stopReason === 'signal' || ctx.stopReason === 'fail-fast') {
      const cancelTimeoutMs = options.signalCancelTimeoutMs ?? SIGNAL_CANCEL_TIMEOUT_MS;
      await cancelActive(ctx, triggering, cancelTimeoutMs, ctx.stopReason);
      // The watches ended with the stop; none may outlive the engine.
      await Promise.all(follows);
    } else {
      await watched;
      if (ctx.stopReason === 'deadline' && ctx.plan.wait) await settleAtDeadline(ctx);
    }
  } finally {
    quiet = true;
    options.signal?.removeEventListener('abort', onSignal);
    ctx.finishedAll.abort();
  }
}

/** Resolves when fail-fast stops the engine; never otherwise. */
function failFastStop(ctx: EngineContext): Promise<void> {
  return new Promise((resolve) => {
    const onStop = (): void => {
      if (ctx.stopReason === 'fail-fast') resolve();
    };
    if (ctx.stop.signal.aborted) onStop();
    else ctx.stop.signal.addEventListener('abort', onStop, { once: true });
  });
}
