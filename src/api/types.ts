/**
 * Resource shapes of the Ghost Inspector API v1 (docs/api-contract.md: Resources). A field present only on
 * some endpoints is optional; a record that never ran shows the epoch as its dates.
 */
import type { RefOrId } from './refs.js';

/** ISO 8601 UTC timestamp with milliseconds, e.g. `2026-01-02T03:04:05.678Z`. */
export type Timestamp = string;

/** `{_id, name}` reference to another record. */
export interface Ref {
  _id: string;
  name: string;
}

interface ViewportSize {
  height: number;
  width: number;
}

export interface Variable {
  name: string;
  value: string;
  private: boolean;
}

interface UserRef {
  _id: string;
  firstName: string;
  lastName: string;
}

/** A notification channel setting; `webhooks` may carry `options.urls`. */
export interface NotificationChannel {
  enabled: boolean;
  options?: { urls?: Array<{ condition: unknown; url: string }> };
}
export type Notifications = Record<string, NotificationChannel>;

export interface Suite {
  _id: string;
  name: string;
  /** `{_id, name}`; the list endpoint adds `personal`; the folder-suites listing gives an identifier string. */
  organization: (Ref & { personal?: boolean }) | string;
  folder: string | null;
  abortOnTestFailure: boolean;
  autoRetry: boolean;
  browser: string;
  /** Absent from the list endpoint. */
  dataSource?: string | null;
  dateCreated: Timestamp;
  /** Present on the duplicate response. */
  dateExecutionTriggered?: Timestamp;
  disableVisuals: boolean;
  disallowInsecureCertificates: boolean;
  failOnJavaScriptError: boolean;
  finalDelay: number;
  globalStepDelay: number;
  language: string | null;
  maxAjaxDelay: number;
  maxWaitDelay: number;
  maxConcurrentTests: number;
  notifications?: Notifications;
  notificationsSuite?: Notifications;
  persistVariables: boolean;
  publicStatusEnabled: boolean;
  region: string;
  screenshotCompareEnabled: boolean;
  screenshotCompareThreshold: number;
  startUrl: string;
  testCount: number;
  testFrequency: number;
  testFrequencyAdvanced: unknown[];
  /** Present on the duplicate response. */
  user?: UserRef;
  variables: Variable[];
  viewportSize: ViewportSize;
}

/** A step target: a string, or selectors tried in order. */
export type StepTarget = string | Array<{ selector: string }>;

/** Contract "Step". Result-only fields are optional. */
export interface Step {
  /** Absent on steps in import/export payloads. */
  _id?: string;
  sequence: number;
  command: string;
  target: StepTarget;
  value: string;
  variableName: string;
  /** In results also `result`. */
  condition: null | { statement: string; result?: boolean };
  optional: boolean;
  private: boolean;
  notes?: string;
  /** Result steps only; null before execution (and after cancel). */
  passing?: boolean | null;
  /** Result steps only, once executed. */
  dateExecuted?: Timestamp;
  /** Result steps: page URL at execution. */
  url?: string;
  /** Failing steps carry an error string (docs/api-contract.md). */
  error?: string;
  extra?: { source: { sequence: number; test: string } };
}

/** Contract "Test". `steps` is present on single-test responses, absent from lists. */
export interface Test {
  _id: string;
  name: string;
  details: string;
  /** `{_id, name}`; an empty object on an imported test. */
  organization: Ref | Record<string, never>;
  suite: Ref | Record<string, never>;
  startUrl: string;
  steps?: Step[];
  autoRetry: boolean | null;
  disableVisuals: boolean | null;
  disallowInsecureCertificates: boolean | null;
  failOnJavaScriptError: boolean | null;
  browser: string | null;
  language: string | null;
  region: string | null;
  finalDelay: number | null;
  globalStepDelay: number | null;
  maxAjaxDelay: number | null;
  maxWaitDelay: number | null;
  dataSource: string | null;
  screenshotCompareEnabled: boolean | null;
  screenshotCompareThreshold: number;
  publicStatusEnabled: boolean;
  viewportSize: ViewportSize | null;
  filters: unknown[];
  links: unknown[];
  notifications: Notifications;
  passing: boolean | null;
  screenshotComparePassing: boolean | null;
  dateCreated: Timestamp;
  dateUpdated: Timestamp;
  dateExecutionStarted: Timestamp;
  dateExecutionFinished: Timestamp;
  dateExecutionTriggered: Timestamp;
  testFrequency: number;
  testFrequencyAdvanced: unknown[];
  /** An identifier string or `{_id, firstName, lastName}`, depending on the endpoint. */
  user?: string | UserRef;
}

