/**
 * The goals, read against the figures: detection lag, cost in requests, scale, and start-up, overhead and
 * memory. Ratios and side figures are against the official client in the same run.
 */
import { RATE_LIMIT_BURST, RATE_LIMIT_PER_SECOND } from '../../src/api/limits.js';
import type { LagSample } from './cases.js';
import type { Results } from './results.js';
import { spread } from './stats.js';

/** The most requests the action's budget lets go in any 1 s: its burst, then its refill over that second. */
export const BUDGET_PEAK = RATE_LIMIT_BURST + RATE_LIMIT_PER_SECOND;

export const s = (ms: number) => (Number.isFinite(ms) ? `${(ms / 1000).toFixed(2)} s` : '–');
/** A limit in seconds as the goals write it: `1 s`, `1.5 s`. */
const sec = (ms: number) => `${ms / 1000} s`;

/** The limits the goals set (ms, requests/s, MB, answers). */
export const LIMITS = {
  lagMs: 1_000,
  earlyMs: 1_500,
  concurrencyLagMs: 1_500,
  concurrencyPerSecond: 3,
  dataFileMs: 2_000,
  memoryMb: 200,
  steadyPerSecond: 2,
  shared: {
    pairs: { lagMs: 4_000, rateLimited: 30 },
    singles: { lagMs: 4_500, rateLimited: 30 },
    beside: { lagMs: 4_500, rateLimited: Infinity },
  },
  startupMs: 300,
  overheadMs: 1_500,
  /** Lone test runs (push.ts): pushed, with every webhook lost, and polled beside them. */
  push: { lagMs: 100, requests: 8, lostLagMs: 1_500, pollLagMs: 1_000 },
} as const;

/**
 * Every goal the bench judges, one row each of docs/performance.md's table (`goalsTable`), the limits from
 * `LIMITS`: the one list the table of RESULTS.md and the docs are made from.
 */
export const GOALS: Array<{ measure: string; goal: string }> = [
  {
    measure: 'Lag p95 (finish → the action knows), without / with an earlier result',
    goal: `≤ ${sec(LIMITS.lagMs)} each`,
  },
  {
    measure: 'An early failure or a cancel in the app noticed',
    goal: `≤ ${sec(LIMITS.earlyMs)} whatever the history says`,
  },
  {
    measure: '20 and 100 suites at once (one process)',
    goal: `lag p95 ≤ ${sec(LIMITS.concurrencyLagMs)}; ≤ ${LIMITS.concurrencyPerSecond} requests/s; within the budget`,
  },
  {
    measure: '2,000 results from a data file: last finish → reports written',
    goal: `≤ ${sec(LIMITS.dataFileMs)}; peak memory < ${LIMITS.memoryMb} MB`,
  },
  { measure: 'Requests per run on runs of 20 s or more', goal: '≤ the official client’s' },
  {
    measure: 'Request rate of the whole action in steady state',
    goal: `≤ ${LIMITS.steadyPerSecond}/s`,
  },
  {
    measure: '30 processes of one suite and one test on one account (runs of 20–35 s)',
    goal: `0 failed; lag p95 ≤ ${sec(LIMITS.shared.pairs.lagMs)}; ≤ ${LIMITS.shared.pairs.rateLimited} answers 429`,
  },
  {
    measure: '30 one-test processes on one account',
    goal: `0 failed; lag p95 ≤ ${sec(LIMITS.shared.singles.lagMs)}; ≤ ${LIMITS.shared.singles.rateLimited} answers 429`,
  },
  {
    measure: 'A one-suite process beside a 100-suite process on one account',
    goal: `0 failed; the one-suite process's lag p95 ≤ ${sec(LIMITS.shared.beside.lagMs)}`,
  },
  {
    measure: 'Lone test runs with push reachable (`notify-url`)',
    goal: `lag p95 ≤ ${sec(LIMITS.push.lagMs)}; ≤ ${LIMITS.push.requests} requests per run`,
  },
  {
    measure: 'Lone test runs with push on and every webhook lost',
    goal: `lag p95 ≤ ${sec(LIMITS.push.lostLagMs)}`,
  },
  {
    measure: 'Lone test runs polled, beside the push runs',
    goal: `lag p95 ≤ ${sec(LIMITS.push.pollLagMs)}`,
  },
  {
    measure: 'Start-up to the first request; overhead on a 5-test suite',
    goal: `< ${LIMITS.startupMs} ms; < ${sec(LIMITS.overheadMs)}`,
  },
];

