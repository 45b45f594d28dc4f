/** Test endpoints (the API v1 reference, "Tests"); on-demand runs live apart. */
import type { GhostInspectorApi } from '../api.js';
import type { Transport } from '../transport.js';
import { execute } from './execute.js';
import { pagingQuery, seg } from './paths.js';

export type TestEndpoints = Pick<GhostInspectorApi, 'executeTest' | 'listTestRunning' | 'listTestResults'>;

/** Tests: execute; running results; results (newest first). */
export function testEndpoints(t: Transport): TestEndpoints {
  return {
    executeTest: (testId, execOptions, opts) =>
      execute(t, `/tests/${seg(testId)}/execute/`, 'test', execOptions, opts),
    listTestRunning: (testId, opts) => t.get(`/tests/${seg(testId)}/running/`, opts, [], 'envelope', 'list'),
    listTestResults: (testId, paging, opts) =>
      t.get(`/tests/${seg(testId)}/results/`, opts, pagingQuery(paging), 'envelope', 'list'),
  };
}
