/**
 * Read: the test results of a finished suite result, in pages of `PAGE_SIZE`
 * (`GET /suite-results/{id}/results/`), each once; the pages its counts say it has are asked at once
 * (each takes its token of the request budget in the transport). `forEachPage` is the one paging loop of
 * the engine.
 */
import { PAGE_SIZE } from '../api/limits.js';
import type { SuiteResult, TestResult } from '../api/types.js';
import { messageOf, type EngineContext, type Handle } from './context.js';

/** Attempts at each page of a suite result's tests before the listing counts as failed. */
const PAGE_ATTEMPTS = 3;

/** One page request: `count` and `offset` as the service's lists take them. */
export interface Paging {
  count: number;
  offset: number;
}

/**
 * Reads a list page by page from offset 0 until a short page, `maxPages` pages, or `visit` returns false.
 * The first `atOnce` pages (when the list's length is known) are asked at once, each under the budget, and
 * visited in order; the rest one after the other. Errors of `read` propagate.
 */
export async function forEachPage<T>(
  read: (paging: Paging) => Promise<T[]>,
  visit: (page: T[]) => boolean | void,
  maxPages = Infinity,
  atOnce = 1,
): Promise<void> {
  const first = Math.max(1, Math.min(atOnce, maxPages));
  const lists = await Promise.all(
    Array.from({ length: first }, (_, page) => read({ count: PAGE_SIZE, offset: page * PAGE_SIZE })),
  );
  for (const list of lists) if (visit(list) === false || list.length < PAGE_SIZE) return;
  for (let page = first; page < maxPages; page++) {
    const list = await read({ count: PAGE_SIZE, offset: page * PAGE_SIZE });
    if (visit(list) === false || list.length < PAGE_SIZE) return;
  }
}

/**
 * Every test result of a suite result, each once (a list that changes while it is paged shifts results
 * across pages); each page tried `PAGE_ATTEMPTS` times. `expectedTests` (a finished suite result's count of
 * tests) lets its pages be asked at once. Null when the listing failed or was stopped.
 */
export async function listSuiteTests(
  ctx: EngineContext,
  suiteResultId: string,
  signal = ctx.stop.signal,
  expectedTests: number | null = null,
): Promise<TestResult[] | null> {
  const all: TestResult[] = [];
  const seen = new Set<string>();
  const readPage = async (paging: Paging): Promise<TestResult[]> => {
    for (let attempt = 0; ; attempt++) {
      try {
        return await ctx.api.listSuiteResultTestResults(suiteResultId, paging, { signal });
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
    const visit = (page: TestResult[]): void => {
      for (const result of page) {
        if (seen.has(result._id)) continue;
        seen.add(result._id);
        all.push(result);
      }
    };
    await forEachPage(readPage, visit, Infinity, Math.ceil((expectedTests ?? 0) / PAGE_SIZE));
  } catch {
    return null;
  }
  return all;
}

/** The test results of a finished suite result (`listSuiteTests`); null when the listing failed or was stopped. */
export function suiteTestsOf(
  ctx: EngineContext,
  handle: Handle,
  result: SuiteResult,
): Promise<TestResult[] | null> {
  return listSuiteTests(ctx, handle.remote.id, ctx.stop.signal, testCountOf(result));
}

/** The number of tests a suite result ran, from its counts; null when it does not say. */
function testCountOf(result: SuiteResult): number | null {
  const n = (result.countPassing ?? 0) + (result.countFailing ?? 0) + (result.countUnknown ?? 0);
  return n > 0 ? n : null;
}
