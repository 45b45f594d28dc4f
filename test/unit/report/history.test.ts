/** The history line of a failed test from its earlier results, newest first (pure). */
import { describe, expect, it } from 'vitest';
import type { TestResult } from '../../../src/api/types.js';
import { HISTORY_RUNS, historyLine } from '../../../src/report/history.js';

/** Results newest first: `p` passed, `f` failed, `r` still running. */
function results(pattern: string): TestResult[] {
  return [...pattern].map(
    (c, i) => ({ _id: `r${i}`, passing: c === 'r' ? null : c === 'p' }) as unknown as TestResult,
  );
}

describe('historyLine', () => {
  it('a first failure counts the passing runs before it, at most HISTORY_RUNS', () => {
    expect(historyLine(results('ppp'), new Set())).toBe('first failure after 3 passing runs');
    expect(historyLine(results('p'), new Set())).toBe('first failure after 1 passing run');
    const many = historyLine(results('p'.repeat(HISTORY_RUNS + 5)), new Set());
    expect(many).toBe(`first failure after ${HISTORY_RUNS} passing runs`);
  });

  it('a repeated failure counts this run among its last HISTORY_RUNS', () => {
    expect(historyLine(results('fpfp'), new Set())).toBe('failed 3 of its last 5 runs');
    const line = historyLine(results('f'.repeat(HISTORY_RUNS * 2)), new Set());
    const [, failed, runs] = /failed (\d+) of its last (\d+) runs/.exec(line)!.map(Number);
    expect(runs).toBeLessThanOrEqual(HISTORY_RUNS);
    expect(failed).toBe(runs);
  });

  it("leaves out this run's own results and results still running; nothing earlier: no line", () => {
    expect(historyLine(results('frpp'), new Set(['r0']))).toBe('first failure after 2 passing runs');
    expect(historyLine(results('fr'), new Set(['r0']))).toBe('');
    expect(historyLine([], new Set())).toBe('');
  });
});
