/** The error types of the service's envelopes (docs/api-contract.md: Conventions, Errors). */

/** Error types the service sends in an `ERROR` envelope (docs/api-contract.md, "Resources"). */
export type ErrorType = 'AUTHENTICATION_ERROR' | 'VALIDATION_ERROR' | 'TIMEOUT_ERROR' | 'SERVER_ERROR';