/** docs/performance.md's table of goals, made from `GOALS` (Markdown, columns padded as Prettier pads them). */
export function goalsTable(): string {
  const rows = [['Measure', 'Goal'], ...GOALS.map((g) => [g.measure, g.goal])];
  const width = [0, 1].map((c) => Math.max(...rows.map((r) => [...r[c]!].length)));
  const line = (r: string[]) =>
    `| ${r.map((x, c) => x + ' '.repeat(width[c]! - [...x].length)).join(' | ')} |`;
  return [
    line(rows[0]!),
    `| ${width.map((w) => '-'.repeat(w)).join(' | ')} |`,
    ...rows.slice(1).map(line),
  ].join('\n');
}

export interface Goal {
  goal: string;
  measured: string;
  met: boolean;
  /**
   * When missed: how far off (or why it could not be judged). When met: empty, or the reservation (e.g. a
   * size where the goal could not be measured), shown after the verdict.
   */
  by: string;
}

export const n1 = (x: number) => (Number.isFinite(x) ? x.toFixed(1) : '–');
export const ratio = (a: number, b: number) =>
  Number.isFinite(a / b) && b !== 0 ? `${(a / b).toFixed(2)}×` : '–';

const lagP95 = (xs: LagSample[]) => spread(xs.map((x) => x.lagMs)).p95;
const reqMean = (xs: LagSample[]) => spread(xs.map((x) => x.requests)).mean;

/** A goal `value ≤ limit` (NaN: not measured, missed). */
function atMost(
  goal: string,
  measured: string,
  value: number,
  limit: number,
  over: (d: number) => string,
): Goal {
  const met = Number.isFinite(value) && value <= limit;
  return {
    goal,
    measured,
    met,
    by: met ? '' : Number.isFinite(value) ? over(value - limit) : 'not measured',
  };
}

function lagGoals(results: Results): Goal[] {
  const pick = (client: string, h: boolean) =>
    results.lag.filter((x) => x.client === client && x.history === h);
  const limit = LIMITS.lagMs;
  return [false, true].map((h) => {
    const a = lagP95(pick('action', h));
    const o = lagP95(pick('official', h));
    return atMost(
      `Lag p95 ≤ ${s(limit)} ${h ? 'with' : 'without'} an earlier result`,
      `${s(a)} (official ${s(o)}; ${pick('action', h).length} runs)`,
      a,
      limit,
      (d) => `${s(d)} over`,
    );
  });
}

function earlyGoal(results: Results): Goal {
  const ours = results.early.filter((x) => x.client === 'action');
  const theirs = results.early.filter((x) => x.client === 'official');
  const worst = ours.length ? Math.max(...ours.map((x) => x.noticedMs)) : NaN;
  const list = (xs: typeof ours) =>
    xs
      .map(
        (x) =>
          `${x.case === 'early failure' ? 'failure' : 'cancel'} ${x.kind} (${x.historyS >= 120 ? `${x.historyS / 60} min` : `${x.historyS} s`} history) ${Number.isFinite(x.noticedMs) ? s(x.noticedMs) : 'not noticed'}`,
      )
      .join(', ');
  const goal = `An early failure or outside cancel noticed within ${sec(LIMITS.earlyMs)} whatever the history says`;
  const measured = `ours: ${list(ours) || '–'}; official: ${list(theirs) || '–'}`;
  const missing = ours.filter((x) => !Number.isFinite(x.noticedMs));
  if (ours.length && missing.length) {
    return {
      goal,
      measured,
      met: false,
      by: `${missing.map((x) => `${x.case === 'early failure' ? 'failure' : 'cancel'} of a ${x.kind}`).join(', ')} not noticed (${missing[0]?.note ?? ''})`,
    };
  }
  return atMost(
    goal,
    measured,
    ours.length === 4 ? worst : NaN,
    LIMITS.earlyMs,
    (d) => `slowest ${s(d)} over`,
  );
}

