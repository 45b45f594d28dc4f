/** Failed attempts: the facts for the retry decision and the redacted `ApiError` (docs/api-contract.md, "Errors"). */
import { ApiError, endSentence, type ApiErrorType } from './errors.js';
import { TOO_LARGE, type HttpResponse, type TransportError } from './http.js';
import { excerpt, parseJsonTolerant, readEnvelope } from './parse.js';
import { parseRetryAfter } from './backoff.js';
import type { AttemptFailure, RequestKind } from './retry-rules.js';

export type Redact = (text: string) => string;

/** A failed attempt: the facts for the retry decision and the error to throw if not retried. */
export interface Failure {
  failure: AttemptFailure;
  errorType: ApiErrorType;
  /** One redacted clause saying what went wrong, e.g. `HTTP 502: Bad gateway`. */
  detail: string;
  status?: number;
  serviceMessage?: string;
  excerpt?: string;
  networkCode?: string;
  /** The answer was refused at the size cap (`MAX_ANSWER_BYTES`): worth a warning even when retried. */
  tooLarge?: boolean;
}

/**
 * The failure of a non-2xx answer (its `ERROR` envelope, else the status and an excerpt); a 429's
 * `Retry-After` (ms) goes to `onRateLimited`.
 */
export function failureFromResponse(
  res: HttpResponse,
  nowMs: number,
  redact: Redact,
  onRateLimited?: (retryAfterMs: number | undefined) => void,
): Failure {
  const text = res.body.toString('utf8');
  let env: ReturnType<typeof readEnvelope> | undefined;
  try {
    env = readEnvelope(parseJsonTolerant(text));
  } catch {
    env = undefined;
  }
  const retryAfterMs = res.status === 429 ? parseRetryAfter(res.headers['retry-after'], nowMs) : undefined;
  if (res.status === 429) onRateLimited?.(retryAfterMs);
  if (env?.kind === 'error') {
    return {
      failure: { kind: 'status', status: res.status, retryAfterMs },
      errorType: env.errorType,
      status: res.status,
      serviceMessage: redact(env.message),
      detail: `${env.errorType} (HTTP ${res.status}): ${excerpt(env.message, redact, 500)}`,
    };
  }
  const ex = excerpt(text, redact);
  return {
    failure: { kind: 'status', status: res.status, retryAfterMs },
    errorType: 'HTTP_ERROR',
    status: res.status,
    excerpt: ex,
    detail: `HTTP ${res.status}${ex ? `: ${ex}` : ' with an empty body'}`,
  };
}

/** The failure of an `ERROR` envelope inside an answer of HTTP `status` (often 200). */
export function envelopeFailure(status: number, errorType: string, message: string, redact: Redact): Failure {
  return {
    failure: { kind: 'envelope', errorType },
    errorType,
    status,
    serviceMessage: redact(message),
    detail: `${errorType}: ${excerpt(message, redact, 500)}`,
  };
}

/** The failure of a 2xx answer whose body is not what was expected; `why` says what it is not. */
export function invalidBody(status: number, text: string, why: string, redact: Redact): Failure {
  const ex = excerpt(text, redact);
  return {
    failure: { kind: 'status', status },
    errorType: 'INVALID_RESPONSE',
    status,
    excerpt: ex,
    detail: `${why} (HTTP ${status})${ex ? `: ${ex}` : ''}`,
  };
}

/** The failure of an exchange without a complete answer (aborts are handled by the caller). */
export function failureFromTransport(err: TransportError, timeoutMs: number, redact: Redact): Failure {
  if (err.kind === 'timeout') {
    return {
      failure: { kind: 'timeout' },
      errorType: 'REQUEST_TIMEOUT',
      detail: `no complete answer within ${timeoutMs} ms`,
    };
  }
  if (err.kind === 'decode') {
    return {
      failure: { kind: 'network', code: 'EDECODE' },
      errorType: 'INVALID_RESPONSE',
      detail: redact(err.message),
      ...(err.code === TOO_LARGE ? { tooLarge: true } : {}),
    };
  }
  return {
    failure: { kind: 'network', code: err.code },
    errorType: 'NETWORK_ERROR',
    networkCode: err.code,
    detail: `could not reach the service${err.code ? ` (${err.code})` : ''}: ${redact(err.message)}`,
  };
}

/** The `ApiError` for a failure not retried (`TRIGGER_UNCERTAIN` with `uncertain`); `attempts`: HTTP attempts. */
export function failureError(
  kind: RequestKind,
  endpoint: string,
  f: Failure,
  attempts: number,
  uncertain: boolean,
  redact: Redact,
): ApiError {
  const tries = attempts > 1 ? ` (after ${attempts} attempts)` : '';
  const facts = {
    status: f.status,
    endpoint,
    serviceMessage: f.serviceMessage,
    excerpt: f.excerpt,
    networkCode: f.networkCode,
    attempts,
  };
  if (uncertain) {
    return new ApiError({
      errorType: 'TRIGGER_UNCERTAIN',
      causeType: f.errorType,
      ...facts,
      message: redact(
        `${endpoint}: the request that starts the run failed after it may have reached the service ` +
          `(${f.detail})${tries}. The run may have started, so it was not sent again (no run is ever ` +
          `triggered twice). Check the organization's running list (GET /v1/organizations/{organizationId}/running/ ` +
          `or the Ghost Inspector app) before re-running.`,
      ),
    });
  }
  const badKey = f.errorType === 'AUTHENTICATION_ERROR' || f.status === 401 || f.status === 403;
  let hint = badKey ? ' Check the API key (the account settings show it).' : '';
  if (kind === 'trigger' && f.errorType === 'TIMEOUT_ERROR') {
    hint =
      " The service gave up waiting, but the tests stay triggered: check the organization's running list " +
      '(GET /v1/organizations/{organizationId}/running/) before re-running.';
  }
  if (f.networkCode && kind !== 'read' && kind !== 'cancel') {
    hint += ' The request never reached the service.';
  }
  return new ApiError({
    errorType: f.errorType,
    ...facts,
    message: redact(`${endpoint}: ${endSentence(`${f.detail}${tries}`)}${hint}`),
  });
}
