/**
 * The API v1 resources in full (docs/api-contract.md, "Resources"; the service's API v1 reference,
 * "Organizations"), as the emulator answers them and the tests read them. Each extends the fields the action
 * reads (`src/api/types.ts`) with the rest of the contract.
 */
import type * as Action from '../src/api/types.js';
import type { RefOrId } from '../src/api/refs.js';
import type { Ref, Timestamp, ViewportSize } from '../src/api/types.js';

export type { Ref, StepTarget, Timestamp } from '../src/api/types.js';

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

export interface Suite extends Action.Suite {
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
  /** Run settings of the suite's tests; the empty string when unset. */
  userAgent: string;
  screenshotTarget: string;
  screenshotExclusions: string;
}

export interface Step extends Action.Step {
  /** Absent on steps in import/export payloads. */
  _id?: string;
  notes?: string;
  /** Result steps only, once executed. */
  dateExecuted?: Timestamp;
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
  /** Run settings; the empty string when unset (the suite's apply). */
  userAgent: string;
  screenshotTarget: string;
  screenshotExclusions: string;
  /** An identifier string or `{_id, firstName, lastName}`, depending on the endpoint. */
  user?: string | UserRef;
}

/** A test in the native JSON format: the Test fields minus ids, dates, owners and outcomes. */
export type TestDefinition = Partial<
  Omit<
    Test,
    | '_id'
    | 'organization'
    | 'suite'
    | 'user'
    | 'passing'
    | 'screenshotComparePassing'
    | 'dateCreated'
    | 'dateUpdated'
    | 'dateExecutionStarted'
    | 'dateExecutionFinished'
    | 'dateExecutionTriggered'
    | 'steps'
  >
> & {
  name: string;
  steps: Array<Omit<Step, '_id' | 'passing' | 'dateExecuted' | 'url' | 'extra' | 'error'>>;
};

/** The recorder .side document (docs/api-contract.md, "Test definitions (repository test files)"). */
export interface SideDocument {
  id: string;
  version: string;
  name: string;
  url: string;
  tests: Array<{
    id: string;
    name: string;
    commands: Array<{ id?: string; command: string; target: string; value: string; comment?: string }>;
  }>;
  suites: Array<{
    id: string;
    name: string;
    persistSession: boolean;
    parallel: boolean;
    timeout: number;
    tests: string[];
  }>;
  plugins: unknown[];
}

/** `{defaultUrl, dims, path, size}`: one stored image. */
export interface ImageRef extends Action.ImageRef {
  dims: { h: number; w: number };
  path: string;
}

export interface ConsoleEntry extends Action.ConsoleEntry {
  _id: string;
}

export interface Comment extends Action.Comment {
  _id: string;
  author: Ref;
  dateCreated: Timestamp;
}

/** Contract "Test result" (docs/api-contract.md, "States and transitions"). */
export interface TestResult extends Action.TestResult {
  uuid: string;
  user: RefOrId<Ref>;
  language: string | null;
  steps: Step[];
  autoRetry: boolean;
  autoRetryTriggered: boolean;
  commentCount: number;
  comments: Comment[];
  console: ConsoleEntry[];
  executionHost: string;
  disableVisuals: boolean;
  disallowInsecureCertificates: boolean;
  failOnJavaScriptError: boolean;
  finalDelay: number;
  globalStepDelay: number;
  maxAjaxDelay: number;
  maxWaitDelay: number;
  filters: unknown[];
  screenshot?: { original: ImageRef; small: ImageRef };
  screenshotCompare?: { compareOriginal: ImageRef; compareSmall: ImageRef };
  screenshotCompareEnabled: boolean | null;
  screenshotExclusions?: string;
  screenshotTarget?: string;
  userAgent?: string;
}

/** Contract "Suite result" (docs/api-contract.md). */
export interface SuiteResult extends Action.SuiteResult {
  screenshotComparePassing: boolean | null;
  commentCount: number;
  comments: Comment[];
  countScreenshotComparePassing: number;
  countScreenshotCompareFailing: number;
  countScreenshotCompareUnknown: number;
  dateExecutionStarted: Timestamp;
  user: RefOrId<Ref>;
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

export interface Plan {
  advancedScheduling: boolean;
  maxCsvUploadRows: number;
  maxViewportSize: { width: number; height: number };
  memberCount: number;
  name: string;
  overagePrice: number;
  price: number;
  retentionMonths: number;
  screenshotSteps: boolean;
  testRuns: number;
  yearly: boolean;
}

/** Contract "Organization": list items carry `_id` and `name`; the single organization adds the rest. */
export interface OrganizationSummary {
  _id: string;
  name: string;
}
export interface Organization extends OrganizationSummary {
  address: string;
  city: string;
  state: string;
  postalCode: string;
  country: string;
  email: string;
  emailBilling: string;
  dateCreated: Timestamp;
  suiteCount: number;
  testCount: number;
  /** Year-month key `YYYY-MM` to a run count. */
  testRuns: Record<string, number>;
  plan: Plan;
}
