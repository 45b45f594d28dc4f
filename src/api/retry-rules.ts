/**
 * Retry rules of the API client: which failures are retried for which kind of request, how long to wait
 * (jittered exponential backoff, `Retry-After` honoured), and a sleep that an `AbortSignal` cuts short.
 *
 * Design principle 3: retries are explicit, and a request that triggers runs is never blindly repeated.
 */
import { backoffMs, type BackoffOptions } from './backoff.js';

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

export const DEFAULT_MAX_RETRIES = 4;

// The back-off and Retry-After rules live in backoff.ts (shared with the screenshot downloads).
export {
  backoffMs,
  DEFAULT_BACKOFF,
  MAX_RETRY_AFTER_MS,
  parseRetryAfter,
  type BackoffOptions,
} from './backoff.js';

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
