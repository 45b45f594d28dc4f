/**
 * The benchmark's cases, each run against one emulator by both clients where the official client can take
 * part: detection lag and requests (suites and single tests whose runs last 3 s to 3 min ±30 %, with and
 * without an earlier result), overhead and start-up, scale (1,000 tests; a 100-row data file over 20 tests)
 * and 20 concurrent suites (20 s ±30 %). Durations are jittered and seeded (jitter.ts).
 *
 * Requests are told apart by path: every case and client has suites and tests of its own, and each request
 * of a run names its suite or test (execute, history) or the result it created (polls, result pages).
 * Finish times come from the emulator's run records (`Emulator.runs()`), taken when a result ended.
 */
import { spawn } from 'node:child_process';
import type { Emulator, FinishRecord, RequestRecord } from '../../emulator/index.js';
import { runAction, type ActionRun } from './action.js';
import { jittered } from './jitter.js';
import type { OfficialClient } from './official.js';
import { runningListOrg, shareListRequests } from './attribute.js';
import { account, passingScenario, type SeedBuilder } from './seed.js';
import { sharedShapes, type SharedShape } from './shared-shapes.js';

export type ClientName = 'action' | 'official';
export type RunKind = 'suite' | 'test';

export interface Context {
  emulator: Emulator;
  official: OfficialClient;
  /** Path of the bundled action. */
  entry: string;
  log: (line: string) => void;
  /** Sequence numbers of every request a case claimed (to find requests no case accounts for). */
  claimed: Set<number>;
  failures: string[];
}

export interface LagSample {
  client: ClientName;
  kind: RunKind;
  durationS: number;
  /** Whether the suite or test had an earlier finished result when the run started. */
  history: boolean;
  /** ms from the emulator's finish record to the client knowing (results.json written / promise resolved). */
  lagMs: number;
  /**
   * API requests this run sent (execute, history, polls, result pages), plus its share of its process's
   * running-list requests (`listShare`).
   */
  requests: number;
  /** Its share of the organization running-list requests (attribute.ts; 0 for the official client). */
  listShare: number;
  /** Its requests by kind (`kindOf`; the running list by its share). */
  kinds?: Record<string, number>;
  /** Ours: ms from the finish to the first running-list request after it (NaN: none). */
  listAfterFinishMs?: number;
  /** The run's own duration: finish minus creation, ms. */
  runMs: number;
  /** ms from the finish to the first request of the run that arrived after it (the poll that saw it). */
  pollDelayMs: number;
  /** ms from the answer to the run's last request to the client knowing (its own work at the end). */
  afterLastAnswerMs: number;
}

/** Lag parts of a run, from its requests (sorted by arrival) and its finish record. */
function lagParts(requests: RequestRecord[], record: FinishRecord, knownAt: number) {
  const after = requests.find((q) => q.time >= record.finishedAt);
  const lastAnswer = Math.max(...requests.map((q) => q.time + q.durationMs));
  return {
    pollDelayMs: after ? after.time - record.finishedAt : NaN,
    afterLastAnswerMs: knownAt - lastAnswer,
  };
}

export interface OverheadSample {
  client: ClientName;
  history: boolean;
  /** Action: whole process wall time; official: call to resolve. ms. */
  wallMs: number;
  runMs: number;
  overheadMs: number;
  /** Action only: spawn to the run's creation (start-up and the execute), finish to results.json, results.json to exit. ms. */
  parts?: { toTriggerMs: number; lagMs: number; toExitMs: number };
}

export interface ScaleFigure {
  name: string;
  client: ClientName;
  testResults: number;
  requests: number;
  /** Peak RSS of the action process, MB (null for the official client, which shares a worker). */
  peakRssMb: number | null;
  /** ms from the last finish record to every report written (action) or the promise resolved (official). */
  afterLastFinishMs: number;
  /** Requests sent after the last finish, and how many of them were result pages. */
  requestsAfterLastFinish: number;
  pagesAfterLastFinish: number;
  /** Requests after the last finish by kind (kindOf). */
  kindsAfterLastFinish: Record<string, number>;
  timelineAfterLastFinish: Array<{ atMs: number; what: string; answerMs: number; status: number }>;
  /** ms from the last finish to the first request after it. */
  pollDelayMs: number;
  wallMs: number;
}

