/**
 * One request watches every run: the organization's running list, asked about once a second, wakes a
 * run's own poll as soon as its test results leave the list, whatever its history says. Real client,
 * emulator on loopback.
 */
import { describe, expect, it } from 'vitest';
import { runPlan } from '../../../src/run/engine.js';
import { RunningList, UNSEEN_AFTER_MS } from '../../../src/run/running-list.js';
import {
  SAFETY_POLL_MS,
  SAFETY_SPACING_MS,
  SafetySlots,
  WATCH_COLD_MS,
  WATCH_HOT_MS,
  watchPeriodMs,
} from '../../../src/run/watch-plan.js';
import type { TestResult } from '../../../src/api/types.js';
import { runPlanOf } from '../../support/run-factories.js';
import { useVirtualWorld } from '../../support/virtual-world.js';

const API_KEY = 'running-list-test-key';

// The emulator and the engine on one virtual clock (`test/support/virtual-world.ts`).
const world = useVirtualWorld({ apiKey: API_KEY });

const plan = runPlanOf;

describe('the running list', () => {
  it('an early finish is noticed at the next ask of the list (700 ms later) although the history says 10 minutes', async () => {
    const api = world.client({ apiKey: API_KEY });
    // One earlier result of the test, made to say it took 10 minutes.
    await runPlan(plan({ testIds: ['test-payment'] }), { api, clock: world.clock });
    for (const r of world.emulator.store.results.values()) {
      if (r.test && (typeof r.test === 'string' ? r.test : r.test._id) === 'test-payment') {
        r.dateExecutionFinished = new Date(Date.parse(r.dateCreated) + 600_000).toISOString();
        r.executionTime = 600_000;
      }
    }
    world.emulator.resetLog();
    const saved = world.emulator.store.scenarios.get('test-payment') ?? null;
    // This run fails after 75.3 s.
    world.emulator.setScenario('test-payment', { outcome: 'fail', runDurationMs: 75_300 });
    try {
      const summary = await runPlan(plan({ testIds: ['test-payment'] }), { api, clock: world.clock });
      const [run] = summary.runs;
      expect(run!.tests[0]!.state).toBe('failed');
      const ended = world.emulator.runs().find((f) => f.resultId === run!.testResultId)!;
      const lagMs = Date.parse(run!.endedAt!) - ended.finishedAt;
      expect(lagMs).toBeLessThan(1_500);
      // Alone, the run is watched by its own poll at the watch period (its answer is worth the list's).
      const polls = world.emulator.requests().filter((q) => q.path === `/v1/results/${run!.testResultId}/`);
      expect(polls.length).toBeGreaterThan(0);
    } finally {
      world.emulator.setScenario('test-payment', saved);
    }
  });
});

/** A running test result as the list gives it (only the fields the list reader uses). */
function running(id: string, suiteResult: string | null = null): TestResult {
  return { _id: id, suiteResult } as TestResult;
}

describe('RunningList (a hint, never the truth)', () => {
  it('wakes a poller when its test result or its suite result leaves the list, once per leaving', () => {
    const list = new RunningList();
    const woken: string[] = [];
    list.onLeave('r1', 0, () => woken.push('r1'));
    list.onLeave('s1', 0, () => woken.push('s1'));
    list.update([running('r1'), running('t2', 's1')], 100);
    expect([list.shows('r1'), list.shows('s1'), list.shows('t2')]).toEqual([true, true, true]);
    expect(woken).toEqual([]);
    list.update([running('t2', 's1')], 1_100);
    expect(woken).toEqual(['r1']);
    // Still missing: no second wake (the run falls back to its own schedule).
    list.update([running('t2', 's1')], 2_100);
    expect(woken).toEqual(['r1']);
    list.update([], 3_100);
    expect(woken).toEqual(['r1', 's1']);
  });

  it('a run never shown is read once when the list has had time to show it; a failed list shows nothing', () => {
    const list = new RunningList();
    const woken: number[] = [];
    list.onLeave('r1', 1_000, () => woken.push(1));
    list.update([], 1_000 + UNSEEN_AFTER_MS - 1);
    expect(woken).toEqual([]);
    list.update([], 1_000 + UNSEEN_AFTER_MS);
    list.update([], 1_000 + UNSEEN_AFTER_MS + 1_000);
    expect(woken).toEqual([1]);
    list.update([running('r2')], 10_000);
    list.fail();
    expect(list.shows('r2')).toBe(false);
    // After a failure the list starts afresh: what it no longer shows did not "leave" it.
    const after: string[] = [];
    list.onLeave('r2', 0, () => after.push('r2'));
    list.update([], 12_000);
    expect(after).toEqual([]);
  });
});

