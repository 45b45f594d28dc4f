/**
 * Waiting for runs to end, for an execute that is not immediate (docs/api-contract.md, "Execute answers", "Errors" 2).
 */
import type { Store } from './store.js';
import { ApiError, SERVICE_ERROR_MESSAGES } from './util.js';
import type { EmulatorClock } from './clock.js';

/** Suite execute wait limit in ms before time scaling (docs/api-contract.md, "Limits": 20 minutes). */
export const SUITE_WAIT_MS = 20 * 60_000;

/** Waits until every given test result has ended. */
export async function waitResults(store: Store, ids: string[]): Promise<void> {
  await Promise.all(ids.flatMap((id) => store.resultMeta.get(id)?.done ?? []));
}

/**
 * Waits until the suite results end, at most the suite wait limit (20 minutes, scaled, on `clock`); then
 * rejects with TIMEOUT_ERROR while the tests go on (docs/api-contract.md, "Errors" 2).
 */
export async function waitSuiteResults(
  store: Store,
  ids: string[],
  timeScale: number,
  clock: EmulatorClock,
): Promise<void> {
  const all = Promise.all(ids.flatMap((id) => store.suiteResultMeta.get(id)?.done ?? []));
  const controller = new AbortController();
  const timeout = clock
    .sleep(SUITE_WAIT_MS * timeScale, controller.signal)
    .then(() => (controller.signal.aborted ? ('aborted' as const) : ('timeout' as const)));
  const winner = await Promise.race([all.then(() => 'done' as const), timeout]);
  controller.abort();
  if (winner === 'timeout') {
    throw new ApiError('TIMEOUT_ERROR', SERVICE_ERROR_MESSAGES.TIMEOUT_ERROR);
  }
}
