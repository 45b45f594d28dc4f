/**
 * One request watches every run: while anything runs, `GET /v1/organizations/{id}/running/` (every
 * executing test result of the organization, docs/api-contract.md "Endpoints the action calls") is asked
 * about once a second (`RUNNING_LIST_MS`), through the request budget. The list is a hint, never the truth:
 * a run whose test results leave the list has its own result read at once (`pollRemote` wakes up), and only
 * that answer says the run is over. While the list shows a run, its own poll slows to a safety poll every
 * `SAFETY_POLL_MS`; a run the list does not show, or a list that fails, keeps the adaptive schedule
 * (`schedule.ts`). The organization id is the plan's, else the first one an execute answer names.
 */
import { refId } from '../api/refs.js';
import type { TestResult } from '../api/types.js';
import { messageOf, type EngineContext } from './context.js';

/** Period of the running-list request while anything runs, ms. */
export const RUNNING_LIST_MS = 1_000;
/** Own poll of a run the running list shows, ms (the safety poll: nothing depends on the list alone). */
export const SAFETY_POLL_MS = 10_000;
/** The safety polls of all runs together stay under one per this many ms (it spaces them out), ms. */
export const SAFETY_SPACING_MS = 1_000;
/** Failed running-list requests in a row after which the list is given up for this engine run. */
export const RUNNING_LIST_MAX_ERRORS = 3;

/**
 * A run triggered this long before a list answer, yet never shown by the list, is taken as having ended
 * before the list saw it: its own result is read once at once (history never delays an early finish), ms.
 */
export const UNSEEN_AFTER_MS = 2 * RUNNING_LIST_MS;

/** One poller sleeping until its run leaves the list. */
interface Waiter {
  /** When the run was triggered (ms, the engine's clock). */
  triggeredAtMs: number;
  wake: () => void;
}

/** What the pollers see of the running list. */
export class RunningList {
  /** Ids (test results and their suite results) in the last answer; empty while unhealthy. */
  private current = new Set<string>();
  private healthy = false;
  /** Every id any answer showed. */
  private readonly seen = new Set<string>();
  /** Ids never shown whose own result was read once because of that (never again for that reason). */
  private readonly probed = new Set<string>();
  private readonly waiters = new Map<string, Set<Waiter>>();

  /** Whether the last answer of a healthy list showed `id` (a test result or suite result) running. */
  shows(id: string): boolean {
    return this.healthy && this.current.has(id);
  }

  /**
   * Calls `wake` when a later answer no longer shows `id` after showing it, or (once per id) when an
   * answer asked `UNSEEN_AFTER_MS` after `triggeredAtMs` has never shown it. Returns the unsubscribe.
   */
  onLeave(id: string, triggeredAtMs: number, wake: () => void): () => void {
    const set = this.waiters.get(id) ?? new Set<Waiter>();
    const waiter: Waiter = { triggeredAtMs, wake };
    set.add(waiter);
    this.waiters.set(id, set);
    return () => {
      set.delete(waiter);
      if (set.size === 0) this.waiters.delete(id);
    };
  }

  /** A new answer, asked at `askedAtMs`: whoever left the list since the last answer is woken. */
  update(results: TestResult[], askedAtMs: number): void {
    const next = new Set<string>();
    for (const r of results) {
      next.add(r._id);
      const suiteResult = refId(r.suiteResult);
      if (suiteResult) next.add(suiteResult);
    }
    const before = this.healthy ? this.current : new Set<string>();
    this.current = next;
    this.healthy = true;
    for (const id of next) this.seen.add(id);
    for (const id of before) if (!next.has(id)) this.wake(id, () => true);
    for (const id of [...this.waiters.keys()]) {
      if (this.seen.has(id) || this.probed.has(id)) continue;
      const due = (w: Waiter): boolean => askedAtMs - w.triggeredAtMs >= UNSEEN_AFTER_MS;
      if ([...(this.waiters.get(id) ?? [])].some(due)) {
        this.probed.add(id);
        this.wake(id, due);
      }
    }
  }

