/**
 * The service's rate limit, reproduced by default (docs/api-contract.md, "Resources": burst 300 requests, then
 * 10 requests/s per account, then HTTP 429), and the opt-in "not found" window after a trigger (a fault: the
 * service answers a triggered result at once).
 */

/** Rate limit settings. `retryAfterS` adds a `Retry-After` header to 429 answers (the service documents none). */
export interface RateLimitSpec {
  /** Requests an account may send at once before the sustained rate applies (default 300). */
  burst: number;
  /** Sustained requests per second per account (default 10). */
  perSecond: number;
  /** Seconds sent in `Retry-After` on a 429; absent = no header. */
  retryAfterS?: number;
}

/** The service's documented limit. */
export const DEFAULT_RATE_LIMIT: RateLimitSpec = { burst: 300, perSecond: 10 };

/**
 * How long, in ms at time scale 1, a test result or suite result answers "not found" after it is created:
 * 0 (off), as the service answers a triggered result at once. A longer window is an opt-in fault.
 */
export const DEFAULT_NOT_FOUND_WINDOW_MS = 0;

/**
 * Parses `off`, or `burst=N,rate=N[,retry-after=S]` (any subset; the rest from the default). Throws an Error
 * naming the bad part.
 */
export function parseRateLimit(text: string): RateLimitSpec | false {
  const trimmed = text.trim();
  if (trimmed === 'off' || trimmed === '0' || trimmed === 'false') return false;
  const spec: RateLimitSpec = { ...DEFAULT_RATE_LIMIT };
  if (trimmed === '' || trimmed === 'on') return spec;
  for (const part of trimmed.split(',')) {
    const [name, raw] = part.split('=').map((x) => x.trim());
    const value = Number(raw);
    if (!(value >= 0) || raw === '' || raw === undefined)
      throw new Error(
        `rate limit: ${part} needs a non-negative number (e.g. burst=300,rate=10,retry-after=1)`,
      );
    if (name === 'burst') spec.burst = value;
    else if (name === 'rate') spec.perSecond = value;
    else if (name === 'retry-after') spec.retryAfterS = value;
    else
      throw new Error(`rate limit: unknown setting "${name}"; expected burst, rate or retry-after, or off`);
  }
  return spec;
}

/** A token bucket per account: `burst` tokens, refilled at `perSecond`. */
export class RateLimiter {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();
  constructor(
    readonly spec: RateLimitSpec,
    private readonly now: () => number = Date.now,
  ) {}

  /** Takes one request of `account`; false when the account is over its limit (answer 429). */
  take(account: string): boolean {
    const now = this.now();
    const bucket = this.buckets.get(account) ?? { tokens: this.spec.burst, at: now };
    bucket.tokens = Math.min(
      this.spec.burst,
      bucket.tokens + ((now - bucket.at) / 1000) * this.spec.perSecond,
    );
    bucket.at = now;
    this.buckets.set(account, bucket);
    if (bucket.tokens < 1) return false;
    bucket.tokens -= 1;
    return true;
  }
}
