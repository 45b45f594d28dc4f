/**
 * Reading a group's test results (src/run/read.ts, src/run/read-plan.ts) on the virtual world: the engine
 * and the emulator on one virtual clock, production durations and the production budget (burst 30, 5/s).
 * The data-file case is the bench's "2,000 results": 100 rows of a 20-test suite ending over about a second.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import type { SeedFile } from '../../../emulator/index.js';
import { defaultSeed } from '../../../emulator/seed.js';
import type { Executor, RunOutcome, RunRequest } from '../../../emulator/executors/types.js';
import { RateBudget } from '../../../src/run/budget.js';
import { runPlan } from '../../../src/run/engine.js';
import { heldUntil, holdMs, pageOfRank, planReads, type PlanRun } from '../../../src/run/read-plan.js';
import { runPlanOf } from '../../support/run-factories.js';
import { useVirtualWorld } from '../../support/virtual-world.js';
import { WATCH_HOT_MS } from '../../../src/run/watch-plan.js';

const API_KEY = 'read-group-key';
const ROWS = 100;
const TESTS = 20;
/** A run's duration, and the step between the ends of two rows: 100 rows end over 990 ms. */
const RUN_MS = 12_000;
const ROW_STEP_MS = 10;
/** Tests of the wide suite: 3 pages of a suite result's tests. */
const WIDE_TESTS = 120;

/** The order in which the rows end (row numbers 1..100 → their place); set by each test. */
let endPlace: (row: number) => number = (row) => row - 1;

/**
 * Runs every test in `RUN_MS`, a data row `row` later by its place in `endPlace` × `ROW_STEP_MS`; every
 * run passes. (The simulated executor's scenarios are per test, not per data row.)
 */
const rowsExecutor: Executor = {
  name: 'rows',
  async run(request: RunRequest): Promise<RunOutcome> {
    const clock = request.clock!;
    const row = Number(request.variables.row ?? 0);
    const ms = RUN_MS + (row > 0 ? endPlace(row) * ROW_STEP_MS : 0);
    await clock.sleep(ms, request.signal);
    if (request.signal.aborted) throw new Error('cancelled');
    const at = new Date(clock.now()).toISOString();
    return {
      passing: true,
      steps: request.steps.map((step) => ({ step, passing: true, dateExecuted: at })),
      console: [],
      urls: [request.startUrl],
      endUrl: request.startUrl,
      extractions: {},
    };
  },
  close: async () => {},
};

function seedWithRowsSuite(): SeedFile {
  const seed = defaultSeed();
  const steps = [{ command: 'assertTextPresent', target: 'h1', value: 'Shop' }];
  const suite = (id: string, name: string, prefix: string, tests: number) => ({
    suite: { _id: id, name, organization: 'org-acme' },
    tests: Array.from({ length: tests }, (_, i) => ({
      _id: `${prefix}-t${i + 1}`,
      name: `${name} step ${i + 1}`,
      suite: id,
      steps,
    })),
  });
  const added = [suite('suite-rows', 'Rows', 'rows', TESTS), suite('suite-wide', 'Wide', 'wide', WIDE_TESTS)];
  seed.suites = [...(seed.suites ?? []), ...added.map((x) => x.suite)];
  seed.tests = [...(seed.tests ?? []), ...added.flatMap((x) => x.tests)];
  return seed;
}

const world = useVirtualWorld({ apiKey: API_KEY, seed: seedWithRowsSuite(), executor: rowsExecutor });
beforeEach(() => {
  endPlace = (row) => row - 1;
});

/** Runs `plan` with the production budget wired as the action wires it; figures after the last finish. */
async function measure(overrides: Parameters<typeof runPlanOf>[0], burst?: number) {
  const budget = new RateBudget({ clock: world.clock, ...(burst ? { burst } : {}) });
  const api = world.client({
    apiKey: API_KEY,
    sleep: budget.clientSleep(),
    onRequest: () => budget.markSent(),
  });
  const summary = await runPlan(runPlanOf(overrides), { api, budget, clock: world.clock });
  const endAt = world.clock.now();
  const finishes = world.emulator.runs().filter((r) => r.kind === 'suite-result');
  const lastFinish = Math.max(...finishes.map((r) => r.finishedAt));
  const requests = world.emulator.requests();
  const reads = requests.filter((q) => /^\/v1\/(suite-results|tests)\/[^/]+\/results\/?$/.test(q.path));
  // The group's polls (its suite's results list from the top) after the last finish.
  const groupPolls = requests.filter(
    (q) =>
      q.time >= lastFinish && q.path === '/v1/suites/suite-rows/results/' && !q.query.includes('offset=50'),
  );
  return {
    summary,
    groupPollsAfterLastFinish: groupPolls.length,
    requests: requests.length,
    reads: reads.length,
    afterLastFinish: requests.filter((q) => q.time >= lastFinish).length,
    msAfterLastFinish: endAt - lastFinish,
  };
}

