/** The run model `run/` hands to `report/`, `artifacts/` and the verdict: plain data, durations ms, dates ISO 8601. */
import type { ExecuteOptions, SuiteResult } from '../api/types.js';
import type { RepoTest } from '../inputs/test-files.js';
import type { KeptTestResult } from './kept-result.js';

/** The state of one test result as the action saw it (docs/how-it-runs.md, "How results are counted"). */
export type TestState = 'passed' | 'failed' | 'flaky' | 'timed-out' | 'cancelled' | 'error';

/** Which combination of execute options a run stands for. Absent fields were not varied. */
export interface Variant {
  browser?: string;
  region?: string;
  /** `{width}x{height}`. */
  viewport?: string;
  startUrl?: string;
  /** Zero-based row of the data file or data source. */
  dataRow?: number;
}

/** One test result, with its earlier attempts when `retry-failed` re-ran it. */
export interface TestRun {
  /** Null for an on-demand run (a repository test file). */
  testId: string | null;
  testName: string;
  state: TestState;
  /** The final test result (the last attempt), as kept; null when none could be had. */
  result: KeptTestResult | null;
  /** Earlier attempts, oldest first, as kept. */
  attempts: KeptTestResult[];
  /** Why the state is `error` or `timed-out`: a short, redacted sentence. */
  error?: string;
  /** The result's web app page. */
  url?: string;
}

export type RunKind = 'suite' | 'test' | 'file';

/** One remote run: a suite result, or one test result (kind `test` or `file`); one per variant and data row. */
export interface SuiteRun {
  kind: RunKind;
  /** Unique within one action run, stable for file names: e.g. `suite-<id>-0`. */
  key: string;
  /** Suite id for `suite`; the test's suite id for `test` when known; null for `file`. */
  suiteId: string | null;
  /** Suite name (for `file`: the file's path in the repository). */
  suiteName: string;
  /** For kind `test`: the test id; for `file`: null. */
  testId?: string | null;
  /** For kind `file`: the repository path. */
  file?: string;
  variant: Variant;
  suiteResultId?: string;
  /** Kinds `test` and `file`: the test result id the execute answered (also set when not waiting). */
  testResultId?: string;
  /** The last suite result seen. */
  suiteResult?: SuiteResult;
  triggeredAt: string;
  /** When the action knew the run was over (finished, cancelled, timed out). */
  endedAt?: string;
  /** Test results of this run (for kind `test`/`file`: exactly one). */
  tests: TestRun[];
  /** Run-level problem (trigger failed, suite result vanished, deadline): a short, redacted sentence. */
  error?: string;
  timedOut?: boolean;
  cancelled?: boolean;
  /** Why the run was never started (it has no test result; `error` says why in words). */
  notStarted?: StopReason;
  /** The execute may have reached the service, but its run was not found afterwards (counts as `error`). */
  mayHaveStarted?: boolean;
}

/** Everything one action run produced, the input of every renderer. */
export interface RunSummary {
  runs: SuiteRun[];
  startedAt: string;
  finishedAt: string;
  /** Why the action stopped waiting early, if it did. */
  interrupted?: StopReason;
  /** Base of the web app links, without a trailing slash. */
  appUrl: string;
}

/** Why the engine stopped early: the deadline, a workflow cancel, or `fail-fast` (a test failed for good). */
export type StopReason = 'deadline' | 'signal' | 'fail-fast';

/** Execute options the user set, in the service's names (see `ActionInputs.execute`). */
export type UserExecuteOptions = Omit<ExecuteOptions, 'startUrl' | 'immediate'>;

/** One execute request to send. */
export type TriggerJob =
  | { kind: 'suite'; suiteId: string; startUrl?: string }
  | { kind: 'test'; testId: string; startUrl?: string }
  | ({ kind: 'file'; startUrl?: string } & Pick<RepoTest, 'file' | 'index' | 'name' | 'definition'>);
