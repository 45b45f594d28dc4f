/**
 * The time bounds of stopping, in one place.
 *
 * - Deadline (`timeout`): every request of the engine carries an `AbortSignal` that fires at the deadline
 *   (and on a workflow cancel): polls, listings and executes in flight end at once. What follows (looking
 *   up interrupted triggers, cancelling under `cancel-on-timeout`, reading the tests of timed-out suite
 *   results) shares one wrap-up time of `WRAP_UP_MS.deadline`, so the step ends within `timeout` + 10 s
 *   whatever the service does (never answers, hangs mid-answer).
 * - Workflow cancel (SIGINT/SIGTERM): the runner kills the process 10 s after SIGINT (SIGTERM at 7.5 s).
 *   Known runs are cancelled at once; executes in flight get `TRIGGER_GRACE_MS.signal` to answer, then are
 *   aborted and reconciled; the whole wrap-up (lookups and cancels) ends `WRAP_UP_MS.signal` after the signal; the reports that can be written quickly are
 *   written; `HARD_EXIT_MS` after the signal the process exits whatever the main flow is doing.
 */
import { formatDuration } from '../../report/text.js';
import { unrefTimer } from '../clock.js';

/**
 * Why the engine stopped early: the deadline, a workflow cancel, or `fail-fast` (a test failed for good:
 * every other active run is cancelled, the runs not yet triggered are not started).
 */
export type StopReason = 'deadline' | 'signal' | 'fail-fast';

/**
 * How long an execute in flight may still be answered after a stop, ms; then it is aborted and its runs
 * are looked up. At the deadline at once; on a workflow cancel an answer is awaited briefly (the runs
 * already known are cancelled meanwhile).
 */
export const TRIGGER_GRACE_MS: Readonly<Record<StopReason, number>> = {
  deadline: 0,
  signal: 1_500,
  'fail-fast': 5_000,
};

/** When the lookups of interrupted triggers end, ms after the stop. */
export const LOOKUP_END_MS: Readonly<Record<StopReason, number>> = {
  deadline: 3_000,
  signal: 3_000,
  'fail-fast': 10_000,
};

/**
 * How long the wrap-up after a stop may take (lookups, cancels, listings), ms after the stop. Fail-fast has
 * no runner waiting to kill the process: its cancels go through the request budget, so it gets longer.
 */
export const WRAP_UP_MS: Readonly<Record<StopReason, number>> = {
  deadline: 6_000,
  signal: 4_500,
  'fail-fast': 30_000,
};

/** After a SIGINT/SIGTERM the process exits this long after the signal at the latest, ms. */
export const HARD_EXIT_MS = 6_500;

/** The `error` of a run never started, by reason. */
export const NOT_STARTED_ERROR: Readonly<Record<StopReason, string>> = {
  deadline: 'Not started before the timeout',
  signal: 'Not started before the workflow was cancelled',
  'fail-fast': 'Not started: fail-fast (a test had failed)',
};

/** The `error` of a run (and of its tests still going) cancelled because another test failed. */
export const FAIL_FAST_CANCEL_ERROR = 'Cancelled by fail-fast: another test failed.';

/** The `error` of a trigger that may have started a run that could not be found. */
export const MAY_HAVE_STARTED_ERROR =
  'The execute may have started a run, but it was not answered and no run could be found afterwards ' +
  '(may have started; not found).';

/** The error of an unanswered execute whose runs could not be told apart from other runs started then. */
export function mayHaveStartedAmong(candidates: number, expected: number): string {
  return (
    `The execute may have started ${expected === 1 ? 'a run' : `${expected} runs`}, but it was not answered, and ` +
    `${candidates} run${candidates === 1 ? '' : 's'} started then could be ${expected === 1 ? 'it' : 'them'}: ` +
    'not followed, not cancelled (may have started; not told apart).'
  );
}

/** The `timeout` input for people: `45.0 s`, `5 min 00 s` (never "0 min" for a sub-minute timeout). */
export function describeTimeout(timeoutMs: number): string {
  return formatDuration(timeoutMs);
}

/**
 * Arms the forced exit after a workflow cancel: `onExpire` runs `HARD_EXIT_MS` after the call unless the
 * returned disarm function was called first. The timer is unref'd: it never keeps the process alive by
 * itself, yet fires when something else (a hanging request or file-system call) does.
 */
export function armHardExit(onExpire: () => void, ms = HARD_EXIT_MS): () => void {
  return unrefTimer(ms, onExpire);
}

/** The engine returns this long after the deadline at the latest, else the process is ended, ms. */
export const DEADLINE_BACKSTOP_MS = 9_500;

/**
 * Ends the process at once with SIGKILL. Not `process.exit`: it waits for the libuv thread pool, so a
 * file-system call that hangs (a FIFO, a stuck network mount) would keep the process alive.
 */
export function forceExit(): void {
  process.kill(process.pid, 'SIGKILL');
}
