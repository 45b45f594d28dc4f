/**
 * Read: the test results of a finished suite result, in pages of `PAGE_SIZE`
 * (`GET /suite-results/{id}/results/`), each once. Runs of one suite waited for together (4 or more: data
 * rows, variants) share a reader that, when many suite results finish at once, reads through each test's
 * own results list instead (`GET /tests/{id}/results/`, newest first): `tests × ⌈runs / 50⌉` requests
 * instead of one per suite result. `forEachPage` is the one paging loop of the engine.
 */
import { refId } from '../api/refs.js';
import { metered } from './action-api.js';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { PAGE_SIZE } from '../api/limits.js';
import type { SuiteResult, TestResult } from '../api/types.js';
import { messageOf, type EngineContext, type Handle } from './context.js';
import { classifyTestResult } from './outcome.js';

/** Runs of one suite or test from which on they are polled and read together. */
export const BATCH_MIN_RUNS = 4;

/** Attempts at each page of a suite result's tests before the listing counts as failed. */
const PAGE_ATTEMPTS = 3;

/** One page request: `count` and `offset` as the service's lists take them. */
export interface Paging {
  count: number;
  offset: number;
}

/**
 * Reads a list page by page from offset 0 until a short page, `maxPages` pages, or `visit` returns false.
 * Errors of `read` propagate.
 */
export async function forEachPage<T>(
  read: (paging: Paging) => Promise<T[]>,
  visit: (page: T[]) => boolean | void,
  maxPages = Infinity,
): Promise<void> {
  for (let page = 0; page < maxPages; page++) {
    const list = await read({ count: PAGE_SIZE, offset: page * PAGE_SIZE });
    if (visit(list) === false || list.length < PAGE_SIZE) return;
  }
}

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
 * across pages); each page tried `PAGE_ATTEMPTS` times. Null when the listing failed or was stopped.
 */
export async function listSuiteTests(
  ctx: EngineContext,
  suiteResultId: string,
  signal = ctx.stop.signal,
): Promise<TestResult[] | null> {
  const all: TestResult[] = [];
  const seen = new Set<string>();
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
  try {
    await forEachPage(readPage, (page) => {
      for (const result of page) {
        if (seen.has(result._id)) continue;
        seen.add(result._id);
        all.push(result);
      }
    });
  } catch {
    return null;
  }
  return all;
}

/** A finished suite result whose test results are to be read. */
interface PendingSuiteTests {
  result: SuiteResult;
  resolve: (tests: TestResult[] | null) => void;
  /** Set when reading it by test did not give all of its tests: it is read on its own. */
  alone?: boolean;
}

/** Reads the test results of a group's finished suite results. */
interface TestReader {
  /** The suite's test ids in listing order, learned from the first suite result read; [] when unusable. */
  testIds: string[] | null;
  pending: Map<string, PendingSuiteTests>;
  busy: boolean;
  /** Runs in the group. */
  groupSize: number;
}

const readers = new WeakMap<EngineContext, Map<string, TestReader>>();

/**
 * The test results of a finished suite result: alone, its own listing; in a group (`BATCH_MIN_RUNS` or
 * more runs of one suite), through the group's shared reader. Null when the listing failed or was stopped.
 */
export function suiteTestsOf(
  ctx: EngineContext,
  handle: Handle,
  result: SuiteResult,
): Promise<TestResult[] | null> {
  const key = handle.historyKey;
  const size = groupSize(ctx, key);
  if (!key || size < BATCH_MIN_RUNS) return listSuiteTests(ctx, handle.remote.id);
  const byKey = readers.get(ctx) ?? new Map<string, TestReader>();
  readers.set(ctx, byKey);
  let reader = byKey.get(key);
  if (!reader) {
    reader = { testIds: null, pending: new Map(), busy: false, groupSize: size };
    byKey.set(key, reader);
  }
  // Runs of the suite keep joining while later executes are answered.
  reader.groupSize = Math.max(reader.groupSize, size);
  const r = reader;
  return new Promise((resolve) => {
    r.pending.set(result._id, { result, resolve });
    void drainReader(ctx, r);
  });
}

