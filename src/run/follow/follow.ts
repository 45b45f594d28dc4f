/**
 * Following one run: wait for its result (`watcher.ts`), read its tests (`read/`), re-run its failures
 * (`retry.ts`) and end it; a stop ends the wait and leaves the run to the stop phase (`stop/stop.ts`).
 */
import type { SuiteResult, TestResult } from '../../api/types.js';
import { endRun, nameOf, testFinished, testRunOf, type EngineContext, type Handle } from '../context.js';
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
  const id = handle.remote.id;
  const suiteId = handle.run.suiteId;
  const result = await watchResult<SuiteResult>(ctx, handle.remote, handle.triggeredAtMs, {
    get: (opts) => ((handle.read ??= 'tried'), ctx.api.getSuiteResult(id, opts)),
    isOver: (r) => ((handle.read = 'seen'), isSuiteResultOver(r)),
    onProblem: (reason) => (handle.run.error = reason),
    ...(suiteId
      ? { group: { key: suiteId, list: (p, opts) => ctx.api.listSuiteResults(suiteId, p, opts) } }
      : {}),
  });
  if (!result) {
    if (!ctx.stop.signal.aborted) endRun(ctx, handle);
    return;
  }
  handle.run.suiteResult = result;
  if (result.name) handle.run.suiteName = result.name;
  const tests = await suiteTestsOf(ctx, handle, result);
  if (tests === null) {
    if (!ctx.stop.signal.aborted) {
      handle.run.error = 'The test results of the suite result could not be listed.';
      endRun(ctx, handle);
    }
    return;
  }
  const cancelled = result.passing === null;
  handle.run.tests = tests.map((r) => testRunOf(ctx, r, cancelled ? 'cancelled' : 'error'));
  if (tests[0]) {
    handle.run.variant = variantFromResult(handle.run.variant, tests[0], ctx.plan.execute.browser);
  }
  await settle(ctx, handle);
}

async function followTest(ctx: EngineContext, handle: Handle): Promise<void> {
  const id = handle.remote.id;
  const result = await watchResult<TestResult>(ctx, handle.remote, handle.triggeredAtMs, {
    get: (opts) => ((handle.read ??= 'tried'), ctx.api.getTestResult(id, opts)),
    isOver: (r) => {
      handle.read = 'seen';
      handle.lastResult = r;
      return classifyTestResult(r) !== 'running';
    },
    onProblem: (reason) => (handle.run.error = reason),
  });
  if (!result) {
    if (!ctx.stop.signal.aborted) {
      handle.run.tests = [
        {
          testId: handle.run.testId ?? null,
          testName: handle.lastResult?.name || nameOf(handle.job),
          state: 'error',
          result: null,
          attempts: [],
          error: handle.run.error,
        },
      ];
      endRun(ctx, handle);
    }
    return;
  }
  handle.run.variant = variantFromResult(handle.run.variant, result, ctx.plan.execute.browser);
  const testRun = testRunOf(ctx, result, 'error');
  if (handle.job.kind === 'file') testRun.testName = result.name || handle.job.name;
  handle.run.tests = [testRun];
  await settle(ctx, handle);
}

/** The run's tests are known: told, their failures re-run, the run ended; fail-fast acts on it. */
async function settle(ctx: EngineContext, handle: Handle): Promise<void> {
  handle.settled = true;
  for (const t of handle.run.tests) testFinished(ctx, handle.run, t);
  await retryFailures(ctx, handle);
  endRun(ctx, handle);
  failFastOn(ctx, handle);
}