export interface Durations {
  durationS: number;
  rounds: number;
}

export interface CasePlan {
  lanes: Durations[];
  overheadRounds: number;
  startupSamples: number;
  concurrencyRounds: number;
  /** Suites at once in the concurrency case (concurrency.ts): one process of ours, one call each of the official client. */
  concurrentSuites: number[];
  /** Nominal run duration of the concurrency case, s (±30 %). */
  concurrencyDurationS: number;
  /**
   * A longer duration for some sizes (suites → s): 100 suites of 20 s ±30 % would start finishing before the
   * reads of their triggers' answers settle and leave no steady state.
   */
  concurrencyDurationBySuitesS?: Record<number, number>;
  /** Early failure with a long history and a run cancelled in the app (early.ts): histories in s. */
  earlyHistoryS: { test: number; suite: number };
  scaleTests: number;
  dataRows: number;
  dataSuiteTests: number;
  scaleDurationS: number;
  /** Several action processes on one account (shared-account.ts), each shape on an account of its own. */
  sharedShapes: SharedShape[];
  /** Push beside poll (push.ts): lone test runs of `durationS` (±30 %), `rounds` per mode. */
  push: Durations;
}

export const QUICK: CasePlan = {
  lanes: [
    { durationS: 3, rounds: 8 },
    { durationS: 8, rounds: 6 },
    { durationS: 20, rounds: 3 },
    { durationS: 45, rounds: 2 },
  ],
  overheadRounds: 3,
  startupSamples: 5,
  concurrencyRounds: 2,
  concurrentSuites: [20, 100],
  concurrencyDurationS: 20,
  concurrencyDurationBySuitesS: { 100: 45 },
  earlyHistoryS: { test: 65, suite: 600 },
  scaleTests: 1000,
  dataRows: 100,
  dataSuiteTests: 20,
  scaleDurationS: 12,
  sharedShapes: sharedShapes(30, [20, 35], 100, [31.5, 58.5]),
  push: { durationS: 8, rounds: 8 },
};

export const FULL: CasePlan = {
  ...QUICK,
  lanes: [
    { durationS: 3, rounds: 12 },
    { durationS: 8, rounds: 10 },
    { durationS: 20, rounds: 6 },
    { durationS: 45, rounds: 4 },
    { durationS: 90, rounds: 3 },
    { durationS: 180, rounds: 3 },
  ],
  overheadRounds: 5,
  startupSamples: 10,
  concurrencyRounds: 3,
};

/** A one-minute check that the harness works (not for figures). */
export const SMOKE: CasePlan = {
  lanes: [{ durationS: 3, rounds: 2 }],
  overheadRounds: 1,
  startupSamples: 2,
  concurrencyRounds: 1,
  concurrentSuites: [3, 6],
  concurrencyDurationS: 3,
  earlyHistoryS: { test: 65, suite: 600 },
  scaleTests: 60,
  dataRows: 5,
  dataSuiteTests: 4,
  scaleDurationS: 3,
  sharedShapes: sharedShapes(3, [3, 4], 6, [3, 4]),
  push: { durationS: 3, rounds: 2 },
};

/** The nominal run duration of the concurrency case with `suites` suites at once, s. */
export const concurrencyDurationS = (plan: CasePlan, suites: number): number =>
  plan.concurrencyDurationBySuitesS?.[suites] ?? plan.concurrencyDurationS;

export const tag = (client: ClientName) => (client === 'action' ? 'a' : 'o');
export const pad = (n: number) => String(n).padStart(2, '0');

