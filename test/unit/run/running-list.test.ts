/**
 * One request watches every run: the organization's running list, asked about once a second, wakes a
 * run's own poll as soon as its test results leave the list, whatever its history says. Real client,
 * emulator on loopback.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { runPlan } from '../../../src/run/engine.js';
import { RUNNING_LIST_MS, RunningList, UNSEEN_AFTER_MS } from '../../../src/run/running-list.js';
import type { TestResult } from '../../../src/api/types.js';
import { runPlanOf } from '../../support/run-factories.js';
import { startVirtualWorld, type VirtualWorld } from '../../support/virtual-world.js';

const API_KEY = 'running-list-test-key';
let world: VirtualWorld;
let emulator: VirtualWorld['emulator'];

// The emulator and the engine on one virtual clock (`test/support/virtual-world.ts`).
beforeAll(async () => {
  world = await startVirtualWorld({ apiKey: API_KEY });
  emulator = world.emulator;
});
afterAll(async () => {
  await world?.close();
});
beforeEach(() => emulator.resetLog());

const plan = runPlanOf;

describe('the running list', () => {
  it('an early finish is noticed at the next ask of the list (700 ms later) although the history says 10 minutes', async () => {
    const api = world.client({ apiKey: API_KEY });
    const clock = world.clock;
    // One earlier result of the test, made to say it took 10 minutes.
    await runPlan(plan({ testIds: ['test-payment'] }), { api, clock });
    for (const r of emulator.store.results.values()) {
      if (r.test && (typeof r.test === 'string' ? r.test : r.test._id) === 'test-payment') {
        r.dateExecutionFinished = new Date(Date.parse(r.dateCreated) + 600_000).toISOString();
        r.executionTime = 600_000;
      }
    }
    emulator.resetLog();
    const saved = emulator.store.scenarios.get('test-payment') ?? null;
    // This run fails after 75.3 s.
    emulator.setScenario('test-payment', { outcome: 'fail', runDurationMs: 75_300 });
    try {
      const summary = await runPlan(plan({ testIds: ['test-payment'] }), { api, clock });
      const [run] = summary.runs;
      expect(run!.tests[0]!.state).toBe('failed');
      const ended = emulator.runs().find((f) => f.resultId === run!.testResultId)!;
      const lagMs = Date.parse(run!.endedAt!) - ended.finishedAt;
      expect(ended.finishedAt - ended.createdAt).toBe(75_300);
      // The list is asked every second from the trigger (a request takes no virtual time): the run ends
      // 300 ms after an ask and is read at the next one.
      expect(lagMs).toBe(RUNNING_LIST_MS - 300);
      const lists = emulator.requests().filter((q) => q.path === '/v1/organizations/org-acme/running/');
      expect(lists.length).toBeGreaterThan(0);
    } finally {
      emulator.setScenario('test-payment', saved);
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
