/** The API v1 calls the action makes (docs/api-contract.md); the rest lives with the tests (`test/support/api/`). */
import type { Clock } from '../common/clock.js';
import type { RateBudget } from './budget.js';
import type {
  ExecuteOptions,
  Paging,
  RunningEntry,
  Suite,
  SuiteResult,
  Test,
  TestDefinition,
  TestResult,
} from './types.js';

export interface RequestOptions {
  /** Ends the call at once: a request in flight, or the wait before a retry (`ABORTED`). */
  signal?: AbortSignal;
  /** Ends only the waits before a retry (`ABORTED`, not `inFlight`), never a request in flight. */
  retrySignal?: AbortSignal;
  /** Takes its budget token at once, into debt if need be (cancels sent as the runner is stopping). */
  neverWait?: boolean;
  /** Waits for its budget token behind every request without this flag (the watch's optional reads). */
  lowPriority?: boolean;
}

/** The client calls the action makes (docs/api-contract.md, "Endpoints the action calls"). */
export interface GhostInspectorApi {
  getSuite(suiteId: string, opts?: RequestOptions): Promise<Suite>;
  listSuiteResults(suiteId: string, paging?: Paging, opts?: RequestOptions): Promise<SuiteResult[]>;
  /** With `immediate`: one suite result, or an array for several variants or a data file. */
  executeSuite(
    suiteId: string,
    options: ExecuteOptions,
    opts?: RequestOptions,
  ): Promise<SuiteResult | SuiteResult[] | TestResult[]>;
  /** With `immediate`: one test result, or an array for several variants or a data file. */
  executeTest(
    testId: string,
    options: ExecuteOptions,
    opts?: RequestOptions,
  ): Promise<TestResult | TestResult[]>;
  executeOnDemand(
    organizationId: string,
    test: TestDefinition,
    options: ExecuteOptions,
    opts?: RequestOptions,
  ): Promise<TestResult | TestResult[]>;
  /** One test (its `name`: the reports name a module by it). */
  getTest(testId: string, opts?: RequestOptions): Promise<Test>;
  listTestRunning(testId: string, opts?: RequestOptions): Promise<TestResult[]>;
  listTestResults(testId: string, paging?: Paging, opts?: RequestOptions): Promise<TestResult[]>;
  getTestResult(resultId: string, opts?: RequestOptions): Promise<TestResult>;
  cancelTestResult(resultId: string, opts?: RequestOptions): Promise<TestResult>;
  getSuiteResult(suiteResultId: string, opts?: RequestOptions): Promise<SuiteResult>;
  /** Creation order; `count` at most `PAGE_SIZE` (50, `limits.ts`). */
  listSuiteResultTestResults(
    suiteResultId: string,
    paging?: Paging,
    opts?: RequestOptions,
  ): Promise<TestResult[]>;
  cancelSuiteResult(suiteResultId: string, opts?: RequestOptions): Promise<SuiteResult>;
  listOrganizationRunning(organizationId: string, opts?: RequestOptions): Promise<TestResult[]>;
  /**
   * The same list read record by record as it arrives, each kept as its `RunningEntry`: thousands of running
   * test results are never held whole (docs/performance.md, "Memory"). A body cut short or not JSON is an
   * `INVALID_RESPONSE` (retried as a failed read).
   */
  listOrganizationRunningEntries(organizationId: string, opts?: RequestOptions): Promise<RunningEntry[]>;
  listFolderSuites(folderId: string, opts?: RequestOptions): Promise<Suite[]>;
}

export interface ClientOptions {
  apiKey: string;
  /** Default `https://api.ghostinspector.com/v1`. */
  baseUrl?: string;
  /** Further secrets to redact from every message (HTTP auth password, private variable values). */
  secrets?: string[];
  /** Retries of one call (default 4); a 429 is not counted when the call has an `AbortSignal`. */
  maxRetries?: number;
  /** Per-request timeout in ms (default 30000). */
  requestTimeoutMs?: number;
  /** Time of the retry waits, their jitter and `Retry-After` dates (default real time). */
  clock?: Clock;
  /** Debug log sink; receives redacted lines only. */
  log?: (line: string) => void;
  /** The request budget: every attempt takes one token first. Without one, requests go out unmetered. */
  budget?: RateBudget;
  /** Called once per HTTP request sent (for counting), with method and redacted URL. */
  onRequest?: (method: string, redactedUrl: string) => void;
  /** Told each `UNEXPECTED_SHAPE` answer and each size-capped answer asked again (redacted; shown as a warning). */
  onUnexpectedShape?: (message: string) => void;
}

export const DEFAULT_BASE_URL = 'https://api.ghostinspector.com/v1';
