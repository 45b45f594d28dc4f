/**
 * What the watch costs and how fast it notices (docs/watch.md), against the emulator on loopback
 * (requests counted at the emulator): the whole action's steady request rate with 100 runs, a failing
 * running list falling back to the adaptive schedule at once, and the requests of 20 s runs against the
 * official client's, on a clock 5× faster than real time (figures on the production scale; faster, a busy
 * machine delays the list's answers past its timeout); an early failure and an outside cancel noticed
 * within 1.5 s whatever the history says, in real time (the bound leaves 0.1 s of slack).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../../../src/api/client.js';
import { RateBudget } from '../../../src/run/budget.js';
import { runPlan } from '../../../src/run/engine.js';
import {
  officialRequests,
  planOf,
  requestKind,
  runWatch,
  setDurations,
  startWatchBed,
  WATCH_KEY,
  type RunSpec,
  type WatchBed,
} from '../../support/watch-scenario.js';

const FACTOR = 5;
const MINUTES_10 = 600_000;

const hundred: RunSpec[] = Array.from({ length: 100 }, (_, i) => ({
  kind: 'suite',
  id: `many-${i}`,
  durationsMs: [60_000],
}));
const twenty: RunSpec[] = Array.from({ length: 20 }, (_, i) => ({
  kind: 'suite',
  id: `twenty-${i}`,
  durationsMs: [20_000, 20_000, 20_000],
}));
const slow = (id: string, kind: 'suite' | 'test' = 'test'): RunSpec => ({
  kind,
  id,
  durationsMs: kind === 'suite' ? [40_000, 40_000] : [40_000],
});
const early: RunSpec[] = [slow('early-a'), slow('early-b'), slow('early-s', 'suite'), slow('early-c')];
const cancel: RunSpec[] = [slow('cancel-a'), slow('cancel-b')];
const lone: RunSpec = slow('lone-a');
const loneSuite: RunSpec = { kind: 'suite', id: 'lone-s', durationsMs: [40_000] };
const loneCost: RunSpec = slow('lone-b');
const fallback: RunSpec[] = [slow('fall-a'), { kind: 'test', id: 'fall-b', durationsMs: [20_000] }];

/** At 5× real time. */
let bed: WatchBed;
/** In real time. */
let realBed: WatchBed;

beforeAll(async () => {
  bed = await startWatchBed([...hundred, ...twenty, loneCost, ...fallback], FACTOR);
  realBed = await startWatchBed([...early, ...cancel, lone, loneSuite], 1);
});
afterAll(async () => {
  await bed?.close();
  await realBed?.close();
});

/** Runs `specs` once on `on` and makes their results say each took `ms` (a long history). */
async function giveHistory(on: WatchBed, specs: RunSpec[], ms: number[]): Promise<void> {
  for (const d of ms) {
    const short = specs.map((s) => ({ ...s, durationsMs: s.durationsMs.map(() => 200 * on.factor) }));
    await runWatch(on, short);
    const store = on.emulator.store;
    for (const r of [...store.results.values(), ...store.suiteResults.values()]) {
      const stamp = r as { stretched?: boolean };
      if (stamp.stretched) continue;
      r.dateExecutionFinished = new Date(Date.parse(r.dateCreated) + d).toISOString();
      if (typeof r.executionTime === 'number') r.executionTime = d;
      stamp.stretched = true;
    }
  }
}

/** Starts `specs` in one engine run on `on` (without the organization id: `noOrganization`). */
function start(on: WatchBed, specs: RunSpec[], noOrganization = false) {
  for (const s of specs) setDurations(on, s);
  const api = createClient({ apiKey: WATCH_KEY, baseUrl: on.emulator.baseUrl });
  const plan = { ...planOf(specs), ...(noOrganization ? { organizationId: null } : {}) };
  return runPlan(plan, { api, clock: on.clock, budget: new RateBudget({ clock: on.clock }) });
}

