/**
 * How a group's finished suite results have their test results read (pure; `read.ts` does the requests).
 * A group is the runs of one suite waited for together (4 or more: data rows, variants); every run has the
 * same `T` tests. Two ways to read a finished suite result's tests:
 *
 * - **Alone**: `GET /suite-results/{id}/results/`, `A = ⌈T / 50⌉` requests for that run.
 * - **By test**: `GET /tests/{id}/results/?count=50&offset=50·p`, one request per test, newest first. Page
 *   `p` of every test's list holds the same 50 runs of the group: the runs were created one after the other
 *   (the execute's answer order), a run's test results with it, so the run of rank `k` (0 = the oldest) of
 *   the group's `N` runs sits at position `N − 1 − k` of each list, on page `⌊(N − 1 − k) / 50⌋`. Reading a
 *   page costs `T` requests for up to 50 runs; a run still running when its page is read must be read again.
 *
 * Whole group: by test `T × ⌈N / 50⌉` requests, alone `N × A`; for 100 rows of 20 tests, 40 against 100. The
 * rule, for each page (the unit a read by test covers) and the runs on it not read yet (`U`, running or
 * finished) of which `W` are finished and waiting:
 *
 * 1. `T ≥ |U| × A`: reading the page can never be cheaper than reading its runs alone: the waiting runs are
 *    read alone at once (one suite, a few variants, the last stragglers of a page).
 * 2. `W = U` (every run on the page is over): the page is read, `T` requests, at once.
 * 3. Otherwise the waiting runs are **held** for the rest of the page: runs of one execute started together
 *    and end together, so the others are expected soon. A run is held at most `holdMs` of its own duration
 *    (25 %, 2 s to 30 s), and never into the last 10 s before the deadline; reports are written only after the last run anyway, so a hold costs no time at
 *    the end. When a hold ends (or for a run that may not wait: a failure under `fail-fast` or
 *    `retry-failed`), the waiting runs are read by the cheaper way for them now: the page when `T < |W| × A`
 *    (the running ones are read again later), else alone.
 *
 * Reading page by page as each one's runs are over spreads the group's `T × ⌈N / 50⌉` requests over the
 * finishes instead of leaving them all for after the last one; a page whose runs are all over is read once. The
 * time after the last finish is set by the budget (burst 30, then 5/s): from the first run seen over (`t₀`),
 * the `1 + T × ⌈N / 50⌉` reads and the polls `P` meanwhile are granted no sooner than
 * `t₀ + (1 + T × ⌈N / 50⌉ + P − 30) / 5` s, whatever their order; 100 rows × 20 tests ending within a second
 * are read about 2.5 s after the last finish (docs/read.md).
 *
 * When the group's positions are not known (runs planned but their executes not answered yet), the unit is
 * the whole group: a sweep of every test's list from offset 0, `T × ⌈N / 50⌉` requests.
 */
import { PAGE_SIZE } from '../api/limits.js';

/** A held run waits at most this share of its own duration (trigger to finish) for the rest of its page. */
export const HOLD_SHARE = 0.25;
/** The shortest and longest hold of a finished run, ms. */
export const HOLD_MIN_MS = 2_000;
export const HOLD_MAX_MS = 30_000;

/**
 * How long a run that ended `durationMs` after its trigger may be held for the rest of its page, ms:
 * `HOLD_SHARE` of the duration, within `HOLD_MIN_MS`…`HOLD_MAX_MS`.
 */
export function holdMs(durationMs: number): number {
  return Math.min(HOLD_MAX_MS, Math.max(HOLD_MIN_MS, Math.round(HOLD_SHARE * Math.max(0, durationMs))));
}

/** No run is held past this long before the deadline (`timeout-minutes`), ms: its tests are read before it. */
export const HOLD_DEADLINE_MARGIN_MS = 10_000;

