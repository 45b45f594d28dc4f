/**
 * One shared request budget for every API call: a token bucket that spends the service's burst less a small
 * margin, halves its rate on each 429 wave and recovers linearly (AIMD): within seconds after a lone wave,
 * slowly while waves keep coming, so processes sharing an account converge on a fair share. Defaults and
 * their reasons: docs/requests.md ("The request budget").
 */
import type { Clock } from '../common/clock.js';
import { RATE_LIMIT_BURST, RATE_LIMIT_PER_SECOND } from './limits.js';

/** The time the budget reads, and how it waits when the caller gives no wait of its own. */
type BudgetClock = Pick<Clock, 'now' | 'sleep'>;

export interface RateBudgetOptions {
  /** Size of the bucket: requests at most sent at once after a quiet spell (default the account's 300 less `BURST_MARGIN`). */
  burst?: number;
  /** Refill rate when no 429 was seen, requests/s (default the account's, 10). */
  ratePerSecond?: number;
  /** The lowest refill rate repeated 429s can bring it to, requests/s (default 0.5). */
  minRatePerSecond?: number;
  /**
   * After a 429 wave that came while the rate was still growing back from an earlier one (the account is
   * shared), how fast the refill rate grows back: requests/s gained per second (default 0.05).
   */
  recoveryPerSecond?: number;
  /**
   * After a lone 429 wave (the rate had been at its nominal value for `CALM_MS`), how fast the refill rate
   * grows back: requests/s gained per second (default a quarter of the nominal rate: from half back in 2 s).
   */
  quickRecoveryPerSecond?: number;
  clock: BudgetClock;
}

/** Thrown by `acquire` when its signal fires before a token was had. */
export class BudgetAbortedError extends Error {
  constructor() {
    super('The wait for the request budget was aborted.');
    this.name = 'BudgetAbortedError';
  }
}

/** 429s within this time of a halving (or before the pause it set ends) do not halve again, ms. */
const DECREASE_HOLD_MS = 1_000;

/**
 * Tokens of the account's burst the budget leaves unspent by default: what other callers of the account
 * and the time a request takes to reach the service may have used of it (1 s of the account's rate).
 */
export const BURST_MARGIN = RATE_LIMIT_PER_SECOND;

/** A 429 wave is lone when the rate had been at its nominal value this long before it, ms. */
const CALM_MS = 10_000;

export class RateBudget {
  readonly burst: number;
  /** The refill rate without back-off, requests/s. */
  readonly nominalRatePerSecond: number;
  readonly minRatePerSecond: number;
  readonly recoveryPerSecond: number;
  readonly quickRecoveryPerSecond: number;
  private readonly clock: BudgetClock;
  private tokens: number;
  private rate: number;
  /** Time the bucket was last brought up to date, ms. */
  private updatedAt: number;
  /** No grant before this time (a `Retry-After`), ms. */
  private pausedUntil = -Infinity;
  /** No further halving before this time, ms. */
  private holdUntil = -Infinity;
  /** How fast the rate grows back now, requests/s per second (set by the last halving). */
  private recovery: number;
  /** Since when the rate is at its nominal value, ms (-Infinity: never lowered). */
  private nominalSince = -Infinity;
  /** Callers waiting for a token, in arrival order, low priority last; each wakes when its place comes. */
  private readonly line: Array<{ nudge: AbortController; low: boolean }> = [];
  /** Tokens taken so far (each one request sent). */
  granted = 0;
  /** 429 answers reported through `onRateLimited()`. */
  rateLimited = 0;
  /** Times the refill rate was halved. */
  decreases = 0;

  constructor(options: RateBudgetOptions) {
    this.burst = options.burst ?? RATE_LIMIT_BURST - BURST_MARGIN;
    this.nominalRatePerSecond = options.ratePerSecond ?? RATE_LIMIT_PER_SECOND;
    this.minRatePerSecond = Math.min(this.nominalRatePerSecond, options.minRatePerSecond ?? 0.5);
    this.recoveryPerSecond = options.recoveryPerSecond ?? 0.05;
    this.quickRecoveryPerSecond = options.quickRecoveryPerSecond ?? this.nominalRatePerSecond / 4;
    this.recovery = this.recoveryPerSecond;
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

  /** Brings the bucket up to `now` (no tokens while paused; the rate grows back linearly). */
  private refill(now: number): void {
    const from = Math.max(this.updatedAt, this.pausedUntil);
    if (now > from) {
      const seconds = (now - from) / 1000;
      const r0 = this.rate;
      const r1 = Math.min(this.nominalRatePerSecond, r0 + this.recovery * seconds);
      const rising = this.recovery > 0 ? (r1 - r0) / this.recovery : 0;
      const earned = ((r0 + r1) / 2) * rising + r1 * (seconds - rising);
      this.tokens = Math.min(this.burst, this.tokens + earned);
      if (r0 < this.nominalRatePerSecond && r1 >= this.nominalRatePerSecond) {
        this.nominalSince = from + rising * 1000;
      }
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
    // At the rate as it grows back; a 429 meanwhile only makes the token come later (checked again).
    return Math.max(1, Math.ceil(this.secondsToEarn(need) * 1000));
  }

  /** Seconds the bucket takes to earn `tokens` from now: on the rate's linear ramp back, then at the nominal rate. */
  private secondsToEarn(tokens: number): number {
    const r0 = this.rate;
    const slope = this.recovery;
    const nominal = this.nominalRatePerSecond;
    if (slope <= 0 || r0 >= nominal) return tokens / r0;
    const ramp = (nominal - r0) / slope;
    const onRamp = r0 * ramp + (slope * ramp * ramp) / 2;
    if (tokens > onRamp) return ramp + (tokens - onRamp) / nominal;
    return (Math.sqrt(r0 * r0 + 2 * slope * tokens) - r0) / slope;
  }

  /**
   * Waits for one token, in arrival order, sleeping through `wait` (default the clock's sleep), and takes it.
   * A `lowPriority` caller lets every other caller that comes while it waits go first.
   * @throws BudgetAbortedError when `signal` fires first (no token is taken).
   */
  async acquire(
    signal?: AbortSignal,
    wait: Clock['sleep'] = (ms, s) => this.clock.sleep(ms, s),
    lowPriority = false,
  ): Promise<void> {
    const me = { nudge: new AbortController(), low: lowPriority };
    const firstLow = lowPriority ? -1 : this.line.findIndex((other) => other.low);
    this.line.splice(firstLow < 0 ? this.line.length : firstLow, 0, me);
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
        await wait(waitMs, until);
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
   * Notes a 429 answer: empties the bucket, pauses grants for `retryAfterMs` (ms, when given) and halves
   * the rate (not below `minRatePerSecond`) unless already halved for this wave. The rate then grows back
   * at `quickRecoveryPerSecond` after a lone wave, else at `recoveryPerSecond`.
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
      const lone = this.rate >= this.nominalRatePerSecond && now - this.nominalSince >= CALM_MS;
      this.recovery = lone ? this.quickRecoveryPerSecond : this.recoveryPerSecond;
      this.rate = Math.max(this.minRatePerSecond, this.rate / 2);
      this.decreases += 1;
      this.holdUntil = Math.max(now + DECREASE_HOLD_MS, this.pausedUntil);
    }
  }
}
