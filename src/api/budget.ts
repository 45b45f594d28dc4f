/**
 * One shared request budget for every API call of the action: a token bucket that uses the service's burst
 * and backs off when the service answers 429 (docs/api-contract.md, "Rate limit": burst 300, sustained 10
 * requests/s per account, then HTTP 429; `Retry-After` honoured when present).
 *
 * - **Bucket.** Up to `burst` requests go out at once after a quiet spell; after that one token comes back
 *   every `1 / ratePerSecond` s. Callers take tokens in arrival order (FIFO, so no run starves).
 * - **429.** `onRateLimited(retryAfterMs)` (called by the transport on each 429) empties the
 *   bucket, stops every grant until the `Retry-After` time has passed, and halves the refill rate (at most
 *   once per 429 wave: answers to requests that were already in flight do not halve it again), down to
 *   `minRatePerSecond`.
 * - **Recovery.** The rate then grows back slowly and linearly, `recoveryPerSecond` requests/s per second,
 *   up to `ratePerSecond` (additive increase, multiplicative decrease: several processes sharing one account
 *   converge on a fair share of the account's 10/s instead of retrying in lockstep).
 *
 * Defaults, and why. Several action processes may share one account (matrix legs, parallel workflows), and
 * the account's bucket (burst 300, refill 10/s) is shared by all of them.
 * - `ratePerSecond` 5: two processes at full speed stay within the account's 10/s; beyond two, the 429
 *   back-off brings the sum down to what the account allows.
 * - `burst` 30: ten processes that start at the same moment can all spend their burst without exceeding the
 *   account's 300, and one process can read 1,500 test results (30 pages of 50) at once after a suite ends.
 * - `minRatePerSecond` 0.5 (ten processes at the floor send 5/s, half the account's limit) and
 *   `recoveryPerSecond` 0.05 (from 2.5/s back to 5/s in 50 s): slow enough that processes sharing an
 *   account settle below its limit (test/unit/api/budget.test.ts).
 *
 * The transport (`transport.ts`) takes one token before every attempt it sends, first attempts and retries
 * alike, waiting through its own sleep; a call flagged `neverWait` (the cancels of a workflow cancel) takes
 * its token at once, into debt if need be, so later calls wait for it. Every wait goes through the given clock.
 */
/** The time the budget reads, and how it waits when the caller gives no wait of its own. */
export interface BudgetClock {
  now(): number;
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

/** A wait of `ms`, ended (or rejected) early when `signal` fires. */
export type Wait = (ms: number, signal?: AbortSignal) => Promise<void>;

export interface RateBudgetOptions {
  /** Size of the bucket: requests at most sent at once after a quiet spell (default 30). */
  burst?: number;
  /** Refill rate when no 429 was seen, requests/s (default 5). */
  ratePerSecond?: number;
  /** The lowest refill rate repeated 429s can bring it to, requests/s (default 0.5). */
  minRatePerSecond?: number;
  /** After a 429, how fast the refill rate grows back: requests/s gained per second (default 0.05). */
  recoveryPerSecond?: number;
  clock: BudgetClock;
}

export const DEFAULT_BURST = 30;
export const DEFAULT_RATE_PER_SECOND = 5;
export const DEFAULT_MIN_RATE_PER_SECOND = 0.5;
export const DEFAULT_RECOVERY_PER_SECOND = 0.05;

/** Thrown by `acquire` when its signal fires before a token was had. */
export class BudgetAbortedError extends Error {
  constructor() {
    super('The wait for the request budget was aborted.');
    this.name = 'BudgetAbortedError';
  }
}

/** 429s within this time of a halving (or before the pause it set ends) do not halve again, ms. */
const DECREASE_HOLD_MS = 1_000;

function positive(name: string, value: number, min: number): number {
  if (!Number.isFinite(value) || value < min) {
    throw new RangeError(`RateBudget ${name} must be a number ≥ ${min}; got ${String(value)}.`);
  }
  return value;
}

export class RateBudget {
  readonly burst: number;
  /** The refill rate without back-off, requests/s. */
  readonly nominalRatePerSecond: number;
  readonly minRatePerSecond: number;
  readonly recoveryPerSecond: number;
  private readonly clock: BudgetClock;
  private tokens: number;
  private rate: number;
  /** Time the bucket was last brought up to date, ms. */
  private updatedAt: number;
  /** No grant before this time (a `Retry-After`), ms. */
  private pausedUntil = -Infinity;
  /** No further halving before this time, ms. */
  private holdUntil = -Infinity;
  /** Callers waiting for a token, in arrival order; each wakes when its place in the line comes. */
  private readonly line: Array<{ nudge: AbortController }> = [];
  /** Tokens taken so far (each one request sent). */
  granted = 0;
  /** 429 answers reported through `onRateLimited()`. */
  rateLimited = 0;
  /** Times the refill rate was halved. */
  decreases = 0;

