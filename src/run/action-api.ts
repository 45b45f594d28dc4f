/**
 * The part of the Ghost Inspector client the run engine uses: the dozen calls of the flow (list a folder's
 * suites, read a suite (its organization), execute, poll, list results, cancel, look up interrupted triggers), not the whole client
 * (`GhostInspectorApi`, `src/api/api.ts`). Tests may hand in any object with these methods; the action
 * hands in the client made by `createClient`. Every call takes `{ signal }`; each is preceded by one token
 * of the shared request budget (`metered`), except the cancels of a workflow cancel, which never wait.
 */
import type { GhostInspectorApi } from '../api/api.js';
import type { RateBudget } from './budget.js';

/** The client calls the engine makes (see docs/api-contract.md: Endpoints the action calls). */
export type ActionApi = Pick<
  GhostInspectorApi,
  | 'listFolderSuites'
  | 'getSuite'
  | 'executeSuite'
  | 'executeTest'
  | 'executeOnDemand'
  | 'getSuiteResult'
  | 'getTestResult'
  | 'listSuiteResults'
  | 'listTestResults'
  | 'listSuiteResultTestResults'
  | 'listTestRunning'
  | 'listOrganizationRunning'
  | 'cancelSuiteResult'
  | 'cancelTestResult'
>;

/**
 * Runs `call` once the budget grants a request. Throws `BudgetAbortedError` when `signal` fires while
 * waiting for the budget, and whatever `call` throws.
 */
export async function metered<T>(
  budget: RateBudget,
  signal: AbortSignal,
  call: (signal: AbortSignal) => Promise<T>,
): Promise<T> {
  await budget.acquire(signal);
  return call(signal);
}
