/**
 * Watch: knowing when each run ends. One shared watch request (the organization's running list, or the
 * lone run's own poll) looks at every run about once a second (`running-list.ts`, periods in
 * `watch-plan.ts`, the arithmetic in docs/watch.md); a run it shows has only safety polls and, with
 * history, one poll at its expected finish of its own; a run it does not show, or all runs when the list
 * fails, follow their adaptive schedule (`schedule.ts`), learned from the suite's or test's last
 * `DURATION_HISTORY_COUNT` results (not read with more than `HISTORY_MAX_KEYS` suites and tests). Runs of
 * one suite or test are polled together when there are `BATCH_MIN_RUNS` or more (`watch-group.ts`). A
 * result that answers "not found" just after its trigger is asked again for `notFoundGraceMs`; failed polls
 * back off (`backoffMs`) and give up after `maxPollErrors`. Once a run's result is over its tests are read
 * (`read.ts`), told (`test-finished`) and, under `retry-failed`, re-run (`retry.ts`).
 */
import { metered } from './action-api.js';
import { backoffMs } from '../api/backoff.js';
import { isNotFound, isUnexpectedShape, UNEXPECTED_SHAPE_LIMIT } from '../api/errors.js';
import { DURATION_HISTORY_COUNT } from '../api/limits.js';
import type { SuiteResult, TestResult } from '../api/types.js';
import {
  endRun,
  messageOf,
  nameOf,
  POLL_BACKOFF_CAP_MS,
  testFinished,
  testRunOf,
  type EngineContext,
  type Handle,
  type Remote,
} from './context.js';
import { variantFromResult } from './execute.js';
import { classifyTestResult, STATUS_CANCELLED } from './outcome.js';
import { suiteTestsOf } from './read.js';
import { failFastOn } from './fail-fast.js';
import { retryFailures } from './retry.js';
import { sleepBeforePoll, watchRun } from './running-list.js';
import { expectedWindow, nextPollDelay, wallTimeMs, type ExpectedWindow } from './schedule.js';
import { waitResult } from './watch-group.js';
import { HISTORY_MAX_KEYS } from './watch-plan.js';

/** Whether a suite result is over: a verdict, or cancelled (status 8, or a finish date without verdict). */
export function isSuiteResultOver(result: SuiteResult): boolean {
  if (result.passing !== null && result.passing !== undefined) return true;
  if (result.status === STATUS_CANCELLED) return true;
  const finished = result.dateExecutionFinished;
  return !!finished && !finished.startsWith('1970-');
}

/** The wait before poll number `errors` after that many failures in a row, ms (jittered, capped). */
export function pollBackoffMs(ctx: EngineContext, errors: number): number {
  return backoffMs(errors, () => ctx.clock.random(), {
    baseMs: ctx.waits.pollBackoffMs,
    capMs: POLL_BACKOFF_CAP_MS,
  });
}

/**
 * The expected window of a suite or test (`suite:<id>`, `test:<id>`), from its last results, read once
 * per suite or test, shifted by the execute's `delay`; null without history.
 */
export function history(
  ctx: EngineContext,
  key: string | null,
  delayMs: number,
): Promise<ExpectedWindow | null> {
  if (!key) return Promise.resolve(null);
  let samples = ctx.histories.get(key);
  if (!samples) {
    samples = (async () => {
      const [type, id] = key.split(':') as ['suite' | 'test', string];
      const paging = { count: DURATION_HISTORY_COUNT };
      try {
        const results = await metered<Array<SuiteResult | TestResult>>(
          ctx.budget,
          ctx.stop.signal,
          (signal) =>
            type === 'suite'
              ? ctx.api.listSuiteResults(id, paging, { signal })
              : ctx.api.listTestResults(id, paging, { signal }),
        );
        const durations = results.map((r) => wallTimeMs(r)).filter((n): n is number => n !== null);
        return expectedWindow(durations, 0);
      } catch {
        return null;
      }
    })();
    ctx.histories.set(key, samples);
  }
  return samples.then((w) => (w ? { lowMs: w.lowMs + delayMs, highMs: w.highMs + delayMs } : null));
}

/** How one remote result is read and when it is over. */
export interface PollTarget<T> {
  get: (signal: AbortSignal) => Promise<T>;
  isOver: (value: T) => boolean;
  /** Told why the result could not be had. */
  onProblem: (reason: string) => void;
}

/**
 * Polls one remote result until it is over, the deadline passes or the workflow is cancelled.
 * @returns the last answer, or null when the wait stopped or the result could not be had.
 */
export async function pollRemote<T extends SuiteResult | TestResult>(
  ctx: EngineContext,
  remote: Remote,
  triggeredAtMs: number,
  window: ExpectedWindow | null,
  target: PollTarget<T>,
): Promise<T | null> {
  const unwatch = watchRun(ctx, remote.id, triggeredAtMs, window);
  try {
    return await pollUntilOver(ctx, remote, triggeredAtMs, window, target);
  } finally {
    unwatch();
  }
}

