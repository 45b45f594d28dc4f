/**
 * Sharing one account (docs/architecture.md, "A busy account"): several action processes, each an engine run with
 * its own client and request budget, against ONE emulator account with the service's rate limit on (a burst
 * of 300, 10 requests/s), all on one virtual clock (`test/support/world.ts`: production durations,
 * time figures exact). The bounds: 30 processes of one suite and one test each, lag p95 ≤ 4 s, at most 30
 * answers 429, nothing failed; 30 one-test processes, p95 ≤ 4.5 s, at most 30 answers 429; a one-suite
 * process beside a 100-suite process, its lag ≤ 4.5 s; a lone run on a quiet account, p95 ≤ 1 s with at most
 * one request more than its own read every tick; ten runs nobody here watches beside a process of two runs leave
 * its tick at about 1 s.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { TICK_JITTER_MS, TICK_MS } from '../../../../src/run/follow/watcher.js';
import { percentile } from '../../../../bench/lib/stats.js';
import {
  requestKind,
  runProcesses,
  watchSeed,
  type RunSpec,
  type WatchFigures,
  WATCH_KEY,
  WATCH_ORG,
} from '../../../support/watch-scenario.js';
import { startWorld, type World } from '../../../support/world.js';

/** `n` runs of 20–35 s, spread evenly over that range, ms. */
const between = (i: number, n: number): number => 20_000 + Math.round((15_000 * ((i * 7) % n)) / (n - 1));
const suiteOf = (id: string, ...durationsMs: number[]): RunSpec => ({ kind: 'suite', id, durationsMs });
const testOf = (id: string, ms: number): RunSpec => ({ kind: 'test', id, durationsMs: [ms] });

/** 30 processes, each one suite of 3 tests and one test, 20–35 s. */
const pairs: RunSpec[][] = Array.from({ length: 30 }, (_, p) => [
  suiteOf(`pair-s${p}`, ...[0, 1, 2].map((t) => between(p + t * 11, 30))),
  testOf(`pair-t${p}`, between(p + 5, 30)),
]);
/** 30 processes, each one test, 20–35 s. */
const singles: RunSpec[][] = Array.from({ length: 30 }, (_, p) => [testOf(`single-${p}`, between(p, 30))]);
/** 100 suites of 3 tests of 45 s ±30 % in one process. */
const hundred: RunSpec[] = Array.from({ length: 100 }, (_, i) =>
  suiteOf(
    `big-${i}`,
    ...[0, 1, 2].map((t) => Math.round(45_000 * (0.7 + (0.6 * ((i * 7 + t * 3) % 10)) / 9))),
  ),
);
const small = suiteOf('small', 30_000, 31_500, 33_000);
/** One suite of 50 tests of 20 s, all running at once. */
const wide = suiteOf('wide', ...Array.from({ length: 50 }, () => 20_000));
/** Lone tests of 9–28 s, one after the other: enough of them for a p95 that the tick decides. */
const lone = Array.from({ length: 60 }, (_, i) =>
  testOf(`lone-${i}`, 9_000 + Math.round((i * 337.9) % 19_000)),
);

/** What a lone run's lag leaves for the service's answers (on virtual time they take none), ms. */
const ANSWERS_ALLOWANCE_MS = 100;

/** Every run of every process ended with all its tests passed. */
const failedRuns = (f: WatchFigures): number =>
  f.summaries.flatMap((s) => s.runs).filter((r) => r.error || !r.tests.every((t) => t.state === 'passed'))
    .length;

let bed: World;
beforeAll(async () => {
  bed = await startWorld({
    seed: watchSeed([...pairs.flat(), ...singles.flat(), ...hundred, small, wide, ...lone]),
  });
});
afterAll(async () => {
  await bed?.close();
});
// The account's bucket refills (300 at 10/s) between cases, as between unrelated workflows.
beforeEach(async () => {
  await bed.clock.sleep(30_000);
});

