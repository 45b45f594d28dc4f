/** Trigger: each job executed once (`immediate=1`) under the one limiter; a lost answer is reconciled. */
import type { GhostInspectorApi, RequestOptions } from '../../api/api.js';
import type { ExecuteOptions } from '../../api/types.js';
import { messageOf } from '../../common/log.js';
import { runBaseOf, type Handle, type RunBook } from '../book.js';
import type { EngineContext } from '../context.js';
import { problemKind } from '../events.js';
import type { Answer } from '../kinds.js';
import { MAY_HAVE_STARTED_ERROR, mayHaveStartedAmong, NOT_STARTED_ERROR } from '../stop/deadline.js';
import {
  asArray,
  dataRowVariables,
  expectedVariants,
  jobId,
  jobLabel,
  optionsFor,
  variantAt,
  variantCombinations,
  type TriggerJob,
} from '../plan/execute.js';
import { followResult } from './result-ids.js';
import { expandFolders, planJobs } from '../plan/plan.js';
import { findTriggeredRuns, mayHaveStarted, variantFit } from './reconcile.js';
import type { StopReason, Variant } from '../types.js';

/** Told all runs of each execute (variants, data rows) as soon as it is answered or reconciled. */
export type OnRunsStarted = (handles: Handle[]) => void;

type TriggerContext = Omit<EngineContext, 'watcher'>;
type LookupContext = Pick<EngineContext, 'plan' | 'api' | 'clock' | 'emit' | 'stopper' | 'book'>;

/**
 * Plans and triggers every run and follows `resultIds`; resolves when every execute is answered, failed or
 * reconciled. Runs go to `onStarted` per execute; problems go out as one `trigger-problems` event.
 */
export async function triggerAll(
  ctx: TriggerContext,
  onStarted: OnRunsStarted = () => undefined,
): Promise<void> {
  ctx.book.triggering = true;
  try {
    const jobs = planJobs(ctx.plan, await expandFolders(ctx));
    const started = async (start: () => Promise<Handle[]>): Promise<void> => {
      const handles = await ctx.limit(start);
      if (handles.length > 0) onStarted(handles);
    };
    await Promise.all([
      ...jobs.map((job) => started(() => trigger(ctx, job))),
      ...(ctx.plan.resultIds ?? []).map((ref) => started(() => followResult(ctx, ref))),
    ]);
  } finally {
    ctx.book.triggering = false;
    const problems = ctx.book.takeProblems();
    if (problems.length > 0) ctx.emit({ type: 'trigger-problems', problems });
  }
}

/** Sends the execute of `job`; `opts` carry its signals. */
export function execute(
  api: GhostInspectorApi,
  organizationId: string | null,
  job: TriggerJob,
  options: ExecuteOptions,
  opts: RequestOptions,
): Promise<unknown> {
  if (job.kind === 'suite') return api.executeSuite(job.suiteId, options, opts);
  if (job.kind === 'test') return api.executeTest(job.testId, options, opts);
  return api.executeOnDemand(organizationId ?? '', job.definition, options, opts);
}

/** The runs a job would have started (one per variant and data row), never started: the action stopped. */
function notStarted(book: RunBook, job: TriggerJob, options: ExecuteOptions, reason: StopReason): Handle[] {
  const error = NOT_STARTED_ERROR[reason];
  const problem = { kind: error, label: jobLabel(job), id: jobId(job), message: error };
  expectedVariants(options, job.startUrl).forEach((variant, i) =>
    book.resultless(runBaseOf(job), variant, { error, notStarted: reason }, i === 0 ? problem : undefined),
  );
  return [];
}

function startUrlVariant(job: TriggerJob): Variant {
  return job.startUrl !== undefined ? { startUrl: job.startUrl } : {};
}

/** Looks up the runs of an unanswered execute that may have started them: adopted, or "may have started". */
async function reconcile(
  ctx: LookupContext,
  job: TriggerJob,
  options: ExecuteOptions,
  triggeredAtMs: number,
  error: unknown,
): Promise<Handle[]> {
  const request = {
    job,
    options,
    triggeredAtMs,
    expected: expectedVariants(options, job.startUrl).length,
    known: ctx.book.knownIds(),
    organizationId: ctx.plan.organizationId,
    signal: ctx.stopper.lookupSignal,
  };
  const found = await findTriggeredRuns(ctx.api, request, ctx.clock);
  const label = jobLabel(job);
  if (found.adopted.length === 0) {
    const links = found.candidates.map((r) => ctx.book.link(job.kind === 'suite' ? 'suite' : 'test', r._id));
    const error_ =
      links.length === 0
        ? `${MAY_HAVE_STARTED_ERROR} ${messageOf(error)}`
        : `${mayHaveStartedAmong(links.length, request.expected)} ${messageOf(error)} Candidates: ${links.join(' ')}`;
    const kind = links.length === 0 ? 'may have started; not found' : 'may have started; not proven';
    const outcome = { error: `${label}: ${error_}`, mayHaveStarted: true };
    const problem = { kind, label, id: jobId(job), message: error_ };
    ctx.book.resultless(runBaseOf(job), startUrlVariant(job), outcome, problem, triggeredAtMs);
    return [];
  }
  const handles = adopt(ctx.book, job, options, found.adopted, triggeredAtMs, 'found');
  ctx.emit({ type: 'runs-found', label, resultIds: handles.map((h) => h.remote.id) });
  return handles;
}

