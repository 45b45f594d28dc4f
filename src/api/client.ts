/**
 * The Ghost Inspector API v1 client: one method per endpoint of the service contract and the suite-result
 * endpoints (docs/api-contract.md: Endpoints the action calls), assembled from the endpoint modules under
 * `endpoints/` over one `Transport` (`transport.ts`: HTTP, envelopes, retries, budget hooks, redaction).
 */
import type { ClientOptions, GhostInspectorApi } from './api.js';
import { dataSourceEndpoints } from './endpoints/data-sources.js';
import { folderEndpoints } from './endpoints/folders.js';
import { importExportEndpoints } from './endpoints/imports-exports.js';
import { onDemandEndpoints } from './endpoints/on-demand.js';
import { organizationEndpoints } from './endpoints/organizations.js';
import { resultEndpoints } from './endpoints/results.js';
import { suiteResultEndpoints } from './endpoints/suite-results.js';
import { suiteEndpoints } from './endpoints/suites.js';
import { testEndpoints } from './endpoints/tests.js';
import { Transport } from './transport.js';

export {
  DEFAULT_REQUEST_TIMEOUT_MS,
  SYNC_SUITE_EXECUTE_TIMEOUT_MS,
  SYNC_TEST_EXECUTE_TIMEOUT_MS,
} from './limits.js';

/**
 * Create a client for the Ghost Inspector API v1.
 *
 * Requests: the API key goes in the query string as `apiKey` on every endpoint but the status badges
 * (docs/api-contract.md: Authentication), and also in the body of execute requests and the multipart
 * import. Paths keep the contract's trailing slashes. `Accept-Encoding: gzip` is sent and gzip answers are
 * decompressed.
 *
 * Answers: a `SUCCESS` envelope resolves with its `data`; an `ERROR` envelope (even under HTTP 200), a
 * non-2xx status, an unreadable body or a transport failure rejects with an `ApiError` whose message,
 * endpoint and excerpt are redacted (docs/api-contract.md: Errors). Raw control characters inside JSON
 * strings are tolerated.
 *
 * Retries (see `retry-rules.ts`): reads and cancels on network errors, timeouts, 429 (honouring `Retry-After`),
 * 5xx and `SERVER_ERROR`, up to `maxRetries` (default 4) with jittered exponential backoff (500 ms doubling,
 * capped at 10 s). Execute and other writes are retried only when the request certainly never reached the
 * service (connection refused, DNS failure) or on 429; an execute that may have reached it is never sent
 * again and rejects with `TRIGGER_UNCERTAIN`. A 429 is retried for as long as the call's `AbortSignal`
 * allows (not counted against `maxRetries`; without a signal it counts). An `AbortSignal` in
 * `RequestOptions` stops at once (`ABORTED`, with `inFlight` when a request was on its way).
 *
 * @param options API key, base URL (default `https://api.ghostinspector.com/v1`), secrets to redact,
 *   `maxRetries`, `requestTimeoutMs` (default 30000 ms), injectable `sleep`, `now`, `random`, `log`, `onRequest`,
 *   `onRateLimited` (each 429, with its `Retry-After` in ms).
 * @returns an implementation of `GhostInspectorApi`.
 */
export function createClient(options: ClientOptions): GhostInspectorApi {
  const t = new Transport(options);
  return {
    ...suiteEndpoints(t),
    ...importExportEndpoints(t),
    ...testEndpoints(t),
    ...onDemandEndpoints(t),
    ...resultEndpoints(t),
    ...suiteResultEndpoints(t),
    ...organizationEndpoints(t),
    ...dataSourceEndpoints(t),
    ...folderEndpoints(t),
  };
}