function dataFile(rows: number): { name: string; content: Buffer } {
  const csv = ['user,row', ...Array.from({ length: rows }, (_, i) => `user${i + 1},${i + 1}`)].join('\n');
  return { name: 'rows.csv', content: Buffer.from(csv) };
}

function expectEveryTestRead(summary: Awaited<ReturnType<typeof runPlan>>, runs: number, tests: number) {
  expect(summary.runs).toHaveLength(runs);
  const ids = new Set<string>();
  for (const run of summary.runs) {
    expect(run.error).toBeUndefined();
    expect(run.tests).toHaveLength(tests);
    for (const t of run.tests) {
      expect(t.state).toBe('passed');
      expect(t.result?.suiteResult).toBe(run.suiteResultId);
      ids.add(t.result!._id);
    }
  }
  expect(ids.size).toBe(runs * tests);
}

const rows = { suiteIds: ['suite-rows'], execute: { disableVisuals: true, dataFile: dataFile(ROWS) } };

describe('reading a group of suite results on the virtual world', () => {
  // Main (before read-plan.ts): 78 reads, 71 requests after the last finish, reports 11.8 s after it.
  it('100 rows × 20 tests ending over a second: 41 reads, ≤ 45 requests after the last finish', async () => {
    const m = await measure(rows);
    expectEveryTestRead(m.summary, ROWS, TESTS);
    // One suite result read alone to learn the tests, then every test's list 2 pages deep.
    expect(m.reads).toBe(1 + 2 * TESTS);
    expect(m.afterLastFinish).toBeLessThanOrEqual(45);
    // The poll that sees every row over is the group's last (each run waited for is looked for).
    expect(m.groupPollsAfterLastFinish).toBe(1);
    // The budget bounds the time: from the first finish seen (0.8 s before the last) its 30 tokens and
    // 5/s cover 41 reads and the polls no sooner than 2.6 s after the last finish (docs/read.md).
    expect(m.msAfterLastFinish).toBeLessThanOrEqual(3_000);
  });

  it('…and with a burst that holds the 40 pages, the reports come within 2 s of the last finish', async () => {
    const m = await measure(rows, 40);
    expectEveryTestRead(m.summary, ROWS, TESTS);
    expect(m.reads).toBe(1 + 2 * TESTS);
    expect(m.msAfterLastFinish).toBeLessThanOrEqual(2_000);
  });

  it('100 rows ending newest first (the page of the newest rows is over first): the same reads', async () => {
    endPlace = (row) => ROWS - row;
    const m = await measure(rows);
    expectEveryTestRead(m.summary, ROWS, TESTS);
    expect(m.reads).toBeLessThanOrEqual(1 + 2 * TESTS);
    expect(m.afterLastFinish).toBeLessThanOrEqual(45);
  });

  it('100 rows ending in a shuffled order: the same reads', async () => {
    const place = Array.from({ length: ROWS }, (_, i) => i);
    let x = 7;
    for (let i = ROWS - 1; i > 0; i--) {
      x = (x * 1103515245 + 12345) % 2147483648;
      const j = x % (i + 1);
      [place[i], place[j]] = [place[j]!, place[i]!];
    }
    endPlace = (row) => place[row - 1]!;
    const m = await measure(rows);
    expectEveryTestRead(m.summary, ROWS, TESTS);
    expect(m.reads).toBeLessThanOrEqual(1 + 2 * TESTS);
    expect(m.afterLastFinish).toBeLessThanOrEqual(45);
  });

  // Main: 60 reads (each row alone as it ends), reports at the last finish.
  it('60 rows 10 at a time (rows ending spread out over a minute): each row alone as before', async () => {
    const m = await measure({
      suiteIds: ['suite-rows'],
      execute: { disableVisuals: true, dataFile: dataFile(60), maxConcurrentDataRows: 10 },
    });
    expectEveryTestRead(m.summary, 60, TESTS);
    expect(m.reads).toBeLessThanOrEqual(60);
    expect(m.msAfterLastFinish).toBeLessThanOrEqual(250);
  });

  it('a suite result of 120 tests: its 3 pages asked at once (its count of tests says how many)', async () => {
    // Each page of a suite result's tests answers after 300 ms (on the virtual clock).
    world.emulator.setFaults('delay=300,route=/v1/suite-results/*/results:slow');
    try {
      const m = await measure({ suiteIds: ['suite-wide'] });
      expectEveryTestRead(m.summary, 1, WIDE_TESTS);
      const pages = world.emulator
        .requests()
        .filter((q) => /^\/v1\/suite-results\/[^/]+\/results\/?$/.test(q.path));
      expect(pages.map((q) => q.query.match(/offset=(\d+)/)?.[1])).toEqual(['0', '50', '100']);
      // One after the other they would arrive 300 ms apart.
      expect(new Set(pages.map((q) => q.time)).size).toBe(1);
    } finally {
      world.emulator.setFaults('');
    }
  });

  // Main: 1 read, reports at the last finish.
  it('one suite of 3 tests: its own page, at once', async () => {
    const m = await measure({ suiteIds: ['suite-checkout'] });
    expectEveryTestRead(m.summary, 1, 3);
    expect(m.reads).toBe(1);
    // Alone, the suite is watched by its own poll every watch period (watch-plan.ts); its one page is read
    // in the same moment the poll sees it over.
    expect(m.msAfterLastFinish).toBeLessThanOrEqual(WATCH_HOT_MS);
  });

  // Main: 4 reads (each variant alone), reports 250 ms after the last finish.
  it('a suite run on 4 start URLs: each variant alone, as before', async () => {
    const startUrls = [1, 2, 3, 4].map((n) => `https://v${n}.example.test/`);
    const m = await measure({ suiteIds: ['suite-checkout'], startUrls });
    expectEveryTestRead(m.summary, 4, 3);
    expect(m.reads).toBeLessThanOrEqual(4);
    expect(m.msAfterLastFinish).toBeLessThanOrEqual(250);
  });
});

