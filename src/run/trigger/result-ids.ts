/**
 * Results started elsewhere (`result-ids`), each followed like a run this action started. A bare id is
 * read as a suite result, then as a test result (docs/api-contract.md, "Polling a run").
 */
import { ApiError, isNotFound } from '../../api/errors.js';
import { refId } from '../../api/refs.js';
import type { SuiteResult, TestResult } from '../../api/types.js';
import type { ResultRef } from '../../inputs/schema.js';
import { messageOf } from '../../common/log.js';
import type { Handle } from '../book.js';
import type { EngineContext } from '../context.js';
import { jobKeyBase, type TriggerJob } from '../plan/execute.js';

type Found = { type: 'suite'; result: SuiteResult } | { type: 'test'; result: TestResult };

/** One read of `ref` as each kind it may be; null when no kind has it (yet). */
async function readOnce(ctx: EngineContext, ref: ResultRef, signal: AbortSignal): Promise<Found | null> {
  for (const type of ref.type ? [ref.type] : (['suite', 'test'] as const)) {
    try {
      if (type === 'suite') return { type, result: await ctx.api.getSuiteResult(ref.id, { signal }) };
      return { type, result: await ctx.api.getTestResult(ref.id, { signal }) };
    } catch (error) {
      if (!isNotFound(error)) throw error;
    }
  }
  return null;
}

/** Reads `ref`, asking again through the not-found grace; throws the last error when it never answers. */
async function read(ctx: EngineContext, ref: ResultRef, signal: AbortSignal): Promise<Found> {
  const until = ctx.clock.now() + ctx.waits.notFoundGraceMs;
  for (;;) {
    const found = await readOnce(ctx, ref, signal);
    if (found) return found;
    if (ctx.clock.now() >= until) throw new Error(`no ${ref.type ?? 'suite or test'} result has this id`);
    await ctx.clock.sleep(ctx.waits.notFoundRetryMs, signal);
    if (signal.aborted) throw new Error('not read before the action stopped');
  }
}

/** Follows the result `ref` names; its handle, none when it cannot be read (a run in error) or on a stop. */
export async function followResult(ctx: EngineContext, ref: ResultRef): Promise<Handle[]> {
  const label = `${ref.type ?? 'suite or test'} result ${ref.id}`;
  const now = ctx.clock.now();
  let found: Found;
  try {
    found = await read(ctx, ref, ctx.stopper.signal);
  } catch (error) {
    const message = ctx.stopper.reason ? 'not read before the action stopped' : messageOf(error);
    const base = { kind: 'suite', suiteId: null, suiteName: `Result ${ref.id}` } as const;
    ctx.book.resultless(base, `result-${ref.id}`, {}, { error: `Could not read ${label}: ${message}` });
    const kind = error instanceof ApiError ? error.errorType : 'error';
    ctx.problems.add(kind, { label, id: ref.id, message });
    return [];
  }
  const job: TriggerJob =
    found.type === 'suite'
      ? { kind: 'suite', suiteId: refId(found.result.suite) ?? ref.id }
      : { kind: 'test', testId: refId(found.result.test) ?? ref.id };
  // Started elsewhere: waited for, never cancelled unless `cancel-result-ids` says so.
  const inferred = ctx.plan.cancelResultIds !== true;
  const handle = ctx.book.start(job, jobKeyBase(job), found.result, {}, now, inferred);
  ctx.emit({ type: 'run-started', label, resultIds: [found.result._id] });
  return [handle];
}
