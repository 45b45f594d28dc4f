/**
 * Several action processes on one account (matrix legs, parallel workflows) with the emulator's rate limit
 * on: every process runs its own suites at once with the one API key, and the figures say whether they all
 * succeed (429s retried), how many 429s the service sent, and the account's aggregate request rate.
 *
 * The case runs only when the emulator limits the request rate: `probeRateLimit` sends a burst of
 * requests from an account of its own (`account('probe')`) and looks for a 429. An emulator without a rate
 * limit (no 429 at all) skips the case, and RESULTS.md says so. The case's processes share account
 * `shared`, which nothing else uses (the emulator keys its bucket on the API key's user: per account, as the
 * service), so it can run beside the other cases.
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
import { busiestWindow, steadyWindow, ratePerSecond } from './stats.js';

/**
 * Most requests of the probe: well above the service's documented burst of 300 per account, as the
 * bucket refills (10/s) while the probe runs on a busy machine; the probe stops at its first 429.
 */
const PROBE_REQUESTS = 600;
const PROBE_CONCURRENCY = 20;
const PROBE_SUITE = 'rate-probe';
const SHARED = 'shared';
const TESTS_PER_SUITE = 3;

export interface SharedAccountFigure {
  processes: number;
  suites: number;
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
  /** ms from each suite's finish to its process's results file. */
  lagsMs: number[];
}

/** What RESULTS.md shows for the case: its figures, or why it did not run. */
export type SharedAccountResult = { figure: SharedAccountFigure } | { skipped: string };

const suiteId = (p: number, i: number) => `shared-p${String(p).padStart(2, '0')}-s${i}`;

/** Adds the case's suites to the seed: `sharedSuitesPerProcess` per process, tests of `sharedDurationS` ±30 %. */
export function seedSharedAccount(seed: SeedBuilder, plan: CasePlan): void {
  for (let p = 1; p <= plan.sharedProcesses; p++) {
    for (let i = 1; i <= plan.sharedSuitesPerProcess; i++) {
      seed.suite({
        account: SHARED,
        id: suiteId(p, i),
        tests: TESTS_PER_SUITE,
        runDurationMs: (t) => jittered(plan.sharedDurationS * 1000, `shared-p${p}-s${i}-t${t}`),
      });
    }
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

/**
 * `sharedProcesses` action processes at once, each running its `sharedSuitesPerProcess` suites with the
 * same API key; skipped (with the reason) when the emulator has no rate limit.
 */
export async function runSharedAccount(ctx: Context, plan: CasePlan): Promise<SharedAccountResult> {
  if (!(await probeRateLimit(ctx))) {
    return {
      skipped: `the emulator answered ${PROBE_REQUESTS} requests of one account in a burst without a 429: it has no rate limit on, so the case "${plan.sharedProcesses} action processes on one account" did not run`,
    };
  }
  const since = Date.now();
  const ids = (p: number) => Array.from({ length: plan.sharedSuitesPerProcess }, (_, i) => suiteId(p, i + 1));
  const processes = Array.from({ length: plan.sharedProcesses }, (_, i) => i + 1);
  const runs: ActionRun[] = await Promise.all(
    processes.map((p) =>
      runAction({
        entry: ctx.entry,
        baseUrl: ctx.emulator.baseUrl,
        apiKey: account(SHARED).key,
        inputs: inputsFor('suite', ids(p)),
      }),
    ),
  );
  let failedProcesses = 0;
  const lagsMs: number[] = [];
  const records: FinishRecord[] = [];
  runs.forEach((run, i) => {
    const p = i + 1;
    const mine = ids(p).map((id) => finishes(ctx, 'suite', id, since)[0]);
    if (run.code !== 0 || run.resultsWrittenAt === null || mine.some((x) => !x)) {
      failedProcesses += 1;
      fail(ctx, `shared account: process ${p}`, `exit ${run.code}\n${run.logTail}`);
      return;
    }
    for (const x of mine as FinishRecord[]) {
      records.push(x);
      lagsMs.push((run.resultsWrittenAt as number) - x.finishedAt);
    }
  });
  const own = requestsFor(ctx, since, {
    suites: processes.flatMap(ids),
    results: records.map((x) => x.resultId),
  });
  const list = runningListShares(
    ctx,
    account(SHARED).org,
    since,
    Math.max(...runs.map((r) => r.exitAt)),
    runs.flatMap((r) => ids(1).map(() => ({ fromMs: r.spawnAt, toMs: r.exitAt }))),
  );
  const requests = [...own, ...list.requests];
  const times = requests.map((q) => q.time).sort((a, b) => a - b);
  const spanS = times.length > 1 ? ((times.at(-1) as number) - (times[0] as number)) / 1000 : NaN;
  const steady = steadyWindow(records);
  const answered = requests.filter((q) => q.status !== 429).length;
  ctx.log(`  shared account: ${plan.sharedProcesses} processes done`);
  return {
    figure: {
      processes: plan.sharedProcesses,
      suites: plan.sharedProcesses * plan.sharedSuitesPerProcess,
      failedProcesses,
      requests: requests.length,
      listRequests: list.requests.length,
      rateLimited: requests.filter((q) => q.status === 429).length,
      maxPerSecond: busiestWindow(times).count,
      meanPerSecond: requests.length / spanS,
      answeredPerSecond: answered / spanS,
      steadyPerSecond: steady ? ratePerSecond(times, steady.fromMs, steady.toMs) : NaN,
      lagsMs,
    },
  };
}
