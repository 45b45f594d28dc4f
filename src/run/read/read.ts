/** Read: the test results of a finished suite result, paged and checked against its counts (docs/architecture.md). */
import { PAGE_SIZE } from '../../api/limits.js';
import type { TestResult } from '../../api/types.js';
import { messageOf } from '../../common/log.js';
import type { EngineContext } from '../context.js';
import { keptResult, type KeptTestResult } from '../kept-result.js';
import { forEachPage, MAX_PAGES, type Paging } from './paging.js';

/** Attempts at each page of a suite result's tests before the listing counts as failed. */
const PAGE_ATTEMPTS = 3;

/** Times a suite result's list of test results is read again when it disagrees with its counts. */
const RELISTS = 2;

type ListContext = Pick<EngineContext, 'api' | 'clock' | 'emit' | 'waits'>;

/**
 * Every test result of a suite result, each once (the latest copy), as kept (each as its page is read);
 * read again up to `RELISTS` times when it holds fewer than `expectedTests` or one twice. Null when the
 * listing failed or was stopped.
 */
export async function listSuiteTests(
  ctx: ListContext,
  suiteResultId: string,
  signal: AbortSignal,
  expectedTests: number | null = null,
): Promise<KeptTestResult[] | null> {
  const byId = new Map<string, KeptTestResult>();
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
    await ctx.clock.sleep(ctx.waits.listRetryMs * (listing + 1), signal);
  }
}

/** One listing of a suite result's test results: each once, and whether one came twice. */
async function listSuiteTestsOnce(
  ctx: ListContext,
  suiteResultId: string,
  signal: AbortSignal,
  expectedTests: number | null,
): Promise<{ results: KeptTestResult[]; duplicates: boolean } | null> {
  const byId = new Map<string, KeptTestResult>();
  let duplicates = false;
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
  const visit = (page: TestResult[]): void => {
    for (const result of page) {
      if (byId.has(result._id)) duplicates = true;
      else byId.set(result._id, keptResult(result));
    }
  };
  // The pages the count announces go at once, with the page that must come back short (the last page, or an
  // empty one after a full last page); then on until a short page, whatever the count says: a count that
  // lies low leaves no test unread.
  const atOnce = expectedTests === null ? 1 : Math.floor(expectedTests / PAGE_SIZE) + 1;
  try {
    await forEachPage(readPage, visit, MAX_PAGES, atOnce);
  } catch {
    return null;
  }
  return { results: [...byId.values()], duplicates };
}