describe('the watch (cost and notice)', () => {
  it('100 runs at once: the whole action sends at most 1.6 requests/s in steady state, never above the budget', async () => {
    const f = await runWatch(bed, hundred);
    expect(f.summaries[0]!.runs.every((r) => r.tests[0]?.state === 'passed')).toBe(true);
    // Steady state: every run triggered and watched, none finished yet (they last 60 s; the executes, 4 at
    // a time under the budget beside the first polls, take about 20 s).
    const executes = bed.emulator
      .requests()
      .filter((q) => requestKind(q.path) === 'execute')
      .map((q) => bed.clock.fromReal(q.time));
    const from = Math.max(...executes) + 5_000;
    const to = Math.min(...executes) + 58_000;
    const inWindow = bed.emulator.requests().filter((q) => {
      const t = bed.clock.fromReal(q.time);
      return t >= from && t < to;
    });
    const kinds: Record<string, number> = {};
    for (const q of inWindow) kinds[requestKind(q.path)] = (kinds[requestKind(q.path)] ?? 0) + 1;
    expect(to - from).toBeGreaterThan(12_000);
    const rate = inWindow.length / ((to - from) / 1_000);
    // The list at 1/s and the one safety stream at most 0.5/s (docs/watch.md).
    expect(rate, JSON.stringify(kinds)).toBeLessThanOrEqual(1.6);
    // The budget: a burst of 30, then 5/s (+5: arrivals at the emulator bunch when the machine is busy).
    expect(f.busiestSecond).toBeLessThanOrEqual(40);
    expect(f.byKind.history ?? 0).toBe(0);
  }, 60_000);

  it('an early failure is noticed within 1.5 s although the history says 10 minutes (list and lone run)', async () => {
    await giveHistory(realBed, [...early, lone, loneSuite], [MINUTES_10]);
    // The list; a lone test; a lone suite without the organization-id input (its execute answer names no
    // organization, so no list can be asked: lone mode needs none).
    const cases: Array<[RunSpec[], boolean]> = [
      [early, false],
      [[lone], false],
      [[loneSuite], true],
    ];
    for (const [specs, noOrganization] of cases) {
      const failing = { ...specs[0]!, durationsMs: [2_000], outcome: 'fail' as const };
      const rest = specs.slice(1).map((s) => ({ ...s, durationsMs: s.durationsMs.map(() => 3_000) }));
      realBed.emulator.resetLog();
      const summary = await start(realBed, [failing, ...rest], noOrganization);
      const run = summary.runs.find((r) => (r.testId ?? r.suiteId) === failing.id)!;
      expect(run.tests[0]!.state).toBe('failed');
      const id = run.kind === 'suite' ? run.suiteResultId : run.testResultId;
      const record = realBed.emulator.runs().find((r) => r.resultId === id)!;
      expect(Date.parse(run.endedAt!) - record.finishedAt, failing.id).toBeLessThan(1_500);
      setDurations(realBed, { ...failing, outcome: 'pass' });
    }
  }, 60_000);

  it('a run cancelled from outside is noticed within 1.5 s whatever the history says (list and lone run)', async () => {
    await giveHistory(realBed, [...cancel], [MINUTES_10]);
    for (const specs of [cancel, cancel.slice(0, 1)]) {
      realBed.emulator.resetLog();
      const running = start(realBed, specs);
      await realBed.clock.sleep(2_500);
      const target = [...realBed.emulator.store.results.values()].find(
        (r) => r.test?._id === specs[0]!.id && r.passing === null && !r.dateExecutionFinished,
      )!;
      const url = `${realBed.emulator.baseUrl}/results/${target._id}/cancel/?apiKey=${WATCH_KEY}`;
      const cancelled = await fetch(url, { method: 'POST' });
      expect(cancelled.ok).toBe(true);
      const cancelledAt = realBed.clock.now();
      for (const r of realBed.emulator.store.results.values()) {
        if (r._id !== target._id && r.passing === null) {
          await fetch(`${realBed.emulator.baseUrl}/results/${r._id}/cancel/?apiKey=${WATCH_KEY}`, {
            method: 'POST',
          });
        }
      }
      const summary = await running;
      const run = summary.runs.find((r) => r.testResultId === target._id)!;
      expect(run.tests[0]!.state).toBe('cancelled');
      expect(Date.parse(run.endedAt!) - cancelledAt).toBeLessThan(1_500);
    }
  }, 60_000);

  it('a running list that starts failing hands each run back to its adaptive schedule at once', async () => {
    // History of 6 s and 14 s: expected window about 6.25 s to 16.4 s; this run takes 11 s.
    await giveHistory(bed, fallback.slice(0, 1), [6_000, 14_000]);
    bed.emulator.resetLog();
    const running = start(bed, [{ ...fallback[0]!, durationsMs: [11_000] }, fallback[1]!]);
    await bed.clock.sleep(7_000);
    bed.emulator.setFaults('route=GET /v1/organizations/*/running:503');
    try {
      const summary = await running;
      const run = summary.runs.find((r) => r.testId === 'fall-a')!;
      expect(run.tests[0]!.state).toBe('passed');
      const record = bed.emulator.runs().find((r) => r.resultId === run.testResultId)!;
      // Inside its window the adaptive schedule polls every 0.5 s (once the list has failed: at most
      // RUNNING_LIST_TIMEOUT_MS after 7 s); left to the safety poll (16 s, main: 20 s) it would be seen
      // 5 to 9 s late.
      expect(Date.parse(run.endedAt!) - bed.clock.fromReal(record.finishedAt)).toBeLessThan(3_000);
    } finally {
      bed.emulator.setFaults('');
    }
  }, 60_000);

  it('20 s runs: a lone run with history costs about T / 1.4 s, polled on its own; 20 at once cost less than the official client', async () => {
    await giveHistory(bed, [loneCost], [20_000]);
    const alone = await runWatch(bed, [{ ...loneCost, durationsMs: [20_000] }]);
    // 1 execute, 1 history, 1 list (before its poller sleeps), its own poll every 1.4 s until 1 s before
    // the window (19.25 s: 14), 1 at the expected finish (20.25 s): 18. Main: 20 lists, 2 safety polls, 1
    // confirming read, execute and history: 25.
    expect(alone.requests, JSON.stringify(alone.byKind)).toBeLessThanOrEqual(19);
    expect(alone.byKind.list ?? 0).toBeLessThanOrEqual(1);
    const f = await runWatch(bed, twenty);
    const official = twenty.reduce((n, s) => n + officialRequests(s.kind, 20_000), 0) / twenty.length;
    expect(f.perRun, JSON.stringify(f.byKind)).toBeLessThanOrEqual(official * 0.8);
  }, 60_000);
});
