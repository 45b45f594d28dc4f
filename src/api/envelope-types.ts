/** The envelopes every JSON answer of the service comes in (docs/api-contract.md: Conventions, Errors). */

/** The success envelope every JSON response carries (docs/api-contract.md, "Conventions" 2). */
export interface SuccessEnvelope<T> {
  code: 'SUCCESS';
  data: T;
}

/** Error types the service sends in an `ERROR` envelope (docs/api-contract.md, "Resources"). */
export type ErrorType = 'AUTHENTICATION_ERROR' | 'VALIDATION_ERROR' | 'TIMEOUT_ERROR' | 'SERVER_ERROR';

/** The error envelope, sent with HTTP 200 as often as with an error status. */
export interface ErrorEnvelope {
  code: 'ERROR';
  /** One of `ErrorType`, or another type the service may add (`string & {}` keeps the known ones listed). */
  errorType: ErrorType | (string & {});
  message: string;
}

export type Envelope<T> = SuccessEnvelope<T> | ErrorEnvelope;
