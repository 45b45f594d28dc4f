/** The time bounds of stopping (deadline, workflow cancel, fail-fast), in one place: docs/architecture.md. */
import type { StopReason } from '../types.js';

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
    `${candidates} run${candidates === 1 ? '' : 's'} started then could be ${expected === 1 ? 'it' : 'them'}, but ` +
    `none showed this step's marker: not followed, not cancelled (may have started; not proven).`
  );
}

/** The engine returns this long after the deadline at the latest, else the process is ended, ms. */
export const DEADLINE_BACKSTOP_MS = 9_500;