function concurrencyGoals(results: Results): Goal[] {
  const sizes = [...new Set(results.concurrency.map((x) => x.suites))].sort((a, b) => a - b);
  const out: Goal[] = [];
  const lagLimit = LIMITS.concurrencyLagMs;
  const rateLimit = LIMITS.concurrencyPerSecond;
  for (const n of sizes) {
    const ours = results.concurrency.filter((x) => x.client === 'action' && x.suites === n);
    const theirs = results.concurrency.filter((x) => x.client === 'official' && x.suites === n);
    const lag = spread(ours.flatMap((x) => x.lagsMs)).p95;
    const lagO = spread(theirs.flatMap((x) => x.lagsMs)).p95;
    const mean = Math.max(...ours.map((x) => x.meanPerSecond));
    const peak = Math.max(...ours.map((x) => x.maxPerSecond));
    const failed = ours.reduce((a, x) => a + x.failed, 0);
    const misses = [
      lag <= lagLimit ? '' : `lag p95 ${s(lag - lagLimit)} over`,
      mean <= rateLimit ? '' : `${n1(mean - rateLimit)}/s over on average`,
      peak <= BUDGET_PEAK ? '' : `${peak - BUDGET_PEAK} over the budget in 1 s`,
      failed ? `${failed} process failed` : '',
    ].filter(Boolean);
    out.push({
      goal: `${n} suites at once: lag p95 ≤ ${sec(lagLimit)}, at most ${rateLimit} requests/s on average, never more than the budget (${BUDGET_PEAK} in any 1 s: ${RATE_LIMIT_BURST} at once, then ${RATE_LIMIT_PER_SECOND}/s)`,
      measured:
        `lag p95 ${s(lag)} (official ${s(lagO)}); ${n1(mean)} requests/s on average (official ${n1(Math.max(...theirs.map((x) => x.meanPerSecond)))}); ` +
        `at most ${peak} in 1 s (official ${Math.max(...theirs.map((x) => x.maxPerSecond))}); ${ours.length} rounds`,
      met: misses.length === 0 && ours.length > 0,
      by: ours.length ? misses.join('; ') : 'not measured',
    });
  }
  return out;
}

function scaleGoal(results: Results): Goal {
  const data = results.scale.find((x) => x.client === 'action' && x.name.startsWith('data file'));
  return atMost(
    '2,000 results: reports written ≤ 2 s after the last finish',
    data
      ? `${s(data.afterLastFinishMs)} (${data.requestsAfterLastFinish} requests after the last finish)`
      : '–',
    data?.afterLastFinishMs ?? NaN,
    LIMITS.dataFileMs,
    (d) => `${s(d)} over`,
  );
}

function costGoals(results: Results): Goal[] {
  const long = (c: string) => results.lag.filter((x) => x.client === c && x.durationS >= 20);
  const a = reqMean(long('action'));
  const o = reqMean(long('official'));
  return [
    atMost(
      'Requests per run ≤ the official client’s on runs of 20 s or more',
      `${n1(a)} per run (official ${n1(o)}; ${ratio(a, o)}; ${long('action').length} runs, running-list requests shared among the runs active)`,
      a,
      o,
      (d) => `${n1(d)} more per run (${ratio(a, o)})`,
    ),
    steadyGoal(results),
  ];
}

/**
 * The steady-state rate (≤ 2/s): met where measured and never over, with a reservation naming the sizes that
 * had no steady state (triggers still going at the first finish: nothing to judge, not a miss); missed where
 * any size is over; not measured when no size had one.
 */
