/**
 * The typed surface of the Ghost Inspector API v1, one method per endpoint (docs/api-contract.md: Endpoints
 * the action calls). Methods resolve with the envelope's `data` and reject with a redacted `ApiError`.
 */
import type { RateBudget } from './budget.js';
import type {
  DataSource,
  ExecuteOptions,
  Folder,
  Paging,
  Suite,
  SuiteResult,
  Test,
  TestResult,
} from './types.js';
import type { SideDocument, TestDefinition } from './definitions.js';
import type { Organization, OrganizationSummary } from './organization-types.js';

/** Options shared by every request (cancellation). */
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

export interface GhostInspectorApi {
  // Suites (docs/api-contract.md, "Endpoints the action calls")
  listSuites(opts?: RequestOptions): Promise<Suite[]>;
  getSuite(suiteId: string, opts?: RequestOptions): Promise<Suite>;
  createSuite(body: { name: string; organization: string }, opts?: RequestOptions): Promise<Suite>;
  /** Body: fields to change; `variables.<name>` keys take `{value}`. */
  updateSuite(suiteId: string, body: Record<string, unknown>, opts?: RequestOptions): Promise<Suite>;
  deleteSuite(suiteId: string, opts?: RequestOptions): Promise<true>;
  duplicateSuite(suiteId: string, opts?: RequestOptions): Promise<Suite>;
  listSuiteTests(suiteId: string, opts?: RequestOptions): Promise<Test[]>;
  listSuiteResults(suiteId: string, paging?: Paging, opts?: RequestOptions): Promise<SuiteResult[]>;
  listSuiteResultsCsv(suiteId: string, paging?: Paging, opts?: RequestOptions): Promise<string>;
  /** With `immediate`: one suite result, or an array for several variants or a data file. */
  executeSuite(
    suiteId: string,
    options: ExecuteOptions,
    opts?: RequestOptions,
  ): Promise<SuiteResult | SuiteResult[] | TestResult[]>;
  /** The badge image bytes and media type; no API key is sent. */
  getSuiteStatusBadge(
    suiteId: string,
    screenshot?: boolean,
    opts?: RequestOptions,
  ): Promise<{ contentType: string; body: Buffer }>;

  // Suite import and export
  importTestJson(suiteId: string, test: TestDefinition, opts?: RequestOptions): Promise<Test>;
  importTestRecorderHtml(
    suiteId: string,
    file: { name: string; content: string | Uint8Array },
    opts?: RequestOptions,
  ): Promise<Test>;
  importTestRecorderSide(suiteId: string, side: SideDocument, opts?: RequestOptions): Promise<Test[]>;
  /** Legacy combined import (discouraged): body sent as JSON as given. */
  importTestLegacy(suiteId: string, body: Record<string, unknown>, opts?: RequestOptions): Promise<Test>;
  /** Zip archive bytes. */
  exportSuiteJson(suiteId: string, includeImports?: boolean, opts?: RequestOptions): Promise<Buffer>;
  exportSuiteRecorderSide(suiteId: string, opts?: RequestOptions): Promise<SideDocument>;
  /** Zip archive bytes. */
  exportSuiteRecorderHtml(suiteId: string, opts?: RequestOptions): Promise<Buffer>;

  // Tests (docs/api-contract.md, "Endpoints the action calls")
  listTests(opts?: RequestOptions): Promise<Test[]>;
  getTest(testId: string, opts?: RequestOptions): Promise<Test>;
  updateTest(testId: string, body: Record<string, unknown>, opts?: RequestOptions): Promise<Test>;
  duplicateTest(testId: string, opts?: RequestOptions): Promise<Test>;
  deleteTest(testId: string, opts?: RequestOptions): Promise<true>;
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
  listTestRunning(testId: string, opts?: RequestOptions): Promise<TestResult[]>;
  acceptScreenshot(testId: string, opts?: RequestOptions): Promise<Test>;
  listTestResults(testId: string, paging?: Paging, opts?: RequestOptions): Promise<TestResult[]>;
  listTestResultsCsv(testId: string, paging?: Paging, opts?: RequestOptions): Promise<string>;
  exportTestJson(testId: string, includeImports?: boolean, opts?: RequestOptions): Promise<TestDefinition>;
  exportTestRecorderSide(testId: string, opts?: RequestOptions): Promise<SideDocument>;
  /** XHTML text. */
  exportTestRecorderHtml(testId: string, opts?: RequestOptions): Promise<string>;
  getTestStatusBadge(
    testId: string,
    screenshot?: boolean,
    opts?: RequestOptions,
  ): Promise<{ contentType: string; body: Buffer }>;

