/** The one back-off rule (jittered exponential) and `Retry-After` reader. All times in ms. */

/** Backoff shape; all in ms. */
export interface BackoffOptions {
  /** First wait before jitter (default 500 ms). */
  baseMs?: number;
  factor?: number;
  /** Largest wait before jitter (default 10000 ms). */
  capMs?: number;
}

const DEFAULT_BACKOFF: Required<BackoffOptions> = { baseMs: 500, factor: 2, capMs: 10_000 };
/** The longest `Retry-After` the API client waits for; a longer one is cut to this (ms). */
export const MAX_RETRY_AFTER_MS = 120_000;

/** Wait (ms) before zero-based retry `retry`: a random point in the upper half of `min(cap, base * factor^retry)`. */
export function backoffMs(retry: number, random: () => number, options: BackoffOptions = {}): number {
  const { baseMs, factor, capMs } = { ...DEFAULT_BACKOFF, ...options };
  const window = Math.min(capMs, baseMs * Math.pow(factor, Math.max(0, retry)));
  const r = Math.min(Math.max(random(), 0), 1);
  return Math.round(window / 2 + (window / 2) * r);
}

/** A `Retry-After` header (seconds or an HTTP date) as a wait in ms, at most `capMs`; undefined if unreadable. */
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