/** Suite ids of the lag lanes: a reused ("history") one and a fresh one per round, per client and kind. */
export const laneIds = {
  historySuite: (c: ClientName, d: number) => `lag-${tag(c)}-s${d}-h`,
  freshSuite: (c: ClientName, d: number, r: number) => `lag-${tag(c)}-s${d}-f${pad(r)}`,
  testBox: (c: ClientName, d: number, h: boolean) => `lag-${tag(c)}-box${d}-${h ? 'h' : 'f'}`,
  historyTest: (c: ClientName, d: number) => `lag-${tag(c)}-t${d}-h`,
  freshTest: (c: ClientName, d: number, r: number) => `lag-${tag(c)}-t${d}-f${pad(r)}`,
};
/**
 * Accounts (seed.ts) of the lag lanes. Each of our lag runs is a process of its own, as one workflow's
 * step: each slot of a lane (history suite, history test, fresh suite, fresh test) has an account of its
 * own, so its process's requests, running list included, are its alone and no process spends another's
 * allowance. The official client's lag runs share one account of its own (5 s polls: light).
 */
export const laneAccount = (c: ClientName, d: number, slot: 'hs' | 'ht' | 'fs' | 'ft'): string =>
  c === 'action' ? `lag-a-${d}-${slot}` : 'lag-o';
const overheadSuite = (c: ClientName) => `ovh-${tag(c)}`;
const STARTUP_SUITE = 'startup-a';
const scaleSuite = (c: ClientName) => `scale-1k-${tag(c)}`;
const DATA_SUITE = 'scale-rows-a';
export const CLIENTS: ClientName[] = ['action', 'official'];

/**
 * Run durations, the same for both clients: the nominal duration ±30 % (jitter.ts), drawn afresh for each
 * round and each test of a suite (ms). `d` is the lane's nominal duration in s, `r` the round, `t` the test.
 */
const durationOf = {
  historySuite: (d: number, r: number, t: number) => jittered(d * 1000, `s${d}-h-r${r}-t${t}`),
  historyTest: (d: number, r: number) => jittered(d * 1000, `t${d}-h-r${r}`),
  freshSuite: (d: number, r: number, t: number) => jittered(d * 1000, `s${d}-f${r}-t${t}`),
  freshTest: (d: number, r: number) => jittered(d * 1000, `t${d}-f${r}`),
};
const TESTS_PER_LANE_SUITE = 3;

/** Adds every suite and test the plan needs to the seed (durations of round 1; later rounds set theirs). */
export function seedCases(seed: SeedBuilder, plan: CasePlan): void {
  for (const c of CLIENTS) {
    for (const { durationS: d, rounds } of plan.lanes) {
      seed.suite({
        account: laneAccount(c, d, 'hs'),
        id: laneIds.historySuite(c, d),
        tests: TESTS_PER_LANE_SUITE,
        runDurationMs: (t) => durationOf.historySuite(d, 1, t),
      });
      for (const h of [true, false]) {
        seed.suite({
          account: laneAccount(c, d, h ? 'ht' : 'ft'),
          id: laneIds.testBox(c, d, h),
          tests: 0,
          runDurationMs: d * 1000,
        });
      }
      seed.test(laneIds.testBox(c, d, true), laneIds.historyTest(c, d), durationOf.historyTest(d, 1));
      for (let r = 1; r <= rounds; r++) {
        seed.suite({
          account: laneAccount(c, d, 'fs'),
          id: laneIds.freshSuite(c, d, r),
          tests: TESTS_PER_LANE_SUITE,
          runDurationMs: (t) => durationOf.freshSuite(d, r, t),
        });
        seed.test(laneIds.testBox(c, d, false), laneIds.freshTest(c, d, r), durationOf.freshTest(d, r));
      }
    }
    seed.suite({ account: `ovh-${tag(c)}`, id: overheadSuite(c), tests: 5, runDurationMs: 8000 });
    seed.suite({
      account: `scale-${tag(c)}`,
      id: scaleSuite(c),
      tests: plan.scaleTests,
      runDurationMs: plan.scaleDurationS * 1000,
    });
  }
  seed.suite({ account: 'startup-a', id: STARTUP_SUITE, tests: 1, runDurationMs: 3000 });
  seed.suite({
    account: 'scale-a',
    id: DATA_SUITE,
    tests: plan.dataSuiteTests,
    runDurationMs: plan.scaleDurationS * 1000,
  });
}

