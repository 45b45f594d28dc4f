/** Stopping at the deadline, on a workflow cancel or on fail-fast (docs/architecture.md). */
import type { SuiteResult, TestResult } from '../../api/types.js';
import { timeoutSignal } from '../../common/clock.js';
import { messageOf } from '../../common/log.js';
import type { Handle, Remote, RunBook } from '../book.js';
import type { EngineContext } from '../context.js';
import { RESULT_KINDS, type Answer } from '../kinds.js';
import { FAIL_FAST_CANCEL_ERROR } from './deadline.js';
import { formatDuration } from '../../common/words.js';
import { isSuiteResultOver, suiteTestCount } from '../outcome/outcome.js';
import type { TestRun } from '../types.js';
import { forEachPage, MAX_PAGES, type Paging } from '../read/paging.js';
import { keptResult, type KeptTestResult } from '../kept-result.js';
import { listSuiteTests } from '../read/read.js';

type WatchClock = Pick<EngineContext, 'clock' | 'stopper' | 'book' | 'emit'>;
type SettleContext = Pick<EngineContext, 'plan' | 'api' | 'clock' | 'emit' | 'waits' | 'stopper' | 'book'>;

/** Sleeps until `atMs`; then, if runs are going or triggering, tells it and stops the engine (`deadline`). */
export async function watchDeadline(ctx: WatchClock, atMs: number, timeoutMs: number): Promise<void> {
  const { clock, stopper } = ctx;
  await clock.sleep(atMs - clock.now(), stopper.finishedSignal);
  if (stopper.finishedSignal.aborted || !ctx.book.busy()) return;
  ctx.emit({ type: 'timed-out', timeoutMs });
  stopper.halt('deadline');
}

/** Tells every `periodMs` how many runs are going, until `quiet` says stop or nothing runs or triggers. */
export async function heartbeat(
  ctx: WatchClock,
  startedAtMs: number,
  periodMs: number,
  quiet: () => boolean,
): Promise<void> {
  const { clock, stopper, book } = ctx;
  for (;;) {
    await clock.sleep(periodMs, stopper.finishedSignal);
    if (stopper.signal.aborted || stopper.finishedSignal.aborted || quiet() || !book.busy()) return;
    const running = book.open().length;
    // Runs are watched while later ones are still being triggered: none running yet is no end then.
    if (running === 0) continue;
    const elapsedMs = clock.now() - startedAtMs;
    ctx.emit({ type: 'heartbeat', running, finishedTests: book.finishedTests, elapsedMs });
  }
}

/** Cancels one remote result; its answer, or null (told) on failure. `neverWait`: skip the budget wait. */
export async function cancelRemote(
  ctx: Pick<EngineContext, 'api' | 'book' | 'emit'>,
  remote: Remote,
  signal?: AbortSignal,
  neverWait = false,
): Promise<Answer | null> {
  try {
    const result = await RESULT_KINDS[remote.type].cancel(ctx.api, remote.id, { signal, neverWait });
    ctx.book.release(remote);
    return result;
  } catch (error) {
    ctx.emit({ type: 'cancel-failed', remoteType: remote.type, id: remote.id, message: messageOf(error) });
    return null;
  }
}

/** Whether a cancel's answer shows the run had ended with a verdict before the cancel: then it is its result. */
const hasVerdict = (answer: Answer): boolean => answer.passing === true || answer.passing === false;

/**
 * Settles a run open at the deadline: its result when the cancel's `answer` shows it had ended; else timed
 * out (or cancelled) when a read showed it running, an error when no read answered or only its list is unread.
 */
