import { describe, expect, it } from 'vitest';
import {
  classifyTestResult,
  countedAs,
  countResults,
  decideStartedVerdict,
  decideVerdict,
  failsStep,
  isSuiteResultOver,
  suiteTestCount,
  type VerdictPolicy,
} from '../../../../src/run/outcome/outcome.js';
import { MAX_LIST_RECORDS } from '../../../../src/api/limits.js';
import { suiteResult, suiteRun, testResult, testRun } from '../../../support/run-factories.js';

const POLICY: VerdictPolicy = { failOnScreenshotCompare: false, failOnTimeout: true, failOnEmpty: true };

describe('classifyTestResult', () => {
  it('reads passing, cancelled (status 8), ended without verdict, and running', () => {
    expect(classifyTestResult(testResult({ passing: true }))).toBe('passed');
    expect(classifyTestResult(testResult({ passing: false }))).toBe('failed');
    expect(classifyTestResult(testResult({ passing: null, status: 8, executionTime: null }))).toBe(
      'cancelled',
    );
    expect(classifyTestResult(testResult({ passing: null, executionTime: 1200 }))).toBe('error');
    expect(
      classifyTestResult(
        testResult({ passing: null, executionTime: null, dateExecutionFinished: '1970-01-01T00:00:00.000Z' }),
      ),
    ).toBe('running');
    expect(
      classifyTestResult(
        testResult({ passing: null, executionTime: null, dateExecutionFinished: undefined }),
      ),
    ).toBe('running');
  });

  it('a running test whose finish date is null (the service sends timing fields as null) is running', () => {
    const open = { passing: null, executionTime: null, dateExecutionFinished: null as never };
    expect(classifyTestResult(testResult(open))).toBe('running');
  });
});

describe('classifyTestResult, ended without a verdict', () => {
  it('an execution time (even 0) or a real finish date means ended; neither, or the 1970 placeholder, running', () => {
    const open = { passing: null, executionTime: null, dateExecutionFinished: undefined };
    expect(classifyTestResult(testResult({ ...open, executionTime: 0 }))).toBe('error');
    expect(
      classifyTestResult(testResult({ ...open, dateExecutionFinished: '2026-01-01T00:00:05.000Z' })),
    ).toBe('error');
    expect(
      classifyTestResult(
        testResult({
          ...open,
          executionTime: undefined as never,
          dateExecutionFinished: '1970-01-01T00:00:00.000Z',
        }),
      ),
    ).toBe('running');
  });
});

describe('failsStep', () => {
  it('failed, error and cancelled fail the step; timed-out only under fail-on-timeout; the rest never', () => {
    for (const failOnTimeout of [true, false]) {
      for (const state of ['failed', 'error', 'cancelled'] as const) {
        expect(failsStep(state, { failOnTimeout })).toBe(true);
      }
      for (const state of ['passed', 'flaky'] as const) {
        expect(failsStep(state, { failOnTimeout })).toBe(false);
      }
      expect(failsStep('timed-out', { failOnTimeout })).toBe(failOnTimeout);
    }
  });
});

describe('suiteTestCount', () => {
  const counts = (countPassing: number, countFailing: number, countUnknown: number) =>
    suiteTestCount(suiteResult({ countPassing, countFailing, countUnknown }));
  it('sums whole, non-negative counts up to the list bound; anything else is no count', () => {
    expect(counts(2, 1, 0)).toBe(3);
    expect(counts(0, 0, 1)).toBe(1);
    expect(counts(0, 0, 0)).toBeNull();
    expect(counts(2, -1, 0)).toBeNull();
    expect(counts(1.5, 0, 0)).toBeNull();
    expect(counts(Number.NaN, 0, 0)).toBeNull();
    expect(
      suiteTestCount(suiteResult({ countPassing: '2' as never, countFailing: 0, countUnknown: 0 })),
    ).toBeNull();
    expect(counts(MAX_LIST_RECORDS, 0, 0)).toBe(MAX_LIST_RECORDS);
    expect(counts(MAX_LIST_RECORDS, 1, 0)).toBeNull();
  });
});

describe('isSuiteResultOver', () => {
  it('a verdict, or a real finish date, is over; the 1970 placeholder is not', () => {
    const open = suiteResult({ passing: null, executionTime: null, dateExecutionFinished: undefined });
    expect(isSuiteResultOver({ ...open, passing: false })).toBe(true);
    expect(isSuiteResultOver({ ...open, dateExecutionFinished: '2026-01-01T00:00:05.000Z' })).toBe(true);
    expect(isSuiteResultOver({ ...open, dateExecutionFinished: '1970-01-01T00:00:00.000Z' })).toBe(false);
  });

  it('a suite result cancelled elsewhere (status 8, no verdict, no finish date yet) is over', () => {
    const cancelled = suiteResult({ passing: null, executionTime: null, dateExecutionFinished: undefined });
    expect(isSuiteResultOver(cancelled)).toBe(false);
    expect(isSuiteResultOver({ ...cancelled, status: 8 })).toBe(true);
  });
});