  /** @throws RangeError when an option is not a finite number in its range (burst ≥ 1, rates > 0). */
  constructor(options: RateBudgetOptions) {
    this.burst = Math.floor(positive('burst', options.burst ?? DEFAULT_BURST, 1));
    this.nominalRatePerSecond = positive(
      'ratePerSecond',
      options.ratePerSecond ?? DEFAULT_RATE_PER_SECOND,
      0.001,
    );
    this.minRatePerSecond = Math.min(
      this.nominalRatePerSecond,
      positive('minRatePerSecond', options.minRatePerSecond ?? DEFAULT_MIN_RATE_PER_SECOND, 0.001),
    );
    this.recoveryPerSecond = positive(
      'recoveryPerSecond',
      options.recoveryPerSecond ?? DEFAULT_RECOVERY_PER_SECOND,
      0,
    );
    this.clock = options.clock;
    this.tokens = this.burst;
    this.rate = this.nominalRatePerSecond;
    this.updatedAt = this.clock.now();
  }

  /** The refill rate now, requests/s (below the nominal rate while recovering from a 429). */
  get ratePerSecond(): number {
    this.refill(this.clock.now());
    return this.rate;
  }

  /** Tokens in the bucket now (negative after `takeNow` into debt). */
  get available(): number {
    this.refill(this.clock.now());
    return this.tokens;
  }

  /**
   * Brings the bucket up to `now`: tokens earned since the last update (none while paused), at a rate that
   * grows linearly by `recoveryPerSecond` until it reaches the nominal rate.
   */
  private refill(now: number): void {
    const from = Math.max(this.updatedAt, this.pausedUntil);
    if (now > from) {
      const seconds = (now - from) / 1000;
      const r0 = this.rate;
      const r1 = Math.min(this.nominalRatePerSecond, r0 + this.recoveryPerSecond * seconds);
      const rising = this.recoveryPerSecond > 0 ? (r1 - r0) / this.recoveryPerSecond : 0;
      const earned = ((r0 + r1) / 2) * rising + r1 * (seconds - rising);
      this.tokens = Math.min(this.burst, this.tokens + earned);
      this.rate = r1;
    }
    this.updatedAt = Math.max(this.updatedAt, now);
  }

  /** ms until the caller at `place` in the line (0: first) can have a token (0: now). */
  private waitMs(now: number, place: number): number {
    this.refill(now);
    if (now < this.pausedUntil) return this.pausedUntil - now;
    const need = place + 1 - this.tokens;
    if (need <= 0) return 0;
    // At the current rate; a rate that grows meanwhile only makes the token come sooner (checked again).
    return Math.max(1, Math.ceil((need / this.rate) * 1000));
  }

  /**
   * Waits for one token (in arrival order among callers) and takes it. Each caller sleeps through `wait`
   * (default the clock's sleep) until its place in the line can have one, then looks again; a caller that
   * gives up wakes those behind it.
   * @throws BudgetAbortedError when `signal` fires first (no token is taken), or what `wait` throws.
   */
  async acquire(signal?: AbortSignal, wait: Wait = (ms, s) => this.clock.sleep(ms, s)): Promise<void> {
    const me = { nudge: new AbortController() };
    this.line.push(me);
    let granted = false;
    try {
      for (;;) {
        if (signal?.aborted) throw new BudgetAbortedError();
        const waitMs = this.waitMs(this.clock.now(), this.line.indexOf(me));
        if (waitMs <= 0) {
          this.take();
          granted = true;
          return;
        }
        me.nudge = new AbortController();
        const until = signal ? AbortSignal.any([signal, me.nudge.signal]) : me.nudge.signal;
        try {
          await wait(waitMs, until);
        } catch (error) {
          if (signal?.aborted || !me.nudge.signal.aborted) throw error;
        }
      }
    } finally {
      this.line.splice(this.line.indexOf(me), 1);
      if (!granted) for (const other of this.line) other.nudge.abort();
    }
  }

  /** Takes a token now without waiting, into debt if need be: later callers wait for it. */
  takeNow(): void {
    this.refill(this.clock.now());
    this.take();
  }

  private take(): void {
    this.tokens -= 1;
    this.granted += 1;
  }

  /**
   * Notes a 429 answer (the transport calls it): empties the bucket, holds every grant until
   * `retryAfterMs` from now has passed (when given), and halves the refill rate (not below
   * `minRatePerSecond`) unless it was halved within the last second or the pause that halving set.
   * @param retryAfterMs the answer's `Retry-After` in ms, or undefined when it had none.
   */
  onRateLimited(retryAfterMs?: number): void {
    const now = this.clock.now();
    this.refill(now);
    this.rateLimited += 1;
    if (retryAfterMs !== undefined && Number.isFinite(retryAfterMs) && retryAfterMs > 0) {
      this.pausedUntil = Math.max(this.pausedUntil, now + retryAfterMs);
    }
    this.tokens = Math.min(this.tokens, 0);
    if (now >= this.holdUntil) {
      this.rate = Math.max(this.minRatePerSecond, this.rate / 2);
      this.decreases += 1;
      this.holdUntil = Math.max(now + DECREASE_HOLD_MS, this.pausedUntil);
    }
  }
}
