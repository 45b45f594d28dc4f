/** What differs between a suite result and a test result: how it is read, when it is over, how it is cancelled. */
import type { GhostInspectorApi, RequestOptions } from '../api/api.js';
import type { SuiteResult, TestResult } from '../api/types.js';
import { classifyTestResult, isSuiteResultOver } from './outcome/outcome.js';

/** A remote result: a suite result or a test result. */
export type Answer = SuiteResult | TestResult;

interface ResultKind {
  read: (api: GhostInspectorApi, id: string, opts: RequestOptions) => Promise<Answer>;
  isOver: (result: Answer) => boolean;
  cancel: (api: GhostInspectorApi, id: string, opts: RequestOptions) => Promise<Answer>;
  /** Its page in the web app: `{appUrl}/{page}/{id}`. */
  page: string;
}

/** The calls and links of each kind of remote result (docs/api-contract.md, "Polling a run"). */
export const RESULT_KINDS: Readonly<Record<'suite' | 'test', ResultKind>> = {
  suite: {
    read: (api, id, opts) => api.getSuiteResult(id, opts),
    isOver: (result) => isSuiteResultOver(result as SuiteResult),
    cancel: (api, id, opts) => api.cancelSuiteResult(id, opts),
    page: 'suite-results',
  },
  test: {
    read: (api, id, opts) => api.getTestResult(id, opts),
    isOver: (result) => classifyTestResult(result) !== 'running',
    cancel: (api, id, opts) => api.cancelTestResult(id, opts),
    page: 'results',
  },
};
