/** `ApiError`, the one error the API client throws: a code for the stage that failed; all redacted. */

/**
 * Codes an `ApiError` carries: the service's own error types (docs/api-contract.md, "Errors"), `HTTP_ERROR`
 * (non-2xx without an envelope), `INVALID_RESPONSE` (2xx, no envelope), `UNEXPECTED_SHAPE` (wrong `data`),
 * `TRIGGER_UNCERTAIN` (an execute that may have reached the service), `INVALID_REQUEST` (nothing sent).
 */
export type ApiErrorType =
  | 'AUTHENTICATION_ERROR'
  | 'VALIDATION_ERROR'
  | 'TIMEOUT_ERROR'
  | 'SERVER_ERROR'
  | 'HTTP_ERROR'
  | 'INVALID_RESPONSE'
  | 'UNEXPECTED_SHAPE'
  | 'NETWORK_ERROR'
  | 'REQUEST_TIMEOUT'
  | 'ABORTED'
  | 'TRIGGER_UNCERTAIN'
  | 'INVALID_REQUEST'
  | (string & {});

/** An error of the API client; `message` names endpoint, cause and what to do, the fields (all redacted) the same facts. */
export class ApiError extends Error {
  declare readonly errorType: ApiErrorType;
  /** HTTP status of the last answer; absent when no answer came (network error, timeout, abort). */
  declare readonly status?: number;
  /** Method, path and redacted query, e.g. `GET /v1/suites/abc/?apiKey=***`. */
  declare readonly endpoint: string;
  /** The service's own message from an `ERROR` envelope, when there was one. */
  declare readonly serviceMessage?: string;
  /** A short redacted excerpt (at most 200 characters) of a body that could not be read as expected. */
  declare readonly excerpt?: string;
  /** System error code of a network failure (`ECONNREFUSED`, `ECONNRESET`, `ENOTFOUND`...). */
  declare readonly networkCode?: string;
  /** Number of HTTP attempts made (1 when not retried). */
  declare readonly attempts: number;
  /** For `TRIGGER_UNCERTAIN`: what went wrong (`HTTP_ERROR`, `SERVER_ERROR`, `NETWORK_ERROR`...). */
  declare readonly causeType?: ApiErrorType;
  /** For `ABORTED`: true when a request was on its way (it may have reached the service). */
  declare readonly inFlight?: boolean;

  /** `message` is the full, user-facing sentence. */
  constructor({ message, ...fields }: { message: string } & Omit<ApiError, keyof Error>) {
    super(message);
    Object.assign(this, fields);
  }
}

// On the prototype (not a field) so that the stack, captured in the Error constructor, reads `ApiError: ...`.
Object.defineProperty(ApiError.prototype, 'name', { value: 'ApiError', writable: true, configurable: true });

/** Messages with which the service and the emulator say an identifier is unknown. */
const NOT_FOUND_MESSAGE =
  /not\s+found|does\s*n[o']t\s+exist|no\s+such|could\s*n[o']t\s+(?:be\s+)?(?:find|found|locate)|unknown\s+(?:\w+\s+)?(?:id|identifier)|invalid\s+(?:\w+\s+)?(?:id|identifier)\b/i;

/**
 * Whether `err` means "no such record": HTTP 404, `NOT_FOUND`, or a `VALIDATION_ERROR` saying the id is
 * unknown (docs/api-contract.md, "Polling a run"). Non-`ApiError` values give false.
 */
export function isNotFound(err: unknown): boolean {
  if (!(err instanceof ApiError)) return false;
  if (err.status === 404) return true;
  if (err.errorType === 'NOT_FOUND') return true;
  if (err.errorType === 'VALIDATION_ERROR') {
    return NOT_FOUND_MESSAGE.test(err.serviceMessage ?? err.message);
  }
  return false;
}

/** Answers of the wrong shape in a row after which a wait on one result gives up. */
export const UNEXPECTED_SHAPE_LIMIT = 3;

/** Whether an error is an answer of the wrong shape (`UNEXPECTED_SHAPE`, see `UNEXPECTED_SHAPE_LIMIT`). */
export function isUnexpectedShape(err: unknown): err is ApiError {
  return isApiErrorType(err, 'UNEXPECTED_SHAPE');
}

/** Whether an error is an `ApiError` with the given code. */
export function isApiErrorType(err: unknown, errorType: ApiErrorType): err is ApiError {
  return err instanceof ApiError && err.errorType === errorType;
}

/** `text` ending in one full stop: adds `.` unless it already ends with `.`, `!` or `?`. */
export function endSentence(text: string): string {
  return /[.!?]\s*$/.test(text) ? text.replace(/\s+$/, '') : `${text}.`;
}