  /** The list could not be had: no run counts as shown, so each keeps (or returns to) its own schedule. */
  fail(): void {
    this.healthy = false;
    this.current = new Set();
  }

  private wake(id: string, which: (w: Waiter) => boolean): void {
    for (const w of [...(this.waiters.get(id) ?? [])]) if (which(w)) w.wake();
  }
}

const lists = new WeakMap<EngineContext, RunningList>();

/** The running list of an engine run, once `watchRunning` started it; undefined otherwise. */
export function runningListOf(ctx: EngineContext): RunningList | undefined {
  return lists.get(ctx);
}

/** The organization whose running list to ask: the plan's, else the first an execute answer names. */
function organizationOf(ctx: EngineContext): string | null {
  if (ctx.plan.organizationId) return ctx.plan.organizationId;
  for (const h of ctx.handles) {
    const fromTest = refId(h.lastResult?.organization);
    if (fromTest) return fromTest;
    const suite = h.run.suiteResult?.suite;
    const fromSuite = suite && typeof suite === 'object' ? refId(suite.organization) : null;
    if (fromSuite) return fromSuite;
  }
  return null;
}

/** Whether any run is still waited for. */
function anythingRuns(ctx: EngineContext): boolean {
  return ctx.handles.some((h) => !h.done);
}

/**
 * Asks the running list every `RUNNING_LIST_MS` while anything runs; ends when nothing runs, at a stop,
 * without an organization id, or after `RUNNING_LIST_MAX_ERRORS` failures in a row (the runs then keep
 * their own schedules). Never throws.
 */
export async function watchRunning(ctx: EngineContext): Promise<void> {
  const organizationId = organizationOf(ctx);
  if (!organizationId) return;
  const list = new RunningList();
  lists.set(ctx, list);
  const signal = ctx.stop.signal;
  let errors = 0;
  try {
    while (anythingRuns(ctx) && !signal.aborted) {
      try {
        await ctx.budget.acquire(signal);
        const askedAtMs = ctx.clock.now();
        list.update(await ctx.api.listOrganizationRunning(organizationId, { signal }), askedAtMs);
        errors = 0;
      } catch (error) {
        list.fail();
        if (signal.aborted) return;
        errors += 1;
        ctx.emit({ type: 'detail', message: `Running list of the organization failed: ${messageOf(error)}` });
        if (errors >= RUNNING_LIST_MAX_ERRORS) return;
      }
      await ctx.clock.sleep(RUNNING_LIST_MS, AbortSignal.any([signal, ctx.finishedAll.signal]));
    }
  } finally {
    list.fail();
    lists.delete(ctx);
  }
}

/**
 * Sleeps before a run's next own poll: `delayMs` (its adaptive schedule), or the safety poll
 * (`SAFETY_POLL_MS`, longer with more than 10 runs going: `SAFETY_SPACING_MS` each) while the running list
 * shows the run; either way it wakes as soon as the list stops showing the run (or never
 * showed it `UNSEEN_AFTER_MS` after its trigger: see `RunningList.onLeave`). Times in ms.
 * @param forced true for a back-off or not-found retry delay, which the list never lengthens.
 */
export async function sleepBeforePoll(
  ctx: EngineContext,
  id: string,
  triggeredAtMs: number,
  delayMs: number,
  forced: boolean,
  signal: AbortSignal,
): Promise<void> {
  const list = runningListOf(ctx);
  if (!list) return ctx.clock.sleep(delayMs, signal);
  // With many runs the safety polls are spread: together at most one per `SAFETY_SPACING_MS`.
  const active = [...ctx.remotes].filter((r) => r.active).length;
  const safetyMs = Math.max(SAFETY_POLL_MS, active * SAFETY_SPACING_MS);
  const ms = !forced && list.shows(id) ? Math.max(delayMs, safetyMs) : delayMs;
  const wake = new AbortController();
  const off = list.onLeave(id, triggeredAtMs, () => wake.abort());
  try {
    await ctx.clock.sleep(ms, AbortSignal.any([signal, wake.signal]));
  } finally {
    off();
  }
}
