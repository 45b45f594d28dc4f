/**
 * Each failed test's history from the service's own results (docs/api-contract.md, "Endpoints the action
 * calls"): "failed 3 of its last 10 runs". A failure to read warns and never changes the verdict.
 */
import type { GhostInspectorApi } from '../api/api.js';
import type { TestResult } from '../api/types.js';
import { messageOf } from '../common/log.js';
import { stopReason } from '../common/time-limit.js';
import { plural } from '../common/words.js';
import type { Report } from './model-types.js';
import { allTests } from './model.js';
import { groupTests, titleHtml } from './summary-failures.js';

/** Earlier runs of a test the history looks at. */
export const HISTORY_RUNS = 10;
/** Failed tests whose history is read (one request each); the rest go without. */
const MAX_HISTORY_TESTS = 20;

/** History line by test id. */
export type TestHistory = ReadonlyMap<string, string>;

/** The history line of a failed test (pure) from its results, newest first, without this run's; '' if none. */
export function historyLine(results: readonly TestResult[], ownResultIds: ReadonlySet<string>): string {
  const earlier = results
    .filter((r) => !ownResultIds.has(r._id) && typeof r.passing === 'boolean')
    .slice(0, HISTORY_RUNS);
  if (earlier.length === 0) return '';
  if (earlier.every((r) => r.passing)) return `first failure after ${plural(earlier.length, 'passing run')}`;
  // This run and the ones before it, HISTORY_RUNS in all.
  const window = earlier.slice(0, HISTORY_RUNS - 1);
  const failed = 1 + window.filter((r) => !r.passing).length;
  return `failed ${failed} of its last ${window.length + 1} runs`;
}

/**
 * Reads the history of the first {@link MAX_HISTORY_TESTS} failing tests of `report`, one request each,
 * stopped by `signal`. Never throws: a test whose results cannot be read is left out after `warn`.
 */
export async function readHistory(
  api: Pick<GhostInspectorApi, 'listTestResults'>,
  report: Report,
  options: { signal: AbortSignal; warn: (message: string) => void },
): Promise<TestHistory> {
  const own = new Map<string, Set<string>>();
  const titles = new Map<string, string>();
  for (const { test } of allTests(report)) {
    if (!test.testId) continue;
    if (test.resultId) own.set(test.testId, (own.get(test.testId) ?? new Set()).add(test.resultId));
    if (test.failing && !titles.has(test.testId)) titles.set(test.testId, test.title);
  }
  const ids = [...titles.keys()].slice(0, MAX_HISTORY_TESTS);
  const lines = await Promise.all(
    ids.map(async (testId) => {
      const ownIds = own.get(testId) ?? new Set<string>();
      try {
        const results = await api.listTestResults(
          testId,
          { count: HISTORY_RUNS + ownIds.size },
          { signal: options.signal, lowPriority: true },
        );
        return [testId, historyLine(results, ownIds)] as const;
      } catch (error) {
        if (!options.signal.aborted) {
          options.warn(`Could not read the history of ${titles.get(testId)}: ${messageOf(error)}`);
        }
        return [testId, null] as const;
      }
    }),
  );
  const unread = lines.filter(([, line]) => line === null).length;
  if (options.signal.aborted && unread > 0) {
    options.warn(
      `Could not read the history of ${plural(unread, 'failed test')}: stopped: ${stopReason(options.signal)}`,
    );
  }
  return new Map(lines.filter((entry): entry is [string, string] => !!entry[1]));
}

/** The job summary's history section (pure): one line per failing test with a history; '' when none. */
export function renderHistorySection(report: Report, history: TestHistory): string {
  const lines = groupTests(report, (t) => t.failing && history.has(t.testId ?? '')).map(
    ({ matching: [{ test }] }) => `- ${titleHtml(test)}: ${history.get(test.testId!)}`,
  );
  return lines.length > 0 ? `### History of the failed tests\n\n${lines.join('\n')}\n\n` : '';
}
