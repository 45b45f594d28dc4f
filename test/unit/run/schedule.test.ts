import { describe, expect, it } from 'vitest';
import {
  expectedWindow,
  groupPollDelay,
  nextPollDelay,
  wallTimeMs,
  type ExpectedWindow,
} from '../../../src/run/schedule.js';

/** Simulates polling a run that is over at `finishMs`: returns the poll times. */
function simulate(window: ExpectedWindow | null, finishMs: number, random = 0.5): number[] {
  const polls: number[] = [];
  let t = 0;
  let last = 0;
  for (;;) {
    const next = nextPollDelay({ elapsedMs: t, polls: polls.length, lastIntervalMs: last, window }, random);
    last = next.intervalMs;
    t += next.delayMs;
    polls.push(t);
    if (t >= finishMs || polls.length > 500) return polls;
  }
}

function fixedPolls(finishMs: number, every = 5_000): number {
  return Math.ceil(finishMs / every);
}

describe('expectedWindow', () => {
  it('spans the shortest to the longest sample, shifted by the delay', () => {
    expect(expectedWindow([10_000, 12_000, 11_000])).toEqual({ lowMs: 10_250, highMs: 14_200 });
    expect(expectedWindow([10_000], 2_000)).toEqual({ lowMs: 12_250, highMs: 14_000 });
    expect(expectedWindow([])).toBeNull();
    expect(expectedWindow([0, Number.NaN])).toBeNull();
  });
});

describe('wallTimeMs', () => {
  it('uses creation to finish, else the execution time, and nothing for a result without verdict', () => {
    expect(
      wallTimeMs({
        passing: true,
        dateCreated: '2026-01-01T00:00:00.000Z',
        dateExecutionFinished: '2026-01-01T00:00:12.500Z',
        executionTime: 9_000,
      }),
    ).toBe(12_500);
    expect(
      wallTimeMs({ passing: false, dateExecutionFinished: '1970-01-01T00:00:00.000Z', executionTime: 9_000 }),
    ).toBe(9_000);
    expect(wallTimeMs({ passing: null, executionTime: 9_000 })).toBeNull();
  });
});

describe('nextPollDelay', () => {
  const window = { lowMs: 9_000, highMs: 15_000 };

  it('waits until the window opens, then polls every 500 ms, then backs off from 1 s up to 10 s', () => {
    expect(nextPollDelay({ elapsedMs: 300, polls: 0, lastIntervalMs: 0, window }, 0.5).delayMs).toBe(8_700);
    expect(nextPollDelay({ elapsedMs: 9_000, polls: 1, lastIntervalMs: 500, window }, 0.5).delayMs).toBe(500);
    expect(nextPollDelay({ elapsedMs: 9_000, polls: 1, lastIntervalMs: 500, window }, 0).delayMs).toBe(450);
    const late = nextPollDelay({ elapsedMs: 16_000, polls: 8, lastIntervalMs: 500, window }, 0.5);
    expect(late).toEqual({ delayMs: 1_000, intervalMs: 1_000 });
    expect(
      nextPollDelay({ elapsedMs: 17_000, polls: 9, lastIntervalMs: 1_000, window }, 0.5).intervalMs,
    ).toBe(1_500);
    expect(
      nextPollDelay({ elapsedMs: 60_000, polls: 20, lastIntervalMs: 9_000, window }, 0.5).intervalMs,
    ).toBe(10_000);
  });

  it('polls at least 1 s after the trigger even for a very short expected run', () => {
    expect(
      nextPollDelay({ elapsedMs: 0, polls: 0, lastIntervalMs: 0, window: { lowMs: 100, highMs: 900 } }, 0.5)
        .delayMs,
    ).toBe(1_000);
  });

  it('without history: 2 s, then growing by 1.3 up to 5 s', () => {
    const times = simulate(null, 60_000);
    const gaps = times.map((t, i) => t - (times[i - 1] ?? 0));
    expect(gaps[0]).toBe(2_000);
    expect(gaps[1]).toBe(2_600);
    expect(Math.max(...gaps)).toBe(5_000);
    expect(times.length).toBeLessThanOrEqual(fixedPolls(60_000) + 2);
  });

  it('with a good expectation: notices the finish within 600 ms and sends no more polls than a fixed 5 s poll', () => {
    for (const finish of [8_000, 20_000, 45_000, 90_000, 180_000]) {
      const w = expectedWindow([finish * 0.97, finish * 1.03]);
      const times = simulate(w, finish);
      const latency = times[times.length - 1]! - finish;
      expect(latency, `finish ${finish}`).toBeLessThanOrEqual(600);
      expect(times.length, `finish ${finish}`).toBeLessThanOrEqual(fixedPolls(finish));
    }
  });

  it('a run as long as the earlier ones costs one poll, seen 250 ms after its finish', () => {
    expect(simulate(expectedWindow([12_000, 12_000]), 12_000)).toEqual([12_250]);
  });
});

describe('groupPollDelay', () => {
  it('without history polls a group every 5 s × pages / runs, 1 s to 5 s, after the first poll at 2 s', () => {
    const state = { elapsedMs: 0, polls: 0, lastIntervalMs: 0, window: null };
    expect(groupPollDelay(state, 100, 2, 0.5).delayMs).toBe(2_000);
    const later = { ...state, elapsedMs: 2_000, polls: 1, lastIntervalMs: 2_000 };
    expect(groupPollDelay(later, 100, 2, 0.5).delayMs).toBe(1_000);
    expect(groupPollDelay(later, 4, 1, 0.5).delayMs).toBe(1_250);
    expect(groupPollDelay(later, 1, 1, 0.5).delayMs).toBe(5_000);
  });

  it('with a window follows the single-run plan', () => {
    const state = {
      elapsedMs: 3_000,
      polls: 1,
      lastIntervalMs: 500,
      window: { lowMs: 2_500, highMs: 6_000 },
    };
    expect(groupPollDelay(state, 100, 2, 0.5)).toEqual(nextPollDelay(state, 0.5));
  });
});
