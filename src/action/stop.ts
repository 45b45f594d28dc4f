/** Stopping from outside: a workflow cancel and the deadline's backstop (docs/architecture.md, "Time bounds"). */
import { unrefTimer } from '../common/clock.js';
import { DEADLINE_BACKSTOP_MS, HARD_EXIT_MS } from '../run/stop/deadline.js';
import type { ActionSink } from '../common/sink.js';
import { endUnfinished, StepProgress } from './boundary.js';

/** How long the forced exit after a signal waits for the job summary, ms. */
const SIGNAL_SUMMARY_WAIT_MS = 500;

/** What stopping needs from the action's environment (a subset of `ActionDeps`). */
export interface StopDeps {
  sink: ActionSink;
  /** Calls `handler` on SIGINT and SIGTERM until the returned function is called. */
  listenForSignals(handler: (signal: NodeJS.Signals) => void): () => void;
  /** Ends the process at once, whatever it is doing. */
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
 * forced exit `HARD_EXIT_MS` later, which fails the step saying what `progress` had left unfinished
 * (`endUnfinished`). Later signals are ignored.
 */
export function listenForWorkflowCancel(deps: StopDeps, progress = new StepProgress()): WorkflowCancel {
  const controller = new AbortController();
  const stopListening = deps.listenForSignals((signal) => {
    if (controller.signal.aborted) return;
    deps.sink.warning(`Received ${signal}: cancelling the remote runs.`);
    controller.abort();
    unrefTimer(HARD_EXIT_MS, () => {
      const cause = `Workflow cancelled: the action did not finish within ${HARD_EXIT_MS / 1000} s of ${signal}`;
      // The summary gets what is left before the runner's SIGTERM, 7.5 s after its SIGINT.
      endUnfinished(
        { sink: deps.sink, progress, exit: () => deps.forceExit() },
        cause,
        SIGNAL_SUMMARY_WAIT_MS,
      );
    });
  });
  return { signal: controller.signal, dispose: stopListening };
}

/**
 * Arms the backstop: `DEADLINE_BACKSTOP_MS` after the deadline (`deadlineInMs` from now, ms) the step fails,
 * saying what `progress` had left unfinished, and the process ends (`endUnfinished`). The timer keeps the
 * process alive until it fires: a run that waits on nothing (its event loop empty) still ends failed.
 * @returns the disarm function
 */
export function armDeadlineBackstop(
  deps: StopDeps,
  deadlineInMs: number,
  progress = new StepProgress(),
): () => void {
  const timer = setTimeout(() => {
    endUnfinished(
      { sink: deps.sink, progress, exit: () => deps.forceExit() },
      'The run did not stop at the timeout',
    );
  }, deadlineInMs + DEADLINE_BACKSTOP_MS);
  return () => clearTimeout(timer);
}
