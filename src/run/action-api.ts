/**
 * The part of the Ghost Inspector client the run engine uses: the dozen calls of the flow (list a folder's
 * suites, read a suite (its organization), execute, poll, list results, cancel, look up interrupted triggers), not the whole client
 * (`GhostInspectorApi`, `src/api/api.ts`). Tests may hand in any object with these methods; the action
 * hands in the client made by `createClient`. Every call takes `{ signal }`; the client's transport takes
 * a token of the request budget for each request (the cancels of a workflow cancel take it at once).
 */
import type { GhostInspectorApi } from '../api/api.js';

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
