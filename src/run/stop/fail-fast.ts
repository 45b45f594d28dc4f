/** Fail-fast: a test failed for good stops the engine as a workflow cancel does, with its own reason. */
import type { Handle } from '../book.js';
import type { EngineContext } from '../context.js';
import type { TestRun } from '../types.js';

/** Stops the engine for fail-fast when on and `test` (default: the run's first failed) failed for good. */
export function failFastOn(
  ctx: Pick<EngineContext, 'plan' | 'stopper' | 'book' | 'emit'>,
  handle: Handle,
  test?: TestRun,
): void {
  if (!ctx.plan.failFast || ctx.stopper.reason !== null) return;
  const failed = test ?? handle.run.tests.find((t) => t.state === 'failed');
  if (failed?.state !== 'failed') return;
  ctx.emit({ type: 'fail-fast', run: handle.run, test: failed, others: ctx.book.activeCount() });
  ctx.stopper.halt('fail-fast');
}
