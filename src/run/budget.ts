/**
 * One shared request budget for every run of the action (service facts "Rate limit": burst 300, sustained
 * 10 requests/s per account, then HTTP 429).
 *
 * A sliding window on send times: at most `limit` requests (default 6) in any rolling `windowMs` (default
 * 1000 ms), and at least `minSpacingMs` (default 125 ms) between two sends. Each API call the run engine makes (trigger, poll, listing) takes a slot first, in arrival order
 * (FIFO, so no run starves). Unlike a token bucket, grants that bunch (a busy event loop waking several
 * waiters late) cannot exceed the limit in any window: the window counts the times requests were actually
 * sent. `markSent()` (wired to the client's `onRequest` hook) moves a slot's time to its real send time, and a
 * send without a slot (a retry inside the client) takes one. `clientSleep()` makes those client-internal
 * retries (429, 5xx, network errors) wait for a slot after their back-off, so they count too. With the
 * default 6 per second the service sees at most 6 requests in any second plus what the network bunches,
 * leaving headroom under 8 (the action's own goal) and 10 (the service's limit).
 */
import { systemClock, type Clock } from './clock.js';

export interface RateBudgetOptions {
  /** Requests at most in any rolling window (default 6). */
  limit?: number;
  /** The window, ms (default 1000). */
  windowMs?: number;
  /** Least time between two sends, ms (default 125): no burst of `limit` sends at once. */
  minSpacingMs?: number;
  clock?: Clock;
}

export const DEFAULT_LIMIT = 6;
export const DEFAULT_WINDOW_MS = 1_000;
/**
 * With sends at least 125 ms apart, 9 sends span at least 1,250 ms (6 in a window, then the spacing on both
 * sides), so the service sees more than 8 in a second only if the network compresses them by over 250 ms.
 */
export const DEFAULT_MIN_SPACING_MS = 125;

/** Thrown by `acquire` when its signal fires before a slot was had. */
export class BudgetAbortedError extends Error {
  constructor() {
    super('The wait for the request budget was aborted.');
    this.name = 'BudgetAbortedError';
  }
}

interface Slot {
  /** Send time, or grant time while not sent yet, ms. */
  at: number;
  sent: boolean;
}

/** A granted slot not seen sent within this time (the call never went out) counts as sent at its grant. */
const UNSENT_EXPIRY_MS = 5_000;

export class RateBudget {
  readonly limit: number;
  readonly windowMs: number;
  readonly minSpacingMs: number;
  private readonly clock: Clock;
  /** Slots of recent requests, in grant order. */
  private slots: Slot[] = [];
  private queue: Promise<void> = Promise.resolve();
  /** Calls granted so far. */
  granted = 0;
  /** Sends seen through `markSent()`. */
  sent = 0;

  constructor(options: RateBudgetOptions = {}) {
    this.limit = Math.max(1, Math.floor(options.limit ?? DEFAULT_LIMIT));
    this.windowMs = Math.max(1, options.windowMs ?? DEFAULT_WINDOW_MS);
    this.minSpacingMs = Math.max(0, options.minSpacingMs ?? DEFAULT_MIN_SPACING_MS);
    this.clock = options.clock ?? systemClock;
  }

  /** Sustained requests per second the budget allows. */
  get ratePerSecond(): number {
    return (this.limit * 1000) / this.windowMs;
  }

  /** Drops slots that no longer matter: sent (or expired) before the current window. */
  private prune(now: number): void {
    for (const slot of this.slots) {
      if (!slot.sent && now - slot.at > UNSENT_EXPIRY_MS) slot.sent = true;
    }
    this.slots = this.slots.filter((slot) => !slot.sent || slot.at > now - this.windowMs);
  }

  /** ms until a slot is free (0 when one is free now). A granted slot not yet sent counts at its grant. */
  private waitMs(now: number): number {
    this.prune(now);
    const times = this.slots
      .map((slot) => slot.at)
      .filter((at) => at > now - this.windowMs)
      .sort((a, b) => a - b);
    const last = times[times.length - 1];
    const spacing = last === undefined ? 0 : Math.max(0, last + this.minSpacingMs - now);
    if (times.length < this.limit) return spacing;
    const oldest = times[times.length - this.limit]!;
    return Math.max(1, spacing, oldest + this.windowMs - now);
  }

  /**
   * Waits for one slot (FIFO among callers) and takes it.
   * @throws BudgetAbortedError when `signal` fires first (the slot is not taken).
   */
  acquire(signal?: AbortSignal): Promise<void> {
    const turn = this.queue.then(async () => {
      for (;;) {
        if (signal?.aborted) throw new BudgetAbortedError();
        const now = this.clock.now();
        const waitMs = this.waitMs(now);
        if (waitMs <= 0) {
          this.slots.push({ at: now, sent: false });
          this.granted += 1;
          return;
        }
        await this.clock.sleep(waitMs, signal);
      }
    });
    // The next caller waits for this one, whether it got its slot or gave up.
    this.queue = turn.catch(() => undefined);
    return turn;
  }

  /**
   * Notes that a request was sent now (the client's `onRequest` hook). The oldest granted slot not yet sent
   * takes this send time (later than its grant when the event loop was busy); a send without a slot (a
   * client-internal retry not routed through `clientSleep`) takes a new one, even over the limit.
   */
  markSent(): void {
    this.sent += 1;
    const now = this.clock.now();
    const pending = this.slots.find((slot) => !slot.sent);
    if (pending) {
      pending.at = Math.max(pending.at, now);
      pending.sent = true;
    } else {
      this.slots.push({ at: now, sent: true });
    }
  }

  /**
   * A `sleep` for the API client's retries: the back-off, then a slot of this budget, so a retry is sent
   * only when the window allows it. Pass as `ClientOptions.sleep`; the retry's send is then matched by
   * `markSent()` (pass `onRequest: () => budget.markSent()`).
   */
  clientSleep(): (ms: number, signal?: AbortSignal) => Promise<void> {
    return async (ms, signal) => {
      await this.clock.sleep(ms, signal);
      if (signal?.aborted) return;
      await this.acquire(signal);
    };
  }

  /** Runs `call` once a slot is had. */
  async run<T>(call: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    await this.acquire(signal);
    return call();
  }
}
