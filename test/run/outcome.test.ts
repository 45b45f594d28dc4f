import { describe, expect, it } from 'vitest';
import {
  classifyTestResult,
  countResults,
  decideVerdict,
  type VerdictPolicy,
} from '../../src/run/outcome.js';
import { suiteRun, testResult, testRun } from './factories.js';

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
});

describe('decideVerdict', () => {
  it('passes when every test passed', () => {
    const v = decideVerdict({ runs: [suiteRun([testRun('passed'), testRun('passed')])] }, POLICY);
    expect(v).toEqual({
      passing: true,
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
