/** Suite result endpoints, missing from the public reference (docs/api-contract.md: Endpoints). */
import type { GhostInspectorApi } from '../api.js';
import type { Transport } from '../transport.js';
import { pagingQuery, seg } from './paths.js';

export type SuiteResultEndpoints = Pick<
  GhostInspectorApi,
  'getSuiteResult' | 'listSuiteResultTestResults' | 'cancelSuiteResult'
>;

/** Suite results: read one; its test results in creation order, in pages of at most `PAGE_SIZE`; cancel it. */
export function suiteResultEndpoints(t: Transport): SuiteResultEndpoints {
  return {
    getSuiteResult: (suiteResultId, opts) =>
      t.get(`/suite-results/${seg(suiteResultId)}/`, opts, [], 'envelope', 'record'),
    listSuiteResultTestResults: (suiteResultId, paging, opts) =>
      t.get(`/suite-results/${seg(suiteResultId)}/results/`, opts, pagingQuery(paging), 'envelope', 'list'),
    cancelSuiteResult: (suiteResultId, opts) =>
      t.postJson(`/suite-results/${seg(suiteResultId)}/cancel/`, {}, opts, 'cancel', 'record'),
  };
}
