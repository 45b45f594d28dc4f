/**
 * The notes under "Where a goal is missed, and why" (bench/lib/explain.ts): a goal met with a reservation
 * gets its note, and the lag note describes the lone-mode watch by its constants (src/run/watch-plan.ts).
 */
import { describe, expect, it } from 'vitest';
import type { LagSample } from '../../../bench/lib/cases.js';
import { explain } from '../../../bench/lib/explain.js';
import type { Results } from '../../../bench/lib/render.js';
import { concurrencyRound, EMPTY_RESULTS } from '../../support/bench-results.js';

const empty = EMPTY_RESULTS;

const round = (suites: number, steadyPerSecond: number | null): Results['concurrency'][number] =>
  concurrencyRound(suites, steadyPerSecond, {
    requests: 93,
    listRequests: 26,
    meanPerSecond: 2.5,
    kinds: { execute: suites, poll: suites + 7, 'running list': 26, page: suites },
  });

describe('bench: explanations of the goals', () => {
  it('explain a steady-state goal met where measured and not measurable at another size', () => {
    const notes = explain({ ...empty, concurrency: [round(20, 1.3), round(100, null)] });
    const note = notes.find((x) => x.startsWith('**Steady-state rate**'));
    expect(note).toMatch(/`SAFETY_SPACING_MS` = 2\.00 s/);
    expect(note).toMatch(
      /At 100 suites there is none, which is no miss: the 100 executes take \(100 − 30\) \/ 5 = 14\.0 s/,
    );
  });

  it('describe the lag with history by the lone-mode watch periods, not by a missing running list', () => {
    const sample = (lagMs: number): LagSample => ({
      client: 'action',
      kind: 'suite',
      durationS: 8,
      history: true,
      lagMs,
      requests: 9,
      listShare: 0,
      kinds: { execute: 1, 'results list': 1, poll: 6, page: 1 },
      runMs: 8000,
      pollDelayMs: lagMs,
      afterLastAnswerMs: 0,
    });
    const notes = explain({ ...empty, lag: [sample(1200), sample(300), sample(900)] });
    const note = notes.find((x) => x.startsWith('**Lag with an earlier result**')) ?? '';
    expect(note).toMatch(/lone mode/);
    expect(note).toMatch(/`WATCH_HOT_MS` = 1\.00 s/);
    expect(note).toMatch(/`WATCH_COLD_MS` = 1\.40 s/);
    expect(note).toMatch(/1 of 3 runs waited more than one hot period/);
    expect(note).not.toMatch(/never starts the running list/);
  });
});
