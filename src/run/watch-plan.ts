/**
 * The watch's periods and the two rules that spend them: how often the one shared watch request goes
 * out (`watchPeriodMs`), and when the runs' safety polls may go out (`SafetySlots`). Every period of the
 * watch is a named constant here; docs/watch.md gives the arithmetic behind each.
 *
 * Cost model (requests of one action process; T = a run's duration, N = runs waited for at once):
 * - the official client: 1 execute + ⌈T / 5 s⌉ polls per run (+ its result pages for a suite);
 * - ours: 1 execute + at most 1 history read per suite or test + the watch request every 1.0–1.4 s shared
 *   by all runs (T / 1.4 s to T / 1.0 s for the whole process, not per run) + 1 read of the run's own result
 *   when it leaves the running list + safety polls (together at most one per `SAFETY_SPACING_MS`) + for a
 *   run with history, one poll at its expected finish (+ the result pages of a suite).
 * With N = 1 the watch request is the run's own poll (no confirming read, no safety poll needed).
 * The early-notice bound (an early failure or an outside cancel seen within 1.5 s whatever the history says)
 * needs a watch request at least every ~1.4 s while anything runs: that floor, T / 1.4 s, is what a lone
 * run pays above the official client's T / 5 s; it is shared by N runs.
 */
import type { ExpectedWindow } from './schedule.js';

/**
 * Watch period while some run is "hot": it has no history (so lag p95 ≤ 1 s needs a look every second),
 * or it is inside its expected-finish window, ms.
 */
export const WATCH_HOT_MS = 1_000;
/**
 * Watch period otherwise: every run has history and is before its window or late. 1.4 s plus the request's
 * own time keeps an early failure or an outside cancel noticed within 1.5 s, ms.
 */
export const WATCH_COLD_MS = 1_400;
/** A run is hot from this long before its window's low edge (so the look before the finish is dense), ms. */
export const HOT_LEAD_MS = WATCH_HOT_MS;
/** The slowest own poll of a run the running list shows (the safety poll), ms. */
export const SAFETY_POLL_MS = 10_000;
/**
 * The safety polls of all runs together are at least this far apart, ms: at most 0.5 per second whatever the
 * number of runs; with N runs each is safety-polled about every max(`SAFETY_POLL_MS`, N × this).
 */
export const SAFETY_SPACING_MS = 2_000;
/**
 * A running-list request not answered this long after it was sent (the API client's own retries
 * included) counts as failed, so the runs it shows go back to their own schedules, ms.
 */
export const RUNNING_LIST_TIMEOUT_MS = 2 * WATCH_COLD_MS;
/** Failed running-list requests in a row after which the list is left alone for `RUNNING_LIST_PAUSE_MS`. */
export const RUNNING_LIST_MAX_ERRORS = 3;
/**
 * How long the list is left alone after `RUNNING_LIST_MAX_ERRORS` failures in a row (the runs follow their
 * adaptive schedules meanwhile), ms: one request per 30 s tells when it is back.
 */
export const RUNNING_LIST_PAUSE_MS = 30_000;
/**
 * A run triggered this long before a list answer, yet never shown by the list, is taken as having ended
 * before the list saw it: its own result is read once at once (history never delays an early finish), ms.
 */
export const UNSEEN_AFTER_MS = 2_000;
/**
 * With more than this many different suites and tests in one engine run their histories are not read: the
 * watch is hot almost all the time anyway (some run is always new or in its window), so a history would only
 * buy one poll at the expected finish, and it costs one request per suite or test (100 suites: 20 s of a 5/s
 * budget, and 100 of the 300 requests of such a run).
 */
export const HISTORY_MAX_KEYS = 10;

/** What the watch period depends on, per run waited for. */
export interface WatchedRun {
  /** When the run was triggered, ms (the engine's clock). */
  triggeredAtMs: number;
  /** Its expected-finish window (ms after the trigger); null without history, undefined while unknown. */
  window: ExpectedWindow | null | undefined;
}

/** Whether a run needs the hot watch period at `nowMs`: no (known) history, or in its window. */
export function isHot(run: WatchedRun, nowMs: number): boolean {
  if (!run.window) return true;
  const elapsed = nowMs - run.triggeredAtMs;
  return elapsed >= run.window.lowMs - HOT_LEAD_MS && elapsed <= run.window.highMs;
}

/**
 * The period of the shared watch request at `nowMs`, ms: `WATCH_HOT_MS` while any run is hot, else
 * `WATCH_COLD_MS` (also with no run at all).
 */
export function watchPeriodMs(runs: readonly WatchedRun[], nowMs: number): number {
  return runs.some((r) => isHot(r, nowMs)) ? WATCH_HOT_MS : WATCH_COLD_MS;
}

/**
 * The one stream of safety polls: each reservation gets a time at least `SAFETY_POLL_MS` after it is made
 * and at least `SAFETY_SPACING_MS` after every other reservation still ahead, so all runs' safety polls
 * together stay at or under one per `SAFETY_SPACING_MS` (round robin in the order runs go to sleep). A run
 * woken before its time (it left the list, or its expected finish came) releases its reservation, so unused
 * times do not push the others out.
 */
export class SafetySlots {
  /** Reserved times still ahead, ms. */
  private readonly ahead: number[] = [];

  /** Reserves the next safety poll time at or after `nowMs + SAFETY_POLL_MS`; returns it (ms). */
  reserve(nowMs: number): number {
    for (let i = this.ahead.length - 1; i >= 0; i--) if (this.ahead[i] < nowMs) this.ahead.splice(i, 1);
    // A time already past was used (or missed); the new one is SAFETY_POLL_MS ahead, so far enough from it.
    const latest = this.ahead.length > 0 ? Math.max(...this.ahead) : -Infinity;
    const at = Math.max(nowMs + SAFETY_POLL_MS, latest + SAFETY_SPACING_MS);
    this.ahead.push(at);
    return at;
  }

  /** Gives back a reserved time that was not used. */
  release(atMs: number): void {
    const i = this.ahead.lastIndexOf(atMs);
    if (i >= 0) this.ahead.splice(i, 1);
  }
}