describe('planReads', () => {
  const run = (id: string, state: PlanRun['state'], page: number | null, heldUntilMs?: number): PlanRun => ({
    id,
    state,
    page,
    ...(heldUntilMs !== undefined ? { heldUntilMs } : {}),
  });

  it('places the oldest runs on the deepest page of each test list', () => {
    expect([0, 49, 50, 99].map((rank) => pageOfRank(rank, 100))).toEqual([1, 1, 0, 0]);
    expect([0, 9, 10, 59].map((rank) => pageOfRank(rank, 60))).toEqual([1, 1, 0, 0]);
  });

  it('holds a run 25 % of its duration, 2 s to 30 s', () => {
    expect([1_000, 12_000, 60_000, 600_000].map(holdMs)).toEqual([2_000, 3_000, 15_000, 30_000]);
  });

  it('holds no run into the last 10 s before the deadline', () => {
    expect(heldUntil(100_000, 12_000, 200_000)).toBe(103_000);
    expect(heldUntil(100_000, 12_000, 112_000)).toBe(102_000);
    expect(heldUntil(100_000, 12_000, 110_000)).toBe(-Infinity);
  });

  it('reads a page once every run on it is over; holds the waiting runs of a page still running', () => {
    const runs = [
      ...Array.from({ length: 50 }, (_, i) => run(`old${i}`, 'waiting', 1, 5_000)),
      ...Array.from({ length: 30 }, (_, i) => run(`new${i}`, 'waiting', 0, 5_000)),
      ...Array.from({ length: 20 }, (_, i) => run(`run${i}`, 'running', 0)),
    ];
    const plan = planReads(runs, 20, 1_000);
    expect(plan.steps).toEqual([{ kind: 'page', page: 1, runs: runs.slice(0, 50).map((r) => r.id) }]);
    expect(plan.wakeAtMs).toBe(5_000);
  });

  it('when a hold ends, reads the page if it is cheaper for the waiting runs, else those runs alone', () => {
    const page = (waiting: number) => [
      ...Array.from({ length: waiting }, (_, i) => run(`w${i}`, 'waiting', 0, 1_000)),
      ...Array.from({ length: 50 - waiting }, (_, i) => run(`r${i}`, 'running', 0)),
    ];
    expect(planReads(page(30), 20, 1_000).steps).toEqual([
      {
        kind: 'page',
        page: 0,
        runs: page(30)
          .slice(0, 30)
          .map((r) => r.id),
      },
    ]);
    expect(planReads(page(3), 20, 1_000).steps).toEqual([{ kind: 'alone', runs: ['w0', 'w1', 'w2'] }]);
    expect(planReads(page(3), 20, 999)).toEqual({ steps: [], wakeAtMs: 1_000 });
  });

  it('reads alone when a page cannot be cheaper than its open runs alone (few runs, many tests)', () => {
    const runs = [
      run('a', 'waiting', 0, 9_000),
      run('b', 'running', 0),
      run('c', 'read', 0),
      run('d', 'running', 0),
    ];
    expect(planReads(runs, 3, 0).steps).toEqual([{ kind: 'alone', runs: ['a'] }]);
  });

  it('a run that may not wait (a failure under fail-fast or retry-failed) is read at once', () => {
    const runs = [
      run('f', 'waiting', 0, -Infinity),
      ...Array.from({ length: 20 }, (_, i) => run(`r${i}`, 'running', 0)),
    ];
    expect(planReads(runs, 3, 0).steps).toEqual([{ kind: 'alone', runs: ['f'] }]);
  });

  it('without known positions, sweeps every test list from the top once the group is over', () => {
    const runs = Array.from({ length: 60 }, (_, i) => run(`s${i}`, 'waiting', null, 9_000));
    expect(planReads(runs, 10, 0).steps).toEqual([{ kind: 'sweep', runs: runs.map((r) => r.id) }]);
  });
});
