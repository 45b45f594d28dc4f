/**
 * One request watches every run: while anything runs, `GET /v1/organizations/{id}/running/` (every
 * executing test result of the organization, docs/api-contract.md "Endpoints the action calls") is asked
 * through the request budget every `WATCH_HOT_MS` (1 s) while some run has no history or is inside its
 * expected-finish window, every `WATCH_COLD_MS` (1.4 s) otherwise (`watch-plan.ts`). When exactly one run
 * is waited for, that request is the run's own poll instead (its own answer is worth the list's and needs
 * no confirming read). The list is a hint, never the truth: a run whose test results leave the list has
 * its own result read at once (`pollRemote` wakes up), and only that answer says the run is over. While the
 * list shows a run, its own poll is a safety poll from one shared stream (`SafetySlots`: all runs together
 * at most one per `SAFETY_SPACING_MS`, each at least every max(10 s, N × 2 s)), plus, for a run with
 * history, one poll at its expected finish; a run the list does not show, or a list that fails, keeps the
 * adaptive schedule (`schedule.ts`): a list that fails or does not answer within
 * `RUNNING_LIST_TIMEOUT_MS` hands every run back to it at once, and after `RUNNING_LIST_MAX_ERRORS`
 * failures in a row is left alone for `RUNNING_LIST_PAUSE_MS`. The organization id is the plan's, else the
 * first an execute answer names; lone mode needs none. docs/watch.md gives the arithmetic.
 */
import { refId } from '../api/refs.js';
import type { TestResult } from '../api/types.js';
import { timeoutSignal } from './clock.js';
import { learnOrganization, organizationOf } from './organization.js';
import { messageOf, type EngineContext } from './context.js';
import type { ExpectedWindow } from './schedule.js';
import {
  RUNNING_LIST_MAX_ERRORS,
  RUNNING_LIST_PAUSE_MS,
  RUNNING_LIST_TIMEOUT_MS,
  SafetySlots,
  UNSEEN_AFTER_MS,
  watchPeriodMs,
  type WatchedRun,
} from './watch-plan.js';

export { UNSEEN_AFTER_MS } from './watch-plan.js';

/** One poller sleeping until its run leaves the list. */
interface Waiter {
  /** When the run was triggered (ms, the engine's clock). */
  triggeredAtMs: number;
  /** Poll now. */
  wake: () => void;
  /** What the list knows of the run changed: plan the sleep again (optional). */
  replan?: () => void;
  /** A back-off or not-found wait: the lone run's "poll now" does not cut it short. */
  forced?: boolean;
}

/** What the pollers see of the running list. */
export class RunningList {
  /** Ids (test results and their suite results) in the last answer; empty while unhealthy. */
  private current = new Set<string>();
  private healthy = false;
  /** Whether an answer came (or lone mode began) since the list was started or last failed. */
  private answered = false;
  /** The one run polled on its own at the watch period instead of the list (lone mode), if any. */
  private lone: string | null = null;
  /** Every id any answer showed. */
  private readonly seen = new Set<string>();
  /** Ids never shown whose own result was read once because of that (never again for that reason). */
  private readonly probed = new Set<string>();
  private readonly waiters = new Map<string, Set<Waiter>>();

  /** Whether the last answer of a healthy list showed `id` (a test result or suite result) running, or it is the lone run. */
  shows(id: string): boolean {
    return this.lone === id || (this.healthy && this.current.has(id));
  }

  /** True until the first answer (or lone mode), and again after a failure until the next answer. */
  get pending(): boolean {
    return !this.answered && !this.failed;
  }

  /** Whether the last request failed. */
  private failed = false;

  /** Whether a poller of `id` is sleeping now. */
  hasWaiter(id: string): boolean {
    return (this.waiters.get(id)?.size ?? 0) > 0;
  }

  /**
   * Calls `wake` when a later answer no longer shows `id` after showing it, or (once per id) when an
   * answer asked `UNSEEN_AFTER_MS` after `triggeredAtMs` has never shown it; `replan` when an answer first
   * shows it or the list fails. Returns the unsubscribe.
   */
  onLeave(
    id: string,
    triggeredAtMs: number,
    wake: () => void,
    replan?: () => void,
    forced = false,
  ): () => void {
    const set = this.waiters.get(id) ?? new Set<Waiter>();
    const waiter: Waiter = { triggeredAtMs, wake, replan, forced };
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
    const first = !this.answered;
    this.current = next;
    this.healthy = true;
    this.answered = true;
    this.failed = false;
    this.lone = null;
    for (const id of next) this.seen.add(id);
    for (const id of before) if (!next.has(id)) this.wake(id, () => true);
    // The first answer ends every "wait for the list" sleep; later ones replan the runs they newly show.
    for (const id of first ? [...this.waiters.keys()] : next) if (first || !before.has(id)) this.replan(id);
    for (const id of [...this.waiters.keys()]) {
      if (this.seen.has(id) || this.probed.has(id)) continue;
      const due = (w: Waiter): boolean => askedAtMs - w.triggeredAtMs >= UNSEEN_AFTER_MS;
      if ([...(this.waiters.get(id) ?? [])].some(due)) {
        this.probed.add(id);
        this.wake(id, due);
      }
    }
  }

