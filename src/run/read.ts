/**
 * Read: the test results of a finished suite result, in pages of `PAGE_SIZE`
 * (`GET /suite-results/{id}/results/`), each once. Runs of one suite waited for together (4 or more: data
 * rows, variants) share a reader that reads, for the whole group, by the cheaper way: each test's own
 * results list (`GET /tests/{id}/results/`, newest first, one page of it covers 50 runs for `T` requests)
 * or each suite result alone (`⌈T / 50⌉` requests each). Which, and when, is decided for the group's runs
 * still running as well as the finished ones (`read-plan.ts`: the rule and its arithmetic): the pages of
 * every test's list are read as the runs on them are over, finished runs held a short while for the rest
 * of their page, so that 100 rows of 20 tests cost 40 requests spread over the finishes, not 80 mostly
 * after the last one. The requests of one step go at once, each under the shared budget (its burst first).
 * `forEachPage` (`paging.ts`) is the one paging loop of the engine.
 */
import { refId } from '../api/refs.js';
import { metered } from './action-api.js';
import { setMaxListeners } from 'node:events';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { PAGE_SIZE } from '../api/limits.js';
import { forEachPage, pagesFor, type Paging } from './paging.js';
import type { SuiteResult, TestResult } from '../api/types.js';
import { messageOf, type EngineContext, type Handle } from './context.js';
import { classifyTestResult, suiteTestCount } from './outcome.js';
import { heldUntil, pageOfRank, planReads, type PlanRun, type ReadStep } from './read-plan.js';

/** Runs of one suite or test from which on they are polled and read together. */
export const BATCH_MIN_RUNS = 4;

/** Attempts at each page of a suite result's tests before the listing counts as failed. */
const PAGE_ATTEMPTS = 3;

export { forEachPage, MAX_PAGES, PAGE_MARGIN, pagesFor, type Paging } from './paging.js';

/**
 * The number of runs waited for under one history key (0 without one): those started, or those planned
 * when more (the executes of the others are not answered yet; they join the group when they are).
 */
export function groupSize(ctx: EngineContext, key: string | null): number {
  if (!key) return 0;
  const started = ctx.handles.filter((h) => h.historyKey === key).length;
  return Math.max(started, ctx.plannedRuns.get(key) ?? 0);
}

/**
 * Every test result of a suite result, each once (a list that changes while it is paged shifts results
 * across pages); each page tried `PAGE_ATTEMPTS` times. `expectedTests` (a finished suite result's count of
 * tests) lets its pages be asked at once and bounds them (`pagesFor`); a list that holds fewer distinct
 * results than that, or one result twice, is read again up to `RELISTS` times (the service may list a
 * result late), keeping every result seen, the latest copy of each. Null when the listing failed or was
 * stopped.
 */
export async function listSuiteTests(
  ctx: EngineContext,
  suiteResultId: string,
  signal = ctx.stop.signal,
  expectedTests: number | null = null,
): Promise<TestResult[] | null> {
  const byId = new Map<string, TestResult>();
  for (let listing = 0; ; listing++) {
    const once = await listSuiteTestsOnce(ctx, suiteResultId, signal, expectedTests);
    if (once === null) return byId.size > 0 && !signal.aborted ? [...byId.values()] : null;
    for (const result of once.results) byId.set(result._id, result);
    const short = expectedTests !== null && byId.size < expectedTests;
    if ((!short && !once.duplicates) || listing >= RELISTS || signal.aborted) return [...byId.values()];
    ctx.emit({
      type: 'detail',
      message:
        `The list of suite result ${suiteResultId}'s test results holds ${byId.size} distinct of ` +
        `${expectedTests ?? 'an unknown number of'} tests${once.duplicates ? ' (with a result twice)' : ''}: ` +
        'reading it again.',
    });
    try {
      await ctx.clock.sleep(ctx.waits.listRetryMs * (listing + 1), signal);
    } catch {
      return [...byId.values()];
    }
  }
}

/** Times a suite result's list of test results is read again when it disagrees with its counts. */
export const RELISTS = 2;

/** One listing of a suite result's test results: each once, and whether one came twice. */
async function listSuiteTestsOnce(
  ctx: EngineContext,
  suiteResultId: string,
  signal: AbortSignal,
  expectedTests: number | null,
): Promise<{ results: TestResult[]; duplicates: boolean } | null> {
  const all: TestResult[] = [];
  const seen = new Set<string>();
  let duplicates = false;
  const readPage = async (paging: Paging): Promise<TestResult[]> => {
    for (let attempt = 0; ; attempt++) {
      try {
        return await metered(ctx.budget, signal, (s) =>
          ctx.api.listSuiteResultTestResults(suiteResultId, paging, { signal: s }),
        );
      } catch (error) {
        if (signal.aborted) throw error;
        ctx.emit({
          type: 'detail',
          message: `Listing the tests of suite result ${suiteResultId} failed: ${messageOf(error)}`,
        });
        if (attempt + 1 >= PAGE_ATTEMPTS) throw error;
        await ctx.clock.sleep(ctx.waits.listRetryMs * (attempt + 1), signal);
      }
    }
  };
  const visit = (page: TestResult[]): void => {
    for (const result of page) {
      if (seen.has(result._id)) {
        duplicates = true;
        continue;
      }
      seen.add(result._id);
      all.push(result);
    }
  };
  const atOnce = Math.ceil((expectedTests ?? 0) / PAGE_SIZE);
  try {
    await forEachPage(readPage, visit, pagesFor(expectedTests), atOnce);
  } catch {
    return null;
  }
  return { results: all, duplicates };
}