/** Gives the tests of suite `suiteId` (ids `<suite>-t<n>`) the durations of a new round. */
export function setSuiteDurations(
  ctx: Context,
  suiteId: string,
  tests: number,
  ms: (t: number) => number,
): void {
  for (let t = 1; t <= tests; t++) ctx.emulator.setScenario(`${suiteId}-t${t}`, passingScenario(ms(t)));
}

// ---------------------------------------------------------------------------------------------------------
// Attribution

interface Ids {
  suites?: string[];
  tests?: string[];
  results?: string[];
}

/**
 * Requests since `since` (epoch ms) whose path names one of the suites, tests or results, and that no case
 * claimed before (e.g. a third party's cancel); claims them.
 */
export function requestsFor(ctx: Context, since: number, ids: Ids): RequestRecord[] {
  const needles = [
    ...(ids.suites ?? []).map((id) => `/suites/${id}/`),
    ...(ids.tests ?? []).map((id) => `/tests/${id}/`),
    ...(ids.results ?? []).flatMap((id) => [`/suite-results/${id}/`, `/results/${id}/`]),
  ];
  const found = ctx.emulator.requests().filter((r) => {
    if (r.time < since || ctx.claimed.has(r.seq)) return false;
    const p = r.path.endsWith('/') ? r.path : `${r.path}/`;
    return needles.some((n) => p.includes(n));
  });
  for (const r of found) ctx.claimed.add(r.seq);
  return found;
}

/**
 * The running-list requests of organization `org` from `fromMs` to `toMs` (epoch ms), claimed, and each
 * run's share of them: every request divided among the `runs` active at its time (attribute.ts).
 */
export function runningListShares(
  ctx: Context,
  org: string,
  fromMs: number,
  toMs: number,
  runs: Array<{ fromMs: number; toMs: number }>,
): { requests: RequestRecord[]; shares: number[]; unattributed: number } {
  const requests = ctx.emulator
    .requests()
    .filter(
      (r) => r.time >= fromMs && r.time <= toMs && !ctx.claimed.has(r.seq) && runningListOrg(r.path) === org,
    );
  for (const r of requests) ctx.claimed.add(r.seq);
  const { shares, unattributed } = shareListRequests(
    requests.map((r) => ({ org, time: r.time })),
    runs.map((r) => ({ org, ...r })),
  );
  return { requests, shares, unattributed };
}

/** Finish records of runs of a suite (suite results) or of a test run alone (test results) since `since`. */
export function finishes(ctx: Context, kind: RunKind, id: string, since: number): FinishRecord[] {
  return ctx.emulator
    .runs()
    .filter((r) =>
      kind === 'suite'
        ? r.kind === 'suite-result' && r.suiteId === id && r.createdAt >= since
        : r.kind === 'test-result' && r.testId === id && r.suiteResultId === null && r.createdAt >= since,
    );
}

/** Requests by kind (`kindOf`). */
export function kindsOf(requests: RequestRecord[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const q of requests) out[kindOf(q.path)] = (out[kindOf(q.path)] ?? 0) + 1;
  return out;
}

/** What a request was: execute, history (a listing of earlier results), poll or result page. */
export function kindOf(path: string): string {
  if (runningListOrg(path)) return 'running list';
  if (/\/execute\/?$/.test(path)) return 'execute';
  if (/\/(suites|tests)\/[^/]+\/results\/?$/.test(path)) return 'results list';
  if (/\/suite-results\/[^/]+\/results\/?$/.test(path)) return 'page';
  return 'poll';
}

export function fail(ctx: Context, what: string, detail: string): void {
  ctx.failures.push(`${what}: ${detail}`);
  ctx.log(`  ! ${what}: ${detail}`);
}

export const inputsFor = (kind: RunKind, ids: string[]): Record<string, string> => ({
  [kind === 'suite' ? 'suite-ids' : 'test-ids']: ids.join(','),
});

