/** Suite endpoints (the service's API v1 reference, "Suites"). */
import type { GhostInspectorApi } from '../api.js';
import type { Transport } from '../transport.js';
import { execute } from './execute.js';
import { pagingQuery, seg } from './paths.js';

/** The suite methods of the client. */
export type SuiteEndpoints = Pick<
  GhostInspectorApi,
  | 'listSuites'
  | 'getSuite'
  | 'createSuite'
  | 'updateSuite'
  | 'deleteSuite'
  | 'duplicateSuite'
  | 'listSuiteTests'
  | 'listSuiteResults'
  | 'listSuiteResultsCsv'
  | 'executeSuite'
  | 'getSuiteStatusBadge'
>;

/**
 * Suites: list, read, create, update, delete, duplicate; its tests; its results (JSON or CSV, newest first);
 * execute (docs/api-contract.md: Execute parameters); the status badge (no API key sent).
 */
export function suiteEndpoints(t: Transport): SuiteEndpoints {
  return {
    listSuites: (opts) => t.get('/suites/', opts),
    getSuite: (suiteId, opts) => t.get(`/suites/${seg(suiteId)}/`, opts),
    createSuite: (body, opts) => t.postJson('/suites/', body, opts),
    updateSuite: (suiteId, body, opts) => t.postJson(`/suites/${seg(suiteId)}/`, body, opts),
    deleteSuite: (suiteId, opts) => t.del(`/suites/${seg(suiteId)}/`, opts),
    duplicateSuite: (suiteId, opts) => t.postJson(`/suites/${seg(suiteId)}/duplicate/`, {}, opts),
    listSuiteTests: (suiteId, opts) => t.get(`/suites/${seg(suiteId)}/tests/`, opts),
    listSuiteResults: (suiteId, paging, opts) =>
      t.get(`/suites/${seg(suiteId)}/results/`, opts, pagingQuery(paging), 'envelope', 'list'),
    listSuiteResultsCsv: (suiteId, paging, opts) =>
      t.get(`/suites/${seg(suiteId)}/results/csv/`, opts, pagingQuery(paging), 'text'),
    executeSuite: (suiteId, execOptions, opts) =>
      execute(t, `/suites/${seg(suiteId)}/execute/`, 'suite', execOptions, opts),
    getSuiteStatusBadge: (suiteId, screenshot, opts) =>
      t.badge(`/suites/${seg(suiteId)}/status-badge`, screenshot, opts),
  };
}
