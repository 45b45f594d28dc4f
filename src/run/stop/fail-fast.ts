/**
 * Fail-fast (the `fail-fast` input): once a test has failed for good, every other active remote run is
 * cancelled and no more runs are started. "For good" means counted `failed` in the end: under
 * `retry-failed` a failed test counts only once its re-runs are spent (or none could be sent), since a
 * re-run that passes makes it `flaky`, not a failure. The engine then stops as for a workflow cancel
 * (`stop.ts`, `cancelActive`), with its own reason: the cancelled runs say "Cancelled by fail-fast", the
 * runs not triggered yet are not started ("Not started: fail-fast").
 */
import type { EngineContext, Handle } from '../context.js';
import { halt } from './stop.js';
import type { TestRun } from '../types.js';

/**
 * Stops the engine for fail-fast when `plan.failFast` is on, nothing stopped it yet, and `test` (default:
 * the first test of the run) is `failed`. Call it only when the test's state is final (its re-runs spent).
 */
export function failFastOn(ctx: EngineContext, handle: Handle, test?: TestRun): void {
  if (!ctx.plan.failFast || ctx.stopReason !== null) return;
  const failed = test ?? handle.run.tests.find((t) => t.state === 'failed');
  if (failed?.state !== 'failed') return;
  const others = [...ctx.remotes].filter((r) => r.active).length;
  ctx.emit({ type: 'fail-fast', run: handle.run, test: failed, others });
  halt(ctx, 'fail-fast', () => undefined);
}
