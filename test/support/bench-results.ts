/**
 * Bench figures for the tests of bench/lib: a run in which no case ran, and one round of the
 * "suites at once" case.
 */
import type { Results } from '../../bench/lib/results.js';

/** Figures of a quick run in which no case ran. */
export const EMPTY_RESULTS: Results = {
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
export function concurrencyRound(
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
