/**
 * Results started elsewhere (`result-ids`), each followed like a run this action started. A bare id is
 * read as a suite result, then as a test result (docs/api-contract.md, "Polling a run").
 */
import { isNotFound } from '../../api/errors.js';
import { refId } from '../../api/refs.js';
import type { SuiteResult, TestResult } from '../../api/types.js';
import type { ResultRef } from '../../inputs/schema.js';
import { messageOf } from '../../common/log.js';
import type { Handle } from '../book.js';
import type { EngineContext } from '../context.js';
import { problemKind } from '../events.js';
import { RESULT_KINDS, type Answer } from '../kinds.js';
import type { TriggerJob } from '../types.js';

/** Reads `ref` as each kind it may be, asking again through the not-found grace; throws when it never answers. */
async function read(
  ctx: Pick<EngineContext, 'api' | 'clock' | 'waits'>,
  ref: ResultRef,
  signal: AbortSignal,
): Promise<{ type: 'suite' | 'test'; result: Answer }> {
  const until = ctx.clock.now() + ctx.waits.notFoundGraceMs;
  for (;;) {
    for (const type of ref.type ? [ref.type] : (['suite', 'test'] as const)) {
      try {
        return { type, result: await RESULT_KINDS[type].read(ctx.api, ref.id, { signal }) };
      } catch (error) {
        if (!isNotFound(error)) throw error;
      }
    }
    if (ctx.clock.now() >= until) throw new Error(`no ${ref.type ?? 'suite or test'} result has this id`);
    await ctx.clock.sleep(ctx.waits.notFoundRetryMs, signal);
    if (signal.aborted) throw new Error('not read before the action stopped');
  }
}

/** Follows the result `ref` names; its handle, none when it cannot be read (a run in error) or on a stop. */
export async function followResult(
  ctx: Pick<EngineContext, 'plan' | 'api' | 'clock' | 'emit' | 'waits' | 'stopper' | 'book'>,
  ref: ResultRef,
): Promise<Handle[]> {
  const label = `${ref.type ?? 'suite or test'} result ${ref.id}`;
  const now = ctx.clock.now();
  let found: Awaited<ReturnType<typeof read>>;
  try {
    found = await read(ctx, ref, ctx.stopper.signal);
  } catch (error) {
    const message = ctx.stopper.reason ? 'not read before the action stopped' : messageOf(error);
    const base = {
      kind: 'suite',
      suiteId: null,
      suiteName: `Result ${ref.id}`,
      keyBase: `result-${ref.id}`,
    } as const;
    const problem = { kind: problemKind(error), label, id: ref.id, message };
    ctx.book.resultless(base, {}, { error: `Could not read ${label}: ${message}` }, problem);
    return [];
  }
  const job: TriggerJob =
    found.type === 'suite'
      ? { kind: 'suite', suiteId: refId((found.result as SuiteResult).suite) ?? ref.id }
      : { kind: 'test', testId: refId((found.result as TestResult).test) ?? ref.id };
  // Named again (`X` and `test-result:X`): one run, followed once.
  if (ctx.book.follows(found.type, found.result._id)) return [];
  // Started elsewhere: waited for, never cancelled unless `cancel-result-ids` says so.
  const inferred = ctx.plan.cancelResultIds !== true;
  const handle = ctx.book.start(job, found.result, {}, now, inferred);
  ctx.emit({ type: 'run-started', label, resultIds: [found.result._id] });
  return [handle];
}
