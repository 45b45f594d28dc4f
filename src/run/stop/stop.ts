/**
 * Stopping at the deadline, on a workflow cancel or on fail-fast: every wait ends, then the runs are settled
 * or cancelled within the wrap-up times of `stopper.ts` (docs/run-stopping.md).
 */
import type { SuiteResult, TestResult } from '../../api/types.js';
import { timeoutSignal } from '../../common/clock.js';
import { messageOf } from '../../common/log.js';
import type { Handle, Remote, RunBook } from '../book.js';
import type { EngineContext } from '../context.js';
import { FAIL_FAST_CANCEL_ERROR, describeTimeout } from './deadline.js';
import { isSuiteResultOver, suiteTestCount } from '../outcome/outcome.js';
import type { TestRun } from '../types.js';
import { forEachPage, MAX_PAGES } from '../read/paging.js';
import { listSuiteTests } from '../read/read.js';

type Answer = SuiteResult | TestResult;

/** Sleeps until the deadline; then, if runs are going or triggering, tells it and calls `onDeadline`. */
export async function watchDeadline(ctx: EngineContext, onDeadline: () => void): Promise<void> {
  const remaining = ctx.startedAtMs + ctx.plan.timeoutMs - ctx.clock.now();
  await ctx.clock.sleep(remaining, ctx.stopper.finishedSignal);
  if (ctx.stopper.finishedSignal.aborted) return;
  if (ctx.book.open().length > 0 || ctx.triggering) {
    ctx.emit({ type: 'timed-out', timeoutMs: ctx.plan.timeoutMs });
    onDeadline();
  }
}

/** Tells every `periodMs` how many runs are going, until `quiet` says stop or nothing runs or triggers. */
export async function heartbeat(ctx: EngineContext, periodMs: number, quiet: () => boolean): Promise<void> {
  for (;;) {
    await ctx.clock.sleep(periodMs, ctx.stopper.finishedSignal);
    if (ctx.stopper.signal.aborted || ctx.stopper.finishedSignal.aborted || quiet()) return;
    const running = ctx.book.open().length;
    // Runs are watched while later ones are still being triggered: none running yet is no end then.
    if (running === 0 && !ctx.triggering) return;
    if (running === 0) continue;
    const elapsedMs = ctx.clock.now() - ctx.startedAtMs;
    ctx.emit({ type: 'heartbeat', running, finishedTests: ctx.book.finishedTests, elapsedMs });
  }
}

/** Cancels one remote result; its answer, or null (told) on failure. `neverWait`: skip the budget wait. */
export async function cancelRemote(
  ctx: EngineContext,
  remote: Remote,
  signal?: AbortSignal,
  neverWait = false,
): Promise<Answer | null> {
  try {
    const opts = { signal, neverWait };
    const result =
      remote.type === 'suite'
        ? await ctx.api.cancelSuiteResult(remote.id, opts)
        : await ctx.api.cancelTestResult(remote.id, opts);
    ctx.book.release(remote);
    return result;
  } catch (error) {
    ctx.emit({ type: 'cancel-failed', remoteType: remote.type, id: remote.id, message: messageOf(error) });
    return null;
  }
}

/** What an ended suite result said: `passed`, `failed` or `cancelled`. */
function saidOf(result: SuiteResult): string {
  return result.passing === true ? 'passed' : result.passing === false ? 'failed' : 'cancelled';
}

/** Settles a run open at the deadline: timed out (or cancelled), or an error if only its list is unread. */
async function timeOut(ctx: EngineContext, handle: Handle, signal: AbortSignal): Promise<void> {
  const { book } = ctx;
  const { run, remote } = handle;
  const timeout = describeTimeout(ctx.plan.timeoutMs);
  if (run.suiteResult && isSuiteResultOver(run.suiteResult)) {
    const results = await listSuiteTests(ctx, remote.id, signal, suiteTestCount(run.suiteResult));
    const tests = (results ?? []).map((r) => book.testRunOf(r, 'error'));
    const said = saidOf(run.suiteResult);
    const unread = `The suite result had ended (${said}), but its list of test results was not read before the timeout (${timeout}).`;
    book.end(handle, 'over', { tests, told: tests, ...(results === null ? { error: unread } : {}) });
    return;
  }
  const cancelled = ctx.plan.cancelOnTimeout && !remote.active;
  if (handle.read === 'tried') {
    // Asked for, but not one read succeeded: nothing says it is still running.
    const error = `Its result could not be read before the timeout (${timeout})${cancelled ? '; cancelled' : ''}.`;
    const tests = remote.type === 'suite' ? run.tests : [book.standInTest(handle, null, 'error', error)];
    book.end(handle, 'unread', { error, tests, told: tests });
    return;
  }
  const error = `Still running at the timeout (${timeout})${cancelled ? '; cancelled' : ''}.`;
  const still = 'Still running at the timeout.';
  let tests: TestRun[];
  if (remote.type === 'suite') {
    const results = await listSuiteTests(ctx, remote.id, signal);
    tests = (results ?? []).map((r) => {
      const t = book.testRunOf(r, 'timed-out');
      const state = t.state === 'cancelled' && cancelled ? 'timed-out' : t.state;
      return state === 'timed-out' ? { ...t, state, error: still } : t;
    });
  } else {
    tests = [book.standInTest(handle, handle.lastResult ?? null, 'timed-out', still)];
  }
  book.end(handle, 'timed-out', {
    cancelled,
    error,
    tests,
    told: tests.filter((t) => t.state === 'timed-out'),
  });
}