// ---------------------------------------------------------------------------------------------------------
// Detection lag and requests

/** One run of our action in a process of its own. */
export interface ActionLagRun {
  kind: RunKind;
  id: string;
  /** Name of the account (seed.ts) whose key the process uses; its organization holds the suite or test. */
  account: string;
  durationS: number;
  history: boolean;
  /** The run is expected to fail (exit code 1 is then no problem of the bench). */
  failing?: boolean;
  /** Inputs besides the suite or test (e.g. `notify`). */
  inputs?: Record<string, string>;
  /** Called once the process is spawned, with its spawn time (e.g. to cancel the run from outside). */
  onSpawn?: (spawnAt: number) => void;
  /**
   * Stop the process (SIGTERM) when it runs this long, ms: the run then counts as not noticed (lag NaN),
   * not as a failure of the bench.
   */
  killAfterMs?: number;
}

/**
 * Runs our action for one suite or test in a process of its own and measures it: lag, requests (its own,
 * by path, plus its share of its process's running-list requests: the account's organization has no
 * other process at that time, so the share is all of them).
 */
export async function actionLagRun(
  ctx: Context,
  x: ActionLagRun,
): Promise<{ sample: LagSample; run: ActionRun; record: FinishRecord } | null> {
  const { kind, id, durationS, history } = x;
  const spawned = Date.now();
  const pending = runAction({
    entry: ctx.entry,
    baseUrl: ctx.emulator.baseUrl,
    apiKey: account(x.account).key,
    inputs: { ...inputsFor(kind, [id]), ...x.inputs },
    ...(x.killAfterMs === undefined ? {} : { killAfterMs: x.killAfterMs }),
  });
  x.onSpawn?.(spawned);
  const run = await pending;
  const record = finishes(ctx, kind, id, run.spawnAt)[0];
  const okCode = run.code === 0 || (x.failing === true && run.code === 1) || run.killed;
  if (!record || (run.resultsWrittenAt === null && !run.killed) || !okCode) {
    fail(ctx, `action ${kind} ${id}`, `exit ${run.code}, finish ${!!record}\n${run.logTail}`);
    return null;
  }
  const requests = requestsFor(ctx, run.spawnAt, {
    [kind === 'suite' ? 'suites' : 'tests']: [id],
    results: [record.resultId],
  });
  const list = runningListShares(ctx, account(x.account).org, run.spawnAt, run.exitAt, [
    { fromMs: run.spawnAt, toMs: run.exitAt },
  ]);
  const listShare = list.shares[0] ?? 0;
  const listAfter = list.requests.find((q) => q.time >= record.finishedAt);
  return {
    run,
    record,
    sample: {
      client: 'action',
      kind,
      durationS,
      history,
      lagMs: run.killed || run.resultsWrittenAt === null ? NaN : run.resultsWrittenAt - record.finishedAt,
      requests: requests.length + listShare,
      listShare,
      kinds: { ...kindsOf(requests), ...(listShare ? { 'running list': listShare } : {}) },
      listAfterFinishMs: listAfter ? listAfter.time - record.finishedAt : NaN,
      runMs: record.finishedAt - record.createdAt,
      ...lagParts(requests, record, run.resultsWrittenAt ?? NaN),
    },
  };
}

/** One run of the official client, on account `accountName` (seed.ts). */
export async function officialLagRun(
  ctx: Context,
  kind: RunKind,
  id: string,
  accountName: string,
  durationS: number,
  history: boolean,
  expectPassing: boolean | null = true,
): Promise<LagSample | null> {
  const since = Date.now();
  const run = await ctx.official.run(kind, id, account(accountName).key);
  const record = finishes(ctx, kind, id, since)[0];
  if (!record || run.error || run.passing !== expectPassing) {
    fail(ctx, `official ${kind} ${id}`, run.error ?? `passing ${run.passing}, finish ${!!record}`);
    return null;
  }
  const requests = requestsFor(ctx, since, {
    [kind === 'suite' ? 'suites' : 'tests']: [id],
    results: [record.resultId],
  });
  return {
    client: 'official',
    kind,
    durationS,
    history,
    lagMs: run.knownAt - record.finishedAt,
    requests: requests.length,
    listShare: 0,
    runMs: record.finishedAt - record.createdAt,
    ...lagParts(requests, record, run.knownAt),
  };
}

