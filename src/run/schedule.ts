/**
 * When to poll a run: the adaptive polling plan (pure).
 *
 * Goal: notice a finish within about 1 s, while sending no more requests than a fixed 5 s poll would.
 * A fixed poll wastes requests while a run cannot be done yet and is slow to notice the end; the plan
 * instead spends its requests where the finish is likely, using how long earlier runs took.
 *
 * 1. Expected duration. Before the first poll, the last results of the same suite or test are read once
 *    (`listSuiteResults(id, {count: 5})` / `listTestResults(id, {count: 5})`). Each finished result gives a
 *    sample: its wall time from creation to finish (queueing included), else its `executionTime`. The
 *    samples give a window `[low, high]`: low = the shortest sample + 250 ms, high = 1.1 × the longest + 1 s.
 *    An execute `delay` shifts the window by the delay.
 * 2. With a window: the first poll comes at `low` (at least 1 s after the trigger), when a run as fast as
 *    the fastest earlier one has just finished: a run of steady duration costs one poll. Inside the window
 *    polls come every 500 ms (± 10 % jitter), so a finish is seen within about half a second. After `high`
 *    the run is late: the interval grows ×1.5 per poll from 1 s up to 10 s (± 20 % jitter).
 * 3. Without history (a new test, a repository file): the first poll at 2 s, then ×1.3 per poll up to 5 s
 *    (± 20 % jitter) — no more requests than a fixed 5 s poll once settled.
 * 4. A result that answers "not found" just after its trigger is asked again after 1 s (up to a grace period).
 *
 * Runs of one suite or test waited for together (4 or more: variants, data rows) follow one plan and are
 * polled through the suite's or test's results list, 50 runs a request (`watch-group.ts`). Without history such a
 * group is polled every `5 s × pages / runs` (1 s to 5 s, `groupPollDelay`): per run no more requests than a
 * fixed 5 s poll of each run, and a finish seen within about 1 s for 5 runs or more.
 *
 * The times here are wishes: every call still waits for the shared request budget (`budget.ts`), which keeps
 * all runs together under the service's rate limit.
 */

/** The expected finish window of a run, in ms after its trigger. */
export interface ExpectedWindow {
  lowMs: number;
  highMs: number;
}

/** Where a run stands, for the next delay. */
export interface PollState {
  /** ms since the trigger. */
  elapsedMs: number;
  /** Polls sent so far. */
  polls: number;
  /** The last interval used (ms), 0 before the first poll. */
  lastIntervalMs: number;
  /** Null without history. */
  window: ExpectedWindow | null;
}

export const MIN_FIRST_POLL_MS = 1_000;
export const WINDOW_INTERVAL_MS = 500;
export const LATE_FIRST_INTERVAL_MS = 1_000;
export const LATE_MAX_INTERVAL_MS = 10_000;
export const NO_HISTORY_FIRST_MS = 2_000;
export const NO_HISTORY_MAX_INTERVAL_MS = 5_000;
/** The shortest interval between polls of a group without history, ms. */
export const GROUP_MIN_INTERVAL_MS = 1_000;

/**
 * The expected window from earlier durations (ms), or null when there are none.
 * @param samplesMs wall times of earlier finished runs, in ms.
 * @param delayMs the execute `delay` of this run, in ms.
 */
export function expectedWindow(samplesMs: number[], delayMs = 0): ExpectedWindow | null {
  const samples = samplesMs.filter((n) => Number.isFinite(n) && n > 0);
  if (samples.length === 0) return null;
  const min = Math.min(...samples);
  const max = Math.max(...samples);
  return { lowMs: Math.round(min + 250) + delayMs, highMs: Math.round(1.1 * max + 1_000) + delayMs };
}

/**
 * The delay before the next poll, in ms, and the interval to remember as `lastIntervalMs`.
 * @param random a number in [0, 1) for jitter.
 */
export function nextPollDelay(state: PollState, random: number): { delayMs: number; intervalMs: number } {
  const jitter = (ms: number, spread: number): number => Math.round(ms * (1 + spread * (2 * random - 1)));
  const { window, elapsedMs, polls, lastIntervalMs } = state;
  if (window) {
    if (polls === 0) {
      const first = Math.max(MIN_FIRST_POLL_MS, window.lowMs);
      return { delayMs: Math.max(0, first - elapsedMs), intervalMs: WINDOW_INTERVAL_MS };
    }
    if (elapsedMs < window.lowMs) {
      return { delayMs: window.lowMs - elapsedMs, intervalMs: WINDOW_INTERVAL_MS };
    }
    if (elapsedMs < window.highMs) {
      return { delayMs: jitter(WINDOW_INTERVAL_MS, 0.1), intervalMs: WINDOW_INTERVAL_MS };
    }
    const interval = Math.min(
      LATE_MAX_INTERVAL_MS,
      lastIntervalMs < LATE_FIRST_INTERVAL_MS ? LATE_FIRST_INTERVAL_MS : lastIntervalMs * 1.5,
    );
    return { delayMs: jitter(interval, 0.2), intervalMs: interval };
  }
  if (polls === 0) {
    return { delayMs: Math.max(0, NO_HISTORY_FIRST_MS - elapsedMs), intervalMs: NO_HISTORY_FIRST_MS };
  }
  const interval = Math.min(NO_HISTORY_MAX_INTERVAL_MS, Math.max(NO_HISTORY_FIRST_MS, lastIntervalMs) * 1.3);
  return { delayMs: jitter(interval, 0.2), intervalMs: interval };
}

/**
 * The delay before the next poll of a group of `runs` runs polled together, `pagesPerPoll` list requests per
 * poll, in ms. With a window: as `nextPollDelay`. Without one: the first poll at 2 s, then every
 * `5 s × pagesPerPoll / runs`, at least 1 s and at most 5 s (± 10 % jitter).
 * @param random a number in [0, 1) for jitter.
 */
export function groupPollDelay(
  state: PollState,
  runs: number,
  pagesPerPoll: number,
  random: number,
): { delayMs: number; intervalMs: number } {
  if (state.window || state.polls === 0 || runs <= 0) return nextPollDelay(state, random);
  const interval = Math.min(
    NO_HISTORY_MAX_INTERVAL_MS,
    Math.max(GROUP_MIN_INTERVAL_MS, (NO_HISTORY_MAX_INTERVAL_MS * Math.max(1, pagesPerPoll)) / runs),
  );
  return { delayMs: Math.round(interval * (1 + 0.1 * (2 * random - 1))), intervalMs: interval };
}

/** The wall time of a finished result in ms: finish minus creation, else its execution time; null if unknown. */
export function wallTimeMs(result: {
  dateCreated?: string;
  dateExecutionFinished?: string;
  executionTime?: number | null;
  passing?: boolean | null;
}): number | null {
  if (result.passing === null || result.passing === undefined) return null;
  const created = Date.parse(result.dateCreated ?? '');
  const finished = Date.parse(result.dateExecutionFinished ?? '');
  if (Number.isFinite(created) && Number.isFinite(finished) && created > 0 && finished > created) {
    return finished - created;
  }
  return typeof result.executionTime === 'number' && result.executionTime > 0 ? result.executionTime : null;
}