  /**
   * Lone mode: the list is not asked; `id`, the only run waited for, counts as shown and its sleeping
   * poller (unless in a forced wait) polls now. The next `update` ends lone mode.
   */
  pollLone(id: string): void {
    this.lone = id;
    this.healthy = false;
    this.answered = true;
    this.failed = false;
    this.current = new Set();
    this.wake(id, (w) => !w.forced);
  }

  /** Lone mode is over without a list answer (another run came, and no list can be asked): replans that run. */
  endLone(): void {
    const lone = this.lone;
    this.lone = null;
    if (lone) this.replan(lone);
  }

  /** The list could not be had: no run counts as shown, so each returns to its own schedule at once. */
  fail(): void {
    this.healthy = false;
    this.answered = false;
    this.failed = true;
    this.current = new Set();
    this.lone = null;
    for (const id of [...this.waiters.keys()]) this.replan(id);
  }

  private wake(id: string, which: (w: Waiter) => boolean): void {
    for (const w of [...(this.waiters.get(id) ?? [])]) if (which(w)) w.wake();
  }

  private replan(id: string): void {
    for (const w of [...(this.waiters.get(id) ?? [])]) w.replan?.();
  }
}

/** The watch of one engine run: its list (once `watchRunning` started it) and the runs polled on their own. */
interface Watch {
  list?: RunningList;
  /** Runs in `pollRemote`, by result id. */
  readonly runs: Map<string, WatchedRun>;
  readonly safety: SafetySlots;
}

const watches = new WeakMap<EngineContext, Watch>();

function watchOf(ctx: EngineContext): Watch {
  let watch = watches.get(ctx);
  if (!watch) {
    watch = { runs: new Map(), safety: new SafetySlots() };
    watches.set(ctx, watch);
  }
  return watch;
}

/**
 * Registers a run polled on its own (by `pollRemote`) so the watch period counts it; returns the
 * unregister. `window` (ms after the trigger) is null without history.
 */
export function watchRun(
  ctx: EngineContext,
  id: string,
  triggeredAtMs: number,
  window: ExpectedWindow | null,
): () => void {
  const runs = watchOf(ctx).runs;
  runs.set(id, { triggeredAtMs, window });
  return () => runs.delete(id);
}

/** The only remote result still active, when it is the only run polled on its own; else null. */
function loneRun(ctx: EngineContext, watch: Watch): string | null {
  let only: string | null = null;
  for (const r of ctx.remotes) {
    if (!r.active) continue;
    if (only !== null) return null;
    only = r.id;
  }
  return only !== null && watch.runs.size === 1 && watch.runs.has(only) ? only : null;
}

/**
 * Asks the running list once through the budget and updates `list`; false (told as a detail) when the
 * request failed or did not answer within `RUNNING_LIST_TIMEOUT_MS` (the client's own retries included).
 */
async function askList(ctx: EngineContext, list: RunningList, organizationId: string): Promise<boolean> {
  const signal = ctx.stop.signal;
  const answered = new AbortController();
  try {
    await ctx.budget.acquire(signal);
    const askedAtMs = ctx.clock.now();
    const late = timeoutSignal(ctx.clock, RUNNING_LIST_TIMEOUT_MS, answered.signal);
    const options = { signal: AbortSignal.any([signal, late]) };
    list.update(await ctx.api.listOrganizationRunning(organizationId, options), askedAtMs);
    return true;
  } catch (error) {
    list.fail();
    if (!signal.aborted) {
      const message = `Running list of the organization failed: ${messageOf(error)}`;
      ctx.emit({ type: 'detail', message });
    }
    return false;
  } finally {
    answered.abort();
  }
}

/**
 * Watches while anything runs: each period (`watchPeriodMs`) either polls the lone run (`loneRun`) or asks
 * the running list (not while no run is polled on its own: runs polled as a group, `watch-group.ts`, do
 * not use it). After `RUNNING_LIST_MAX_ERRORS` failed lists in a row it pauses `RUNNING_LIST_PAUSE_MS`
 * (the runs keep their own schedules meanwhile), then tries again. Without an organization id (`organization.ts`: the plan's, an
 * answer's, or read once from a suite) only lone mode works. Ends when nothing runs or at a stop.
 * Never throws.
 */