/**
 * The index in `free` of the variant `result` shows best (all fields shown equal, else none differing); -1:
 * none. A data row is told by the values its result shows (`rows`: each row's variables); a suite result
 * shows none. The start URL is one per execute (and shown after `{{variables}}` and rebasing): not compared.
 */
function bestVariant(result: Answer, free: Variant[], rows: Array<Record<string, string>>): number {
  const fits = free.map((v) =>
    variantFit(result, {
      browser: v.browser,
      region: v.region,
      viewport: v.viewport,
      ...(v.dataRow !== undefined ? { variables: rows[v.dataRow] } : {}),
    }),
  );
  const match = fits.indexOf('match');
  return match >= 0 ? match : fits.indexOf('unknown');
}

/**
 * Follows the results an execute started (its answer, or the runs `found` after a lost answer), each as the
 * variant it shows; each variant asked for that no result stands for is an `error` run. A result named twice,
 * or already followed, stands for no other variant. Their handles.
 */
function adopt(
  book: RunBook,
  job: TriggerJob,
  options: ExecuteOptions,
  answered: Answer[],
  triggeredAtMs: number,
  how: 'answered' | 'found',
): Handle[] {
  const type = job.kind === 'suite' ? 'suite' : 'test';
  const results = answered.filter(
    (r, i) => answered.findIndex((o) => o._id === r._id) === i && !book.follows(type, r._id),
  );
  const combos = variantCombinations(options);
  const hasRows = options.dataFile !== undefined || options.dataSource !== undefined;
  const counted = options.dataSource === undefined;
  const free = counted ? expectedVariants(options, job.startUrl) : [];
  const asked = free.length;
  const rows = dataRowVariables(options);
  const handles = results.map((result, i) => {
    const k = bestVariant(result, free, rows);
    const variant =
      k >= 0 ? free.splice(k, 1)[0] : variantAt(i, combos, hasRows && results.length > 1, job.startUrl);
    return book.start(job, result, variant, triggeredAtMs);
  });
  for (const variant of free) {
    const error = `${jobLabel(job)}: the service ${how} ${asked - free.length} of ${asked} runs; this one is missing.`;
    // Left out of the answer, not refused: it may have run.
    book.resultless(runBaseOf(job), variant, { error, mayHaveStarted: true }, undefined, triggeredAtMs);
  }
  return handles;
}

/** Triggers one job; the handles of the runs it started. After a stop its runs are reported not started. */
async function trigger(ctx: LookupContext, job: TriggerJob): Promise<Handle[]> {
  const options = optionsFor(job, ctx.plan.execute);
  if (ctx.stopper.reason) return notStarted(ctx.book, job, options, ctx.stopper.reason);
  const now = ctx.clock.now();
  const label = jobLabel(job);
  let data: unknown;
  try {
    // A stop aborts it after its grace time (then reconciled); a re-send waiting after a 429 stops at once.
    const opts = { signal: ctx.stopper.triggerSignal, retrySignal: ctx.stopper.signal };
    data = await execute(ctx.api, ctx.plan.organizationId, job, options, opts);
  } catch (error) {
    if (mayHaveStarted(error)) return reconcile(ctx, job, options, now, error);
    if (ctx.stopper.reason) return notStarted(ctx.book, job, options, ctx.stopper.reason);
    const message = messageOf(error);
    const outcome = { error: `Could not start ${label}: ${message}` };
    const problem = { kind: problemKind(error), label, id: jobId(job), message };
    ctx.book.resultless(runBaseOf(job), startUrlVariant(job), outcome, problem, now);
    return [];
  }
  const results = asArray<Answer>(data);
  if (results.length === 0) {
    const base = { ...runBaseOf(job), suiteName: job.kind === 'file' ? job.file : label };
    const outcome = { error: `The execute of ${label} answered no result.` };
    ctx.book.resultless(base, {}, outcome, undefined, now);
    return [];
  }
  const handles = adopt(ctx.book, job, options, results, now, 'answered');
  ctx.emit({ type: 'run-started', label, resultIds: handles.map((h) => h.remote.id) });
  return handles;
}