describe('decideVerdict', () => {
  it('passes when every test passed', () => {
    const v = decideVerdict({ runs: [suiteRun([testRun('passed'), testRun('passed')])] }, POLICY);
    expect(v).toEqual({
      passing: true,
      status: 'passed',
      waited: true,
      policy: POLICY,
      reasons: [],
      counts: {
        total: 2,
        passed: 2,
        failed: 0,
        flaky: 0,
        timedOut: 0,
        cancelled: 0,
        error: 0,
        screenshotCompareFailed: 0,
      },
    });
  });

  it('fails on a failed test and names the count', () => {
    const v = decideVerdict(
      { runs: [suiteRun([testRun('passed'), testRun('failed', { passing: false })])] },
      POLICY,
    );
    expect(v.passing).toBe(false);
    expect(v.reasons).toEqual(['1 test failed.']);
  });

  it('counts a flaky test as no failure', () => {
    const v = decideVerdict({ runs: [suiteRun([testRun('flaky'), testRun('passed')])] }, POLICY);
    expect(v.passing).toBe(true);
    expect(v.counts.flaky).toBe(1);
  });

  it('never counts a null verdict as a pass: cancelled and error fail', () => {
    expect(
      decideVerdict({ runs: [suiteRun([testRun('cancelled', { passing: null })])] }, POLICY).passing,
    ).toBe(false);
    expect(decideVerdict({ runs: [suiteRun([testRun('error', null)])] }, POLICY).passing).toBe(false);
  });

  it('timed out fails only under fail-on-timeout', () => {
    const runs = [suiteRun([testRun('passed'), testRun('timed-out', { passing: null })])];
    expect(decideVerdict({ runs }, POLICY).passing).toBe(false);
    expect(decideVerdict({ runs }, POLICY).reasons[0]).toContain('timeout');
    expect(decideVerdict({ runs }, { ...POLICY, failOnTimeout: false }).passing).toBe(true);
  });

  it('a failed screenshot comparison fails only under fail-on-screenshot-compare; null is neutral', () => {
    const runs = [
      suiteRun([
        testRun('passed', { screenshotComparePassing: false }),
        testRun('passed', { screenshotComparePassing: null }),
        testRun('passed', { screenshotComparePassing: true }),
      ]),
    ];
    const lenient = decideVerdict({ runs }, POLICY);
    expect(lenient.passing).toBe(true);
    expect(lenient.counts.screenshotCompareFailed).toBe(1);
    const strict = decideVerdict({ runs }, { ...POLICY, failOnScreenshotCompare: true });
    expect(strict.passing).toBe(false);
    expect(strict.reasons).toEqual(['1 screenshot comparison failed.']);
    // One classification: the test whose comparison failed counts as failed under the policy, everywhere.
    expect(strict.counts).toMatchObject({ passed: 2, failed: 1, screenshotCompareFailed: 1, total: 3 });
    expect(lenient.counts).toMatchObject({ passed: 3, failed: 0, screenshotCompareFailed: 1, total: 3 });
    expect(countedAs('flaky', true, { failOnScreenshotCompare: true })).toBe('failed');
    expect(countedAs('timed-out', true, { failOnScreenshotCompare: true })).toBe('timed-out');
  });

  it('fail-on-empty: the verdict, its status and reasons agree', () => {
    const v = decideVerdict({ runs: [] }, POLICY);
    expect(v).toMatchObject({ passing: false, status: 'failed', counts: { total: 0 } });
  });

  it('runs never started or not found count once as error and always fail', () => {
    const runs = [
      suiteRun([], { notStarted: 'deadline', error: 'Not started before the timeout.' }),
      suiteRun([], { notStarted: 'signal' }),
      suiteRun([], { mayHaveStarted: true }),
    ];
    const v = decideVerdict({ runs }, { ...POLICY, failOnTimeout: false });
    expect(v.counts).toMatchObject({ total: 3, error: 3 });
    expect(v.passing).toBe(false);
    expect(v.reasons).toEqual([
      '2 runs were never started.',
      '1 run may have started but could not be found.',
    ]);
  });

  it('runs fail-fast kept from starting count once as cancelled (skipped), with their own reason', () => {
    const runs = [
      suiteRun([testRun('failed')]),
      suiteRun([testRun('cancelled')], { cancelled: true }),
      suiteRun([], { notStarted: 'fail-fast', error: 'Not started: fail-fast (a test had failed)' }),
      suiteRun([], { notStarted: 'fail-fast', error: 'Not started: fail-fast (a test had failed)' }),
    ];
    const v = decideVerdict({ runs, interrupted: 'fail-fast' }, POLICY);
    expect(v.counts).toMatchObject({ total: 4, failed: 1, cancelled: 3, error: 0 });
    expect(v.status).toBe('failed');
    expect(v.reasons).toEqual([
      '1 test failed.',
      '1 test was cancelled.',
      '2 runs were not started (fail-fast).',
    ]);
  });

  it('wait: false counts the runs asked for and fails when one could not be started', () => {
    const ok = decideStartedVerdict({ runs: [suiteRun([]), suiteRun([])] }, POLICY);
    expect(ok).toMatchObject({
      passing: true,
      status: 'started',
      waited: false,
      counts: { total: 2, error: 0 },
    });
    const bad = decideStartedVerdict({ runs: [suiteRun([]), suiteRun([], { error: 'HTTP 500' })] }, POLICY);
    expect(bad).toMatchObject({ passing: false, status: 'not-started', counts: { total: 2, error: 1 } });
    expect(bad.reasons).toEqual(['1 run could not be started: HTTP 500']);
  });

  it('status is cancelled only when cancellation is the sole cause', () => {
    const cancelled = suiteRun([testRun('cancelled', { passing: null, status: 8 })]);
    expect(decideVerdict({ runs: [cancelled] }, POLICY).status).toBe('cancelled');
    const failed = suiteRun([testRun('failed', { passing: false })]);
    expect(decideVerdict({ runs: [cancelled, failed] }, POLICY).status).toBe('failed');
  });

  it('nothing ran fails only under fail-on-empty', () => {
    const runs = [suiteRun([])];
    expect(decideVerdict({ runs }, POLICY).reasons).toEqual(['No test ran (empty suites or folders).']);
    expect(decideVerdict({ runs }, { ...POLICY, failOnEmpty: false }).passing).toBe(true);
  });

  it('a run with no test result counts by its own state', () => {
    const counts = countResults([
      suiteRun([], { timedOut: true }),
      suiteRun([], { cancelled: true }),
      suiteRun([], { error: 'The trigger failed.' }),
    ]);
    expect(counts).toMatchObject({ total: 3, timedOut: 1, cancelled: 1, error: 1 });
  });

  it('each reason in the singular and the plural; cancelled only while every reason is a cancel', () => {
    const never = (n: number) => Array.from({ length: n }, () => suiteRun([], { notStarted: 'deadline' }));
    const skipped = (n: number) => Array.from({ length: n }, () => suiteRun([], { notStarted: 'fail-fast' }));
    const cancelledTests = (n: number) =>
      suiteRun(Array.from({ length: n }, () => testRun('cancelled', { passing: null, status: 8 })));
    expect(decideVerdict({ runs: never(1) }, POLICY).reasons).toEqual(['1 run was never started.']);
    expect(decideVerdict({ runs: [cancelledTests(2)] }, POLICY).reasons).toEqual(['2 tests were cancelled.']);
    const onlySkipped = decideVerdict({ runs: [suiteRun([testRun('passed')]), ...skipped(1)] }, POLICY);
    expect(onlySkipped.reasons).toEqual(['1 run was not started (fail-fast).']);
    expect(onlySkipped.status).toBe('cancelled');
    const both = decideVerdict({ runs: [cancelledTests(1), ...skipped(2)] }, POLICY);
    expect(both.reasons).toEqual(['1 test was cancelled.', '2 runs were not started (fail-fast).']);
    expect(both.status).toBe('cancelled');
    expect(decideVerdict({ runs: [cancelledTests(1), ...never(1)] }, POLICY).status).toBe('failed');
  });

  it('a comparison that did not fail is no reason, even under fail-on-screenshot-compare', () => {
    const runs = [suiteRun([testRun('passed', { passing: true, screenshotComparePassing: null })])];
    const v = decideVerdict({ runs }, { ...POLICY, failOnScreenshotCompare: true });
    expect(v).toMatchObject({ passing: true, status: 'passed', reasons: [] });
    expect(v.counts.screenshotCompareFailed).toBe(0);
  });

  it('a workflow cancel always fails', () => {
    const v = decideVerdict(
      {
        runs: [suiteRun([testRun('passed'), testRun('cancelled', { passing: null })])],
        interrupted: 'signal',
      },
      POLICY,
    );
    expect(v.passing).toBe(false);
    expect(v.reasons).toEqual(['The workflow was cancelled while the tests ran.']);
  });
});