describe('processes sharing one account', () => {
  it('30 processes of one suite and one test: lag p95 ≤ 4 s, at most 30 answers 429, nothing failed', async () => {
    const f = await runProcesses(bed, pairs);
    expect(f.lagsMs).toHaveLength(60);
    expect(failedRuns(f)).toBe(0);
    expect(percentile(f.lagsMs, 95)).toBeLessThanOrEqual(4_000);
    expect(f.rateLimited).toBeLessThanOrEqual(30);
  });

  it('30 one-test processes: lag p95 ≤ 4.5 s, at most 30 answers 429', async () => {
    const f = await runProcesses(bed, singles);
    expect(f.lagsMs).toHaveLength(30);
    expect(failedRuns(f)).toBe(0);
    expect(percentile(f.lagsMs, 95)).toBeLessThanOrEqual(4_500);
    expect(f.rateLimited).toBeLessThanOrEqual(30);
  });

  it('a one-suite process beside a 100-suite process: its lag ≤ 4.5 s; the big one’s p95 ≤ 1.5 s, no 429', async () => {
    const f = await runProcesses(bed, [[small], hundred]);
    expect(failedRuns(f)).toBe(0);
    const [smallLag, ...bigLags] = f.lagsMs;
    expect(smallLag).toBeLessThanOrEqual(4_500);
    expect(percentile(bigLags, 95)).toBeLessThanOrEqual(1_500);
    expect(f.rateLimited).toBe(0);
  });

  it('a lone run on a quiet account: lag p95 ≤ 1 s with 0.1 s left for the answers, at most one request more than a read every tick', async () => {
    const lags: number[] = [];
    for (const spec of lone) {
      const f = await runProcesses(bed, [[spec]]);
      lags.push(...f.lagsMs);
      // Its execute and a read every tick (at least `TICK_MS` apart), and one request more.
      const ms = spec.durationsMs[0]!;
      expect(f.requests, spec.id).toBeLessThanOrEqual(1 + Math.ceil(ms / TICK_MS) + 1 + 1);
    }
    // Virtual time answers at once; the real service's answers (a read, then the result) take the rest.
    expect(percentile(lags, 95)).toBeLessThanOrEqual(1_000 - ANSWERS_ALLOWANCE_MS);
  });
});

describe('runs of others on the account', () => {
  it('ten runs nobody here watches beside two watched here: the tick stays about 1 s (each other watcher is taken to watch two)', async () => {
    const others = singles.slice(0, 10).map(([spec]) => spec!);
    for (const spec of others)
      bed.emulator.setScenario(spec.id, { outcome: 'pass', stepDurationsMs: 1_000, runDurationMs: 40_000 });
    const api = bed.client({ apiKey: WATCH_KEY });
    for (const spec of others) await api.executeTest(spec.id, { immediate: true });
    const f = await runProcesses(bed, [[lone[0]!, lone[1]!]]);
    expect(failedRuns(f)).toBe(0);
    // While both run, each tick asks the list.
    const firstEnd = Math.min(...bed.emulator.runs().map((r) => r.finishedAt));
    const lists = bed.emulator
      .requests()
      .filter((q) => requestKind(q.path) === 'list' && q.time < firstEnd)
      .map((q) => q.time);
    expect(lists.length).toBeGreaterThan(3);
    const gaps = lists.slice(1).map((t, i) => t - lists[i]!);
    expect(Math.max(...gaps)).toBeLessThanOrEqual(TICK_MS + TICK_JITTER_MS);
  });
});

describe('how busy the account is', () => {
  /** Waits until the account runs nothing (the runs of earlier cases ended), whatever ran before. */
  async function quiet(): Promise<void> {
    const api = bed.client({ apiKey: WATCH_KEY });
    while ((await api.listOrganizationRunning(WATCH_ORG)).length > 0) await bed.clock.sleep(5_000);
  }

  /** The gaps between the requests of one process's watch (its reads and lists) while its first run goes, ms. */
  function watchGaps(): number[] {
    const firstEnd = Math.min(...bed.emulator.runs().map((r) => r.finishedAt));
    const times = bed.emulator
      .requests()
      .filter((q) => ['list', 'poll'].includes(requestKind(q.path)) && q.time < firstEnd)
      .map((q) => q.time);
    return times.slice(1).map((t, i) => t - times[i]!);
  }

  it("the step's own runs are never other watchers: a lone suite of 50 tests running at once keeps its tick of about 1 s", async () => {
    await quiet();
    const f = await runProcesses(bed, [[wide]]);
    expect(failedRuns(f)).toBe(0);
    const gaps = watchGaps();
    // The list was asked (it shows the 50 test results of the suite result) and the tick did not slow.
    expect(f.byKind.list).toBeGreaterThan(3);
    expect(Math.max(...gaps)).toBeLessThanOrEqual(TICK_MS + TICK_JITTER_MS);
  });

  it('a hundred runs of other watchers beside a lone run: the tick slows, to 4 ticks at most', async () => {
    await quiet();
    const api = bed.client({ apiKey: WATCH_KEY });
    for (const spec of hundred) await api.executeSuite(spec.id, { immediate: true });
    const f = await runProcesses(bed, [[lone[10]!]]);
    expect(failedRuns(f)).toBe(0);
    const gaps = watchGaps();
    // About 100 watchers would ask for ticks of 10 s; the slow-down stops at 4 times (docs/architecture.md).
    expect(Math.max(...gaps)).toBeGreaterThan(2 * (TICK_MS + TICK_JITTER_MS));
    expect(Math.max(...gaps)).toBeLessThanOrEqual(4 * (TICK_MS + TICK_JITTER_MS));
  });
});
