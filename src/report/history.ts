/**
 * Each failed test's history from the service's own results (docs/api-contract.md, "Endpoints the action
 * calls"; docs/reports.md, "Test history"): "failed 3 of its last 10 runs", "new failure after 10 passing
 * runs". Only the test's own results count, started before this run, on the same browser and start URL where
 * the service shows them. A failure to read warns and never changes the verdict.
 */
import type { GhostInspectorApi } from '../api/api.js';
import { PAGE_SIZE } from '../api/limits.js';
import { withoutQuery } from '../api/redact.js';
import { refId } from '../api/refs.js';
import type { TestResult } from '../api/types.js';
import { messageOf } from '../common/log.js';
import { stopReason } from '../common/time-limit.js';
import { plural } from '../common/words.js';
import type { Report, ReportTest } from './model-types.js';
import { allTests } from './model.js';
import { groupTests, titleHtml } from './summary-failures.js';

/** Earlier runs of a test the history looks at. */
export const HISTORY_RUNS = 10;
/** Results asked for per test: more than {@link HISTORY_RUNS}, as other browsers and start URLs are left out. */
const HISTORY_READ = 30;
/** Failed tests whose history is read (one request each); the rest go without. */
const MAX_HISTORY_TESTS = 20;
/** How the line of a test that failed for the first time starts. */
const NEW_FAILURE = 'new failure';

/** History line by test id. */
export type TestHistory = ReadonlyMap<string, string>;

/** What an earlier result must share with this run's to be the test's history. */
export interface HistoryScope {
  testId: string;
  /** This run's start, ms since the epoch: results started at or after it are not earlier. */
  before: number;
  /** This run's result's browser (`chrome-79`: compared without the version); unknown: any. */
  browser?: string;
  /** This run's result's start URL (compared without query); unknown: any. */
  startUrl?: string;
  /** This run's own result ids (attempts included): never history. */
  own: ReadonlySet<string>;
}

/** True when `line` ({@link historyLine}) says the test failed for the first time. */
export function isNewFailure(line: string | undefined): boolean {
  return !!line?.startsWith(NEW_FAILURE);
}

const family = (browser: string): string => browser.replace(/-[\d.]+$/, '');

/** True when `r` is an earlier, finished result of the scope's test on its browser and start URL. */
function inScope(r: TestResult, scope: HistoryScope): boolean {
  if (scope.own.has(r._id) || typeof r.passing !== 'boolean' || refId(r.test) !== scope.testId) return false;
  const started = Date.parse(String(r.dateExecutionStarted ?? r.dateCreated));
  if (Number.isNaN(started) || started >= scope.before) return false;
  if (scope.browser && typeof r.browser === 'string' && family(r.browser) !== family(scope.browser))
    return false;
  return !(scope.startUrl && r.startUrl && withoutQuery(r.startUrl) !== withoutQuery(scope.startUrl));
}

/**
 * The history line of a failed test (pure) from its results, newest first: only those in `scope`. No earlier
 * result: "new failure: no earlier runs".
 */
export function historyLine(results: readonly TestResult[], scope: HistoryScope): string {
  const earlier = results.filter((r) => inScope(r, scope)).slice(0, HISTORY_RUNS);
  if (earlier.length === 0) return `${NEW_FAILURE}: no earlier runs`;
  if (earlier.every((r) => r.passing)) return `${NEW_FAILURE} after ${plural(earlier.length, 'passing run')}`;
  // This run and the ones before it, HISTORY_RUNS in all.
  const window = earlier.slice(0, HISTORY_RUNS - 1);
  const failed = 1 + window.filter((r) => !r.passing).length;
  return `failed ${failed} of its last ${window.length + 1} runs`;
}

/** Why some failed tests have no history: those run from `test-files` (on demand, under no test id); ''. */
export function noHistoryNote(report: Report): string {
  const files = report.runs.some((run) => run.kind === 'file' && run.tests.some((t) => t.failing));
  return files
    ? 'Tests run from test-files have no history: the service runs them on demand and files their results under no test.'
    : '';
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
  const failed = new Map<string, ReportTest>();
  for (const { test } of allTests(report)) {
    if (!test.testId) continue;
    if (test.resultId) own.set(test.testId, (own.get(test.testId) ?? new Set()).add(test.resultId));
    for (const attempt of test.attempts) own.get(test.testId)?.add(attempt.resultId);
    if (test.failing && !failed.has(test.testId)) failed.set(test.testId, test);
  }
  const tests = [...failed.values()].slice(0, MAX_HISTORY_TESTS);
  const before = Date.parse(report.startedAt);
  const lines = await Promise.all(
    tests.map(async (test) => {
      const testId = test.testId!;
      const scope: HistoryScope = {
        testId,
        before: Number.isNaN(before) ? Infinity : before,
        ...(test.browser ? { browser: test.browser } : {}),
        ...(test.startUrl ? { startUrl: test.startUrl } : {}),
        own: own.get(testId) ?? new Set<string>(),
      };
      try {
        const results = await api.listTestResults(
          testId,
          { count: Math.min(PAGE_SIZE, HISTORY_READ + scope.own.size) },
          { signal: options.signal, lowPriority: true },
        );
        return [testId, historyLine(results, scope)] as const;
      } catch (error) {
        if (!options.signal.aborted) {
          options.warn(`Could not read the history of ${test.title}: ${messageOf(error)}`);
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
  const note = noHistoryNote(report);
  if (note) lines.push(`- ${note}`);
  return lines.length > 0 ? `### History of the failed tests\n\n${lines.join('\n')}\n\n` : '';
}
