/** Suite endpoints (the service's API v1 reference, "Suites"). */
import type { GhostInspectorApi } from '../api.js';
import type { Transport } from '../transport.js';
import { execute } from './execute.js';
import { pagingQuery, seg } from './paths.js';

export type SuiteEndpoints = Pick<GhostInspectorApi, 'getSuite' | 'listSuiteResults' | 'executeSuite'>;

/** Suites: read one; its results (newest first); execute (docs/api-contract.md: Execute parameters). */
export function suiteEndpoints(t: Transport): SuiteEndpoints {
  return {
    getSuite: (suiteId, opts) => t.get(`/suites/${seg(suiteId)}/`, opts),
    listSuiteResults: (suiteId, paging, opts) =>
      t.get(`/suites/${seg(suiteId)}/results/`, opts, pagingQuery(paging), 'envelope', 'list'),
    executeSuite: (suiteId, execOptions, opts) =>
      execute(t, `/suites/${seg(suiteId)}/execute/`, 'suite', execOptions, opts),
  };
}
