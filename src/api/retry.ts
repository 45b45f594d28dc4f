/**
 * Retry rules of the API client: which failures are retried for which kind of request, how long to wait
 * (jittered exponential backoff, `Retry-After` honoured), and a sleep that an `AbortSignal` cuts short.
 *
 * Design principle 3: retries are explicit, and a request that triggers runs is never blindly repeated.
 */

/**
 * What a request does, which decides how it may be retried.
 * - `read`: GET requests. Retried on network errors, timeouts, 429, 5xx and `SERVER_ERROR` envelopes.
 * - `cancel`: cancelling a test result or suite result (idempotent). Retried like a read.
 * - `trigger`: execute (suite, test, on-demand); starts runs that cost the user minutes and money.
 *   Retried only when the request certainly never reached the service (connection refused, DNS failure)
 *   or on HTTP 429: a rate limiter rejects the request before any run is started, so repeating it cannot
 *   start a run twice. Any other failure after the request may have been received (reset, timeout, 5xx,
 *   `SERVER_ERROR`, an unreadable 2xx answer) is not retried and becomes `TRIGGER_UNCERTAIN`. A definite
 *   rejection (4xx other than 429, `VALIDATION_ERROR`, `AUTHENTICATION_ERROR`) is thrown as it is.
 * - `write`: create, update, delete, duplicate, import, comment, accept screenshot. Retried only when the
 *   request certainly never reached the service, or on HTTP 429 (same reasoning as `trigger`).
 */
export type RequestKind = 'read' | 'cancel' | 'trigger' | 'write';

/** Backoff shape; all in ms. */
export interface BackoffOptions {
  /** First wait before jitter (default 500 ms). */
  baseMs?: number;
  /** Growth per retry (default 2). */
  factor?: number;
  /** Largest wait before jitter (default 10000 ms). */
  capMs?: number;
}

export const DEFAULT_MAX_RETRIES = 4;
export const DEFAULT_BACKOFF: Required<BackoffOptions> = { baseMs: 500, factor: 2, capMs: 10_000 };
/** The longest `Retry-After` the client waits for; a longer one is cut to this (ms). */
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
 * Parse an HTTP `Retry-After` header: delay-seconds (`120`, also a decimal) or an HTTP date
 * (`Wed, 21 Oct 2015 07:28:00 GMT`), relative to `nowMs`.
 *
 * @returns the wait in ms (0 for a date in the past), capped at `MAX_RETRY_AFTER_MS`; `undefined` when the
 * header is absent or unreadable.
 */
export function parseRetryAfter(value: string | string[] | undefined, nowMs: number): number | undefined {
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
  return Math.min(ms, MAX_RETRY_AFTER_MS);
}

/**
 * Network error codes that prove the request never reached the service: the connection was refused or
 * the host name did not resolve, so no byte of the request was received. Only these let a run-triggering
 * request be repeated.
 */
export const NEVER_REACHED_CODES: ReadonlySet<string> = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EAI_NONAME',
  'EAI_FAIL',
  'ENETUNREACH',
  'EHOSTUNREACH',
]);

/** How one attempt failed, as the retry decision sees it. */
export type AttemptFailure =
  | { kind: 'network'; code?: string }
  | { kind: 'timeout' }
  | { kind: 'status'; status: number; retryAfterMs?: number }
  | { kind: 'envelope'; errorType: string };

/** The retry decision for one failed attempt. */
export type RetryDecision = { retry: true; delayMs: number } | { retry: false; uncertainTrigger: boolean };

/**
 * Decide whether a failed attempt is retried and after how long.
 *
 * @param kind what the request does (see `RequestKind`).
 * @param failure how the attempt failed.
 * @param retry zero-based number of the retry this would be (retries already made).
 * @param maxRetries retries allowed in total.
 * @returns `{retry: true, delayMs}`, or `{retry: false, uncertainTrigger}` where `uncertainTrigger` says a
 * run-triggering request failed after it may have reached the service.
 */
export function decideRetry(
  kind: RequestKind,
  failure: AttemptFailure,
  retry: number,
  maxRetries: number,
  random: () => number,
  backoff: BackoffOptions = {},
): RetryDecision {
  const neverReached =
    failure.kind === 'network' && failure.code !== undefined && NEVER_REACHED_CODES.has(failure.code);
  const rateLimited = failure.kind === 'status' && failure.status === 429;
  let retryable: boolean;
  if (kind === 'read' || kind === 'cancel') {
    retryable =
      failure.kind === 'network' ||
      failure.kind === 'timeout' ||
      (failure.kind === 'status' && (failure.status === 429 || failure.status >= 500)) ||
      (failure.kind === 'envelope' && failure.errorType === 'SERVER_ERROR');
  } else {
    retryable = neverReached || rateLimited;
  }
  // A 2xx status here means an answer that could not be read: the service accepted the request.
  const mayHaveStarted =
    failure.kind === 'network' ||
    failure.kind === 'timeout' ||
    (failure.kind === 'status' &&
      (failure.status >= 500 || (failure.status >= 200 && failure.status < 300))) ||
    (failure.kind === 'envelope' && failure.errorType === 'SERVER_ERROR');
  if (!retryable || retry >= maxRetries) {
    return { retry: false, uncertainTrigger: kind === 'trigger' && !neverReached && mayHaveStarted };
  }
  const delayMs =
    failure.kind === 'status' && failure.retryAfterMs !== undefined
      ? failure.retryAfterMs
      : backoffMs(retry, random, backoff);
  return { retry: true, delayMs };
}

/** The error a sleep rejects with when its signal fires. */
export class AbortedError extends Error {
  override readonly name = 'AbortError';
}

/**
 * Wait `ms` milliseconds; rejects with `AbortedError` at once when `signal` fires (before or during).
 */
export function defaultSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(new AbortedError('aborted'));
      return;
    }
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(new AbortedError('aborted'));
    };
    const timer = setTimeout(
      () => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      },
      Math.max(0, ms),
    );
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