/**
 * Until when (ms) a run that ended at `nowMs`, `durationMs` after its trigger, may be held: `holdMs` after
 * `nowMs`, but never past `HOLD_DEADLINE_MARGIN_MS` before `deadlineMs` (a run held at the deadline would be
 * reported as timed out). `-Infinity`: not held.
 */
export function heldUntil(nowMs: number, durationMs: number, deadlineMs: number): number {
  const until = Math.min(nowMs + holdMs(durationMs), deadlineMs - HOLD_DEADLINE_MARGIN_MS);
  return until > nowMs ? until : -Infinity;
}

/** The page (0 = newest) of each test's results list that holds the run of `rank` (0 = oldest) of `runs`. */
export function pageOfRank(rank: number, runs: number): number {
  return Math.floor((runs - 1 - rank) / PAGE_SIZE);
}

/** One run of the group as the plan sees it. */
export interface PlanRun {
  id: string;
  /** `running`: not over yet; `waiting`: over, its tests not read; `read`: read (or given up). */
  state: 'running' | 'waiting' | 'read';
  /** Its page in each test's list; null when the group's positions are not known. */
  page: number | null;
  /** Waiting runs: held until this time (ms); a run that may not wait has `-Infinity`. */
  heldUntilMs?: number;
}

/** A read to do now: one page of every test's list, every test's list from offset 0, or runs alone. */
export type ReadStep =
  | { kind: 'page'; page: number; runs: string[] }
  | { kind: 'sweep'; runs: string[] }
  | { kind: 'alone'; runs: string[] };

export interface ReadPlan {
  steps: ReadStep[];
  /** When the next hold ends (ms), null when no run is held. */
  wakeAtMs: number | null;
}

/**
 * The reads to do now for a group whose runs have `tests` tests each (the rule of this module's docstring),
 * and when to look again. `nowMs` is the clock's time.
 */
export function planReads(runs: PlanRun[], tests: number, nowMs: number): ReadPlan {
  const alone = Math.ceil(tests / PAGE_SIZE);
  const known = runs.every((r) => r.page !== null);
  const units = new Map<number, PlanRun[]>();
  for (const r of runs) {
    if (r.state === 'read') continue;
    const unit = known ? (r.page as number) : -1;
    units.set(unit, [...(units.get(unit) ?? []), r]);
  }
  const steps: ReadStep[] = [];
  let wakeAtMs: number | null = null;
  const byTest = (unit: number, ids: string[]): ReadStep =>
    unit < 0 ? { kind: 'sweep', runs: ids } : { kind: 'page', page: unit, runs: ids };
  for (const [unit, open] of units) {
    const waiting = open.filter((r) => r.state === 'waiting');
    if (waiting.length === 0) continue;
    const ids = waiting.map((r) => r.id);
    const unitCost = tests * (unit < 0 ? Math.ceil(runs.length / PAGE_SIZE) : 1);
    if (unitCost >= open.length * alone) {
      steps.push({ kind: 'alone', runs: ids });
    } else if (waiting.length === open.length) {
      steps.push(byTest(unit, ids));
    } else {
      const due = waiting.filter((r) => (r.heldUntilMs ?? -Infinity) <= nowMs);
      if (due.length === 0) {
        const next = Math.min(...waiting.map((r) => r.heldUntilMs ?? -Infinity));
        wakeAtMs = wakeAtMs === null ? next : Math.min(wakeAtMs, next);
      } else if (unitCost < waiting.length * alone) {
        steps.push(byTest(unit, ids));
      } else {
        steps.push({ kind: 'alone', runs: due.map((r) => r.id) });
        const rest = waiting.filter((r) => !due.includes(r));
        if (rest.length > 0) {
          const next = Math.min(...rest.map((r) => r.heldUntilMs ?? -Infinity));
          wakeAtMs = wakeAtMs === null ? next : Math.min(wakeAtMs, next);
        }
      }
    }
  }
  return { steps, wakeAtMs };
}
