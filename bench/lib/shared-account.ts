/**
 * Several action processes on one account (matrix legs, parallel workflows) with the emulator's rate limit
 * on: every process runs its own suites and tests at once with the one API key, and the figures say whether
 * they all succeed (429s retried), how many 429s the service sent, the account's aggregate request rate and
 * the lag of each process. The shapes (`SharedShape`): 30 processes of one suite and one test, 30 one-test
 * processes, and a one-suite process beside a 100-suite process.
 *
 * The case runs only when the emulator limits the request rate: `probeRateLimit` sends a burst of
 * requests from an account of its own (`account('probe')`) and looks for a 429. An emulator without a rate
 * limit (no 429 at all) skips the case, and RESULTS.md says so. Each shape's processes share an account of
 * their own (`shared-<shape>`), which nothing else uses (the emulator keys its bucket on the API key's user:
 * per account, as the service), so it can run beside the other cases; the shapes run one after another.
 *
 * The processes' running-list requests (one path for all of them) are divided among the runs active at
 * each request (attribute.ts) and counted in the account's requests and rates.
 */
import type { FinishRecord } from '../../emulator/index.js';
import { runAction, type ActionRun } from './action.js';
import {
  fail,
  finishes,
  inputsFor,
  requestsFor,
  runningListShares,
  type CasePlan,
  type Context,
} from './cases.js';
import { jittered } from './jitter.js';
import { account, type SeedBuilder } from './seed.js';
import type { SharedShape } from './shared-shapes.js';
import { busiestWindow, steadyWindow, ratePerSecond } from './stats.js';

/**
 * Most requests of the probe: well above the service's documented burst of 300 per account, as the
 * bucket refills (10/s) while the probe runs on a busy machine; the probe stops at its first 429.
 */
const PROBE_REQUESTS = 600;
const PROBE_CONCURRENCY = 20;
const PROBE_SUITE = 'rate-probe';
const TESTS_PER_SUITE = 3;

export interface SharedAccountFigure {
  shape: SharedShape['key'];
  label: string;
  processes: number;
  /** Processes that did not exit 0 or did not write their results. */
  failedProcesses: number;
  requests: number;
  /** Answers with HTTP 429. */
  rateLimited: number;
  /** Most requests the account sent in any 1 s window. */
  maxPerSecond: number;
  /** Of which running-list requests. */
  listRequests: number;
  /** Requests per second from the first request to the last (429s included). */
  meanPerSecond: number;
  /** Requests per second answered without 429, first request to last. */
  answeredPerSecond: number;
  /** Requests per second in the steady state (after the triggers, before the first finish); NaN without one. */
  steadyPerSecond: number;
  /** Per process: ms from its last run's finish to its results file. */
  lagsMs: number[];
  /** The same, of the first process only (the small one beside a big one). */
  firstLagsMs: number[];
}

/** What RESULTS.md shows for a shape: its figures, or why it did not run. */
export type SharedAccountResult = { figure: SharedAccountFigure } | { skipped: string };

const accountOf = (shape: SharedShape) => `shared-${shape.key}`;
const suiteId = (shape: SharedShape, p: number, i: number) =>
  `shared-${shape.key}-p${String(p).padStart(2, '0')}-s${i}`;
const testId = (shape: SharedShape, p: number, i: number) =>
  `shared-${shape.key}-p${String(p).padStart(2, '0')}-t${i}`;
const boxId = (shape: SharedShape) => `shared-${shape.key}-box`;

/** A run's duration, ms: spread over the shape's range by a seeded draw on its key. */
function durationMs(shape: SharedShape, key: string): number {
  const [from, to] = shape.durationS;
  const mid = ((from + to) / 2) * 1000;
  return jittered(mid, key, undefined, (to - from) / (to + from));
}

/** Adds the suites and tests of every shape to the seed, and the probe's account. */
export function seedSharedAccount(seed: SeedBuilder, plan: CasePlan): void {
  for (const shape of plan.sharedShapes) {
    seed.suite({ account: accountOf(shape), id: boxId(shape), tests: 0, runDurationMs: 0 });
    shape.processes.forEach((proc, i) => {
      const p = i + 1;
      for (let s = 1; s <= proc.suites; s++) {
        const id = suiteId(shape, p, s);
        seed.suite({
          account: accountOf(shape),
          id,
          tests: TESTS_PER_SUITE,
          runDurationMs: (t) => durationMs(shape, `${id}-t${t}`),
        });
      }
      for (let t = 1; t <= proc.tests; t++) {
        const id = testId(shape, p, t);
        seed.test(boxId(shape), id, durationMs(shape, id));
      }
    });
  }
  seed.account('probe');
}

/**
 * Whether the emulator answers 429 when an account exceeds its rate: `PROBE_REQUESTS` GETs, 20 at a time,
 * from the probe's own account (its bucket is its own: nothing else waits for it to refill).
 */
