/**
 * The watch loop's goals (docs/architecture.md), as bounds, against the emulator on loopback (requests counted at
 * the emulator), both on one virtual clock (`test/support/world.ts`: production durations and engine
 * waits, time figures exact): a finish, an early failure and an outside cancel are noticed within 1.5 s,
 * alone or among others, with or without the organization id; 100 runs at once stay at 1.5 requests/s in
 * steady state and within the budget, also while they end faster than the budget refills; reads of runs
 * still going stay at 0.5/s; a failing running list hands the runs to their own reads; a data file's 100 rows
 * are read within 2 s of the last finish; 20 runs of 20 s cost less than the official client.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RATE_LIMIT_BURST, RATE_LIMIT_PER_SECOND } from '../../../../src/api/limits.js';
import { runPlan } from '../../../../src/run/engine.js';
import { TICK_JITTER_MS, TICK_MS } from '../../../../src/run/follow/watcher.js';
import { percentile } from '../../../../bench/lib/stats.js';
import {
  actionApi,
  officialRequests,
  planOf,
  requestKind,
  runWatch,
  setDurations,
  startRuns,
  watchSeed,
  WATCH_KEY,
  type RunSpec,
} from '../../../support/watch-scenario.js';
import { startWorld, type World } from '../../../support/world.js';

/** The watch's goal: every end noticed within this time, ms. */
const NOTICE_MS = 1_500;
/** The watch's promise (docs/architecture.md): every run read on its own at least this often, ms. */
const SAFETY_READ_MS = 10_000;
/** The watch's goal in steady state with many runs: requests/s of the whole action. */
const STEADY_RATE = 1.5;

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
/** `n` suites of 3 tests of `ms` ±30 %, spread evenly, as the bench's. */
const spreadSuites = (n: number, ms: number): RunSpec[] =>
  Array.from({ length: n }, (_, i) => ({
    kind: 'suite',
    id: `spread${n}-${i}`,
    durationsMs: [0, 1, 2].map((t) => Math.round(ms * (0.7 + (0.6 * ((i * 7 + t * 3) % 10)) / 9))),
  }));
const spread = spreadSuites(20, 20_000);
const spread100 = spreadSuites(100, 45_000);

/** Most of `times` (ms) in any window of `ms`. */
const most = (times: number[], ms: number): number =>
  Math.max(0, ...times.map((t) => times.filter((u) => u >= t && u < t + ms).length));

/** Times of the own reads of runs that were not over yet (each result's reads but its last). */
function readsOfRunsGoing(bed: World): number[] {
  const reads = bed.emulator.requests().filter((q) => requestKind(q.path) === 'poll');
  const last = new Map(reads.map((q) => [q.path, q]));
  return reads.filter((q) => last.get(q.path) !== q).map((q) => q.time);
}
const test = (id: string, ms: number): RunSpec => ({ kind: 'test', id, durationsMs: [ms] });
const suite = (id: string, ...ms: number[]): RunSpec => ({ kind: 'suite', id, durationsMs: ms });
const mixed: RunSpec[] = [test('mix-a', 7_300), test('mix-b', 12_100), suite('mix-s', 4_000, 9_700)];
const lone = test('lone-a', 13_700);
const loneSuite = suite('lone-s', 11_300);
const early: RunSpec[] = [test('early-a', 40_000), test('early-b', 40_000), suite('early-s', 40_000)];
const cancel: RunSpec[] = [test('cancel-a', 40_000), test('cancel-b', 40_000)];
const fallback: RunSpec[] = [test('fall-a', 11_000), test('fall-b', 16_500)];
const quiet: RunSpec[] = [test('quiet-a', 35_000), test('quiet-b', 36_000)];
const unreadable = test('unreadable', 60_000);
/** A suite of 20 tests of 12 s, run over 100 data rows: 100 suite results ending together. */
const rows: RunSpec = { kind: 'suite', id: 'rows', durationsMs: Array.from({ length: 20 }, () => 12_000) };
const ROWS_CSV = ['user', ...Array.from({ length: 100 }, (_, i) => `user${i + 1}`)].join('\n');
/** Goal: the reports of a data-file run written within this time of its last finish, ms. */
const ROWS_NOTICE_MS = 2_000;

let bed: World;

beforeAll(async () => {
  bed = await startWorld({
    seed: watchSeed([
      ...hundred,
      ...twenty,
      ...spread,
      ...spread100,
      ...mixed,
      lone,
      loneSuite,
      ...early,
      ...cancel,
      ...fallback,
      ...quiet,
      unreadable,
      rows,
    ]),
  });
});
afterAll(async () => {
  await bed?.close();
});

