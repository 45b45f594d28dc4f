/** Test endpoints (the API v1 reference, "Tests"); imports, exports and on-demand runs live apart. */
import type { GhostInspectorApi } from '../api.js';
import type { Transport } from '../transport.js';
import { execute } from './execute.js';
import { pagingQuery, seg } from './paths.js';

/** The test methods of the client. */
export type TestEndpoints = Pick<
  GhostInspectorApi,
  | 'listTests'
  | 'getTest'
  | 'updateTest'
  | 'duplicateTest'
  | 'deleteTest'
  | 'executeTest'
  | 'listTestRunning'
  | 'acceptScreenshot'
  | 'listTestResults'
  | 'listTestResultsCsv'
  | 'getTestStatusBadge'
>;

/**
 * Tests: list, read, update, duplicate, delete; execute; running results; accept the latest screenshot as
 * baseline; results (JSON or CSV, newest first); the status badge.
 */
export function testEndpoints(t: Transport): TestEndpoints {
  return {
    listTests: (opts) => t.get('/tests/', opts),
    getTest: (testId, opts) => t.get(`/tests/${seg(testId)}/`, opts),
    updateTest: (testId, body, opts) => t.postJson(`/tests/${seg(testId)}/`, body, opts),
    duplicateTest: (testId, opts) => t.postJson(`/tests/${seg(testId)}/duplicate/`, {}, opts),
    deleteTest: (testId, opts) => t.del(`/tests/${seg(testId)}/`, opts),
    executeTest: (testId, execOptions, opts) =>
      execute(t, `/tests/${seg(testId)}/execute/`, 'test', execOptions, opts),
    listTestRunning: (testId, opts) => t.get(`/tests/${seg(testId)}/running/`, opts, [], 'envelope', 'list'),
    acceptScreenshot: (testId, opts) => t.postJson(`/tests/${seg(testId)}/accept-screenshot/`, {}, opts),
    listTestResults: (testId, paging, opts) =>
      t.get(`/tests/${seg(testId)}/results/`, opts, pagingQuery(paging), 'envelope', 'list'),
    listTestResultsCsv: (testId, paging, opts) =>
      t.get(`/tests/${seg(testId)}/results/csv/`, opts, pagingQuery(paging), 'text'),
    getTestStatusBadge: (testId, screenshot, opts) =>
      t.badge(`/tests/${seg(testId)}/status-badge`, screenshot, opts),
  };
}
