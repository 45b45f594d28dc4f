/**
 * `suiteResultShortfall`: the stand-in tests a finished suite run lacks by its suite result's own word
 * (docs/architecture.md, "The suite result's own word"): one `error` per missing test result up to a bound, then
 * one line with the number; counts past the list bound not believed; a verdict of failed that the list does
 * not show; nothing for a run without a verdict, cancelled, timed out, or already given its stand-ins.
 */
import { describe, expect, it } from 'vitest';
import { MAX_LIST_RECORDS } from '../../../../src/api/limits.js';
import { suiteResultShortfall } from '../../../../src/run/outcome/outcome.js';
import type { SuiteRun } from '../../../../src/run/types.js';
import { suiteResult, suiteRun, testResult, testRun } from '../../../support/run-factories.js';

function finished(listed: number, counts: { passing?: boolean; p: number; f: number; u: number }): SuiteRun {
  return suiteRun(
    Array.from({ length: listed }, () => testRun('passed', { passing: true })),
    {
      suiteResult: suiteResult({
        passing: counts.passing ?? true,
        countPassing: counts.p,
        countFailing: counts.f,
        countUnknown: counts.u,
      }),
    },
  );
}

describe('suiteResultShortfall', () => {
  it('one error stand-in per missing test result, named by its place, saying what was counted and listed', () => {
    const out = suiteResultShortfall(finished(2, { p: 3, f: 0, u: 0 }));
    expect(out).toHaveLength(1);
    expect(out[0]).toMatchObject({ testId: null, state: 'error', result: null, attempts: [] });
    expect(out[0]!.testName).toBe('Missing test result (1 of 1)');
    expect(out[0]!.error).toBe(
      'The suite result counts 3 tests (3 passed, 0 failed, 0 unknown), but its list of test results held 2, ' +
        "also when read again: this test's result is missing, its outcome unknown.",
    );
  });

  it('past the stand-in bound, one line carries the rest', () => {
    const out = suiteResultShortfall(finished(0, { p: 40, f: 0, u: 0 }));
    const named = out.filter((t) => /^Missing test result \(\d+ of 40\)$/.test(t.testName));
    expect(named.length).toBeGreaterThan(0);
    expect(named.length).toBeLessThan(40);
    expect(out).toHaveLength(named.length + 1);
    const rest = 40 - named.length;
    expect(out.at(-1)!.testName).toBe(`Missing test results: ${rest} more`);
    expect(out.at(-1)!.error).toContain(`: ${rest} more test results are missing.`);
    // Exactly at the bound: every one named, no line for the rest.
    const atBound = suiteResultShortfall(finished(0, { p: named.length, f: 0, u: 0 }));
    expect(atBound).toHaveLength(named.length);
    expect(atBound.every((t) => t.testName.startsWith('Missing test result ('))).toBe(true);
  });

  it('counts past what any list is read for are not believed: one stand-in, no run of thousands', () => {
    const out = suiteResultShortfall(finished(1, { p: MAX_LIST_RECORDS, f: 0, u: 1 }));
    expect(out).toHaveLength(1);
    expect(out[0]!.testName).toBe('Missing test results: counts not believed');
    expect(out[0]!.error).toContain(`counts ${MAX_LIST_RECORDS + 1} tests`);
    expect(out[0]!.error).toContain('an answer of the wrong shape');
    expect(suiteResultShortfall(finished(0, { p: MAX_LIST_RECORDS, f: 0, u: 0 })).length).toBeGreaterThan(1);
  });

  it('a run that already holds its stand-ins gets none again', () => {
    const run = finished(1, { p: 3, f: 0, u: 0 });
    const again = { ...run, tests: [...run.tests, ...suiteResultShortfall(run)] };
    expect(suiteResultShortfall(again)).toEqual([]);
    const lookAlike = {
      ...run,
      // A test of the suite without a result yet, named like a stand-in, is not one.
      tests: [
        ...run.tests,
        { ...testRun('error', null), testId: 'test-9', testName: 'Missing test result (1 of 1)' },
      ],
    };
    expect(suiteResultShortfall(lookAlike)).not.toEqual([]);
  });

  it('a suite result that failed, or counts failing, while its list shows none failing', () => {
    const failed = suiteResultShortfall(finished(2, { passing: false, p: 2, f: 0, u: 0 }));
    expect(failed.map((t) => t.testName)).toEqual(['Suite result failed']);
    expect(failed[0]!.error).toMatch(
      /^The suite result says it failed \(2 passed, 0 failed, 0 unknown\), but none/,
    );
    const counting = suiteResultShortfall(finished(2, { passing: true, p: 1, f: 1, u: 0 }));
    expect(counting[0]!.error).toMatch(
      /^The suite result says it passed but counts 1 failing \(1 passed, 1 failed/,
    );
  });

  it('a listed failure, or a failed earlier attempt, agrees with a failed suite result', () => {
    const run = finished(1, { passing: false, p: 1, f: 1, u: 0 });
    const withFailure = { ...run, tests: [...run.tests, testRun('failed', { passing: false })] };
    expect(suiteResultShortfall(withFailure)).toEqual([]);
    const flaky = testRun('passed', { passing: true }, [testResult({ passing: false })]);
    expect(suiteResultShortfall({ ...run, tests: [run.tests[0]!, flaky] })).toEqual([]);
  });

  it('nothing for a run without a verdict, cancelled, timed out, or ended by an error before any test', () => {
    const run = finished(0, { p: 3, f: 0, u: 0 });
    expect(suiteResultShortfall({ ...run, suiteResult: { ...run.suiteResult!, passing: null } })).toEqual([]);
    const noVerdict = { ...run.suiteResult!, passing: undefined as never };
    expect(suiteResultShortfall({ ...run, suiteResult: noVerdict })).toEqual([]);
    expect(suiteResultShortfall({ ...run, suiteResult: undefined })).toEqual([]);
    expect(suiteResultShortfall({ ...run, kind: 'test' })).toEqual([]);
    expect(suiteResultShortfall({ ...run, cancelled: true })).toEqual([]);
    expect(suiteResultShortfall({ ...run, timedOut: true })).toEqual([]);
    expect(suiteResultShortfall({ ...run, error: 'could not be read' })).toEqual([]);
    expect(suiteResultShortfall(run)).not.toEqual([]);
  });
});