export function steadyGoal(results: Results): Goal {
  const limit = LIMITS.steadyPerSecond;
  const steady = results.concurrency
    .filter((x) => x.client === 'action')
    .map((x) => ({ n: x.suites, r: x.history, v: x.steadyPerSecond }));
  // Saved figures write NaN as null.
  const known = steady.filter((x) => typeof x.v === 'number' && Number.isFinite(x.v));
  const worst = known.length ? Math.max(...known.map((x) => x.v)) : NaN;
  const noneAt = [...new Set(steady.filter((x) => !known.includes(x)).map((x) => x.n))];
  const reservation = noneAt.length
    ? `no steady state to measure at ${noneAt.join(', ')} suites (triggers still going at the first finish)`
    : '';
  const met = known.length > 0 && worst <= limit;
  const by = met
    ? reservation &&
      `where measured (${[...new Set(known.map((x) => x.n))].join(', ')} suites); ${reservation}`
    : known.length
      ? [`${n1(worst - limit)}/s over at the worst`, reservation].filter(Boolean).join('; ')
      : `not measured${reservation && `: ${reservation}`}`;
  return {
    goal: 'Total request rate of the whole action ≤ 2/s in steady state, for any number of runs',
    measured:
      steady
        .map(
          (x) =>
            `${x.n} suites ${x.r ? 'with' : 'without'} history: ${known.includes(x) ? `${n1(x.v)}/s` : 'no steady state (triggers still going at the first finish)'}`,
        )
        .join('; ') || '–',
    met,
    by,
  };
}

/** Words of each shape's row in `GOALS`. */
const SHARED_MEASURE = { pairs: 'one suite and one test', singles: 'one-test processes', beside: 'beside a' };

/** The shared-account goals, one per shape (`LIMITS.shared`); a shape not run is "not measured". */
function sharedGoals(results: Results): Goal[] {
  // Older saved figures hold one result of 30 processes of two suites: not these shapes.
  const all = Array.isArray(results.sharedAccount) ? results.sharedAccount : [];
  const keys = Object.keys(LIMITS.shared) as Array<keyof typeof LIMITS.shared>;
  return keys.map((key) => {
    const limit = LIMITS.shared[key];
    const { measure } = GOALS.find((g) => g.measure.includes(SHARED_MEASURE[key]))!;
    const goal = `${measure}: 0 failed, ${key === 'beside' ? 'the one-suite process’s ' : ''}lag p95 ≤ ${sec(limit.lagMs)}${Number.isFinite(limit.rateLimited) ? `, ≤ ${limit.rateLimited} answers 429` : ''}`;
    const found = all.find((x) => 'figure' in x && x.figure.shape === key) ?? all.find((x) => 'skipped' in x);
    if (!found || !('figure' in found)) {
      return {
        goal,
        measured: found && 'skipped' in found ? found.skipped : '–',
        met: false,
        by: 'not measured',
      };
    }
    const f = found.figure;
    const lag = spread(key === 'beside' ? f.firstLagsMs : f.lagsMs).p95;
    const misses = [
      f.failedProcesses ? `${f.failedProcesses} failed` : '',
      lag <= limit.lagMs ? '' : `lag p95 ${s(lag - limit.lagMs)} over`,
      f.rateLimited <= limit.rateLimited ? '' : `${f.rateLimited - limit.rateLimited} answers 429 over`,
    ].filter(Boolean);
    return {
      goal,
      measured: `${f.failedProcesses} of ${f.processes} failed; lag p95 ${s(lag)}${key === 'beside' ? ` (all runs ${s(spread(f.lagsMs).p95)})` : ''}; ${f.rateLimited} answers 429; ${f.requests} requests, ${n1(f.meanPerSecond)}/s on average (${n1(f.steadyPerSecond)}/s in steady state), at most ${f.maxPerSecond} in any 1 s`,
      met: misses.length === 0,
      by: misses.join('; '),
    };
  });
}

