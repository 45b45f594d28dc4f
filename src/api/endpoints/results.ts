/** Test result endpoints (docs/api-contract.md: Endpoints the action calls). */
import type { GhostInspectorApi } from '../api.js';
import type { Transport } from '../transport.js';
import { seg } from './paths.js';

export type ResultEndpoints = Pick<GhostInspectorApi, 'getTestResult' | 'cancelTestResult'>;

/** Test results: read one; cancel it (a `cancel`: cancelling an ended run answers the result). */
export function resultEndpoints(t: Transport): ResultEndpoints {
  return {
    getTestResult: (resultId, opts) => t.get(`/results/${seg(resultId)}/`, opts, [], 'envelope', 'record'),
    cancelTestResult: (resultId, opts) =>
      t.postJson(`/results/${seg(resultId)}/cancel/`, {}, opts, 'cancel', 'record'),
  };
}
