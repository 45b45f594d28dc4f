/**
 * The fields of the Ghost Inspector API v1 resources that the action reads (docs/api-contract.md: Resources);
 * the emulator's `emulator/api-types.ts` adds the rest. A field present only on some endpoints is optional; a
 * record that never ran shows the epoch as its dates.
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

export { REGIONS, type ExecuteOptions, type Paging } from './request-types.js';