/**
 * One lane: runs of `durationS` seconds, `rounds` times. Each round runs, for each client, the lane's
 * history suite and history test (no earlier result in round 1, then the previous rounds' results) and a
 * fresh suite and a fresh test (never run before), all at once.
 */
export async function runLane(ctx: Context, lane: Durations): Promise<LagSample[]> {
  const samples: LagSample[] = [];
  const d = lane.durationS;
  for (let r = 1; r <= lane.rounds; r++) {
    const history = r > 1;
    const jobs: Array<Promise<LagSample | null>> = [];
    for (const c of CLIENTS) {
      // The suite and the test run again: each lasts a new jittered time, as real runs do.
      setSuiteDurations(ctx, laneIds.historySuite(c, d), TESTS_PER_LANE_SUITE, (t) =>
        durationOf.historySuite(d, r, t),
      );
      ctx.emulator.setScenario(laneIds.historyTest(c, d), passingScenario(durationOf.historyTest(d, r)));
      const one = (
        kind: RunKind,
        id: string,
        h: boolean,
        slot: 'hs' | 'ht' | 'fs' | 'ft',
      ): Promise<LagSample | null> =>
        c === 'action'
          ? actionLagRun(ctx, { kind, id, account: laneAccount(c, d, slot), durationS: d, history: h }).then(
              (x) => x?.sample ?? null,
            )
          : officialLagRun(ctx, kind, id, laneAccount(c, d, slot), d, h);
      jobs.push(
        one('suite', laneIds.historySuite(c, d), history, 'hs'),
        one('test', laneIds.historyTest(c, d), history, 'ht'),
        one('suite', laneIds.freshSuite(c, d, r), false, 'fs'),
        one('test', laneIds.freshTest(c, d, r), false, 'ft'),
      );
    }
    for (const s of await Promise.all(jobs)) if (s) samples.push(s);
    ctx.log(`  lag ${d} s: round ${r}/${lane.rounds} done`);
  }
  return samples;
}

// ---------------------------------------------------------------------------------------------------------
// Overhead and start-up

/** The 5-test suite (8 s runs) `rounds` times per client: round 1 without an earlier result. */
export async function runOverhead(ctx: Context, rounds: number): Promise<OverheadSample[]> {
  const out: OverheadSample[] = [];
  for (let r = 1; r <= rounds; r++) {
    const [a, o] = await Promise.all([
      actionLagRun(ctx, {
        kind: 'suite',
        id: overheadSuite('action'),
        account: 'ovh-a',
        durationS: 8,
        history: r > 1,
      }),
      (async () => {
        const since = Date.now();
        const run = await ctx.official.run('suite', overheadSuite('official'), account('ovh-o').key);
        const record = finishes(ctx, 'suite', overheadSuite('official'), since)[0];
        requestsFor(ctx, since, {
          suites: [overheadSuite('official')],
          results: record ? [record.resultId] : [],
        });
        return record && !run.error ? { run, record } : null;
      })(),
    ]);
    if (a) {
      const wallMs = a.run.exitAt - a.run.spawnAt;
      out.push({
        client: 'action',
        history: r > 1,
        wallMs,
        runMs: a.sample.runMs,
        overheadMs: wallMs - a.sample.runMs,
        parts: {
          toTriggerMs: a.record.createdAt - a.run.spawnAt,
          lagMs: a.sample.lagMs,
          toExitMs: a.run.exitAt - (a.run.resultsWrittenAt as number),
        },
      });
    }
    if (o) {
      const wallMs = o.run.knownAt - o.run.startedAt;
      const runMs = o.record.finishedAt - o.record.createdAt;
      out.push({ client: 'official', history: r > 1, wallMs, runMs, overheadMs: wallMs - runMs });
    } else fail(ctx, 'official overhead run', 'no finish record or an error');
    ctx.log(`  overhead: round ${r}/${rounds} done`);
  }
  return out;
}

