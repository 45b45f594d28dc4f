/** The service's limits and the client's timing constants (docs/api-contract.md, "Limits"). All in ms. */

/** Largest `count` a result list accepts, and the page size lists are read in (Polling a run). */
export const PAGE_SIZE = 50;

/** Most records read of any list (docs/architecture.md, "Paging"): a suite result that counts more is not believed. */
export const MAX_LIST_RECORDS = 10_000;

/** How long after a trigger a "not found" for the new result means "not there yet" (Polling a run). */
export const NOT_FOUND_GRACE_MS = 30_000;

/** The service's sustained request rate per account, in requests per second (docs/api-contract.md, "Rate limit"). */
export const RATE_LIMIT_PER_SECOND = 10;

/** The service's request burst per account (docs/api-contract.md, "Rate limit"). */
export const RATE_LIMIT_BURST = 300;

/** Default per-request timeout of the client. */
export const DEFAULT_REQUEST_TIMEOUT_MS = 30_000;

/**
 * Timeouts of an execute that waits for completion (`immediate` not set): the service's limit, plus a
 * minute of margin for a suite (docs/api-contract.md, "Limits").
 */
export const SYNC_TEST_EXECUTE_TIMEOUT_MS = 11 * 60_000;
export const SYNC_SUITE_EXECUTE_TIMEOUT_MS = 21 * 60_000;
