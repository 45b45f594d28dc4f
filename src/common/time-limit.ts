/** Time limits of the extras: a signal that fires on a workflow cancel or at the limit, and says which. */

/** Time limit of each extra that talks to a service (the history, the pull-request comment, the failure issue), ms. */
export const EXTRA_TIME_LIMIT_MS = 20_000;

/** A signal that fires on `signal` or `ms` after the call, its reason saying which; the timer is unref'd. */
export function timeLimited(signal: AbortSignal | undefined, ms: number): AbortSignal {
  const controller = new AbortController();
  const stop = (why: string): void => {
    if (!controller.signal.aborted) controller.abort(new Error(why));
  };
  setTimeout(() => stop(`time limit of ${Math.round(ms / 1000)} s reached`), ms).unref();
  if (signal?.aborted) stop('the workflow was cancelled');
  else signal?.addEventListener('abort', () => stop('the workflow was cancelled'), { once: true });
  return controller.signal;
}

/** Why a {@link timeLimited} signal fired: `time limit of 20 s reached`, `the workflow was cancelled`. */
export function stopReason(signal: AbortSignal): string {
  return signal.reason instanceof Error ? signal.reason.message : 'stopped';
}

/** Runs `task` with a {@link timeLimited} signal; an error after it fired becomes `stopped: <why>`. */
export async function withinTimeLimit<T>(
  cancel: AbortSignal | undefined,
  ms: number,
  task: (signal: AbortSignal) => Promise<T>,
): Promise<T> {
  const signal = timeLimited(cancel, ms);
  try {
    return await task(signal);
  } catch (error) {
    if (signal.aborted) throw new Error(`stopped: ${stopReason(signal)}`);
    throw error;
  }
}
