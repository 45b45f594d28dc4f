/**
 * Stopping from outside: a workflow cancel (SIGINT/SIGTERM) and the backstop behind the deadline.
 *
 * On SIGINT or SIGTERM every active remote run is cancelled at once (the engine watches the returned
 * signal), the reports that can be written quickly are written (no screenshot download), and the process
 * exits non-zero; `HARD_EXIT_MS` after the signal it ends whatever the main flow is doing (a hanging request
 * or file-system call). The deadline is backed the same way: the engine not returned `DEADLINE_BACKSTOP_MS`
 * after it ends the process. The time bounds themselves live in `run/deadline.ts`.
 */
import { armHardExit, DEADLINE_BACKSTOP_MS, HARD_EXIT_MS } from '../run/stop/deadline.js';
import type { ActionSink } from '../common/sink.js';

/** What stopping needs from the action's environment (a subset of `ActionDeps`). */
export interface StopDeps {
  sink: ActionSink;
  /** Calls `handler` on SIGINT and SIGTERM until the returned function is called. */
  listenForSignals(handler: (signal: NodeJS.Signals) => void): () => void;
  /** Ends the process at once, whatever it is doing (`run/deadline.ts` `forceExit`). */
  forceExit(): void;
}

/** A workflow cancel being listened for. */
export interface WorkflowCancel {
  /** Fires on the first SIGINT or SIGTERM. */
  signal: AbortSignal;
  /** Stops listening (the hard exit, once armed, stays armed). */
  dispose(): void;
}

/**
 * Listens for a workflow cancel: the first SIGINT or SIGTERM warns, fires the returned signal and arms the
 * forced exit `HARD_EXIT_MS` (6.5 s) later, which fails the step and ends the process. Later signals are
 * ignored. The runner kills the process 10 s after SIGINT (7.5 s after SIGTERM): the action ends before.
 */
export function listenForWorkflowCancel(deps: StopDeps): WorkflowCancel {
  const controller = new AbortController();
  const stopListening = deps.listenForSignals((signal) => {
    if (controller.signal.aborted) return;
    deps.sink.warning(`Received ${signal}: cancelling the remote runs.`);
    controller.abort();
    armHardExit(() => {
      deps.sink.setFailed(
        `Workflow cancelled: the action did not finish within ${HARD_EXIT_MS / 1000} s of ${signal}; stopped.`,
      );
      deps.forceExit();
    });
  });
  return { signal: controller.signal, dispose: stopListening };
}

/**
 * Arms the backstop of the deadline: unless disarmed first, `DEADLINE_BACKSTOP_MS` (9.5 s) after the
 * deadline the step fails and the process ends (the engine returns within its wrap-up time before that).
 * @param deadlineInMs time left until the deadline, ms (may be negative)
 * @returns the disarm function
 */
export function armDeadlineBackstop(deps: StopDeps, deadlineInMs: number): () => void {
  return armHardExit(() => {
    deps.sink.setFailed('The run did not stop at the timeout; stopped.');
    deps.forceExit();
  }, deadlineInMs + DEADLINE_BACKSTOP_MS);
}
