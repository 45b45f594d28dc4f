/**
 * The table of bench/RESULTS.md lists every lag, cost and scale goal, measured or not, and judges the
 * early-failure goal missed when a run was not noticed at all (bench/lib/goals.ts, bench/lib/render.ts).
 */
import { describe, expect, it } from 'vitest';
import { goals } from '../../../bench/lib/goals.js';
import { renderResults } from '../../../bench/lib/render.js';
import type { Results } from '../../../bench/lib/results.js';
import { concurrencyRound, EMPTY_RESULTS } from '../../support/bench-results.js';

const empty = EMPTY_RESULTS;

describe('bench: goals', () => {
  it('are all listed, as not measured, when no case ran', () => {
    const all = goals(empty);
    expect(all.map((g) => g.goal.slice(0, 30))).toEqual([
      'Lag p95 ≤ 1.00 s without an ea',
      'Lag p95 ≤ 1.00 s with an earli',
      'An early failure or outside ca',
      '20 and 100 suites at once: lag',
      '2,000 results: reports written',
      'Requests per run ≤ the officia',
      'Total request rate of the whol',
      '30 action processes on one acc',
    ]);
    for (const g of all) expect(g).toMatchObject({ met: false, by: 'not measured' });
  });

  it('are the one table of RESULTS.md, a row each with its verdict', () => {
    const rows = renderResults(empty)
      .split('\n')
      .filter((line) => line.startsWith('| '));
    expect(rows[0]).toBe('| Goal | Measured | Verdict |');
    expect(rows.slice(1)).toHaveLength(goals(empty).length);
    for (const row of rows.slice(1)) expect(row).toContain('| **missed**: not measured |');
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

describe('bench: the steady-state goal and the shared-account goal', () => {
  const round = (suites: number, history: boolean, steadyPerSecond: number | null) =>
    concurrencyRound(suites, steadyPerSecond, { history });
  const steady = (concurrency: Results['concurrency']) =>
    goals({ ...empty, concurrency }).find((g) => g.goal.startsWith('Total request rate'));

  it('is met where measured, with the sizes that had no steady state named (null in saved figures)', () => {
    const g = steady([
      round(20, false, 1.3),
      round(20, true, 1.2),
      round(100, false, null),
      round(100, true, NaN),
    ]);
    expect(g?.met).toBe(true);
    expect(g?.by).toBe(
      'where measured (20 suites); no steady state to measure at 100 suites (triggers still going at the first finish)',
    );
  });

  it('is met without a reservation when every size was measured under 2/s', () => {
    expect(steady([round(20, false, 1.3), round(100, false, 1.9)])).toMatchObject({ met: true, by: '' });
  });

  it('is missed when any size is over 2/s, even if another had no steady state', () => {
    const g = steady([round(20, false, 2.5), round(100, false, null)]);
    expect(g?.met).toBe(false);
    expect(g?.by).toMatch(/^0\.5\/s over at the worst; no steady state to measure at 100 suites/);
  });

  it('is not measured when no size had a steady state', () => {
    const g = steady([round(100, false, null)]);
    expect(g).toMatchObject({ met: false });
    expect(g?.by).toMatch(/^not measured: no steady state to measure at 100 suites/);
  });

  it('misses the shared-account goal on a failed step or a lag p95 over 5 s', () => {
    const figure = {
      processes: 30,
      suites: 60,
      failedProcesses: 0,
      requests: 200,
      listRequests: 100,
      rateLimited: 3,
      maxPerSecond: 40,
      meanPerSecond: 9,
      answeredPerSecond: 9,
      steadyPerSecond: 8,
      lagsMs: [500, 6_000],
    };
    const shared = (f: typeof figure) =>
      goals({ ...empty, sharedAccount: { figure: f } }).find((g) => g.goal.startsWith('30 action processes'));
    expect(shared(figure)).toMatchObject({ met: false, by: 'lag p95 1.00 s over' });
    expect(shared({ ...figure, lagsMs: [500] })).toMatchObject({ met: true, by: '' });
    expect(shared({ ...figure, lagsMs: [500], failedProcesses: 1 })).toMatchObject({ met: false });
  });
});
