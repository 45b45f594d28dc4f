/**
 * The API v1 client: the calls the action makes (docs/api-contract.md, "Endpoints the action calls") over one
 * `Transport` (docs/architecture.md). Paths keep the trailing slash the contract shows.
 */
import type { ClientOptions, GhostInspectorApi, RequestOptions } from './api.js';
import { readEnvelopeList } from './answer.js';
import { execute, executeOnDemand } from './execute.js';
import { Transport } from './transport.js';
import { refId } from './refs.js';
import type { Paging, RunningEntry } from './types.js';

/** An identifier as one path segment (percent-encoded, so `/` or `?` in an id cannot change the path). */
export const seg = (id: string): string => encodeURIComponent(id);

/** The `count` and `offset` query parameters that are set (docs/api-contract.md, "Polling a run"). */
export function pagingQuery(paging?: Paging): Array<[string, string]> {
  const q: Array<[string, string]> = [];
  if (paging?.count !== undefined) q.push(['count', String(paging.count)]);
  if (paging?.offset !== undefined) q.push(['offset', String(paging.offset)]);
  return q;
}

/**
 * What the watch loop keeps of a running list's record (`RunningEntry`); an item that is not an object is
 * kept as is but for a list (left empty), so the list's shape check still names what came.
 */
function keepRunningEntry(item: unknown): unknown {
  if (Array.isArray(item)) return [];
  if (!item || typeof item !== 'object') return item;
  const r = item as { _id?: unknown; suiteResult?: unknown };
  const entry: RunningEntry = {
    _id: r._id as string,
    suiteResult: refId(r.suiteResult as Parameters<typeof refId>[0]),
  };
  return entry;
}

/** A list's record kept whole. */
const keepRecord = (item: unknown): unknown => item;

/** Create a client for the Ghost Inspector API v1 (see `ClientOptions`; errors: a redacted `ApiError`). */
export function createClient(options: ClientOptions): GhostInspectorApi {
  return clientOn(new Transport(options));
}

/**
 * The action's calls over the transport `t` (tests add the rest of the API's surface on the same one). Lists
 * come newest first, a suite result's test results in creation order; cancelling an ended run answers it.
 */
export function clientOn(t: Transport): GhostInspectorApi {
  // Every list is read record by record as it arrives, each record kept by `keep` (whole by default): a page
  // of test results is never held whole as bytes or text (docs/performance.md, "Memory").
  const list = <T>(path: string, opts?: RequestOptions, paging?: Paging, keep = keepRecord) =>
    t.request<T>({
      method: 'GET',
      path,
      query: pagingQuery(paging),
      kind: 'read',
      opts,
      shape: 'list',
      stream: readEnvelopeList(keep),
    });
  const record = <T>(path: string, opts?: RequestOptions) => t.get<T>(path, opts, [], 'record');
  const cancel = <T>(path: string, opts?: RequestOptions) =>
    t.postJson<T>(path, {}, opts, 'cancel', 'record');
  return {
    getSuite: (suiteId, opts) => t.get(`/suites/${seg(suiteId)}/`, opts),
    listSuiteResults: (suiteId, paging, opts) => list(`/suites/${seg(suiteId)}/results/`, opts, paging),
    executeSuite: (suiteId, options, opts) =>
      execute(t, `/suites/${seg(suiteId)}/execute/`, 'suite', options, opts),
    executeTest: (testId, options, opts) =>
      execute(t, `/tests/${seg(testId)}/execute/`, 'test', options, opts),
    executeOnDemand: (organizationId, test, options, opts) =>
      executeOnDemand(t, `/organizations/${seg(organizationId)}/on-demand/execute`, test, options, opts),
    getTest: (testId, opts) => record(`/tests/${seg(testId)}/`, opts),
    listTestRunning: (testId, opts) => list(`/tests/${seg(testId)}/running/`, opts),
    listTestResults: (testId, paging, opts) => list(`/tests/${seg(testId)}/results/`, opts, paging),
    getTestResult: (resultId, opts) => record(`/results/${seg(resultId)}/`, opts),
    cancelTestResult: (resultId, opts) => cancel(`/results/${seg(resultId)}/cancel/`, opts),
    getSuiteResult: (suiteResultId, opts) => record(`/suite-results/${seg(suiteResultId)}/`, opts),
    listSuiteResultTestResults: (suiteResultId, paging, opts) =>
      list(`/suite-results/${seg(suiteResultId)}/results/`, opts, paging),
    cancelSuiteResult: (suiteResultId, opts) => cancel(`/suite-results/${seg(suiteResultId)}/cancel/`, opts),
    listOrganizationRunning: (organizationId, opts) =>
      list(`/organizations/${seg(organizationId)}/running/`, opts),
    listOrganizationRunningEntries: (organizationId, opts) =>
      list(`/organizations/${seg(organizationId)}/running/`, opts, undefined, keepRunningEntry),
    listFolderSuites: (folderId, opts) => t.get(`/folders/${seg(folderId)}/suites/`, opts),
  };
}
