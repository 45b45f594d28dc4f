/**
 * The fields of the Ghost Inspector API v1 resources that the action reads (docs/api-contract.md, "Resources");
 * the emulator's `emulator/api-types.ts` adds the rest. A field present only on some endpoints is optional; a
 * record that never ran shows the epoch as its dates. Below them what the action sends: test definitions
 * (native JSON and recorder `.side`), execute parameters and paging.
 */
import type { RefOrId } from './refs.js';

/** ISO 8601 UTC timestamp with milliseconds, e.g. `2026-01-02T03:04:05.678Z`. */
export type Timestamp = string;

/** `{_id, name}` reference to another record. */
export interface Ref {
  _id: string;
  name: string;
}

export interface ViewportSize {
  height: number;
  width: number;
}

export interface Suite {
  _id: string;
  name: string;
  /** `{_id, name}`; the list endpoint adds `personal`; the folder-suites listing gives an identifier string. */
  organization: (Ref & { personal?: boolean }) | string;
}

/** A step target: a string, or selectors tried in order. */
export type StepTarget = string | Array<{ selector: string }>;

/** Contract "Step". Result-only fields are optional. */
export interface Step {
  sequence: number;
  command: string;
  target: StepTarget;
  value: string;
  variableName: string;
  /** In results also `result`. */
  condition: null | { statement: string; result?: boolean };
  optional: boolean;
  private: boolean;
  /** Result steps only; null before execution (and after cancel). */
  passing?: boolean | null;
  /** Result steps: page URL at execution. */
  url?: string;
  /** Failing steps carry an error string (docs/api-contract.md). */
  error?: string;
  /**
   * Result steps: the test and zero-based position the step came from (docs/api-contract.md, "Resources",
   * Step `extra`). A step imported from a module (an `execute` step's test) names the module, not the test run.
   */
  extra?: { source: { test: string; sequence: number } };
}

/**
 * Contract "Test", as far as the action reads it: a module's name for the reports (docs/api-contract.md,
 * "Endpoints the action calls"). The service answers the test's settings and steps too.
 */
export interface Test {
  _id: string;
  name: string;
}

/** One stored image: its URL and its size in bytes. */
export interface ImageRef {
  defaultUrl: string;
  size: number;
}

export interface ConsoleEntry {
  dateExecuted: Timestamp;
  error: boolean;
  output: string;
  url: string;
}

/** A comment on a result: the report redacts its `message`. */
export interface Comment {
  message: string;
}

/**
 * Contract "Test result" (docs/api-contract.md, "States and transitions"): running has `passing` and
 * `executionTime` null; finished has both set; cancelled has `passing` null and `status` 8.
 */
export interface TestResult {
  _id: string;
  name: string;
  /** Null for an on-demand result; every reference may be an id string or an object (read with `refId`). */
  test: RefOrId<{ _id: string; name: string; organization: RefOrId<Ref>; suite: RefOrId<Ref> }> | null;
  suiteResult: string | null;
  organization: RefOrId<Ref>;
  browser: string | null;
  region: string | null;
  startUrl: string;
  endUrl: string;
  urls: string[];
  steps: Step[];
  passing: boolean | null;
  /** Appears on cancelled results (8). */
  status?: number;
  comments: Comment[];
  console: ConsoleEntry[];
  dateCreated: Timestamp;
  dateExecutionStarted: Timestamp;
  dateExecutionFinished?: Timestamp;
  /** Milliseconds; null until finished. */
  executionTime: number | null;
  extractions: Record<string, unknown>;
  /** Null on passing results; a failed run may carry `details` (docs/api-contract.md). */
  error?: { details?: string; [key: string]: unknown } | null;
  screenshot?: { original: ImageRef; small: ImageRef };
  /** Present when a comparison exists. */
  screenshotCompare?: { compareOriginal: ImageRef; compareSmall: ImageRef };
  screenshotCompareBaselineResult: string | null;
  screenshotCompareDifference: number | null;
  screenshotComparePassing: boolean | null;
  screenshotCompareThreshold: number;
  variables: Record<string, string | number>;
  video?: { dims: { h: number; w: number }; path: string; url: string } | null;
  viewportSize: ViewportSize;
}

/**
 * What the watch loop keeps of each record of an organization's running list: the test result's id and
 * its suite result's id (null for a test run on its own).
 */
export interface RunningEntry {
  _id: string;
  suiteResult: string | null;
}

/** Contract "Suite result"; `passing` is null while running or cancelled (docs/api-contract.md). */
export interface SuiteResult {
  _id: string;
  name: string;
  passing: boolean | null;
  startUrl: string;
  comments: Comment[];
  countPassing: number;
  countFailing: number;
  countUnknown: number;
  dateCreated: Timestamp;
  dateExecutionFinished?: Timestamp;
  /** Milliseconds. */
  executionTime: number | null;
  /** An id string or a populated object, depending on the endpoint: read it with `refId`. */
  suite: RefOrId<{ _id: string; name: string; organization: RefOrId<Ref> }>;
  /** Set on cancelled suite results by the emulator and the real service (8). */
  status?: number;
}

/** A step of a test definition: a step without its result-only fields. */
type StepDefinition = Omit<Step, 'passing' | 'url' | 'error'>;

/** What the action reads of a test in the native JSON format (the Test fields minus ids, dates, outcomes). */
export interface TestDefinition {
  name: string;
  startUrl?: string;
  steps: StepDefinition[];
}

/** What the action reads of a recorder .side document (docs/api-contract.md, "Test definitions (repository test files)"). */
export interface SideDocument {
  url: string;
  tests: Array<{ name: string; commands: Array<{ command: string; target: string; value: string }> }>;
}

/** Region values (docs/api-contract.md, "Resources"). */
export const REGIONS = [
  'us-east-1',
  'us-west-1',
  'ca-central-1',
  'eu-central-1',
  'eu-west-1',
  'eu-west-2',
  'eu-west-3',
  'eu-north-1',
  'me-south-1',
  'ap-east-1',
  'ap-northeast-1',
  'ap-northeast-2',
  'ap-southeast-1',
  'ap-southeast-2',
  'ap-south-1',
  'sa-east-1',
] as const;

/** Execute parameters (docs/api-contract.md, "Execute parameters"); `browser`, `region`, `viewport` may repeat. */
export interface ExecuteOptions {
  startUrl?: string;
  browser?: string | string[];
  userAgent?: string;
  dataSource?: string;
  /** Milliseconds before start; at most 300000. */
  delay?: number;
  region?: string | string[];
  httpAuthUsername?: string;
  httpAuthPassword?: string;
  /** Test execute only. */
  webhook?: string | string[];
  disableNotifications?: boolean;
  immediate?: boolean;
  /** A CSV file; sent as multipart (POST). */
  dataFile?: { name: string; content: Uint8Array | string };
  disableVisuals?: boolean;
  maxConcurrentDataRows?: number;
  screenshotCompareEnabled?: boolean;
  /** 0.0 to 1.0. */
  screenshotCompareThreshold?: number;
  /** Test execute only: a completed test result id used as baseline. */
  screenshotCompareBaselineResult?: string;
  /** Comma-separated CSS selectors. */
  screenshotExclusions?: string;
  screenshotTarget?: string;
  /** `{width}x{height}`; may repeat. */
  viewport?: string | string[];
  chatChannel?: string;
  /** Custom variables: each becomes a parameter of its own name. */
  variables?: Record<string, string>;
}

/** `count` (default 10, max 50) and `offset` (default 0) for result lists (docs/api-contract.md, "Polling a run"). */
export interface Paging {
  count?: number;
  offset?: number;
}