describe('the watch loop', () => {
  it('notices every finish within 1,500 ms: runs through the list, a lone test, a lone suite without organization-id', async () => {
    for (const [specs, organization] of [
      [mixed, true],
      [mixed, false],
      [[lone], true],
      [[loneSuite], false],
    ] as Array<[RunSpec[], boolean]>) {
      const f = await runWatch(bed, specs, true, organization);
      expect(f.summaries[0]!.runs.every((r) => r.tests.every((t) => t.state === 'passed'))).toBe(true);
      expect(f.lagsMs).toHaveLength(specs.length);
      for (const lag of f.lagsMs) {
        expect(lag).toBeGreaterThanOrEqual(0);
        expect(lag, specs.map((s) => s.id).join()).toBeLessThanOrEqual(NOTICE_MS);
      }
    }
  });

  it('100 runs at once: the whole action sends at most 1.5 requests/s in steady state, never above the budget', async () => {
    const f = await runWatch(bed, hundred);
    expect(f.summaries[0]!.runs.every((r) => r.tests[0]?.state === 'passed')).toBe(true);
    // Steady state: every run triggered and watched, none finished yet (they last 60 s).
    const executes = bed.emulator
      .requests()
      .filter((q) => requestKind(q.path) === 'execute')
      .map((q) => q.time);
    const from = Math.max(...executes) + 5_000;
    const to = Math.min(...executes) + 58_000;
    expect(to - from).toBeGreaterThanOrEqual(20_000);
    const inWindow = bed.emulator.requests().filter((q) => q.time >= from && q.time < to);
    expect(inWindow.length / ((to - from) / 1_000)).toBeLessThanOrEqual(STEADY_RATE);
    // The budget: its burst, then its refill rate, in any second.
    expect(f.busiestSecond).toBeLessThanOrEqual(RATE_LIMIT_BURST + RATE_LIMIT_PER_SECOND);
  });

  it('an early failure and an outside cancel are noticed within 1,500 ms (through the list and alone)', async () => {
    for (const specs of [early, early.slice(0, 1), [early[2]!]]) {
      const failing = {
        ...specs[0]!,
        durationsMs: specs[0]!.durationsMs.map(() => 2_000),
        outcome: 'fail' as const,
      };
      bed.emulator.resetLog();
      const running = startRuns(bed, [
        failing,
        ...specs.slice(1).map((s) => ({ ...s, durationsMs: s.durationsMs.map(() => 3_000) })),
      ]);
      const summary = await running;
      const run = summary.runs.find((r) => (r.testId ?? r.suiteId) === failing.id)!;
      expect(run.tests[0]!.state).toBe('failed');
      const id = run.kind === 'suite' ? run.suiteResultId : run.testResultId;
      const record = bed.emulator.runs().find((r) => r.resultId === id)!;
      expect(Date.parse(run.endedAt!) - record.finishedAt, failing.id).toBeLessThanOrEqual(NOTICE_MS);
    }
    const api = bed.client({ apiKey: WATCH_KEY });
    for (const specs of [cancel, cancel.slice(0, 1)]) {
      bed.emulator.resetLog();
      const running = startRuns(bed, specs);
      await bed.clock.sleep(2_500);
      const target = [...bed.emulator.store.results.values()].find(
        (r) => r.test?._id === specs[0]!.id && r.passing === null && !r.dateExecutionFinished,
      )!;
      await api.cancelTestResult(target._id);
      const cancelledAt = bed.clock.now();
      const summary = await running;
      const run = summary.runs.find((r) => r.testResultId === target._id)!;
      expect(run.tests[0]!.state).toBe('cancelled');
      expect(Date.parse(run.endedAt!) - cancelledAt).toBeLessThanOrEqual(NOTICE_MS);
    }
  });

  it('a running list that fails hands the runs to their own reads: each end is still noticed within 1,500 ms', async () => {
    bed.emulator.resetLog();
    const running = startRuns(bed, fallback);
    await bed.clock.sleep(5_000);
    bed.emulator.setFaults('route=GET /v1/organizations/*/running:503');
    try {
      const summary = await running;
      expect(summary.runs.every((r) => r.tests[0]?.state === 'passed')).toBe(true);
      const requests = bed.emulator.requests();
      expect(requests.some((q) => requestKind(q.path) === 'list' && q.status === 503)).toBe(true);
      for (const run of summary.runs) {
        const record = bed.emulator.runs().find((r) => r.resultId === run.testResultId)!;
        expect(Date.parse(run.endedAt!) - record.finishedAt, run.testId!).toBeLessThanOrEqual(NOTICE_MS);
      }
    } finally {
      bed.emulator.setFaults('');
    }
  });

  it('20 suites of 20 s ±30 % at once: every end noticed within 1,500 ms; reads of runs still going stay at 0.5/s', async () => {
    const f = await runWatch(bed, spread);
    expect(f.lagsMs).toHaveLength(spread.length);
    for (const lag of f.lagsMs) expect(lag).toBeLessThanOrEqual(NOTICE_MS);
    expect(most(readsOfRunsGoing(bed), 10_000)).toBeLessThanOrEqual(5);
  });

  it('100 suites of 45 s ±30 % at once: lag p95 ≤ 1,500 ms, no 429, never above the budget, reads of runs still going at 0.5/s', async () => {
    const f = await runWatch(bed, spread100);
    expect(f.summaries[0]!.runs.every((r) => r.tests.every((t) => t.state === 'passed'))).toBe(true);
    expect(percentile(f.lagsMs, 95)).toBeLessThanOrEqual(NOTICE_MS);
    expect(f.rateLimited).toBe(0);
    expect(f.busiestSecond).toBeLessThanOrEqual(RATE_LIMIT_BURST + RATE_LIMIT_PER_SECOND);
    expect(most(readsOfRunsGoing(bed), 10_000)).toBeLessThanOrEqual(5);
  });

  it('100 data rows of a 20-test suite ending together: all 2,000 test results read within 2,000 ms of the last finish', async () => {
    const dataFile = { name: 'rows.csv', content: ROWS_CSV };
    const f = await runWatch(bed, [rows], true, true, { execute: { disableVisuals: true, dataFile } });
    const runs = f.summaries[0]!.runs;
    expect(runs).toHaveLength(100);
    expect(runs.every((r) => r.tests.length === 20 && r.tests.every((t) => t.state === 'passed'))).toBe(true);
    expect(f.lagsMs).toHaveLength(100);
    const lastFinish = Math.max(
      ...bed.emulator
        .runs()
        .filter((r) => r.kind === 'suite-result')
        .map((r) => r.finishedAt),
    );
    const lastEnd = Math.max(...runs.map((r) => Date.parse(r.endedAt!)));
    expect(lastEnd - lastFinish).toBeLessThanOrEqual(ROWS_NOTICE_MS);
    // The rows ending together are read from the suite's results list, pages of 50 (a list whose length is
    // not known is read on until a short page): at most one row in ten read on its own.
    const firstFinish = Math.min(...bed.emulator.runs().map((r) => r.finishedAt));
    const ownReads = bed.emulator
      .requests()
      .filter((q) => requestKind(q.path) === 'poll' && q.time >= firstFinish);
    expect(ownReads.length, JSON.stringify(f.byKind)).toBeLessThanOrEqual(runs.length / 10);
  });

  it('runs the list keeps showing are still read on their own every 10 s, not more often', async () => {
    const f = await runWatch(bed, quiet);
    const requests = bed.emulator.requests();
    for (const run of f.summaries[0]!.runs) {
      const executedAt = requests.find((q) => q.path.includes(`/tests/${run.testId}/execute`))!.time;
      const finishedAt = bed.emulator.runs().find((r) => r.resultId === run.testResultId)!.finishedAt;
      const reads = requests
        .filter((q) => q.path.includes(`/results/${run.testResultId}`) && q.time < finishedAt)
        .map((q) => q.time);
      const times = [executedAt, ...reads, finishedAt];
      const gaps = times.slice(1).map((t, i) => t - times[i]!);
      expect(Math.max(...gaps), run.testId!).toBeLessThanOrEqual(SAFETY_READ_MS + TICK_MS + TICK_JITTER_MS);
      // Its own reads while it goes (the list shows it all along) are the safety reads only.
      const ownGaps = gaps.slice(0, reads.length);
      expect(Math.min(...ownGaps), run.testId!).toBeGreaterThanOrEqual(SAFETY_READ_MS);
    }
  });

  it('a run whose every read fails is given up after `maxPollErrors` failed reads, not one more', async () => {
    setDurations(bed, unreadable);
    bed.emulator.resetLog();
    bed.emulator.setFaults('route=GET /v1/results/*:500');
    const failures: string[] = [];
    const maxPollErrors = 3;
    try {
      const summary = await runPlan(planOf([unreadable]), {
        api: actionApi(bed).api,
        clock: bed.clock,
        maxPollErrors,
        onEvent: (e) => {
          if (e.type === 'detail' && e.message.startsWith('Poll of')) failures.push(e.message);
        },
      });
      expect(summary.runs[0]!.error).toMatch(/could not be read/);
    } finally {
      bed.emulator.setFaults('');
    }
    expect(failures.length).toBeGreaterThan(0);
    expect(failures.length).toBeLessThanOrEqual(maxPollErrors);
  });

  it('20 runs of 20 s at once cost fewer requests than the official client', async () => {
    const f = await runWatch(bed, twenty);
    const official = twenty.reduce((n, s) => n + officialRequests(s.kind, 20_000), 0) / twenty.length;
    expect(f.perRun, JSON.stringify(f.byKind)).toBeLessThan(official);
  });
});
