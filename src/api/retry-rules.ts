/** Retry rules of the API client: a request that triggers runs is never blindly repeated. */
import { backoffMs } from './backoff.js';

/**
 * What a request does: `read` and `cancel` are retried on network errors, timeouts, 429 and 5xx; `trigger`
 * and `write` only when the request certainly never reached the service, or on 429.
 */
export type RequestKind = 'read' | 'cancel' | 'trigger' | 'write';

export const DEFAULT_MAX_RETRIES = 4;

/** Network error codes that prove the request never reached the service (refused, DNS failure). */
const NEVER_REACHED_CODES: ReadonlySet<string> = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EAI_NONAME',
  'EAI_FAIL',
  'ENETUNREACH',
  'EHOSTUNREACH',
]);

export type AttemptFailure =
  | { kind: 'network'; code?: string }
  | { kind: 'timeout' }
  | { kind: 'status'; status: number; retryAfterMs?: number }
  | { kind: 'envelope'; errorType: string };

export type RetryDecision = { retry: true; delayMs: number } | { retry: false; uncertainTrigger: boolean };

/**
 * Decide whether a failed attempt is retried (`retry`: retries already made) and after how long (ms).
 * @returns `{retry: true, delayMs}`, or `{retry: false, uncertainTrigger}`
 */
export function decideRetry(
  kind: RequestKind,
  failure: AttemptFailure,
  retry: number,
  maxRetries: number,
  random: () => number,
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
      : backoffMs(retry, random);
  return { retry: true, delayMs };
}