describe('RunningList: first answer, lone run, failure', () => {
  it('is pending until its first answer, which replans every sleeper; a failure replans them all', () => {
    const list = new RunningList();
    const replans: string[] = [];
    list.onLeave(
      'r1',
      0,
      () => undefined,
      () => replans.push('r1'),
    );
    list.onLeave(
      'r2',
      0,
      () => undefined,
      () => replans.push('r2'),
    );
    expect(list.pending).toBe(true);
    list.update([running('r1')], 500);
    expect(list.pending).toBe(false);
    expect(replans.sort()).toEqual(['r1', 'r2']);
    list.update([running('r1'), running('r2')], 1_500);
    expect(replans.sort()).toEqual(['r1', 'r2', 'r2']);
    replans.length = 0;
    list.fail();
    expect(list.pending).toBe(false);
    expect(list.shows('r1')).toBe(false);
    expect(replans.sort()).toEqual(['r1', 'r2']);
  });

  it('lone mode shows the lone run and wakes its poller, except in a forced (back-off) wait', () => {
    const list = new RunningList();
    const woken: string[] = [];
    const offForced = list.onLeave('r1', 0, () => woken.push('forced'), undefined, true);
    list.pollLone('r1');
    expect(list.shows('r1')).toBe(true);
    expect(woken).toEqual([]);
    offForced();
    list.onLeave('r1', 0, () => woken.push('poll'));
    expect(list.hasWaiter('r1')).toBe(true);
    list.pollLone('r1');
    expect(woken).toEqual(['poll']);
    // A list answer ends lone mode; so does endLone (no list to ask), which replans the run.
    list.update([], 5_000);
    expect(list.shows('r1')).toBe(false);
    const replans: string[] = [];
    list.onLeave(
      'r2',
      0,
      () => undefined,
      () => replans.push('r2'),
    );
    list.pollLone('r2');
    list.endLone();
    expect(list.shows('r2')).toBe(false);
    expect(replans).toEqual(['r2']);
  });
});

describe('watch plan', () => {
  it('watches every 1 s while a run has no history or is in its window, every 1.4 s otherwise', () => {
    const withHistory = { triggeredAtMs: 0, window: { lowMs: 20_000, highMs: 30_000 } };
    expect(watchPeriodMs([], 0)).toBe(WATCH_COLD_MS);
    expect(watchPeriodMs([withHistory], 5_000)).toBe(WATCH_COLD_MS);
    expect(watchPeriodMs([withHistory], 19_500)).toBe(WATCH_HOT_MS);
    expect(watchPeriodMs([withHistory], 25_000)).toBe(WATCH_HOT_MS);
    expect(watchPeriodMs([withHistory], 31_000)).toBe(WATCH_COLD_MS);
    expect(watchPeriodMs([withHistory, { triggeredAtMs: 0, window: null }], 5_000)).toBe(WATCH_HOT_MS);
    expect(watchPeriodMs([{ triggeredAtMs: 0, window: undefined }], 5_000)).toBe(WATCH_HOT_MS);
  });

  it('spaces the safety polls of all runs: one stream, at most one per SAFETY_SPACING_MS', () => {
    const slots = new SafetySlots();
    const times = Array.from({ length: 100 }, () => slots.reserve(0));
    expect(times[0]).toBe(SAFETY_POLL_MS);
    for (let i = 1; i < times.length; i++) expect(times[i]! - times[i - 1]!).toBe(SAFETY_SPACING_MS);
    // A released time is not taken again by the next run, nor does it push the stream out.
    const slots2 = new SafetySlots();
    const a = slots2.reserve(0);
    const b = slots2.reserve(0);
    slots2.release(b);
    expect(slots2.reserve(0)).toBe(a + SAFETY_SPACING_MS);
    // Past times are forgotten: a run going to sleep later waits SAFETY_POLL_MS.
    expect(slots2.reserve(60_000)).toBe(60_000 + SAFETY_POLL_MS);
  });
});