/** A finished suite result of a group whose test results are to be read. */
interface Waiting {
  result: SuiteResult;
  resolve: (tests: TestResult[] | null) => void;
  /** Held for the rest of its page until this time, ms (`holdMs`; -Infinity: may not wait). */
  heldUntilMs: number;
}

/** Reads the test results of a group's finished suite results (`read-plan.ts`). */
interface TestReader {
  key: string;
  /** The suite's test ids in listing order, learned from the first suite result read; [] when unusable. */
  testIds: string[] | null;
  waiting: Map<string, Waiting>;
  /** Suite results read (or given up), by id. */
  read: Set<string>;
  busy: boolean;
  /** Ends the reader's wait for a hold when a suite result joins. */
  wake: AbortController | null;
}

const readers = new WeakMap<EngineContext, Map<string, TestReader>>();

/**
 * The test results of a finished suite result: alone, its own listing; in a group (`BATCH_MIN_RUNS` or
 * more runs of one suite), through the group's shared reader, which reads by test or alone by the rule of
 * `read-plan.ts`. Null when the listing failed or was stopped.
 */
export function suiteTestsOf(
  ctx: EngineContext,
  handle: Handle,
  result: SuiteResult,
): Promise<TestResult[] | null> {
  const key = handle.historyKey;
  if (!key || groupSize(ctx, key) < BATCH_MIN_RUNS) {
    return listSuiteTests(ctx, handle.remote.id, ctx.stop.signal, suiteTestCount(result));
  }
  const byKey = readers.get(ctx) ?? new Map<string, TestReader>();
  readers.set(ctx, byKey);
  let reader = byKey.get(key);
  if (!reader) {
    reader = { key, testIds: null, waiting: new Map(), read: new Set(), busy: false, wake: null };
    byKey.set(key, reader);
    // A step's requests (one per test) wait on the engine's stop signal at once.
    setMaxListeners(0, ctx.stop.signal);
  }
  const r = reader;
  const now = ctx.clock.now();
  // A failure that fail-fast or a retry acts on is read at once.
  const urgent = (ctx.plan.failFast || ctx.plan.retryFailed > 0) && isFailing(result);
  const deadline = ctx.startedAtMs + ctx.plan.timeoutMs;
  const heldUntilMs = urgent ? -Infinity : heldUntil(now, now - handle.triggeredAtMs, deadline);
  return new Promise((resolve) => {
    r.waiting.set(handle.remote.id, { result, resolve, heldUntilMs });
    r.wake?.abort();
    void drainReader(ctx, r);
  });
}

function isFailing(result: SuiteResult): boolean {
  return result.passing === false || (result.countFailing ?? 0) > 0;
}

/** The group's runs for the plan, in creation order (the execute answers' order). */
function planRuns(ctx: EngineContext, reader: TestReader): PlanRun[] {
  const handles = ctx.handles.filter((h) => h.historyKey === reader.key);
  // Runs planned but not answered yet take positions not known yet.
  const known = handles.length >= groupSize(ctx, reader.key);
  return handles.map((h, rank) => {
    const id = h.remote.id;
    const waiting = reader.waiting.get(id);
    const state = waiting ? 'waiting' : reader.read.has(id) || h.done ? 'read' : 'running';
    return {
      id,
      state,
      page: known ? pageOfRank(rank, handles.length) : null,
      ...(waiting ? { heldUntilMs: waiting.heldUntilMs } : {}),
    };
  });
}

async function drainReader(ctx: EngineContext, reader: TestReader): Promise<void> {
  if (reader.busy) return;
  reader.busy = true;
  try {
    // Let the suite results settled by the same poll join the queue first.
    await nextTurn();
    while (reader.waiting.size > 0) {
      if (ctx.stop.signal.aborted) {
        for (const w of reader.waiting.values()) w.resolve(null);
        reader.waiting.clear();
        return;
      }
      if (reader.testIds === null) {
        await learnTests(ctx, reader);
        continue;
      }
      const testIds = reader.testIds;
      const plan =
        testIds.length > 0
          ? planReads(planRuns(ctx, reader), testIds.length, ctx.clock.now())
          : { steps: [{ kind: 'alone' as const, runs: [...reader.waiting.keys()] }], wakeAtMs: null };
      if (plan.steps.length > 0) {
        await Promise.all(plan.steps.map((step) => runStep(ctx, reader, testIds, step)));
        continue;
      }
      if (plan.wakeAtMs === null) {
        // Not expected (every waiting run is read or held); never leave one waiting.
        await readAlone(ctx, take(reader, [...reader.waiting.keys()]));
        continue;
      }
      // Every waiting run is held: wait for its hold to end or for another run to join.
      const wake = new AbortController();
      reader.wake = wake;
      const signal = AbortSignal.any([wake.signal, ctx.stop.signal]);
      await ctx.clock.sleep(Math.max(1, plan.wakeAtMs - ctx.clock.now()), signal);
      reader.wake = null;
    }
  } finally {
    reader.busy = false;
  }
}

