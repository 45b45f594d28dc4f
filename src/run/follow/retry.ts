/** Retry: under `retry-failed` (0–3) each failed test is re-run alone with its variant; a pass makes it flaky. */
import type { ExecuteOptions, TestResult } from '../../api/types.js';
import { messageOf } from '../../common/log.js';
import type { Handle } from '../book.js';
import type { EngineContext } from '../context.js';
import { RESULT_KINDS } from '../kinds.js';
import { failFastOn } from '../stop/fail-fast.js';
import { cancelRemote } from '../stop/stop.js';
import { asArray, retryOptions, variantFromResult, type TriggerJob } from '../plan/execute.js';
import { findTriggeredRuns, mayHaveStarted } from '../trigger/reconcile.js';
import { execute } from '../trigger/trigger.js';
import type { TestRun, Variant } from '../types.js';

type SendContext = Pick<EngineContext, 'plan' | 'api' | 'clock' | 'emit' | 'limit' | 'stopper' | 'book'>;

/** Re-runs the failed tests of a run (all at once), when `retry-failed` asks for it. */
export async function retryFailures(ctx: EngineContext, handle: Handle): Promise<void> {
  if (ctx.plan.retryFailed <= 0) return;
  const failed = handle.run.tests.filter((t) => t.state === 'failed');
  await Promise.all(failed.map((t) => retryTest(ctx, handle, t)));
}

/** What one test's re-runs need; `job`: the test alone, or the repository test file. */
interface Rerun {
  handle: Handle;
  test: TestRun;
  job: TriggerJob;
  options: ExecuteOptions;
  variant: Variant;
}

/** Sends one re-run; a lost answer is looked up. Undefined when no re-run could be had. */
async function sendRerun(ctx: SendContext, rerun: Rerun): Promise<TestResult | undefined> {
  const signal = ctx.stopper.signal;
  const triggeredAtMs = ctx.clock.now();
  try {
    return await ctx.limit(async () => {
      const data = await execute(ctx.api, ctx.plan.organizationId, rerun.job, rerun.options, { signal });
      return asArray<TestResult>(data)[0];
    });
  } catch (error) {
    if (mayHaveStarted(error)) return findRerun(ctx, rerun, triggeredAtMs, messageOf(error));
    if (!signal.aborted) {
      ctx.emit({ ...names(rerun), type: 'retry-problem', problem: 'not-sent', message: messageOf(error) });
    }
    return undefined;
  }
}

function names(rerun: Rerun): { testName: string; variant: Variant } {
  return { testName: rerun.test.testName, variant: rerun.variant };
}

async function retryTest(ctx: EngineContext, handle: Handle, test: TestRun): Promise<void> {
  const { api, book, emit, plan } = ctx;
  const { job: ran } = handle;
  if (ran.kind !== 'file' && !test.testId) return;
  const variant = test.result
    ? variantFromResult(handle.run.variant, test.result, plan.execute.browser)
    : handle.run.variant;
  const options = retryOptions(plan.execute, variant, test.result);
  // A repository test carries the start URL it runs under (see optionsFor).
  if (ran.kind === 'file' && options.startUrl !== undefined && ran.definition.startUrl) {
    options.startUrl = ran.definition.startUrl;
  }
  const job: TriggerJob = ran.kind === 'file' ? ran : { kind: 'test', testId: test.testId ?? '' };
  const rerun: Rerun = { handle, test, job, options, variant };
  for (let attempt = 1; attempt <= plan.retryFailed; attempt++) {
    if (ctx.stopper.signal.aborted) return;
    emit({ ...names(rerun), type: 'retrying', attempt: attempt + 1, attempts: plan.retryFailed + 1 });
    const triggeredAtMs = ctx.clock.now();
    const started = await sendRerun(ctx, rerun);
    if (!started) return;
    if (book.follows('test', started._id)) {
      const message = `The service answered with test result ${started._id}, which is followed already.`;
      emit({ ...names(rerun), type: 'retry-problem', problem: 'not-read', message });
      return;
    }
    const result = await ctx.watcher.wait<TestResult>(book.addRemote('test', started._id), triggeredAtMs, {
      get: (opts) => api.getTestResult(started._id, opts),
      isOver: RESULT_KINDS.test.isOver,
      onProblem: (message) => emit({ ...names(rerun), type: 'retry-problem', problem: 'not-read', message }),
    });
    if (!result) return;
    if (book.retried(test, result) !== 'failed') {
      book.tell(handle.run, test, false);
      return;
    }
  }
  book.tell(handle.run, test, false);
  // Its re-runs are spent and it still failed: a failure for good.
  failFastOn(ctx, handle, test);
}

/** A re-run whose execute may have started one (`why`: its error): followed if found, else told; never resent. */
async function findRerun(
  ctx: SendContext,
  rerun: Rerun,
  triggeredAtMs: number,
  why: string,
): Promise<TestResult | undefined> {
  const request = {
    job: rerun.job,
    options: rerun.options,
    triggeredAtMs,
    expected: 1,
    known: ctx.book.knownIds(),
    organizationId: ctx.plan.organizationId,
    signal: ctx.stopper.lookupSignal,
  };
  const first = (await findTriggeredRuns(ctx.api, request, ctx.clock)).adopted[0] as TestResult | undefined;
  if (!first) {
    ctx.emit({ ...names(rerun), type: 'retry-problem', problem: 'not-found', message: why });
    return undefined;
  }
  if (ctx.stopper.signal.aborted) {
    // Adopted runs are proven this step's (reconcile.ts): cancelled.
    await cancelRemote(ctx, { type: 'test', id: first._id, active: true }, ctx.stopper.wrapUpSignal);
    return undefined;
  }
  return first;
}