async function timeOut(
  ctx: SettleContext,
  handle: Handle,
  signal: AbortSignal,
  answer: Answer | undefined,
): Promise<void> {
  const { book, plan } = ctx;
  const { run, remote } = handle;
  const timeout = formatDuration(plan.timeoutMs);
  if (answer) {
    // The cancel's answer is a read like any other.
    book.read(handle, 'seen', remote.type === 'test' ? (answer as TestResult) : undefined);
    if (hasVerdict(answer) && remote.type === 'test') {
      const tests = [book.testOf(handle, answer as TestResult)];
      book.end(handle, 'over', { tests, told: tests });
      return;
    }
    if (hasVerdict(answer)) book.suiteOver(handle, answer as SuiteResult);
  }
  const sr = run.suiteResult;
  if (sr && isSuiteResultOver(sr)) {
    const results = await listSuiteTests(ctx, remote.id, signal, suiteTestCount(sr));
    const tests = (results ?? []).map((r) => book.testRunOf(r, 'error'));
    const said = sr.passing === true ? 'passed' : sr.passing === false ? 'failed' : 'cancelled';
    const unread = `The suite result had ended (${said}), but its list of test results was not read before the timeout (${timeout}).`;
    book.end(handle, 'over', { tests, told: tests, ...(results === null ? { error: unread } : {}) });
    return;
  }
  if (handle.read !== 'seen') {
    // No read answered (none was sent, or none succeeded): nothing says it is still running.
    const how = handle.read === 'tried' ? 'could not be read' : 'was not read';
    const error = `Its result ${how} before the timeout (${timeout}).`;
    const tests = remote.type === 'suite' ? run.tests : [book.standInTest(handle, null, 'error', error)];
    book.end(handle, 'unread', { error, tests, told: tests });
    return;
  }
  const cancelled = plan.cancelOnTimeout && !remote.active;
  const andCancelled = cancelled ? '; cancelled' : '';
  const still = 'Still running at the timeout.';
  let tests: TestRun[];
  if (remote.type === 'suite') {
    tests = ((await listSuiteTests(ctx, remote.id, signal)) ?? []).map((r) => {
      const t = book.testRunOf(r, 'timed-out');
      const state = t.state === 'cancelled' && cancelled ? 'timed-out' : t.state;
      return state === 'timed-out' ? { ...t, state, error: still } : t;
    });
  } else {
    tests = [book.standInTest(handle, handle.lastResult ?? null, 'timed-out', still)];
  }
  // Not one of its tests was told yet (a suite's are told together once its result is over).
  const error = `Still running at the timeout (${timeout})${andCancelled}.`;
  book.end(handle, 'timed-out', { cancelled, error, tests, told: tests });
}

/** At the deadline: cancel (if asked) what still runs, keep what finished, mark the rest timed out. */
export async function settleAtDeadline(ctx: SettleContext): Promise<void> {
  // Runs whose result is over were ended by their own follow, which the engine awaited (their re-runs
  // stopped with it): what is open here had no result read; a cancel's answer may bring it.
  const open = ctx.book.open();
  // Every request here ends with the wrap-up time (stopper.ts): the step ends within timeout + 10 s.
  const signal = ctx.stopper.wrapUpSignal;
  const answers = new Map<Remote, Answer>();
  const cancel = async (remote: Remote): Promise<void> => {
    const answer = await cancelRemote(ctx, remote, signal);
    if (answer) answers.set(remote, answer);
  };
  if (ctx.plan.cancelOnTimeout) await Promise.all(ctx.book.cancellable().map(cancel));
  await Promise.all(open.map((handle) => timeOut(ctx, handle, signal, answers.get(handle.remote))));
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
  results: KeptTestResult[],
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
  ctx: Pick<EngineContext, 'api' | 'clock' | 'emit' | 'stopper' | 'book'>,
  triggering: Promise<void>,
  cancelTimeoutMs: number,
  reason: CancelReason,
): Promise<void> {
  const { book, stopper } = ctx;
  const tag = reason === 'fail-fast' ? { reason } : {};
  // Every request here ends with the wrap-up time, leaving time to write the reports before the kill.
  const overall = stopper.wrapUpSignal;
  const neverWait = reason === 'signal';
  const answers = new Map<string, Answer>();
  const suiteTests = new Map<string, KeptTestResult[]>();
  const cancelOne = async (r: Remote): Promise<void> => {
    const signal = AbortSignal.any([
      overall,
      timeoutSignal(ctx.clock, cancelTimeoutMs, stopper.finishedSignal),
    ]);
    const answer = await cancelRemote(ctx, r, signal, neverWait);
    if (answer) answers.set(r.id, answer);
    if (r.type !== 'suite' || overall.aborted) return;
    // Every page, without waiting for the budget (the runner kills the process soon after a cancel).
    const byId = new Map<string, KeptTestResult>();
    const list = (paging: Paging): Promise<TestResult[]> =>
      ctx.api.listSuiteResultTestResults(r.id, paging, { signal: overall, neverWait });
    // A failed page keeps the tests read so far (none: the run shows as cancelled).
    await forEachPage(list, (page) => page.forEach((t) => byId.set(t._id, keptResult(t))), MAX_PAGES).catch(
      () => undefined,
    );
    suiteTests.set(r.id, [...byId.values()]);
  };
  const first = book.cancellable();
  if (first.length > 0) ctx.emit({ type: 'cancelling', count: first.length, late: false, ...tag });
  const firstDone = Promise.all(first.map(cancelOne));
  await triggering;
  const late = book.cancellable().filter((r) => !first.includes(r));
  if (late.length > 0) ctx.emit({ type: 'cancelling', count: late.length, late: true, ...tag });
  await firstDone;
  await Promise.all(late.map(cancelOne));
  for (const handle of book.open().filter((h) => h.settled)) book.end(handle, 'over');
  for (const handle of book.open()) {
    const { id } = handle.remote;
    markCancelled(book, handle, answers.get(id), suiteTests.get(id) ?? [], reason);
  }
}
