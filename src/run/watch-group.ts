/**
 * Group polling: when `BATCH_MIN_RUNS` or more runs of one suite or test are waited for (variants, data
 * rows), they are polled together through the suite's or test's results list (`GET /suites/{id}/results/`,
 * `GET /tests/{id}/results/`, newest first): one request covers up to `PAGE_SIZE` runs instead of one
 * request per run. A run the list does not show twice in a row is polled on its own.
 */
import { metered } from './action-api.js';
import { PAGE_SIZE } from '../api/limits.js';
import type { SuiteResult, TestResult } from '../api/types.js';
import { messageOf, type EngineContext, type Handle } from './context.js';
import { classifyTestResult } from './outcome.js';
import { BATCH_MIN_RUNS, forEachPage, groupSize, type Paging } from './read.js';
import { groupPollDelay, type ExpectedWindow } from './schedule.js';
import { isSuiteResultOver, pollBackoffMs } from './watch.js';

type Answer = SuiteResult | TestResult;

/** One run of a group, waiting for its result. */
interface Waiter {
  handle: Handle;
  resolve: (value: Answer | null) => void;
  /** Polls the run on its own (when the list does not show it). */
  single: () => Promise<Answer | null>;
}

/** Runs of one suite or test waited for together, by result id. */
interface Group {
  waiters: Map<string, Waiter>;
}

const groups = new WeakMap<EngineContext, Map<string, Group>>();

/**
 * Waits for one run's result: alone (`single`), or in its suite's or test's group when it has at least
 * `BATCH_MIN_RUNS` runs. Resolves with the result once over, or null when the wait stopped or failed.
 */
export function waitResult(
  ctx: EngineContext,
  handle: Handle,
  window: ExpectedWindow | null,
  single: () => Promise<Answer | null>,
): Promise<Answer | null> {
  const key = handle.historyKey;
  if (!key || groupSize(ctx, key) < BATCH_MIN_RUNS) return single();
  const byKey = groups.get(ctx) ?? new Map<string, Group>();
  groups.set(ctx, byKey);
  let group = byKey.get(key);
  if (!group) {
    const g: Group = { waiters: new Map() };
    byKey.set(key, g);
    queueMicrotask(() => void pollGroup(ctx, key, g, handle.triggeredAtMs, window));
    group = g;
  }
  const g = group;
  return new Promise((resolve) => g.waiters.set(handle.remote.id, { handle, resolve, single }));
}

/** Hands a waiter its answer (null: not had) and forgets it. */
function settle(group: Group, rid: string, value: Answer | null): void {
  const waiter = group.waiters.get(rid);
  if (!waiter) return;
  group.waiters.delete(rid);
  if (value) waiter.handle.remote.active = false;
  waiter.resolve(value);
}

/** One poll of the group's list; settles the runs that are over and adds the ids the list showed to `seen`. */
async function pollOnce(ctx: EngineContext, key: string, group: Group, seen: Set<string>): Promise<void> {
  const [type, id] = key.split(':') as ['suite' | 'test', string];
  const signal = ctx.stop.signal;
  const read = (paging: Paging): Promise<Answer[]> =>
    metered<Answer[]>(ctx.budget, signal, (s) =>
      type === 'suite'
        ? ctx.api.listSuiteResults(id, paging, { signal: s })
        : ctx.api.listTestResults(id, paging, { signal: s }),
    );
  // Every run waited for at the start of the poll is looked for (settling a run removes it from the group).
  const looked = group.waiters.size;
  const visit = (list: Answer[]): boolean => {
    for (const r of list) {
      const waiter = group.waiters.get(r._id);
      if (!waiter) continue;
      seen.add(r._id);
      if (type === 'test') waiter.handle.lastResult = r as TestResult;
      const over =
        type === 'suite'
          ? isSuiteResultOver(r as SuiteResult)
          : classifyTestResult(r as TestResult) !== 'running';
      if (over) settle(group, r._id, r);
    }
    return seen.size < looked;
  };
  await forEachPage(read, visit, Math.ceil(looked / PAGE_SIZE) + 2);
}

/** Polls a group until each of its runs is over, followed alone, or the engine stops. */
async function pollGroup(
  ctx: EngineContext,
  key: string,
  group: Group,
  triggeredAtMs: number,
  window: ExpectedWindow | null,
): Promise<void> {
  const misses = new Map<string, number>();
  let polls = 0;
  let lastIntervalMs = 0;
  let errors = 0;
  while (group.waiters.size > 0) {
    const elapsedMs = ctx.clock.now() - triggeredAtMs;
    const runs = group.waiters.size;
    const state = { elapsedMs, polls, lastIntervalMs, window };
    const next = groupPollDelay(state, runs, Math.ceil(runs / PAGE_SIZE), ctx.clock.random());
    lastIntervalMs = next.intervalMs;
    await ctx.clock.sleep(errors > 0 ? pollBackoffMs(ctx, errors) : next.delayMs, ctx.stop.signal);
    if (ctx.stop.signal.aborted) break;
    polls += 1;
    const seen = new Set<string>();
    try {
      await pollOnce(ctx, key, group, seen);
      errors = 0;
    } catch (error) {
      if (ctx.stop.signal.aborted) break;
      errors += 1;
      const [type, id] = key.split(':');
      ctx.emit({
        type: 'detail',
        message: `Listing the results of ${type} ${id} failed: ${messageOf(error)}`,
      });
      if (errors < ctx.maxPollErrors) continue;
    }
    // Runs the list does not show (others ran in between, or the list failed): followed one by one.
    for (const [rid, waiter] of [...group.waiters]) {
      if (seen.has(rid)) continue;
      const n = (misses.get(rid) ?? 0) + 1;
      misses.set(rid, n);
      if (n >= 2 || errors >= ctx.maxPollErrors) {
        group.waiters.delete(rid);
        void waiter.single().then(waiter.resolve);
      }
    }
    if (errors >= ctx.maxPollErrors) break;
  }
  for (const rid of [...group.waiters.keys()]) settle(group, rid, null);
  // Runs of this suite or test started later (their executes answered after this one) form a new group.
  if (groups.get(ctx)?.get(key) === group) groups.get(ctx)?.delete(key);
}
