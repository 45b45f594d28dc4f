/** The engine's typed events (never log text); `src/report/console.ts` renders them, redacting the service's names. */
import { ApiError } from '../api/errors.js';
import type { SuiteRun, TestRun, Variant } from './types.js';

/** A trigger that did not start its run(s), grouped by `kind` (an API error type, `not started`, …). */
export interface TriggerProblem {
  kind: string;
  /** What the trigger was for: `suite abc`, `test xyz`, `<file> "<name>"`, `folder f`. */
  label: string;
  /** The id shown when problems of one kind are folded. */
  id: string;
  message: string;
}

/** The `kind` of a trigger problem caused by `error`: its API error type, else `error`. */
export function problemKind(error: unknown): string {
  return error instanceof ApiError ? error.errorType : 'error';
}

/** Every event of the engine; `type` tells which. Times in ms. */
export type RunEvent =
  | { type: 'folder-listed'; folderId: string; suiteCount: number }
  /** A folder's suites could not be listed: the folder is one run in error. */
  | { type: 'folder-failed'; folderId: string; message: string }
  /** An execute answered: its results are followed. `label` as `jobLabel` gives it. */
  | { type: 'run-started'; label: string; resultIds: string[] }
  /** The runs of an execute that was not answered were found afterwards (reconciliation). */
  | { type: 'runs-found'; label: string; resultIds: string[] }
  /** Every trigger is done: the ones that did not start a run, at once. */
  | { type: 'trigger-problems'; problems: TriggerProblem[] }
  /** A test of a run has its state (first result, a retry's, or at the timeout). */
  | { type: 'test-finished'; run: SuiteRun; test: TestRun }
  /** A failed test is sent again (`retry-failed`); `attempt` counts from 2, of `attempts`. */
  | { type: 'retrying'; testName: string; variant: Variant; attempt: number; attempts: number }
  /** A retry went wrong: could not be sent, its result could not be read, or it may have started. */
  | {
      type: 'retry-problem';
      testName: string;
      variant: Variant;
      problem: 'not-sent' | 'not-read' | 'not-found';
      message: string;
    }
  /** The deadline passed with runs still going: the wait stops. */
  | { type: 'timed-out'; timeoutMs: number }
  /** A workflow cancel or fail-fast: `count` remote runs are being cancelled (`late`: started in flight). */
  | { type: 'cancelling'; count: number; late: boolean; reason?: 'fail-fast' }
  /** `test` of `run` failed for good: the `others` active runs are cancelled, no more are started. */
  | { type: 'fail-fast'; run: SuiteRun; test: TestRun; others: number }
  | { type: 'cancel-failed'; remoteType: 'suite' | 'test'; id: string; message: string }
  /** Still waiting: runs going, tests finished so far, time since the action started. */
  | { type: 'heartbeat'; running: number; finishedTests: number; elapsedMs: number }
  /** A detail for the debug log (a poll or listing that failed and is retried). */
  | { type: 'detail'; message: string };

export type RunEventListener = (event: RunEvent) => void;
