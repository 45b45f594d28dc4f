/**
 * The table of bench/RESULTS.md lists every lag, cost and scale goal, measured or not, and judges the
 * early-failure goal missed when a run was not noticed at all (bench/lib/goals.ts, bench/lib/render.ts);
 * docs/performance.md's table of goals is the one the list of goals makes.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { GOALS, goals, goalsTable } from '../../../bench/lib/goals.js';
import { renderResults } from '../../../bench/lib/render.js';
import type { PushMode, PushSample } from '../../../bench/lib/push.js';
import type { Results } from '../../../bench/lib/results.js';

/** Figures of a quick run in which no case ran. */
const EMPTY_RESULTS: Results = {
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

type Round = Results['concurrency'][number];

/**
 * One round of ours with `suites` suites at once, no history, 100 requests (20 of them the running list)
 * at 3/s and a lag of 0.5 s; `steadyPerSecond` null when the round had no steady state (as saved figures
 * write it). `overrides` set any other figure.
 */
function concurrencyRound(
  suites: number,
  steadyPerSecond: number | null,
  overrides: Partial<Round> = {},
): Round {
  return {
    client: 'action',
    history: false,
    suites,
    requests: 100,
    listRequests: 20,
    rateLimited: 0,
    failed: 0,
    meanPerSecond: 3,
    steadyPerSecond: steadyPerSecond as number,
    maxPerSecond: 20,
    busiest: [],
    kinds: {},
    lagsMs: [500],
    reportsAfterLastFinishMs: 500,
    ...overrides,
  };
}

const empty = EMPTY_RESULTS;
const ROOT = path.resolve(import.meta.dirname, '../../..');

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
      '30 processes of one suite and ',
      '30 one-test processes on one a',
      'A one-suite process beside a 1',
      'Lone test runs with push reach',
      'Lone test runs with push on an',
      'Lone test runs polled, beside ',
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

  it('judges each shared-account shape by its own bounds: failed steps, lag p95, answers 429', () => {
    const figure = {
      shape: 'pairs' as const,
      label: '30 processes of one suite and one test',
      processes: 30,
      failedProcesses: 0,
      requests: 200,
      listRequests: 100,
      rateLimited: 3,
      maxPerSecond: 40,
      meanPerSecond: 9,
      answeredPerSecond: 9,
      steadyPerSecond: 8,
      lagsMs: [500, 5_000],
      firstLagsMs: [500],
    };
    const shared = (f: typeof figure) =>
      goals({ ...empty, sharedAccount: [{ figure: f }] }).find((g) => g.goal.startsWith('30 processes'));
    expect(shared(figure)).toMatchObject({ met: false, by: 'lag p95 1.00 s over' });
    expect(shared({ ...figure, lagsMs: [500] })).toMatchObject({ met: true, by: '' });
    expect(shared({ ...figure, lagsMs: [500], failedProcesses: 1 })).toMatchObject({ met: false });
    expect(shared({ ...figure, lagsMs: [500], rateLimited: 31 })).toMatchObject({
      met: false,
      by: '1 answers 429 over',
    });
    // The one-suite process beside a big one is judged by its own lag, not the big one's.
    const beside = goals({
      ...empty,
      sharedAccount: [{ figure: { ...figure, shape: 'beside', lagsMs: [9_000], firstLagsMs: [4_000] } }],
    }).find((g) => g.goal.startsWith('A one-suite process'));
    expect(beside).toMatchObject({ met: true });
    // A shape that did not run is not measured.
    const singles = goals({ ...empty, sharedAccount: [{ figure }] }).find((g) =>
      g.goal.startsWith('30 one-test'),
    );
    expect(singles).toMatchObject({ met: false, by: 'not measured' });
  });

  it('judges push by lag p95 and requests per run, the lost webhooks and polling by lag p95 alone', () => {
    const sample = (mode: PushMode, lagMs: number, requests: number): PushSample => ({
      mode,
      client: 'action',
      kind: 'test',
      durationS: 8,
      history: false,
      lagMs,
      requests,
      listShare: 0,
      runMs: 8_000,
      pollDelayMs: 0,
      afterLastAnswerMs: 0,
    });
    const judged = (push: PushSample[]) =>
      goals({ ...empty, push }).filter((g) => g.goal.startsWith('Lone test runs'));
    const met = judged([sample('push', 40, 7), sample('lost', 1_400, 20), sample('poll', 900, 30)]);
    expect(met.map((g) => g.met)).toEqual([true, true, true]);
    const missed = judged([sample('push', 40, 11), sample('push', 150, 7), sample('lost', 1_600, 5)]);
    expect(missed.map((g) => [g.met, g.by])).toEqual([
      [false, 'lag p95 0.05 s over; 1.0 requests per run over'],
      [false, 'lag p95 0.10 s over'],
      [false, 'not measured'],
    ]);
  });
});

describe('bench: one list of goals', () => {
  it('docs/performance.md shows the table of goals made from it (run `npm run docs` after changing it)', () => {
    const doc = readFileSync(path.join(ROOT, 'docs', 'performance.md'), 'utf8');
    expect(doc).toContain(goalsTable());
  });

  it('every goal the bench judges has its row in the list', () => {
    const judged = goals(empty).map((g) => g.goal);
    for (const { measure } of GOALS.filter((g) =>
      /processes|process beside|Lone test runs/.test(g.measure),
    )) {
      expect(judged.some((g) => g.startsWith(measure))).toBe(true);
    }
  });
});