/**
 * Start-up: process start to the first API request, `samples` times one after the other on a quiet
 * emulator (`wait: false`, so the process triggers and ends). The first sample is the cold one. For scale,
 * the same is measured, turn about, for a bare Node process that sends one request (`bareNodeMs`).
 */
export async function runStartup(
  ctx: Context,
  samples: number,
): Promise<{ actionMs: number[]; bareNodeMs: number[] }> {
  const actionMs: number[] = [];
  const bareNodeMs: number[] = [];
  for (let i = 0; i < samples; i++) {
    const run = await runAction({
      entry: ctx.entry,
      baseUrl: ctx.emulator.baseUrl,
      apiKey: account('startup-a').key,
      inputs: { 'suite-ids': STARTUP_SUITE, wait: 'false' },
    });
    const first = requestsFor(ctx, run.spawnAt, { suites: [STARTUP_SUITE] }).filter(
      (r) => r.time <= run.exitAt,
    )[0];
    if (!first || run.code !== 0) fail(ctx, 'start-up run', `exit ${run.code}\n${run.logTail}`);
    else actionMs.push(first.time - run.spawnAt);
    await new Promise((r) => setTimeout(r, 200));
    const probe = `startup-probe-${i}`;
    const spawnAt = Date.now();
    const child = spawn(
      process.execPath,
      ['-e', `fetch(${JSON.stringify(`${ctx.emulator.baseUrl}/suites/${probe}/`)}).catch(() => {})`],
      {
        stdio: 'ignore',
      },
    );
    await new Promise((r) => child.on('close', r));
    const bare = requestsFor(ctx, spawnAt, { suites: [probe] })[0];
    if (bare) bareNodeMs.push(bare.time - spawnAt);
    await new Promise((r) => setTimeout(r, 200));
  }
  return { actionMs, bareNodeMs };
}

// ---------------------------------------------------------------------------------------------------------
// Scale

/** The running-list requests of a scale process (alone in account scale-a's organization while it runs). */
function listRequestsOf(ctx: Context, run: ActionRun): RequestRecord[] {
  return runningListShares(ctx, account('scale-a').org, run.spawnAt, run.exitAt, []).requests;
}

function afterLast(records: FinishRecord[], requests: RequestRecord[], knownAt: number) {
  const last = Math.max(...records.map((x) => x.finishedAt));
  return {
    afterLastFinishMs: knownAt - last,
    pollDelayMs: (requests.find((q) => q.time > last)?.time ?? NaN) - last,
    requestsAfterLastFinish: requests.filter((q) => q.time > last).length,
    pagesAfterLastFinish: requests.filter(
      (q) => q.time > last && /\/suite-results\/[^/]+\/results\/?$/.test(q.path),
    ).length,
    kindsAfterLastFinish: kindsOf(requests.filter((q) => q.time > last)),
    /** The requests after the last finish: ms after it, kind, ms answered in (where the time goes). */
    timelineAfterLastFinish: requests
      .filter((q) => q.time > last)
      .map((q) => ({ atMs: q.time - last, what: kindOf(q.path), answerMs: q.durationMs, status: q.status })),
  };
}