/** Takes waiting runs out of the queue (they are being read). */
function take(reader: TestReader, ids: string[]): Map<string, Waiting> {
  const taken = new Map<string, Waiting>();
  for (const id of ids) {
    const w = reader.waiting.get(id);
    if (!w) continue;
    reader.waiting.delete(id);
    reader.read.add(id);
    taken.set(id, w);
  }
  return taken;
}

/** Reads the first waiting suite result alone and learns the suite's test ids from it. */
async function learnTests(ctx: EngineContext, reader: TestReader): Promise<void> {
  const urgent = [...reader.waiting].find(([, w]) => w.heldUntilMs === -Infinity);
  const [id] = urgent ?? reader.waiting.entries().next().value!;
  const entry = take(reader, [id]).get(id)!;
  const tests = await listSuiteTests(ctx, id, ctx.stop.signal, suiteTestCount(entry.result));
  if (tests && reader.testIds === null) {
    const ids = tests.map((t) => refId(t.test));
    // Reading by test needs every test result to name its test, each once.
    reader.testIds = ids.every((t): t is string => !!t) && new Set(ids).size === ids.length ? ids : [];
  }
  entry.resolve(tests);
}

/** Does one step of the plan: the runs read alone, or through every test's list (a page, or a sweep). */
async function runStep(
  ctx: EngineContext,
  reader: TestReader,
  testIds: string[],
  step: ReadStep,
): Promise<void> {
  const taken = take(reader, step.runs);
  if (step.kind === 'alone') {
    await readAlone(ctx, taken);
    return;
  }
  const found = new Map<string, Map<string, TestResult>>();
  for (const id of taken.keys()) found.set(id, new Map());
  const runs = ctx.handles.filter((h) => h.historyKey === reader.key).length;
  const pages =
    step.kind === 'page'
      ? { offset: step.page * PAGE_SIZE, maxPages: 1, atOnce: 1 }
      : { offset: 0, maxPages: Math.ceil(runs / PAGE_SIZE) + 2, atOnce: 1 };
  await Promise.all(
    testIds.map((t) => readTestList(ctx, t, found, pages.offset, pages.maxPages, pages.atOnce)),
  );
  const incomplete = new Map<string, Waiting>();
  for (const [id, entry] of taken) {
    const byTest = found.get(id);
    const expected = suiteTestCount(entry.result);
    const complete =
      byTest !== undefined &&
      byTest.size === testIds.length &&
      (expected === null || expected === testIds.length);
    if (ctx.stop.signal.aborted) entry.resolve(null);
    else if (complete) entry.resolve(testIds.map((t) => byTest.get(t) as TestResult));
    // Not where the plan put it (another run of a test came between), or a list failed: read alone.
    else incomplete.set(id, entry);
  }
  await readAlone(ctx, incomplete);
}

/** Reads each suite result alone, at once (each under the budget). */
async function readAlone(ctx: EngineContext, taken: Map<string, Waiting>): Promise<void> {
  await Promise.all(
    [...taken].map(async ([id, w]) =>
      w.resolve(await listSuiteTests(ctx, id, ctx.stop.signal, suiteTestCount(w.result))),
    ),
  );
}

/**
 * Reads one test's results list from `offset`, at most `maxPages` pages (the first `atOnce` at once), for
 * the suite results in `found`, until each has its (finished) result of the test. A failing list is told and leaves them without it.
 */
async function readTestList(
  ctx: EngineContext,
  testId: string,
  found: Map<string, Map<string, TestResult>>,
  offset: number,
  maxPages: number,
  atOnce: number,
): Promise<void> {
  const need = new Set(found.keys());
  const signal = ctx.stop.signal;
  const read = (paging: Paging): Promise<TestResult[]> =>
    metered(ctx.budget, signal, (s) =>
      ctx.api.listTestResults(testId, { ...paging, offset: paging.offset + offset }, { signal: s }),
    );
  try {
    await forEachPage(
      read,
      (list) => {
        for (const r of list) {
          const sr = r.suiteResult;
          if (!sr || !need.has(sr) || classifyTestResult(r) === 'running') continue;
          found.get(sr)?.set(testId, r);
          need.delete(sr);
        }
        return need.size > 0;
      },
      maxPages,
      atOnce,
    );
  } catch (error) {
    if (!signal.aborted) {
      ctx.emit({
        type: 'detail',
        message: `Listing the results of test ${testId} failed: ${messageOf(error)}`,
      });
    }
  }
}
