/**
 * Many suites at once (20 and 100 in quick mode), `concurrencyRounds` rounds (round 1 without earlier
 * results): one process of our action for all of them, and the official client with one call per suite,
 * each client on an account of its own (the official client's rounds each on a user of their own, so a
 * round does not start with the bucket the previous one emptied). Durations `concurrencyDurationS` ±30 % (`concurrencyDurationBySuitesS` for some sizes).
 *
 * Figures: requests (ours: its running-list requests included; its organization has no other process),
 * the mean rate, the rate in the steady state (stats.ts `steadyWindow`), the most in any 1 s window, 429s,
 * and each suite's lag. Our lag of a suite is from its finish to the answer of the last request naming its
 * result (the poll that saw it over, or its last page of test results): when the process knew it. The
 * results file, written once for all suites, comes after the last finish (`reportsAfterLastFinishMs`).
 */
import type { FinishRecord, RequestRecord } from '../../emulator/index.js';
import { runAction } from './action.js';
import {
  CLIENTS,
  concurrencyDurationS,
  fail,
  finishes,
  inputsFor,
  kindOf,
  kindsOf,
  pad,
  requestsFor,
  runningListShares,
  setSuiteDurations,
  tag,
  type CasePlan,
  type ClientName,
  type Context,
} from './cases.js';
import { jittered } from './jitter.js';
import { account, callerKey, type SeedBuilder } from './seed.js';
import { busiestWindow, ratePerSecond, steadyWindow } from './stats.js';

const TESTS_PER_SUITE = 3;

export interface ConcurrencyFigure {
  client: ClientName;
  history: boolean;
  suites: number;
  /** Nominal run duration, s (±30 %); absent in figures saved before it was recorded (then 20 s). */
  durationS?: number;
  /** Requests of the round (ours: its running-list requests included). */
  requests: number;
  /** Of which running-list requests. */
  listRequests: number;
  /** Answers with HTTP 429. */
  rateLimited: number;
  /** Official client: calls that ended with an error (e.g. a 429 it does not retry); ours: 0 or 1 process. */
  failed: number;
  /** The first such error. */
  error?: string;
  /** Requests per second from the first request to the last. */
  meanPerSecond: number;
  /** Requests per second in the steady state (after the triggers, before the first finish); NaN without one. */
  steadyPerSecond: number;
  /** Most requests in any 1 s window. */
  maxPerSecond: number;
  /** The requests of that window: ms after its first one, path kind, ms the service took to answer. */
  busiest: Array<{ atMs: number; what: string; answerMs: number }>;
  /** Requests by kind (`kindOf`). */
  kinds: Record<string, number>;
  /** Lag of each suite, ms (see the module comment). */
  lagsMs: number[];
  /** Ours: the last finish to the results file written, ms; official: the last finish to its last call resolved. */
  reportsAfterLastFinishMs: number;
}

const suiteId = (c: ClientName, n: number, i: number) => `conc${n}-${tag(c)}-${pad(i)}`;
const accountOf = (c: ClientName, n: number) => `conc${n}-${tag(c)}`;
const durationMs = (plan: CasePlan, n: number, i: number, r: number, t: number) =>
  jittered(concurrencyDurationS(plan, n) * 1000, `c${n}-${i}-r${r}-t${t}`);

/** Adds the case's suites and accounts to the seed. */
export function seedConcurrency(seed: SeedBuilder, plan: CasePlan): void {
  for (const n of plan.concurrentSuites) {
    for (const c of CLIENTS) {
      for (let i = 1; i <= n; i++) {
        seed.suite({
          account: accountOf(c, n),
          id: suiteId(c, n, i),
          tests: TESTS_PER_SUITE,
          runDurationMs: (t) => durationMs(plan, n, i, 1, t),
        });
      }
    }
    for (let r = 1; r <= plan.concurrencyRounds; r++) seed.caller(accountOf('official', n), `r${r}`);
  }
}

/** ms from each record's finish to the answer of the last request naming its result. */
function knownLags(records: FinishRecord[], requests: RequestRecord[]): number[] {
  return records.map((x) => {
    const mine = requests.filter(
      (q) => q.path.includes(`/suite-results/${x.resultId}`) || q.path.includes(`/results/${x.resultId}`),
    );
    const knownAt = Math.max(...mine.map((q) => q.time + q.durationMs));
    return knownAt - x.finishedAt;
  });
}

