/**
 * Results started elsewhere (`result-ids`: e.g. by `wait: false` in another job): each is read once and then
 * followed like a run this action started, with every report. A `suite-result:` or `test-result:` prefix
 * says which kind an id is; a bare id is read as a suite result, and as a test result when no suite result
 * has it. docs/api-contract.md, "Polling a run".
 */
import { ApiError, isNotFound } from '../../api/errors.js';
import { refId } from '../../api/refs.js';
import type { SuiteResult, TestResult } from '../../api/types.js';
import type { ResultRef } from '../../inputs/schema.js';
import { messageOf, pushResultless, type EngineContext, type Handle } from '../context.js';
import type { TriggerJob } from '../plan/execute.js';
import { addHandle } from '../trigger/started.js';

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

/**
 * Reads `ref`; a result not found is asked again for the engine's not-found grace (one just started may
 * not be readable yet). Throws the last answer's error when it never is.
 */
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

/**
 * Follows the result `ref` names: its handle (none when it cannot be read, reported as a run in error, or
 * when the engine stopped first).
 */
export async function followResult(ctx: EngineContext, ref: ResultRef): Promise<Handle[]> {
  const label = `${ref.type ?? 'suite or test'} result ${ref.id}`;
  const now = ctx.clock.now();
  let found: Found;
  try {
    found = await read(ctx, ref, ctx.stop.signal);
  } catch (error) {
    const message = ctx.stopReason ? 'not read before the action stopped' : messageOf(error);
    const base = { kind: 'suite', suiteId: null, suiteName: `Result ${ref.id}` } as const;
    pushResultless(ctx, base, `result-${ref.id}`, {}, { error: `Could not read ${label}: ${message}` });
    const kind = error instanceof ApiError ? error.errorType : 'error';
    ctx.problems.add(kind, { label, id: ref.id, message });
    return [];
  }
  const job: TriggerJob =
    found.type === 'suite'
      ? { kind: 'suite', suiteId: refId(found.result.suite) ?? ref.id }
      : { kind: 'test', testId: refId(found.result.test) ?? ref.id };
  const handle = addHandle(ctx, job, found.result, {}, now);
  ctx.emit({ type: 'run-started', label, resultIds: [found.result._id] });
  return [handle];
}