export async function probeRateLimit(ctx: Context): Promise<boolean> {
  const since = Date.now();
  const url = `${ctx.emulator.baseUrl}/suites/${PROBE_SUITE}/?apiKey=${account('probe').key}`;
  let limited = false;
  let next = 0;
  const lane = async () => {
    while (next < PROBE_REQUESTS && !limited) {
      next += 1;
      const res = await fetch(url);
      await res.arrayBuffer();
      if (res.status === 429) limited = true;
    }
  };
  await Promise.all(Array.from({ length: PROBE_CONCURRENCY }, lane));
  requestsFor(ctx, since, { suites: [PROBE_SUITE] });
  return limited;
}

/** Every shape of the plan, one after another; each skipped (with the reason) when the emulator has no rate limit. */
export async function runSharedAccount(ctx: Context, plan: CasePlan): Promise<SharedAccountResult[]> {
  if (!(await probeRateLimit(ctx))) {
    return plan.sharedShapes.map((shape) => ({
      skipped: `the emulator answered ${PROBE_REQUESTS} requests of one account in a burst without a 429: it has no rate limit on, so the case "${shape.label} on one account" did not run`,
    }));
  }
  const out: SharedAccountResult[] = [];
  for (const shape of plan.sharedShapes) out.push({ figure: await runShape(ctx, shape) });
  return out;
}

/** The processes of `shape` at once on its account, and their figures. */
async function runShape(ctx: Context, shape: SharedShape): Promise<SharedAccountFigure> {
  const since = Date.now();
  const key = account(accountOf(shape)).key;
  const suitesOf = (p: number) =>
    Array.from({ length: shape.processes[p - 1]!.suites }, (_, i) => suiteId(shape, p, i + 1));
  const testsOf = (p: number) =>
    Array.from({ length: shape.processes[p - 1]!.tests }, (_, i) => testId(shape, p, i + 1));
  const processes = shape.processes.map((_, i) => i + 1);
  const runs: ActionRun[] = await Promise.all(
    processes.map((p) =>
      runAction({
        entry: ctx.entry,
        baseUrl: ctx.emulator.baseUrl,
        apiKey: key,
        inputs: {
          ...(suitesOf(p).length ? inputsFor('suite', suitesOf(p)) : {}),
          ...(testsOf(p).length ? inputsFor('test', testsOf(p)) : {}),
        },
      }),
    ),
  );
  let failedProcesses = 0;
  const lagsMs: number[] = [];
  const firstLagsMs: number[] = [];
  const records: FinishRecord[] = [];
  runs.forEach((run, i) => {
    const p = i + 1;
    const mine = [
      ...suitesOf(p).map((id) => finishes(ctx, 'suite', id, since)[0]),
      ...testsOf(p).map((id) => finishes(ctx, 'test', id, since)[0]),
    ];
    if (run.code !== 0 || run.resultsWrittenAt === null || mine.some((x) => !x)) {
      failedProcesses += 1;
      fail(ctx, `shared account (${shape.key}): process ${p}`, `exit ${run.code}\n${run.logTail}`);
      return;
    }
    records.push(...(mine as FinishRecord[]));
    // A process knows all its runs once it writes its results: its lag is from its last finish.
    const lag =
      (run.resultsWrittenAt as number) - Math.max(...(mine as FinishRecord[]).map((x) => x.finishedAt));
    lagsMs.push(lag);
    if (p === 1) firstLagsMs.push(lag);
  });
  const own = requestsFor(ctx, since, {
    suites: processes.flatMap(suitesOf),
    tests: processes.flatMap(testsOf),
    results: records.map((x) => x.resultId),
  });
  const list = runningListShares(
    ctx,
    account(accountOf(shape)).org,
    since,
    Math.max(...runs.map((r) => r.exitAt)),
    runs.flatMap((r, i) =>
      [...suitesOf(i + 1), ...testsOf(i + 1)].map(() => ({ fromMs: r.spawnAt, toMs: r.exitAt })),
    ),
  );
  const requests = [...own, ...list.requests];
  const times = requests.map((q) => q.time).sort((a, b) => a - b);
  const spanS = times.length > 1 ? ((times.at(-1) as number) - (times[0] as number)) / 1000 : NaN;
  const steady = steadyWindow(records);
  const answered = requests.filter((q) => q.status !== 429).length;
  ctx.log(`  shared account: ${shape.label} done`);
  return {
    shape: shape.key,
    label: shape.label,
    processes: shape.processes.length,
    failedProcesses,
    requests: requests.length,
    listRequests: list.requests.length,
    rateLimited: requests.filter((q) => q.status === 429).length,
    maxPerSecond: busiestWindow(times).count,
    meanPerSecond: requests.length / spanS,
    answeredPerSecond: answered / spanS,
    steadyPerSecond: steady ? ratePerSecond(times, steady.fromMs, steady.toMs) : NaN,
    lagsMs,
    firstLagsMs,
  };
}
