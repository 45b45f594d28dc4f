/**
 * The one back-off rule and `Retry-After` reader of the action, used by the API client's retries
 * (`retry-rules.ts`) and by the screenshot downloads (`artifacts/download.ts`): jittered exponential back-off
 * ("equal jitter") and an HTTP `Retry-After` header read as delay-seconds or as an HTTP date, cut to a cap.
 * All times in ms.
 */

/** Backoff shape; all in ms. */
export interface BackoffOptions {
  /** First wait before jitter (default 500 ms). */
  baseMs?: number;
  /** Growth per retry (default 2). */
  factor?: number;
  /** Largest wait before jitter (default 10000 ms). */
  capMs?: number;
}

export const DEFAULT_BACKOFF: Required<BackoffOptions> = { baseMs: 500, factor: 2, capMs: 10_000 };
/** The longest `Retry-After` the API client waits for; a longer one is cut to this (ms). */
export const MAX_RETRY_AFTER_MS = 120_000;

/**
 * Wait before retry number `retry` (0 for the first retry): `min(cap, base * factor^retry)`, then "equal
 * jitter": a random point in the upper half of that window, so waits never collapse to zero and clients
 * that failed together spread out.
 *
 * @param retry zero-based retry number.
 * @param random a source in [0, 1).
 * @returns the wait in ms (an integer).
 */
export function backoffMs(retry: number, random: () => number, options: BackoffOptions = {}): number {
  const { baseMs, factor, capMs } = { ...DEFAULT_BACKOFF, ...options };
  const window = Math.min(capMs, baseMs * Math.pow(factor, Math.max(0, retry)));
  const r = Math.min(Math.max(random(), 0), 1);
  return Math.round(window / 2 + (window / 2) * r);
}

/**
 * Parse an HTTP `Retry-After` header (RFC 9110 §10.2.3): delay-seconds (`120`, also a decimal) or an HTTP
 * date (`Wed, 21 Oct 2015 07:28:00 GMT`), relative to `nowMs`.
 *
 * @param capMs the longest wait accepted; a longer one is cut to this (default `MAX_RETRY_AFTER_MS`).
 * @returns the wait in ms (0 for a date in the past), at most `capMs`; `undefined` when the header is
 * absent or unreadable.
 */
export function parseRetryAfter(
  value: string | string[] | undefined,
  nowMs: number,
  capMs: number = MAX_RETRY_AFTER_MS,
): number | undefined {
  const raw = Array.isArray(value) ? value[0] : value;
  if (raw === undefined) return undefined;
  const text = raw.trim();
  if (text === '') return undefined;
  let ms: number;
  if (/^\d+(?:\.\d+)?$/.test(text)) {
    ms = Math.round(Number(text) * 1000);
  } else {
    const at = Date.parse(text);
    if (Number.isNaN(at)) return undefined;
    ms = Math.max(0, at - nowMs);
  }
  return Math.min(ms, capMs);
}
