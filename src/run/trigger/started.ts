/** A started run joins the engine: its run model, its remote (to cancel) and its handle for the watch. */
import { refId, refName } from '../../api/refs.js';
import type { SuiteResult, TestResult } from '../../api/types.js';
import { addRemote, iso, nextKey, type EngineContext, type Handle } from '../context.js';
import { slug, type TriggerJob } from '../plan/execute.js';
import type { SuiteRun, Variant } from '../types.js';

/** The run model of a started run, before its result is over. */
function startedRun(
  ctx: EngineContext,
  job: TriggerJob,
  result: SuiteResult | TestResult,
  variant: Variant,
  now: number,
): SuiteRun {
  if (job.kind === 'suite') {
    const sr = result as SuiteResult;
    const run: SuiteRun = {
      kind: 'suite',
      key: nextKey(ctx, `suite-${job.suiteId}`),
      suiteId: job.suiteId,
      suiteName: sr.name || refName(sr.suite) || `Suite ${job.suiteId}`,
      variant,
      suiteResultId: sr._id,
      suiteResult: sr,
      triggeredAt: iso(now),
      tests: [],
    };
    return run;
  }
  const tr = result as TestResult;
  const base = job.kind === 'test' ? `test-${job.testId}` : `file-${slug(job.file)}-${job.index}`;
  const run: SuiteRun = {
    kind: job.kind,
    key: nextKey(ctx, base),
    suiteId: job.kind === 'test' && tr.test && typeof tr.test === 'object' ? refId(tr.test.suite) : null,
    suiteName: job.kind === 'file' ? job.file : tr.name || `Test ${job.testId}`,
    testId: job.kind === 'test' ? job.testId : null,
    ...(job.kind === 'file' ? { file: job.file } : {}),
    testResultId: tr._id,
    variant,
    triggeredAt: iso(now),
    tests: [],
  };
  return run;
}

/**
 * Follows one started result: its run, its remote (to cancel unless `inferred`: not proven the step's own),
 * its handle for the watch.
 */
export function addHandle(
  ctx: EngineContext,
  job: TriggerJob,
  result: SuiteResult | TestResult,
  variant: Variant,
  now: number,
  inferred = false,
): Handle {
  const run = startedRun(ctx, job, result, variant, now);
  const remote = addRemote(ctx, job.kind === 'suite' ? 'suite' : 'test', result._id, inferred);
  ctx.runs.push(run);
  const handle: Handle = {
    run,
    remote,
    triggeredAtMs: now,
    done: false,
    settled: false,
    job,
    ...(job.kind !== 'suite' ? { lastResult: result as TestResult } : {}),
  };
  ctx.handles.push(handle);
  return handle;
}