export async function watchRunning(ctx: EngineContext): Promise<void> {
  let organizationId = organizationOf(ctx);
  const watch = watchOf(ctx);
  const list = new RunningList();
  watch.list = list;
  // Without an organization id (yet) there is no list: only the lone run is watched; the others poll.
  if (!organizationId) list.fail();
  const signal = ctx.stop.signal;
  const until = AbortSignal.any([signal, ctx.finishedAll.signal]);
  let errors = 0;
  try {
    while (ctx.handles.some((h) => !h.done) && !signal.aborted) {
      const tickAtMs = ctx.clock.now();
      organizationId ??= organizationOf(ctx);
      const lone = loneRun(ctx, watch);
      if (!lone && watch.runs.size > 1) organizationId ??= await learnOrganization(ctx);
      if (lone) list.pollLone(lone);
      else if (watch.runs.size > 0 && organizationId) {
        errors = (await askList(ctx, list, organizationId)) ? 0 : errors + 1;
      } else list.endLone();
      if (errors >= RUNNING_LIST_MAX_ERRORS) {
        errors = 0;
        await ctx.clock.sleep(RUNNING_LIST_PAUSE_MS, until);
        continue;
      }
      const periodMs = watchPeriodMs([...watch.runs.values()], ctx.clock.now());
      await ctx.clock.sleep(Math.max(0, tickAtMs + periodMs - ctx.clock.now()), until);
    }
  } finally {
    list.fail();
    watch.list = undefined;
  }
}

/** What a poller sleeps for, and how it was ended. */
interface SleepPlan {
  /** When the poll is due, ms (the engine's clock). */
  dueAtMs: number;
  /** A safety slot reserved for it, to give back when not used. */
  slotAtMs: number | null;
}

/**
 * When a run's next own poll is due. Shown by the list (or the lone run): its safety slot, or its expected
 * finish (`window.lowMs` after the trigger) when that comes first. Before the list's first answer: that
 * answer, at most `UNSEEN_AFTER_MS` away. Otherwise its adaptive time, `adaptiveDueAtMs`.
 */
function planSleep(
  ctx: EngineContext,
  watch: Watch,
  id: string,
  triggeredAtMs: number,
  window: ExpectedWindow | null,
  adaptiveDueAtMs: number,
): SleepPlan {
  const now = ctx.clock.now();
  // Before the list's first answer: wait for it (it replans), at most `UNSEEN_AFTER_MS`.
  if (watch.list?.pending)
    return { dueAtMs: Math.max(adaptiveDueAtMs, now + UNSEEN_AFTER_MS), slotAtMs: null };
  if (!watch.list?.shows(id)) return { dueAtMs: adaptiveDueAtMs, slotAtMs: null };
  const slotAtMs = watch.safety.reserve(now);
  const expectedAtMs = window ? triggeredAtMs + window.lowMs : Infinity;
  if (expectedAtMs > now && expectedAtMs < slotAtMs) {
    watch.safety.release(slotAtMs);
    return { dueAtMs: expectedAtMs, slotAtMs: null };
  }
  return { dueAtMs: slotAtMs, slotAtMs };
}

/**
 * Sleeps before a run's next own poll: `delayMs` (its adaptive schedule), or, while the running list shows
 * the run, until its safety slot or its expected finish (see `planSleep`); either way it wakes as soon as
 * the list stops showing the run (or never showed it `UNSEEN_AFTER_MS` after its trigger: see
 * `RunningList.onLeave`), and plans again when the list first shows it or fails. Times in ms.
 * @param forced true for a back-off or not-found retry delay, which the list never lengthens.
 */
export async function sleepBeforePoll(
  ctx: EngineContext,
  id: string,
  triggeredAtMs: number,
  window: ExpectedWindow | null,
  delayMs: number,
  forced: boolean,
  signal: AbortSignal,
): Promise<void> {
  const watch = watchOf(ctx);
  const adaptiveDueAtMs = ctx.clock.now() + delayMs;
  for (;;) {
    const list = watch.list;
    if (!list) return ctx.clock.sleep(adaptiveDueAtMs - ctx.clock.now(), signal);
    const plan = forced
      ? { dueAtMs: adaptiveDueAtMs, slotAtMs: null }
      : planSleep(ctx, watch, id, triggeredAtMs, window, adaptiveDueAtMs);
    const wake = new AbortController();
    let again = false;
    let pollNow = false;
    const replan = (): void => {
      again = true;
      wake.abort();
    };
    const poll = (): void => {
      pollNow = true;
      wake.abort();
    };
    const off = list.onLeave(id, triggeredAtMs, poll, forced ? undefined : replan, forced);
    try {
      await ctx.clock.sleep(plan.dueAtMs - ctx.clock.now(), AbortSignal.any([signal, wake.signal]));
    } finally {
      off();
    }
    const early = ctx.clock.now() < plan.dueAtMs;
    if (plan.slotAtMs !== null && early) watch.safety.release(plan.slotAtMs);
    // A wake to poll wins over a replan that came with it (the first answer replans all, then probes).
    if (pollNow || !again || signal.aborted) return;
  }
}