function earlierGoals(results: Results): Goal[] {
  const out: Goal[] = [];
  const st = spread(results.startupMs);
  if (st.n) {
    const cold = results.startupMs[0] ?? NaN;
    const worst = Math.max(cold, st.p50);
    out.push({
      goal: `Start-up to first request < ${LIMITS.startupMs} ms`,
      measured: `cold ${Math.round(cold)} ms, median ${Math.round(st.p50)} ms, max ${Math.round(st.max)} ms (${st.n} runs)`,
      met: worst < LIMITS.startupMs,
      by: worst < LIMITS.startupMs ? '' : `${Math.round(worst - LIMITS.startupMs)} ms over`,
    });
  }
  for (const h of [true, false]) {
    const ovh = spread(
      results.overhead.filter((x) => x.client === 'action' && x.history === h).map((x) => x.overheadMs),
    );
    if (!ovh.n) continue;
    out.push({
      goal: `Overhead < ${sec(LIMITS.overheadMs)} (process wall time − run duration, 5-test suite, ${h ? 'with an earlier result' : 'first run, no earlier result'})`,
      measured: `median ${s(ovh.p50)}, max ${s(ovh.max)} (${ovh.n} run${ovh.n > 1 ? 's' : ''})`,
      met: ovh.p50 < LIMITS.overheadMs,
      by: ovh.p50 < LIMITS.overheadMs ? '' : `${s(ovh.p50 - LIMITS.overheadMs)} over (median)`,
    });
  }
  const data = results.scale.find((x) => x.client === 'action' && x.name.startsWith('data file'));
  if (data) {
    const memOk = data.peakRssMb !== null && data.peakRssMb < LIMITS.memoryMb;
    out.push({
      goal: `${data.testResults.toLocaleString('en')} results: peak memory < ${LIMITS.memoryMb} MB`,
      measured: data.peakRssMb === null ? 'not measured' : `${data.peakRssMb.toFixed(0)} MB`,
      met: memOk,
      by: memOk || data.peakRssMb === null ? '' : `${(data.peakRssMb - LIMITS.memoryMb).toFixed(0)} MB over`,
    });
  }
  return out;
}

/** The push goals, one per mode (push.ts): lag p95, and requests per run where pushed. */
function pushGoals(results: Results): Goal[] {
  const samples = results.push ?? [];
  const { push: limit } = LIMITS;
  const rows = [
    { mode: 'push', word: 'reachable (`notify-url`)', lagMs: limit.lagMs, requests: limit.requests },
    { mode: 'lost', word: 'on and every webhook lost', lagMs: limit.lostLagMs, requests: Infinity },
    { mode: 'poll', word: 'polled, beside the push runs', lagMs: limit.pollLagMs, requests: Infinity },
  ] as const;
  return rows.map((row) => {
    const xs = samples.filter((x) => x.mode === row.mode);
    const lag = lagP95(xs);
    const perRun = reqMean(xs);
    const capped = Number.isFinite(row.requests);
    const goal = `Lone test runs ${row.mode === 'poll' ? '' : 'with push '}${row.word}: lag p95 ≤ ${sec(row.lagMs)}${capped ? `, ≤ ${row.requests} requests per run` : ''}`;
    const misses = [
      lag <= row.lagMs ? '' : Number.isFinite(lag) ? `lag p95 ${s(lag - row.lagMs)} over` : 'not measured',
      perRun <= row.requests ? '' : `${n1(perRun - row.requests)} requests per run over`,
    ].filter(Boolean);
    return {
      goal,
      measured: xs.length
        ? `lag p95 ${s(lag)}, max ${s(spread(xs.map((x) => x.lagMs)).max)}; ${n1(perRun)} requests per run; ${xs.length} runs`
        : '–',
      met: xs.length > 0 && misses.length === 0,
      by: xs.length ? misses.join('; ') : 'not measured',
    };
  });
}

/** Every goal (the lag, cost and scale goals listed as "not measured" when their case did not run). */
export function goals(results: Results): Goal[] {
  const conc = concurrencyGoals(results);
  const concGoals = conc.length
    ? conc
    : [
        {
          goal: '20 and 100 suites at once: lag p95 ≤ 1.5 s, at most 3 requests/s on average, never more than the budget',
          measured: '–',
          met: false,
          by: 'not measured',
        },
      ];
  return [
    ...lagGoals(results),
    earlyGoal(results),
    ...concGoals,
    scaleGoal(results),
    ...costGoals(results),
    ...sharedGoals(results),
    ...pushGoals(results),
    ...earlierGoals(results),
  ];
}
