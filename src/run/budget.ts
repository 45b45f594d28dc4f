/**
 * One shared request budget for every run of the action (service facts "Rate limit": burst 300, sustained
 * 10 requests/s per account, then HTTP 429).
 *
 * A token bucket: `burst` tokens at most, refilled at `ratePerSecond`; each API call the run engine makes
 * (trigger, poll, listing, retry) takes one token first, in arrival order (FIFO, so no run starves). In any
 * window of one second at most `burst + ratePerSecond` calls start: with the defaults (5/s, burst 2) at most
 * 7, well below the service's 10. Retries the client makes inside one call (429, 5xx) are not counted here;
 * they back off on their own.
 */
import { systemClock, type Clock } from './clock.js';

export interface RateBudgetOptions {
  /** Sustained calls per second (default 5). */
  ratePerSecond?: number;
  /** Calls that may start at once after a quiet spell (default 2). */
  burst?: number;
  clock?: Clock;
}

export const DEFAULT_RATE_PER_SECOND = 5;
export const DEFAULT_BURST = 2;

/** Thrown by `acquire` when its signal fires before a token was had. */
export class BudgetAbortedError extends Error {
  constructor() {
    super('The wait for the request budget was aborted.');
    this.name = 'BudgetAbortedError';
  }
}

export class RateBudget {
  readonly ratePerSecond: number;
  readonly burst: number;
  private readonly clock: Clock;
  private tokens: number;
  private updatedAt: number;
  private queue: Promise<void> = Promise.resolve();
  /** Calls granted so far. */
  granted = 0;

  constructor(options: RateBudgetOptions = {}) {
    this.ratePerSecond = options.ratePerSecond ?? DEFAULT_RATE_PER_SECOND;
    this.burst = Math.max(1, options.burst ?? DEFAULT_BURST);
    this.clock = options.clock ?? systemClock;
    this.tokens = this.burst;
    this.updatedAt = this.clock.now();
  }

  private refill(): void {
    const now = this.clock.now();
    this.tokens = Math.min(this.burst, this.tokens + ((now - this.updatedAt) * this.ratePerSecond) / 1000);
    this.updatedAt = now;
  }

  /**
   * Waits for one token (FIFO among callers).
   * @throws BudgetAbortedError when `signal` fires first (the token is not taken).
   */
  acquire(signal?: AbortSignal): Promise<void> {
    const turn = this.queue.then(async () => {
      for (;;) {
        if (signal?.aborted) throw new BudgetAbortedError();
        this.refill();
        if (this.tokens >= 1) {
          this.tokens -= 1;
          this.granted += 1;
          return;
        }
        const waitMs = Math.ceil(((1 - this.tokens) * 1000) / this.ratePerSecond);
        await this.clock.sleep(waitMs, signal);
      }
    });
    // The next caller waits for this one, whether it got its token or gave up.
    this.queue = turn.catch(() => undefined);
    return turn;
  }

  /** Runs `call` once a token is had. */
  async run<T>(call: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    await this.acquire(signal);
    return call();
  }
}