async function pollUntilOver<T extends SuiteResult | TestResult>(
  ctx: EngineContext,
  remote: Remote,
  triggeredAtMs: number,
  window: ExpectedWindow | null,
  target: PollTarget<T>,
): Promise<T | null> {
  const signal = ctx.stop.signal;
  let polls = 0;
  let lastIntervalMs = 0;
  let errors = 0;
  let forceDelay: number | null = null;
  for (;;) {
    const elapsedMs = ctx.clock.now() - triggeredAtMs;
    const next = nextPollDelay({ elapsedMs, polls, lastIntervalMs, window }, ctx.clock.random());
    lastIntervalMs = next.intervalMs;
    const delayMs = forceDelay ?? next.delayMs;
    await sleepBeforePoll(ctx, remote.id, triggeredAtMs, window, delayMs, forceDelay !== null, signal);
    forceDelay = null;
    if (signal.aborted) return null;
    try {
      await ctx.budget.acquire(signal);
    } catch {
      return null;
    }
    polls += 1;
    try {
      const value = await target.get(signal);
      errors = 0;
      if (target.isOver(value)) {
        remote.active = false;
        return value;
      }
    } catch (error) {
      if (signal.aborted) return null;
      if (isNotFound(error) && ctx.clock.now() - triggeredAtMs < ctx.waits.notFoundGraceMs) {
        forceDelay = ctx.waits.notFoundRetryMs;
        continue;
      }
      errors += 1;
      ctx.emit({
        type: 'detail',
        message: `Poll of ${remote.type} result ${remote.id} failed: ${messageOf(error)}`,
      });
      const wrongShape = isUnexpectedShape(error) && errors >= UNEXPECTED_SHAPE_LIMIT;
      if (isNotFound(error) || errors >= ctx.maxPollErrors || wrongShape) {
        target.onProblem(`Its result could not be read: ${messageOf(error)}`);
        return null;
      }
      forceDelay = pollBackoffMs(ctx, errors);
    }
  }
}

/**
 * Waits for a run, reads its tests and re-runs its failures; the run is ended unless the engine stopped.
 * Its history is read only with at most `HISTORY_MAX_KEYS` suites and tests in the engine run (watch-plan.ts).
 */
export async function follow(ctx: EngineContext, handle: Handle): Promise<void> {
  // The suites and tests of the whole plan, not only of the runs started so far (runs are watched as
  // soon as their own execute answers, before the later executes are sent).
  const keys = new Set([...ctx.plannedRuns.keys(), ...ctx.handles.map((h) => h.historyKey)]);
  const key = keys.size > HISTORY_MAX_KEYS ? null : handle.historyKey;
  const window = await history(ctx, key, handle.delayMs);
  if (handle.remote.type === 'suite') await followSuite(ctx, handle, window);
  else await followTest(ctx, handle, window);
}

async function followSuite(ctx: EngineContext, handle: Handle, window: ExpectedWindow | null): Promise<void> {
  const id = handle.remote.id;
  const single = (): Promise<SuiteResult | null> =>
    pollRemote<SuiteResult>(ctx, handle.remote, handle.triggeredAtMs, window, {
      get: (signal) => ctx.api.getSuiteResult(id, { signal }),
      isOver: isSuiteResultOver,
      onProblem: (reason) => (handle.run.error = reason),
    });
  const result = (await waitResult(ctx, handle, window, single)) as SuiteResult | null;
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
  if (tests[0]) handle.run.variant = variantFromResult(handle.run.variant, tests[0]);
  handle.settled = true;
  for (const t of handle.run.tests) testFinished(ctx, handle.run, t);
  await retryFailures(ctx, handle);
  endRun(ctx, handle);
  failFastOn(ctx, handle);
}

async function followTest(ctx: EngineContext, handle: Handle, window: ExpectedWindow | null): Promise<void> {
  const id = handle.remote.id;
  const single = (): Promise<TestResult | null> =>
    pollRemote<TestResult>(ctx, handle.remote, handle.triggeredAtMs, window, {
      get: (signal) => ctx.api.getTestResult(id, { signal }),
      isOver: (r) => {
        handle.lastResult = r;
        return classifyTestResult(r) !== 'running';
      },
      onProblem: (reason) => (handle.run.error = reason),
    });
  const result = (await waitResult(ctx, handle, window, single)) as TestResult | null;
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
  handle.run.variant = variantFromResult(handle.run.variant, result);
  const testRun = testRunOf(ctx, result, 'error');
  if (handle.job.kind === 'file') testRun.testName = result.name || handle.job.name;
  handle.run.tests = [testRun];
  handle.settled = true;
  testFinished(ctx, handle.run, testRun);
  await retryFailures(ctx, handle);
  endRun(ctx, handle);
  failFastOn(ctx, handle);
}