/** The 1,000-test suite (action, then the official client) and the 100-row data file over 20 tests (action). */
export async function runScale(ctx: Context, plan: CasePlan): Promise<ScaleFigure[]> {
  const out: ScaleFigure[] = [];
  // 1,000 tests, our action.
  {
    const id = scaleSuite('action');
    const run = await runAction({
      entry: ctx.entry,
      baseUrl: ctx.emulator.baseUrl,
      apiKey: account('scale-a').key,
      inputs: inputsFor('suite', [id]),
      measureMemory: true,
    });
    const records = finishes(ctx, 'suite', id, run.spawnAt);
    if (records.length !== 1 || run.reportsWrittenAt === null || run.code !== 0) {
      fail(ctx, `action ${id}`, `exit ${run.code}\n${run.logTail}`);
    } else {
      const requests = [
        ...requestsFor(ctx, run.spawnAt, { suites: [id], results: records.map((x) => x.resultId) }),
        ...listRequestsOf(ctx, run),
      ].sort((a, b) => a.time - b.time);
      out.push({
        name: `${plan.scaleTests.toLocaleString('en')}-test suite`,
        client: 'action',
        testResults: countTotal(run) ?? plan.scaleTests,
        requests: requests.length,
        peakRssMb: run.peakRssKb === null ? null : run.peakRssKb / 1024,
        ...afterLast(records, requests, run.reportsWrittenAt),
        wallMs: run.exitAt - run.spawnAt,
      });
    }
    ctx.log('  scale: 1,000-test suite (action) done');
  }
  // The official client's 1,000 tests alongside the data file (its requests and CPU are light next to it).
  const officialThousand = (async () => {
    const id = scaleSuite('official');
    const since = Date.now();
    const run = await ctx.official.run('suite', id, account('scale-o').key);
    const records = finishes(ctx, 'suite', id, since);
    if (records.length !== 1 || run.error) fail(ctx, `official ${id}`, run.error ?? 'no finish record');
    else {
      const requests = requestsFor(ctx, since, { suites: [id], results: records.map((x) => x.resultId) });
      out.push({
        name: `${plan.scaleTests.toLocaleString('en')}-test suite`,
        client: 'official',
        testResults: plan.scaleTests,
        requests: requests.length,
        peakRssMb: null,
        ...afterLast(records, requests, run.knownAt),
        wallMs: run.knownAt - run.startedAt,
      });
    }
    ctx.log('  scale: 1,000-test suite (official client) done');
  })();
  // A data file of 100 rows over a 20-test suite: 100 suite results, 2,000 test results.
  {
    const csv = [
      'user,row',
      ...Array.from({ length: plan.dataRows }, (_, i) => `user${i + 1},${i + 1}`),
    ].join('\n');
    const run = await runAction({
      entry: ctx.entry,
      baseUrl: ctx.emulator.baseUrl,
      apiKey: account('scale-a').key,
      inputs: { 'suite-ids': DATA_SUITE, 'data-file': 'rows.csv' },
      files: { 'rows.csv': `${csv}\n` },
      measureMemory: true,
    });
    const records = finishes(ctx, 'suite', DATA_SUITE, run.spawnAt);
    if (records.length !== plan.dataRows || run.reportsWrittenAt === null || run.code !== 0) {
      fail(ctx, `action ${DATA_SUITE}`, `exit ${run.code}, ${records.length} suite results\n${run.logTail}`);
    } else {
      const requests = [
        ...requestsFor(ctx, run.spawnAt, {
          suites: [DATA_SUITE],
          // The suite's tests: their results lists are read for many finished suite results at once.
          tests: Array.from({ length: plan.dataSuiteTests }, (_, i) => `${DATA_SUITE}-t${i + 1}`),
          results: records.map((x) => x.resultId),
        }),
        ...listRequestsOf(ctx, run),
      ].sort((a, b) => a.time - b.time);
      out.push({
        name: `data file: ${plan.dataRows} rows × ${plan.dataSuiteTests} tests`,
        client: 'action',
        testResults: countTotal(run) ?? plan.dataRows * plan.dataSuiteTests,
        requests: requests.length,
        peakRssMb: run.peakRssKb === null ? null : run.peakRssKb / 1024,
        ...afterLast(records, requests, run.reportsWrittenAt),
        wallMs: run.exitAt - run.spawnAt,
      });
    }
    ctx.log('  scale: data file (action) done');
  }
  await officialThousand;
  return out.sort((a, b) => a.name.localeCompare(b.name) || a.client.localeCompare(b.client));
}

function countTotal(run: ActionRun): number | null {
  try {
    const counts = JSON.parse(run.outputs.counts ?? '') as { total?: number };
    return typeof counts.total === 'number' ? counts.total : null;
  } catch {
    return null;
  }
}
