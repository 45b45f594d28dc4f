/** Following one run to its end; a stop ends the wait and leaves the run to the stop phase (`stop/stop.ts`). */
import type { SuiteResult, TestResult } from '../../api/types.js';
import type { Handle } from '../book.js';
import type { EngineContext } from '../context.js';
import { RESULT_KINDS, type Answer } from '../kinds.js';
import { variantFromResult } from '../plan/execute.js';
import { failFastOn } from '../stop/fail-fast.js';
import { suiteTestCount } from '../outcome/outcome.js';
import { listSuiteTests } from '../read/read.js';
import type { TestRun } from '../types.js';
import { retryFailures } from './retry.js';

/** Waits for a run, reads its tests and re-runs its failures; the run is ended unless the engine stopped. */
export async function follow(ctx: EngineContext, handle: Handle): Promise<void> {
  const { api, book, stopper } = ctx;
  const { type, id } = handle.remote;
  const { suiteId } = handle.run;
  const kind = RESULT_KINDS[type];
  const result = await ctx.watcher.wait<Answer>(handle.remote, handle.triggeredAtMs, {
    get: (opts) => (book.read(handle, 'tried'), kind.read(api, id, opts)),
    isOver: (r) => (
      book.read(handle, 'seen', type === 'test' ? (r as TestResult) : undefined),
      kind.isOver(r)
    ),
    onProblem: (reason) => book.problem(handle, reason),
    ...(type === 'suite' && suiteId
      ? { group: { key: suiteId, list: (p, opts) => api.listSuiteResults(suiteId, p, opts) } }
      : {}),
  });
  if (!result) {
    if (stopper.signal.aborted) return;
    const { run, lastResult } = handle;
    const standIn = [book.standInTest(handle, null, 'error', run.error, lastResult?.name)];
    book.end(handle, 'error', type === 'test' ? { tests: standIn } : {});
    return;
  }
  let tests: TestRun[];
  if (type === 'suite') {
    const over = result as SuiteResult;
    book.suiteOver(handle, over);
    const results = await listSuiteTests(ctx, id, stopper.signal, suiteTestCount(over));
    if (results === null) {
      const error = 'The test results of the suite result could not be listed.';
      if (!stopper.signal.aborted) book.end(handle, 'error', { error });
      return;
    }
    tests = results.map((r) => book.testRunOf(r, over.passing === null ? 'cancelled' : 'error'));
  } else {
    tests = [book.testOf(handle, result as TestResult)];
  }
  const shown = tests[0]?.result;
  const browsers = ctx.plan.execute.browser;
  book.settle(
    handle,
    tests,
    shown ? variantFromResult(handle.run.variant, shown, browsers) : handle.run.variant,
  );
  await retryFailures(ctx, handle);
  book.end(handle, 'over');
  failFastOn(ctx, handle);
}
