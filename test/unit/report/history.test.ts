/**
 * The history line of a failed test from its earlier results, newest first (pure), and the reading of it:
 * only the test's own results, started before this run, on its browser and start URL.
 */
import { describe, expect, it } from 'vitest';
import type { TestResult } from '../../../src/api/types.js';
import {
  HISTORY_RUNS,
  historyLine,
  isNewFailure,
  noHistoryNote,
  readHistory,
  renderHistorySection,
  type HistoryScope,
} from '../../../src/report/history.js';
import { allTests } from '../../../src/report/model.js';
import { Fixtures, summaryOf, suiteRun } from './fixtures.js';
import { reportOf } from './scenarios.js';

const TEST = 'test-1';
const RUN_START = Date.parse('2026-03-04T09:59:58.000Z');
const HOUR = 3_600_000;

/** A scope of test `TEST` on chrome at the shop's start page, started at `RUN_START`. */
function scope(extra: Partial<HistoryScope> = {}): HistoryScope {
  return {
    testId: TEST,
    before: RUN_START,
    browser: 'chrome-120',
    startUrl: 'https://shop.example.com/?utm=x',
    own: new Set(),
    ...extra,
  };
}

/** Results newest first, an hour apart before the run: `p` passed, `f` failed, `r` still running. */
function results(pattern: string, fields: Partial<TestResult> = {}): TestResult[] {
  return [...pattern].map(
    (c, i) =>
      ({
        _id: `r${i}`,
        test: { _id: TEST, name: 'Checkout' },
        passing: c === 'r' ? null : c === 'p',
        browser: 'chrome-119',
        startUrl: 'https://shop.example.com/',
        dateCreated: new Date(RUN_START - (i + 1) * HOUR).toISOString(),
        dateExecutionStarted: new Date(RUN_START - (i + 1) * HOUR).toISOString(),
        ...fields,
      }) as unknown as TestResult,
  );
}

describe('historyLine', () => {
  it('a first failure is new, counting the passing runs before it, at most HISTORY_RUNS', () => {
    expect(historyLine(results('ppp'), scope())).toBe('new failure after 3 passing runs');
    expect(historyLine(results('p'), scope())).toBe('new failure after 1 passing run');
    const many = historyLine(results('p'.repeat(HISTORY_RUNS + 5)), scope());
    expect(many).toBe(`new failure after ${HISTORY_RUNS} passing runs`);
    expect(isNewFailure(many)).toBe(true);
    expect(isNewFailure(historyLine([], scope()))).toBe(true);
  });

  it('a repeated failure counts this run among its last HISTORY_RUNS', () => {
    const line = historyLine(results('fpfp'), scope());
    expect(line).toBe('failed 3 of its last 5 runs');
    expect(isNewFailure(line)).toBe(false);
    const all = historyLine(results('f'.repeat(HISTORY_RUNS * 2)), scope());
    const [, failed, runs] = /failed (\d+) of its last (\d+) runs/.exec(all)!.map(Number);
    expect(runs).toBeLessThanOrEqual(HISTORY_RUNS);
    expect(failed).toBe(runs);
  });

  it("leaves out this run's own results and results still running; nothing earlier: new, no earlier runs", () => {
    expect(historyLine(results('frpp'), scope({ own: new Set(['r0']) }))).toBe(
      'new failure after 2 passing runs',
    );
    expect(historyLine(results('fr'), scope({ own: new Set(['r0']) }))).toBe('new failure: no earlier runs');
    expect(historyLine([], scope())).toBe('new failure: no earlier runs');
  });

  it('results of another test, or dated at or after the run, are not history', () => {
    const future = (i: number) => new Date(RUN_START + (i + 1) * HOUR).toISOString();
    const foreign = results('p'.repeat(10), {
      test: { _id: 'test-2', name: 'Other' },
    } as Partial<TestResult>);
    const later = results('pppp').map((r, i) => ({
      ...r,
      dateExecutionStarted: future(i),
      dateCreated: future(i),
    }));
    const onDemand = results('pp', { test: null });
    const undated = results('p', { dateExecutionStarted: 'never', dateCreated: 'never' });
    const mine = results('ff').map((r) => ({ ...r, _id: `m${r._id}` }));
    expect(historyLine([...foreign, ...later, ...onDemand, ...undated, ...mine], scope())).toBe(
      'failed 3 of its last 3 runs',
    );
    expect(historyLine([...foreign, ...later], scope())).toBe('new failure: no earlier runs');
    // Started at the run's own start: not earlier. No execution start: the creation date counts.
    const atStart = results('f', { dateExecutionStarted: new Date(RUN_START).toISOString() });
    expect(historyLine(atStart, scope())).toBe('new failure: no earlier runs');
    const created = results('p', { dateExecutionStarted: undefined } as Partial<TestResult>);
    expect(historyLine(created, scope())).toBe('new failure after 1 passing run');
    expect(isNewFailure(undefined)).toBe(false);
  });

  it('only the same browser (any version) and start URL (any query) where the service names them', () => {
    const firefox = results('pppp', { browser: 'firefox' });
    const staging = results('ppp', { startUrl: 'https://staging.shop.example.com/' });
    const chrome = results('ff', { browser: 'chrome' });
    const unnamed = results('f', { browser: null } as Partial<TestResult>);
    expect(historyLine([...firefox, ...staging, ...chrome, ...unnamed], scope())).toBe(
      'failed 4 of its last 4 runs',
    );
    // Unknown on this run's side: any browser, any start URL.
    expect(historyLine(firefox, scope({ browser: undefined }))).toBe('new failure after 4 passing runs');
    expect(historyLine(staging, scope({ startUrl: undefined }))).toBe('new failure after 3 passing runs');
  });
});