  // Results (docs/api-contract.md, "Endpoints the action calls")
  getTestResult(resultId: string, opts?: RequestOptions): Promise<TestResult>;
  cancelTestResult(resultId: string, opts?: RequestOptions): Promise<TestResult>;
  commentOnTestResult(resultId: string, message: string, opts?: RequestOptions): Promise<TestResult>;

  // Suite results (docs/api-contract.md)
  getSuiteResult(suiteResultId: string, opts?: RequestOptions): Promise<SuiteResult>;
  /** Creation order; `count` at most `PAGE_SIZE` (50, `limits.ts`). */
  listSuiteResultTestResults(
    suiteResultId: string,
    paging?: Paging,
    opts?: RequestOptions,
  ): Promise<TestResult[]>;
  cancelSuiteResult(suiteResultId: string, opts?: RequestOptions): Promise<SuiteResult>;
  /** xUnit.net v2 XML text. */
  getSuiteResultXunit(suiteResultId: string, opts?: RequestOptions): Promise<string>;

  // Organizations
  listOrganizations(opts?: RequestOptions): Promise<OrganizationSummary[]>;
  getOrganization(organizationId: string, opts?: RequestOptions): Promise<Organization>;
  listOrganizationRunning(organizationId: string, opts?: RequestOptions): Promise<TestResult[]>;

  // Data sources
  listDataSources(organizationId: string, opts?: RequestOptions): Promise<DataSource[]>;
  getDataSource(organizationId: string, dataSourceId: string, opts?: RequestOptions): Promise<DataSource>;
  createDataSource(
    organizationId: string,
    body: { name: string; data: DataSource['data'] },
    opts?: RequestOptions,
  ): Promise<DataSource>;
  updateDataSource(
    organizationId: string,
    dataSourceId: string,
    body: { name: string; data: DataSource['data'] },
    opts?: RequestOptions,
  ): Promise<DataSource>;
  deleteDataSource(organizationId: string, dataSourceId: string, opts?: RequestOptions): Promise<true>;

  // Folders
  listFolders(opts?: RequestOptions): Promise<Folder[]>;
  getFolder(folderId: string, opts?: RequestOptions): Promise<Folder>;
  createFolder(body: { name: string; organization: string }, opts?: RequestOptions): Promise<Folder>;
  updateFolder(folderId: string, body: { name: string }, opts?: RequestOptions): Promise<Folder>;
  listFolderSuites(folderId: string, opts?: RequestOptions): Promise<Suite[]>;
}

/** Options of `createClient()`. */
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
  /** Injectable sleep (ms) for tests. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** Injectable clock (ms since epoch). */
  now?: () => number;
  /** Random source in [0,1) for jitter. */
  random?: () => number;
  /** Debug log sink; receives redacted lines only. */
  log?: (line: string) => void;
  /** The request budget: every attempt takes one token first. Without one, requests go out unmetered. */
  budget?: RateBudget;
  /** Called once per HTTP request sent (for counting), with method and redacted URL. */
  onRequest?: (method: string, redactedUrl: string) => void;
  /** Called once per HTTP 429 answer with its `Retry-After` in ms (undefined when none or unreadable). */
  onRateLimited?: (retryAfterMs: number | undefined) => void;
  /**
   * Called with the redacted message of every `UNEXPECTED_SHAPE` answer, and of every answer refused at the
   * size cap that is asked again (shown as a warning; the last failure is the caller's to report).
   */
  onUnexpectedShape?: (message: string) => void;
}

export const DEFAULT_BASE_URL = 'https://api.ghostinspector.com/v1';
