/**
 * The verdict table of bench/RESULTS.md lists every goal of issue 13, measured or not, and judges the
 * early-failure goal missed when a run was not noticed at all (bench/lib/goals.ts).
 */
import { describe, expect, it } from 'vitest';
import { goals } from '../../../bench/lib/goals.js';
import type { Results } from '../../../bench/lib/render.js';

const empty: Results = {
  mode: 'quick',
  date: '2026-01-01T00:00:00.000Z',
  benchSeconds: 0,
  machine: { cores: 2, cpuModel: 'x', memoryGb: 1, node: 'v20', os: 'Linux', loadStart: [], loadEnd: [] },
  action: 'dist/index.js',
  officialVersion: '7.0.1',
  lag: [],
  startupMs: [],
  bareNodeStartupMs: [],
  overhead: [],
  scale: [],
  concurrency: [],
  early: [],
  failures: [],
  stray: [],
};

describe('bench: goals of issue 13', () => {
  it('are all listed, as not measured, when no case ran', () => {
    const issue13 = goals(empty).filter((g) => g.issue13);
    expect(issue13.map((g) => g.goal.slice(0, 30))).toEqual([
      'Lag p95 ≤ 1.00 s without an ea',
      'Lag p95 ≤ 0.50 s with an earli',
      'An early failure or outside ca',
      '20 and 100 suites at once: lag',
      '2,000 results: reports written',
      'Requests per run ≤ the officia',
      'Total request rate of the whol',
      '10 action processes on one acc',
    ]);
    for (const g of issue13) expect(g).toMatchObject({ met: false, by: 'not measured' });
  });

  it('misses the early-failure goal when a run was not noticed (NaN, or null in saved figures)', () => {
    const figure = {
      client: 'action' as const,
      historyS: 600,
      runMs: 2000,
      requests: 4,
    };
    const early = [
      { ...figure, case: 'early failure' as const, kind: 'test' as const, noticedMs: 400 },
      { ...figure, case: 'early failure' as const, kind: 'suite' as const, noticedMs: NaN, note: 'stopped' },
      { ...figure, case: 'cancelled in the app' as const, kind: 'test' as const, noticedMs: 300 },
      {
        ...figure,
        case: 'cancelled in the app' as const,
        kind: 'suite' as const,
        noticedMs: null as unknown as number,
      },
    ];
    const goal = goals({ ...empty, early }).find((g) => g.goal.startsWith('An early failure'));
    expect(goal?.met).toBe(false);
    expect(goal?.by).toMatch(/failure of a suite, cancel of a suite not noticed/);
    const met = goals({ ...empty, early: early.map((x) => ({ ...x, noticedMs: 900 })) }).find((g) =>
      g.goal.startsWith('An early failure'),
    );
    expect(met?.met).toBe(true);
  });
});