/** `{defaultUrl, dims, path, size}`: one stored image. */
export interface ImageRef {
  defaultUrl: string;
  dims: { h: number; w: number };
  path: string;
  size: number;
}

export interface ConsoleEntry {
  _id: string;
  dateExecuted: Timestamp;
  error: boolean;
  output: string;
  url: string;
}

export interface Comment {
  _id: string;
  author: Ref;
  message: string;
  dateCreated: Timestamp;
}

/**
 * Contract "Test result" (docs/api-contract.md, "States and transitions"): running has `passing` and
 * `executionTime` null; finished has both set; cancelled has `passing` null and `status` 8.
 */
export interface TestResult {
  _id: string;
  uuid: string;
  name: string;
  /** Null for an on-demand result; every reference may be an id string or an object (read with `refId`). */
  test: RefOrId<{ _id: string; name: string; organization: RefOrId<Ref>; suite: RefOrId<Ref> }> | null;
  suiteResult: string | null;
  organization: RefOrId<Ref>;
  user: RefOrId<Ref>;
  browser: string | null;
  region: string | null;
  language: string | null;
  startUrl: string;
  endUrl: string;
  urls: string[];
  steps: Step[];
  passing: boolean | null;
  /** Appears on cancelled results (8). */
  status?: number;
  autoRetry: boolean;
  autoRetryTriggered: boolean;
  commentCount: number;
  comments: Comment[];
  console: ConsoleEntry[];
  dateCreated: Timestamp;
  dateExecutionStarted: Timestamp;
  dateExecutionFinished?: Timestamp;
  executionHost: string;
  /** Milliseconds; null until finished. */
  executionTime: number | null;
  disableVisuals: boolean;
  disallowInsecureCertificates: boolean;
  failOnJavaScriptError: boolean;
  finalDelay: number;
  globalStepDelay: number;
  maxAjaxDelay: number;
  maxWaitDelay: number;
  filters: unknown[];
  extractions: Record<string, unknown>;
  /** Null on passing results; a failed run may carry `details` (docs/api-contract.md). */
  error?: { details?: string; [key: string]: unknown } | null;
  screenshot?: { original: ImageRef; small: ImageRef };
  /** Present when a comparison exists. */
  screenshotCompare?: { compareOriginal: ImageRef; compareSmall: ImageRef };
  screenshotCompareBaselineResult: string | null;
  screenshotCompareDifference: number | null;
  screenshotCompareEnabled: boolean | null;
  screenshotComparePassing: boolean | null;
  screenshotCompareThreshold: number;
  screenshotExclusions?: string;
  screenshotTarget?: string;
  userAgent?: string;
  variables: Record<string, string | number>;
  video?: { dims: { h: number; w: number }; path: string; url: string } | null;
  viewportSize: ViewportSize;
}

/** Contract "Suite result"; `passing` is null while running or cancelled (docs/api-contract.md). */
export interface SuiteResult {
  _id: string;
  name: string;
  passing: boolean | null;
  screenshotComparePassing: boolean | null;
  startUrl: string;
  commentCount: number;
  comments: Comment[];
  countPassing: number;
  countFailing: number;
  countUnknown: number;
  countScreenshotComparePassing: number;
  countScreenshotCompareFailing: number;
  countScreenshotCompareUnknown: number;
  dateCreated: Timestamp;
  dateExecutionStarted: Timestamp;
  dateExecutionFinished?: Timestamp;
  /** Milliseconds. */
  executionTime: number | null;
  /** An id string or a populated object, depending on the endpoint: read it with `refId`. */
  suite: RefOrId<{ _id: string; name: string; organization: RefOrId<Ref> }>;
  user: RefOrId<Ref>;
  /** Set on cancelled suite results by the emulator and the real service (8). */
  status?: number;
}

export interface Folder {
  _id: string;
  name: string;
  organization: string;
}

export interface DataSource {
  _id: string;
  name: string;
  organization: string;
  data: Array<Record<string, string | number>>;
}

export type { ErrorType } from './envelope-types.js';
export { REGIONS, type ExecuteOptions, type Paging } from './request-types.js';
