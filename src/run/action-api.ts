/** The Ghost Inspector client calls (`src/api/api.ts`) the engine makes; tests hand in any such object. */
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