describe('readHistory', () => {
  /** A report of one failing test `TEST` on chrome, and one on-demand (test-files) failure when asked. */
  function failingReport(withFile = false, tests = 1) {
    const fx = new Fixtures();
    const run = suiteRun(fx, {
      key: 'suite-a-0',
      suiteId: 'suite-a',
      suiteName: 'Shop',
      suiteResultId: 'sr-1',
      variant: { browser: 'chrome' },
      tests: Array.from({ length: tests }, (_, i) => ({
        name: i === 0 ? 'Checkout' : `Checkout ${i}`,
        outcome: 'failed' as const,
        testId: i === 0 ? TEST : `test-1-${i}`,
        browser: 'chrome-120',
        attempts: [{ name: 'Checkout', outcome: 'failed' as const, testId: i === 0 ? TEST : `test-1-${i}` }],
      })),
    });
    const file = {
      ...suiteRun(fx, {
        key: 'file-0',
        suiteId: 'files',
        suiteName: 'checkout.json',
        suiteResultId: 'sr-2',
        tests: [{ name: 'From a file', outcome: 'failed', testId: null }],
      }),
      kind: 'file' as const,
    };
    return reportOf(summaryOf(withFile ? [run, file] : [run]), {
      failOnScreenshotCompare: false,
      failOnTimeout: true,
    });
  }

  it('ten passing results of another test dated after the run are no history: the failure is new, not "after 10 passing runs"', async () => {
    const report = failingReport();
    const forged = results('p'.repeat(10), {
      test: { _id: 'test-2', name: 'Other' },
    } as Partial<TestResult>).map((r, i) => ({
      ...r,
      dateExecutionStarted: new Date(RUN_START + (i + 1) * HOUR).toISOString(),
    }));
    const asked: Array<{ testId: string; count?: number }> = [];
    const history = await readHistory(
      {
        listTestResults: (testId, paging) => {
          asked.push({ testId, ...(paging?.count ? { count: paging.count } : {}) });
          return Promise.resolve(forged);
        },
      },
      report,
      { signal: new AbortController().signal, warn: () => {} },
    );
    expect(asked.map((a) => a.testId)).toEqual([TEST]);
    expect(asked[0]!.count).toBeGreaterThan(HISTORY_RUNS);
    expect(asked[0]!.count).toBeLessThanOrEqual(50);
    expect(history.get(TEST)).toBe('new failure: no earlier runs');
  });

  it("leaves out the run's own result and attempts, and results on another browser than the test's", async () => {
    const report = failingReport();
    const [{ test }] = allTests(report);
    const before = results('ffp');
    const listed = [
      { ...before[0]!, _id: test!.resultId! },
      { ...before[1]!, _id: test!.attempts[0]!.resultId },
      { ...before[0]!, _id: 'firefox-run', browser: 'firefox-130' },
      before[2]!,
    ];
    const history = await readHistory({ listTestResults: () => Promise.resolve(listed) }, report, {
      signal: new AbortController().signal,
      warn: () => {},
    });
    expect(history.get(TEST)).toBe('new failure after 1 passing run');
  });

  it('reads the first 20 failing tests, one request each; the section gives each its line', async () => {
    const report = failingReport(false, 25);
    const asked: string[] = [];
    const history = await readHistory(
      {
        listTestResults: (testId) => {
          asked.push(testId);
          return Promise.resolve(results('pf', { test: { _id: testId, name: 'x' } } as Partial<TestResult>));
        },
      },
      report,
      { signal: new AbortController().signal, warn: () => {} },
    );
    expect(asked).toEqual([TEST, ...Array.from({ length: 19 }, (_, i) => `test-1-${i + 1}`)]);
    expect(history.size).toBe(20);
    const section = renderHistorySection(report, history);
    expect(section).toMatch(
      /^### History of the failed tests\n\n- Shop › Checkout: failed 2 of its last 3 runs\n/,
    );
    expect(section).toContain('- Shop › Checkout 19: failed 2 of its last 3 runs\n');
    expect(section).not.toContain('Checkout 20');
    expect(section.endsWith('runs\n\n')).toBe(true);
  });

  it('a read that fails warns naming the test, left without history; once stopped, one warning counts those unread', async () => {
    const report = failingReport();
    const failing = { listTestResults: () => Promise.reject(new Error('HTTP 502 Bad Gateway')) };
    const warnings: string[] = [];
    const warn = (message: string) => warnings.push(message);
    const history = await readHistory(failing, report, { signal: new AbortController().signal, warn });
    expect(history.size).toBe(0);
    expect(warnings).toEqual(['Could not read the history of Shop › Checkout: HTTP 502 Bad Gateway']);
    warnings.length = 0;
    const stop = new AbortController();
    stop.abort(new Error('time limit of 20 s reached'));
    expect((await readHistory(failing, report, { signal: stop.signal, warn })).size).toBe(0);
    expect(warnings).toEqual([
      'Could not read the history of 1 failed test: stopped: time limit of 20 s reached',
    ]);
    // Stopped after every read answered: nothing to warn of.
    warnings.length = 0;
    const answered = { listTestResults: () => Promise.resolve(results('p')) };
    expect((await readHistory(answered, report, { signal: stop.signal, warn })).size).toBe(1);
    expect(warnings).toEqual([]);
  });

  it('reads only the failing tests that have a test id', async () => {
    const asked: string[] = [];
    const api = {
      listTestResults: (testId: string) => {
        asked.push(testId);
        return Promise.resolve(results('p'));
      },
    };
    const passedToo = failingReport(true);
    passedToo.runs[0]!.tests.push({ ...passedToo.runs[0]!.tests[0]!, testId: 'test-passed', failing: false });
    await readHistory(api, passedToo, { signal: new AbortController().signal, warn: () => {} });
    expect(asked).toEqual([TEST]);
  });

  it('a test-files failure says why it has no history, in the summary section too', () => {
    const report = failingReport(true);
    expect(noHistoryNote(report)).toMatch(/test-files have no history: the service runs them on demand/);
    expect(noHistoryNote(failingReport())).toBe('');
    expect(renderHistorySection(report, new Map())).toContain('test-files have no history');
    expect(renderHistorySection(failingReport(), new Map())).toBe('');
  });
});