async function drainReader(ctx: EngineContext, reader: TestReader): Promise<void> {
  if (reader.busy) return;
  reader.busy = true;
  try {
    // Let the suite results settled by the same poll join the queue first.
    await nextTurn();
    while (reader.pending.size > 0) {
      if (ctx.stop.signal.aborted) {
        for (const p of reader.pending.values()) p.resolve(null);
        reader.pending.clear();
        return;
      }
      const testIds = reader.testIds;
      const byTest = [...reader.pending.values()].filter((p) => !p.alone).length;
      const perTest = testIds ? testIds.length * (Math.ceil(reader.groupSize / PAGE_SIZE) + 0.5) : Infinity;
      const perSuite = byTest * Math.ceil((testIds?.length ?? 1) / PAGE_SIZE);
      const alone = [...reader.pending.entries()].find(([, p]) => p.alone);
      if (!alone && testIds && testIds.length > 0 && perTest < perSuite) {
        await readByTest(ctx, reader, testIds);
        continue;
      }
      const first = reader.pending.entries().next();
      const picked = alone ?? (first.done ? undefined : first.value);
      if (!picked) break;
      const [id, entry] = picked;
      reader.pending.delete(id);
      const tests = await listSuiteTests(ctx, id);
      if (tests && reader.testIds === null) {
        const ids = tests.map((t) => refId(t.test));
        // Reading by test needs every test result to name its test, each once.
        reader.testIds = ids.every((t): t is string => !!t) && new Set(ids).size === ids.length ? ids : [];
      }
      entry.resolve(tests);
    }
  } finally {
    reader.busy = false;
  }
}

/** The number of tests a suite result ran, from its counts; null when it does not say. */
function testCountOf(result: SuiteResult): number | null {
  const n = (result.countPassing ?? 0) + (result.countFailing ?? 0) + (result.countUnknown ?? 0);
  return n > 0 ? n : null;
}

/** Reads one test's results list for the suite results in `found`, until each has its result of it. */
async function readTestList(
  ctx: EngineContext,
  testId: string,
  found: Map<string, Map<string, TestResult>>,
  maxPages: number,
): Promise<void> {
  const need = new Set(found.keys());
  const signal = ctx.stop.signal;
  const read = (paging: Paging): Promise<TestResult[]> =>
    metered(ctx.budget, signal, (s) => ctx.api.listTestResults(testId, paging, { signal: s }));
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

/**
 * Reads the test results of every waiting suite result of a group through each test's results list;
 * a suite result not complete that way (a test missing or still running, a list failing) is read on its
 * own.
 */
async function readByTest(ctx: EngineContext, reader: TestReader, testIds: string[]): Promise<void> {
  const waiting = new Map(reader.pending);
  reader.pending.clear();
  const found = new Map<string, Map<string, TestResult>>();
  for (const id of waiting.keys()) found.set(id, new Map());
  const maxPages = Math.ceil(reader.groupSize / PAGE_SIZE) + 2;
  for (const testId of testIds) {
    await readTestList(ctx, testId, found, maxPages);
    if (ctx.stop.signal.aborted) break;
  }
  for (const [id, entry] of waiting) {
    const byTest = found.get(id);
    const expected = testCountOf(entry.result);
    const complete =
      !ctx.stop.signal.aborted &&
      byTest !== undefined &&
      byTest.size === testIds.length &&
      (expected === null || expected === testIds.length);
    if (complete) entry.resolve(testIds.map((t) => byTest.get(t) as TestResult));
    else if (ctx.stop.signal.aborted) entry.resolve(null);
    // Read on its own by the reader's loop.
    else reader.pending.set(id, { ...entry, alone: true });
  }
}
