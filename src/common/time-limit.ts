/** Time limits of the extras: a signal that fires on a workflow cancel or at the limit, and says which. */
import { systemClock, timeoutSignal, type Clock } from './clock.js';

/** Time limit of each extra that talks to a service (the history, the pull-request comment, the failure issue), ms. */
export const EXTRA_TIME_LIMIT_MS = 20_000;

/** Why a {@link withinTimeLimit} signal fired: `time limit of 20 s reached`, `the workflow was cancelled`. */
export function stopReason(signal: AbortSignal): string {
  return signal.reason instanceof Error ? signal.reason.message : 'stopped';
}

/**
 * Runs `task` with a signal that fires on `cancel` or `ms` after the call on `clock` (default real time), its
 * reason saying which; the wait ends with the task. An error after the signal fired becomes `stopped: <why>`.
 */
export async function withinTimeLimit<T>(
  cancel: AbortSignal | undefined,
  ms: number,
  task: (signal: AbortSignal) => Promise<T>,
  clock: Clock = systemClock,
): Promise<T> {
  const controller = new AbortController();
  const stop = (why: string): void => {
    if (!controller.signal.aborted) controller.abort(new Error(why));
  };
  const ended = new AbortController();
  timeoutSignal(clock, ms, ended.signal).addEventListener('abort', () =>
    stop(`time limit of ${Math.round(ms / 1000)} s reached`),
  );
  const onCancel = (): void => stop('the workflow was cancelled');
  if (cancel?.aborted) onCancel();
  else cancel?.addEventListener('abort', onCancel, { once: true });
  try {
    return await task(controller.signal);
  } catch (error) {
    if (controller.signal.aborted) throw new Error(`stopped: ${stopReason(controller.signal)}`);
    throw error;
  } finally {
    ended.abort();
    cancel?.removeEventListener('abort', onCancel);
  }
}
