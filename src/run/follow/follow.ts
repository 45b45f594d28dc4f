/**
 * Following one run: wait for its result (`watcher.ts`), read its tests (`read/`), re-run its failures
 * (`retry.ts`) and end it; a stop ends the wait and leaves the run to the stop phase (`stop/stop.ts`).
 */
import type { SuiteResult, TestResult } from '../../api/types.js';
import { nameOf, type Handle } from '../book.js';
import type { EngineContext } from '../context.js';
import { variantFromResult } from '../plan/execute.js';
import { failFastOn } from '../stop/fail-fast.js';
import { classifyTestResult, isSuiteResultOver } from '../outcome/outcome.js';
import { suiteTestsOf } from '../read/read.js';
import { retryFailures } from './retry.js';
import { watchResult } from './watcher.js';

/** Waits for a run, reads its tests and re-runs its failures; the run is ended unless the engine stopped. */
export async function follow(ctx: EngineContext, handle: Handle): Promise<void> {
  if (handle.remote.type === 'suite') await followSuite(ctx, handle);
  else await followTest(ctx, handle);
}

async function followSuite(ctx: EngineContext, handle: Handle): Promise<void> {
  const { book } = ctx;
  const id = handle.remote.id;
  const suiteId = handle.run.suiteId;
  const result = await watchResult<SuiteResult>(ctx, handle.remote, handle.triggeredAtMs, {
    get: (opts) => (book.read(handle, 'tried'), ctx.api.getSuiteResult(id, opts)),
    isOver: (r) => (book.read(handle, 'seen'), isSuiteResultOver(r)),
    onProblem: (reason) => book.problem(handle, reason),
    ...(suiteId
      ? { group: { key: suiteId, list: (p, opts) => ctx.api.listSuiteResults(suiteId, p, opts) } }
      : {}),
  });
  if (!result) {
    if (!ctx.stopper.signal.aborted) book.end(handle, 'error');
    return;
  }
  book.suiteOver(handle, result);
  const tests = await suiteTestsOf(ctx, handle, result);
  if (tests === null) {
    const error = 'The test results of the suite result could not be listed.';
    if (!ctx.stopper.signal.aborted) book.end(handle, 'error', { error });
    return;
  }
  const ifRunning = result.passing === null ? 'cancelled' : 'error';
  const variant = tests[0]
    ? variantFromResult(handle.run.variant, tests[0], ctx.plan.execute.browser)
    : handle.run.variant;
  book.settle(
    handle,
    tests.map((r) => book.testRunOf(r, ifRunning)),
    variant,
  );
  await settled(ctx, handle);
}

async function followTest(ctx: EngineContext, handle: Handle): Promise<void> {
  const { book } = ctx;
  const id = handle.remote.id;
  const result = await watchResult<TestResult>(ctx, handle.remote, handle.triggeredAtMs, {
    get: (opts) => (book.read(handle, 'tried'), ctx.api.getTestResult(id, opts)),
    isOver: (r) => (book.read(handle, 'seen', r), classifyTestResult(r) !== 'running'),
    onProblem: (reason) => book.problem(handle, reason),
  });
  if (!result) {
    if (ctx.stopper.signal.aborted) return;
    const { run, lastResult, job } = handle;
    const testName = lastResult?.name || nameOf(job);
    const test = {
      testId: run.testId ?? null,
      testName,
      state: 'error' as const,
      result: null,
      attempts: [],
    };
    book.end(handle, 'error', { tests: [{ ...test, error: run.error }] });
    return;
  }
  const variant = variantFromResult(handle.run.variant, result, ctx.plan.execute.browser);
  const name = handle.job.kind === 'file' ? result.name || handle.job.name : undefined;
  book.settle(handle, [book.testRunOf(result, 'error', name)], variant);
  await settled(ctx, handle);
}

/** The run's tests are known and told: their failures re-run, the run ended; fail-fast acts on it. */
async function settled(ctx: EngineContext, handle: Handle): Promise<void> {
  await retryFailures(ctx, handle);
  ctx.book.end(handle, 'over');
  failFastOn(ctx, handle);
}
