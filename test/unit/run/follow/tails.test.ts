/**
 * Tails bound by the account's tokens (docs/requests.md, "The request budget"): when many runs end together,
 * the step reads their ends as fast as the account's token bucket lets it, even when another caller of the
 * account spent some of its burst just then. Against the emulator with the service's rate limit (a burst of
 * 300, then 10 requests/s per account), on one virtual clock (`test/support/world.ts`: time figures
 * exact).
 *
 * The bucket model: the requests the ends need at the least, let through by the account's bucket, full when
 * the runs end, as early as it allows; the other caller's requests take their tokens too. A data file's rows
 * ending together need one request that learns they ended and one page of tests each; a suite result ending
 * needs its own read and one page of tests.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { RATE_LIMIT_BURST, RATE_LIMIT_PER_SECOND } from '../../../../src/api/limits.js';
import {
  runWatch,
  watchSeed,
  WATCH_KEY,
  type RunSpec,
  type WatchFigures,
} from '../../../support/watch-scenario.js';
import { startWorld, type World } from '../../../support/world.js';

/** The goal: the step ends within this factor of the bucket model after the last finish. */
const MODEL_FACTOR = 1.2;
/** Real ms a case may take on a loaded machine (each simulates hundreds of runs on the virtual clock). */
const CASE_TIMEOUT_MS = 240_000;

const ROW_MS = 12_000;
/**
 * A suite of tests of 12 s, run over a data file of 500 rows: 500 suite results ending together. The goal
 * speaks of 20 tests; 2 here: a row's tests take one page either way (up to 50), so the tail's requests are
 * the same, and the emulator simulates 1,000 test runs on the virtual clock instead of 10,000.
 */
const ROW_TESTS = 2;
const rows: RunSpec = {
  kind: 'suite',
  id: 'tail-rows',
  durationsMs: Array.from({ length: ROW_TESTS }, () => ROW_MS),
};
const ROWS_CSV = ['user', ...Array.from({ length: 500 }, (_, i) => `user${i + 1}`)].join('\n');

const SUITE_MS = 60_000;
/** 300 suites of one test of 60 s, started together: they end within the second their executes took. */
const suites: RunSpec[] = Array.from({ length: 300 }, (_, i) => ({
  kind: 'suite',
  id: `tail-suite-${i}`,
  durationsMs: [SUITE_MS],
}));

/** A 5,000-test suite (tests of 10 s): 101 pages of test results when it ends. */
const big: RunSpec = {
  kind: 'suite',
  id: 'tail-big',
  durationsMs: Array.from({ length: 5_000 }, () => 10_000),
};
/** A real service's time to answer a page, ms. */
const PAGE_LATENCY_MS = 200;
/** The goal: a 5,000-test suite at 200 ms a page ends within this time of its finish, ms. */
const BIG_TAIL_MS = 3_000;

// A world of its own for each case: the account's bucket is full when it starts, whatever the case before
// left of it.
let bed: World;
const startBed = async (specs: RunSpec[]): Promise<void> => {
  bed = await startWorld({ seed: watchSeed(specs) });
};
afterEach(async () => {
  await bed?.close();
}, CASE_TIMEOUT_MS);

/**
 * When a bucket of the account's burst, full at the first of `demands` (ms at which each request could be
 * sent at the earliest), refilled at the account's rate, has let the last of them through, ms.
 */
function bucketModelEnd(demands: number[]): number {
  const times = [...demands].sort((a, b) => a - b);
  let tokens = RATE_LIMIT_BURST;
  let at = times[0]!;
  for (const time of times) {
    const now = Math.max(time, at);
    tokens = Math.min(RATE_LIMIT_BURST, tokens + ((now - at) / 1000) * RATE_LIMIT_PER_SECOND);
    at = now;
    if (tokens < 1) {
      at += ((1 - tokens) / RATE_LIMIT_PER_SECOND) * 1000;
      tokens = 1;
    }
    tokens -= 1;
  }
  return at;
}

/**
 * Another caller of the account (a job or tool beside the step): `requests` requests one after the other,
 * `afterMs` from now, each tracked on the clock as the step's are.
 */
async function otherCaller(afterMs: number, requests: number): Promise<void> {
  await bed.clock.sleep(afterMs);
  for (let i = 0; i < requests; i++) {
    const res = await bed.clock.track(fetch(`${bed.emulator.baseUrl}/folders/?apiKey=${WATCH_KEY}`));
    await bed.clock.track(res.arrayBuffer());
  }
}

/** The other caller's requests: their times, ms. */
const otherRequests = (): number[] =>
  bed.emulator
    .requests()
    .filter((q) => /\/folders\/?$/.test(q.path))
    .map((q) => q.time);

/** The step's requests answered 429. */
const stepRateLimited = (): number =>
  bed.emulator.requests().filter((q) => q.status === 429 && !/\/folders\/?$/.test(q.path)).length;