function figureOf(
  c: ClientName,
  r: number,
  ids: string[],
  records: FinishRecord[],
  requests: RequestRecord[],
  extra: Pick<
    ConcurrencyFigure,
    'durationS' | 'listRequests' | 'failed' | 'error' | 'lagsMs' | 'reportsAfterLastFinishMs'
  >,
): ConcurrencyFigure {
  const times = requests.map((q) => q.time).sort((a, b) => a - b);
  const window = busiestWindow(times);
  const steady = steadyWindow(records);
  const span = times.length > 1 ? ((times.at(-1) as number) - (times[0] as number)) / 1000 : NaN;
  return {
    client: c,
    history: r > 1,
    suites: ids.length,
    requests: requests.length,
    rateLimited: requests.filter((q) => q.status === 429).length,
    meanPerSecond: requests.length / span,
    steadyPerSecond: steady ? ratePerSecond(times, steady.fromMs, steady.toMs) : NaN,
    maxPerSecond: window.count,
    kinds: kindsOf(requests),
    busiest: requests
      .filter((q) => q.time >= window.startsAt && q.time < window.startsAt + 1000)
      .map((q) => ({ atMs: q.time - window.startsAt, what: kindOf(q.path), answerMs: q.durationMs })),
    ...extra,
  };
}

/** One round of `n` suites for both clients at once. */
async function round(ctx: Context, plan: CasePlan, n: number, r: number): Promise<ConcurrencyFigure[]> {
  const idsOf = (c: ClientName) => Array.from({ length: n }, (_, i) => suiteId(c, n, i + 1));
  for (const c of CLIENTS) {
    idsOf(c).forEach((id, i) =>
      setSuiteDurations(ctx, id, TESTS_PER_SUITE, (t) => durationMs(plan, n, i + 1, r, t)),
    );
  }
  const since = Date.now();
  const officialKey = callerKey(accountOf('official', n), `r${r}`);
  const [action, official] = await Promise.all([
    runAction({
      entry: ctx.entry,
      baseUrl: ctx.emulator.baseUrl,
      apiKey: account(accountOf('action', n)).key,
      inputs: inputsFor('suite', idsOf('action')),
    }),
    Promise.all(idsOf('official').map((id) => ctx.official.run('suite', id, officialKey))),
  ]);
  const out: ConcurrencyFigure[] = [];
  for (const c of CLIENTS) {
    const ids = idsOf(c);
    const found = ids.map((id) => finishes(ctx, 'suite', id, since)[0]);
    const records = found.filter((x): x is FinishRecord => !!x);
    const own = requestsFor(ctx, since, { suites: ids, results: records.map((x) => x.resultId) });
    const lastFinish = Math.max(...records.map((x) => x.finishedAt));
    if (c === 'action') {
      const list = runningListShares(ctx, account(accountOf(c, n)).org, action.spawnAt, action.exitAt, [
        { fromMs: action.spawnAt, toMs: action.exitAt },
      ]);
      const ok = action.resultsWrittenAt !== null && action.code === 0 && records.length === n;
      if (!ok) fail(ctx, `action ${n} suites round ${r}`, `exit ${action.code}\n${action.logTail}`);
      const requests = [...own, ...list.requests].sort((a, b) => a.time - b.time);
      out.push(
        figureOf(c, r, ids, records, requests, {
          durationS: concurrencyDurationS(plan, n),
          listRequests: list.requests.length,
          failed: ok ? 0 : 1,
          lagsMs: knownLags(records, requests),
          reportsAfterLastFinishMs: (action.resultsWrittenAt ?? NaN) - lastFinish,
        }),
      );
    } else {
      const errors = official.filter((x) => x.error);
      const lagsMs = ids.flatMap((_, i) => {
        const x = found[i];
        const o = official[i];
        return x && o && !o.error ? [o.knownAt - x.finishedAt] : [];
      });
      out.push(
        figureOf(c, r, ids, records, own, {
          durationS: concurrencyDurationS(plan, n),
          listRequests: 0,
          failed: errors.length,
          ...(errors[0]?.error ? { error: errors[0].error } : {}),
          lagsMs,
          reportsAfterLastFinishMs: Math.max(...official.map((x) => x.knownAt)) - lastFinish,
        }),
      );
    }
  }
  ctx.log(`  ${n} suites at once: round ${r}/${plan.concurrencyRounds} done`);
  return out;
}

/** Every size of `plan.concurrentSuites`, `plan.concurrencyRounds` rounds each, one round after another. */
export async function runConcurrency(ctx: Context, plan: CasePlan): Promise<ConcurrencyFigure[]> {
  const out: ConcurrencyFigure[] = [];
  for (const n of plan.concurrentSuites) {
    for (let r = 1; r <= plan.concurrencyRounds; r++) out.push(...(await round(ctx, plan, n, r)));
  }
  return out;
}