/** At the deadline: cancel (if asked) what still runs, keep what finished, mark the rest timed out. */
export async function settleAtDeadline(ctx: EngineContext): Promise<void> {
  // Runs whose result is over were ended by their own follow, which the engine awaited (their re-runs
  // stopped with it): what is open here never had its result.
  const open = ctx.book.open();
  // Every request here ends with the wrap-up time (stopper.ts): the step ends within timeout + 10 s.
  const signal = ctx.stopper.wrapUpSignal;
  if (ctx.plan.cancelOnTimeout) {
    const active = ctx.book.cancellable();
    await Promise.all(active.map((r) => cancelRemote(ctx, r, signal)));
  }
  await Promise.all(open.map((handle) => timeOut(ctx, handle, signal)));
}

/** Why runs are cancelled at once: a workflow cancel, or `fail-fast` (a test failed). */
export type CancelReason = 'signal' | 'fail-fast';

const INFERRED_NOT_CANCELLED =
  'Not followed further and not cancelled: started elsewhere (result-ids), it is only waited for.';

const CANCEL_ERROR: Readonly<Record<CancelReason, string>> = {
  signal: 'Cancelled with the workflow.',
  'fail-fast': FAIL_FAST_CANCEL_ERROR,
};

/** Marks a run open at a workflow cancel or fail-fast cancelled; its tests already over keep their state. */
function markCancelled(
  book: RunBook,
  handle: Handle,
  answer: Answer | undefined,
  results: TestResult[],
  reason: CancelReason,
): void {
  // A run started elsewhere was not cancelled (cancellable): the action only stopped following it.
  const inferred = handle.remote.inferred === true;
  const error = inferred ? INFERRED_NOT_CANCELLED : CANCEL_ERROR[reason];
  const suite = handle.remote.type === 'suite';
  const last = (answer as TestResult | undefined) ?? handle.lastResult ?? null;
  const tests = suite
    ? results
        .map((r) => book.testRunOf(r, 'cancelled'))
        .map((t) => (t.state === 'cancelled' ? { ...t, error } : t))
    : [book.standInTest(handle, last, 'cancelled', error)];
  const suiteResult = suite && answer ? { suiteResult: answer as SuiteResult } : {};
  book.end(handle, 'cancelled', { cancelled: !inferred, error, tests, ...suiteResult });
}

/**
 * On a workflow cancel or fail-fast: cancels every active remote run, then those the triggers in flight
 * start, and marks them all cancelled. `cancelTimeoutMs`: each cancel's timeout, ms.
 */
export async function cancelActive(
  ctx: EngineContext,
  triggering: Promise<void>,
  cancelTimeoutMs: number,
  reason: CancelReason,
): Promise<void> {
  const tag = reason === 'fail-fast' ? { reason } : {};
  const first = ctx.book.cancellable();
  if (first.length > 0) ctx.emit({ type: 'cancelling', count: first.length, late: false, ...tag });
  // Every request here ends with the wrap-up time, leaving time to write the reports before the kill.
  const overall = ctx.stopper.wrapUpSignal;
  const suiteTests = new Map<string, TestResult[]>();
  const neverWait = reason === 'signal';
  const cancelOne = async (r: Remote): Promise<Answer | null> => {
    const answer = await cancelRemote(
      ctx,
      r,
      AbortSignal.any([overall, timeoutSignal(ctx.clock, cancelTimeoutMs, ctx.stopper.finishedSignal)]),
      neverWait,
    );
    if (r.type === 'suite' && !overall.aborted) {
      // Every page, without waiting for the budget (the runner kills the process soon after a cancel).
      const byId = new Map<string, TestResult>();
      try {
        await forEachPage(
          (paging) => ctx.api.listSuiteResultTestResults(r.id, paging, { signal: overall, neverWait }),
          (page) => page.forEach((t) => byId.set(t._id, t)),
          MAX_PAGES,
        );
      } catch {
        // Keep the tests read so far (none: the run shows as cancelled).
      }
      suiteTests.set(r.id, [...byId.values()]);
    }
    return answer;
  };
  const firstAnswers = Promise.all(first.map(cancelOne));
  await triggering;
  const late = ctx.book.cancellable().filter((r) => !first.includes(r));
  if (late.length > 0) ctx.emit({ type: 'cancelling', count: late.length, late: true, ...tag });
  const active = [...first, ...late];
  const answers = [...(await firstAnswers), ...(await Promise.all(late.map(cancelOne)))];
  const byId = new Map<string, Answer>();
  active.forEach((r, i) => {
    const a = answers[i];
    if (a) byId.set(r.id, a);
  });
  for (const handle of ctx.book.open().filter((h) => h.settled)) ctx.book.end(handle, 'over');
  for (const handle of ctx.book.open()) {
    markCancelled(
      ctx.book,
      handle,
      byId.get(handle.remote.id),
      suiteTests.get(handle.remote.id) ?? [],
      reason,
    );
  }
}