/** ms from the last suite result's finish to the last run's end in the step, and the model's, and the finishes. */
function tail(f: WatchFigures) {
  const finishes = bed.emulator
    .runs()
    .filter((r) => r.kind === 'suite-result')
    .map((r) => r.finishedAt);
  const lastFinish = Math.max(...finishes);
  const lastEnd = Math.max(...f.summaries[0]!.runs.map((r) => Date.parse(r.endedAt!)));
  return { finishes, lastFinish, tailMs: lastEnd - lastFinish };
}

async function dataFileTail(others: number) {
  await startBed([rows]);
  const dataFile = { name: 'rows.csv', content: ROWS_CSV };
  const other = otherCaller(ROW_MS, others);
  const f = await runWatch(bed, [rows], true, true, { execute: { disableVisuals: true, dataFile } });
  await other;
  const runs = f.summaries[0]!.runs;
  expect(runs).toHaveLength(500);
  expect(runs.every((r) => r.tests.length === ROW_TESTS && r.tests.every((t) => t.state === 'passed'))).toBe(
    true,
  );
  const { finishes, lastFinish, tailMs } = tail(f);
  // One request that learns the rows ended, one page of tests each.
  const modelMs = bucketModelEnd([lastFinish, ...finishes, ...otherRequests()]) - lastFinish;
  return { tailMs, modelMs };
}

async function suitesTail(others: number) {
  await startBed(suites);
  const other = otherCaller(SUITE_MS, others);
  const f = await runWatch(bed, suites);
  await other;
  expect(f.summaries[0]!.runs.every((r) => r.tests.length === 1 && r.tests[0]!.state === 'passed')).toBe(
    true,
  );
  const { finishes, lastFinish, tailMs } = tail(f);
  expect(lastFinish - Math.min(...finishes)).toBeLessThanOrEqual(2_000);
  // Each suite result's own read and its page of tests.
  const modelMs = bucketModelEnd([...finishes, ...finishes, ...otherRequests()]) - lastFinish;
  return { tailMs, modelMs };
}

describe('a tail bound by the account tokens ends near the bucket model', () => {
  it(
    'a data file of 500 rows, beside a caller that spends a few tokens as they end: no 429, ≤ 1.2 × the model',
    async () => {
      const { tailMs, modelMs } = await dataFileTail(8);
      // The model: 501 requests and the other 8, 300 at once then 10/s: about 21 s.
      expect(modelMs).toBeGreaterThan(15_000);
      expect(stepRateLimited()).toBe(0);
      expect(tailMs, `model ${modelMs} ms`).toBeLessThanOrEqual(MODEL_FACTOR * modelMs);
    },
    CASE_TIMEOUT_MS,
  );

  it(
    'the same beside a caller that spends more than any margin: its 429s cost seconds, not the rest of the tail',
    async () => {
      const { tailMs, modelMs } = await dataFileTail(30);
      expect(stepRateLimited()).toBeGreaterThan(0);
      expect(tailMs, `model ${modelMs} ms`).toBeLessThanOrEqual(MODEL_FACTOR * modelMs);
    },
    CASE_TIMEOUT_MS,
  );

  it(
    '300 suites ending together, beside a caller that spends a few tokens as they end: no 429, ≤ 1.2 × the model',
    async () => {
      const { tailMs, modelMs } = await suitesTail(8);
      expect(modelMs).toBeGreaterThan(20_000);
      expect(stepRateLimited()).toBe(0);
      expect(tailMs, `model ${modelMs} ms`).toBeLessThanOrEqual(MODEL_FACTOR * modelMs);
    },
    CASE_TIMEOUT_MS,
  );
});

describe('a tail bound by the time a page takes', () => {
  it(
    'a 5,000-test suite at 200 ms a request: its 101 pages are read at once, the step ends ≤ 3 s after its finish',
    async () => {
      await startBed([big]);
      bed.emulator.setFaults(`delay=${PAGE_LATENCY_MS},route=/v1/*:slow`);
      const f = await runWatch(bed, [big]);
      const run = f.summaries[0]!.runs[0]!;
      expect(run.tests).toHaveLength(5_000);
      expect(run.tests.every((t) => t.state === 'passed')).toBe(true);
      const { lastFinish, tailMs } = tail(f);
      expect(tailMs, `${tailMs} ms`).toBeLessThanOrEqual(BIG_TAIL_MS);
      // Every page read once: 100 full pages and the short one.
      const pages = bed.emulator.requests().filter((q) => /\/suite-results\/[^/]+\/results\/?$/.test(q.path));
      expect(pages).toHaveLength(101);
      expect(pages.every((q) => q.time > lastFinish)).toBe(true);
    },
    CASE_TIMEOUT_MS,
  );
});
