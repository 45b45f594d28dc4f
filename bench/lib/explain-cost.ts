/**
 * Explanations of the missed cost goals of issue 13 for RESULTS.md (2,000 results after the last finish,
 * requests per run, steady-state rate, several processes on one account), each built from the measured
 * figures and naming the module and constant that sets each figure, the trade-off behind the miss, and what
 * would meet the goal at what cost.
 */
import { DEFAULT_RATE_LIMIT } from '../../emulator/limits.js';
import { DEFAULT_BURST as BURST, DEFAULT_RATE_PER_SECOND as RATE } from '../../src/run/budget.js';
import { SAFETY_SPACING_MS, WATCH_COLD_MS, WATCH_HOT_MS } from '../../src/run/watch-plan.js';
import { QUICK, concurrencyDurationS, type LagSample } from './cases.js';
import { OFFICIAL_SLEEP_MS, n1, s, type Goal } from './goals.js';
import type { Results } from './render.js';
import { spread } from './stats.js';

const mean = (xs: number[]) => spread(xs).mean;
/** "3 execute, 2 poll" from counts by kind, most first. */
export const kinds = (m: Record<string, number> | undefined) =>
  Object.entries(m ?? {})
    .sort((a, b) => b[1] - a[1])
    .map(([k, n]) => `${n1(n).replace(/\.0$/, '')} ${k}`)
    .join(', ');
/** The mean count of each kind of request over `xs`. */
const meanKinds = (xs: LagSample[]) => {
  const m: Record<string, number> = {};
  for (const x of xs) for (const [k, v] of Object.entries(x.kinds ?? {})) m[k] = (m[k] ?? 0) + v / xs.length;
  return m;
};
/** A burst of 40 read the 2,000 results this long after the last finish in the bench (docs/read.md), ms. */
const BURST_40_MEASURED_MS = 1_070;
const LIMIT = DEFAULT_RATE_LIMIT;

/** The 2,000 results after the last finish: where the requests and the time went. */
export function scaleNote(results: Results): string | null {
  const data = results.scale.find((x) => x.client === 'action' && x.name.startsWith('data file'));
  if (!data) return null;
  const t = data.timelineAfterLastFinish ?? [];
  const gaps = t.slice(1).map((q, i) => q.atMs - (t[i]?.atMs ?? 0));
  const firstSlow = gaps.findIndex((g) => g >= 150);
  const burst = firstSlow < 0 ? t.length : firstSlow + 1;
  const slow = t.slice(burst);
  const byKindIn = (xs: typeof t) => {
    const m: Record<string, number> = {};
    for (const q of xs) m[q.what] = (m[q.what] ?? 0) + 1;
    return kinds(m);
  };
  const answer = spread(t.map((q) => q.answerMs));
  const all = data.requestsAfterLastFinish;
  const floorS = Math.max(0, all - BURST) / RATE;
  return (
    `**2,000 results after the last finish** (goal 2.00 s; ${data.name}: ${data.testResults / 20} suite results of 20 tests, finishing within about a second). ${s(data.afterLastFinishMs)} from the last finish to the reports; ${all} requests after it (${kinds(data.kindsAfterLastFinish)}); the service answered each in ${Math.round(answer.p50)} ms (median), ${Math.round(answer.max)} ms at most. ` +
    (t.length
      ? `First ${burst} requests back to back within ${t[burst - 1]?.atMs ?? 0} ms (${byKindIn(t.slice(0, burst))}: the budget's burst, \`DEFAULT_BURST\` = ${BURST}), then ${slow.length} at its refill, one every ${Math.round(spread(gaps.slice(burst - 1)).p50)} ms (\`DEFAULT_RATE_PER_SECOND\` = ${RATE}, src/run/budget.ts; ${byKindIn(slow)}) until ${s(slow.at(-1)?.atMs ?? NaN)}. `
      : '') +
    'The group is read by test (src/run/read.ts, src/run/read-plan.ts: each page of the 20 tests’ results lists once every row on it is over, 40 pages for 100 rows, instead of 100 suite results), so the reading is already the cheapest; it cannot start before the rows are over, and they end within a second. ' +
    `**Trade-off:** ${all} requests from a bucket of ${BURST} take at least ${n1(floorS)} s at ${RATE}/s whatever the order: the burst is the floor. ` +
    `**What would meet it:** a burst of 40 (the 40 pages at once) measured ${s(BURST_40_MEASURED_MS)} (docs/read.md), but ten processes starting at once on one account would then ask for ${10 * 40}, more than the account's burst of ${LIMIT.burst} (the service's limit, emulator/limits.ts \`DEFAULT_RATE_LIMIT\`); ${BURST} × 10 = ${10 * BURST} is why the burst is ${BURST}. Rows that finish spread out (\`max-concurrent-data-rows\`) are read during the run and leave less for the end.`
  );
}

/** Requests per run on runs of 20 s or more, by duration and kind, against the official client. */
export function perRunNote(results: Results): string {
  const ds = [...new Set(results.lag.map((x) => x.durationS))].filter((d) => d >= 20).sort((a, b) => a - b);
  const pick = (client: string, d: number, kind: string) =>
    results.lag.filter((x) => x.client === client && x.durationS === d && x.kind === kind);
  const rows = ds.flatMap((d) =>
    (['test', 'suite'] as const).map((k) => {
      const a = pick('action', d, k);
      const by = kinds(meanKinds(a)).replace('results list', 'history read');
      return `${d} s ${k}s ${n1(mean(a.map((x) => x.requests)))} (${by}) / ${n1(mean(pick('official', d, k).map((x) => x.requests)))}`;
    }),
  );
  const floor = OFFICIAL_SLEEP_MS / WATCH_COLD_MS;
  const c20 = results.concurrency.filter((x) => x.suites === 20);
  const per = (client: string) => mean(c20.filter((x) => x.client === client).map((x) => x.requests / 20));
  return (
    `**Requests per run on runs of 20 s or more** (ours, by kind / official): ${rows.join('; ')}. ` +
    `Each lag process waits for one run, so it watches it in lone mode (src/run/running-list.ts): the watch request is the run's own poll, one per watch period for the whole process, \`WATCH_HOT_MS\` = ${s(WATCH_HOT_MS)} to \`WATCH_COLD_MS\` = ${s(WATCH_COLD_MS)} (src/run/watch-plan.ts), against the official client's sleep of ${s(OFFICIAL_SLEEP_MS)} before each poll. ` +
    `**Trade-off:** the early-notice goal (within 1.5 s whatever the history says) needs a look at least every ${s(WATCH_COLD_MS)} while a run runs, ${n1(floor)}× the official client's looks: a run alone in its process cannot cost less than that floor. The watch is shared by all the runs of a process, so the cost per run falls with their number: break-even about 10 runs per process (docs/watch.md)` +
    (c20.length
      ? `; measured, 20 suites in one process cost ${n1(per('action'))} requests per suite against the official client's ${n1(per('official'))} (Suites at once). `
      : '. ') +
    `**What would meet it** with one run per process: a watch period of ${s(OFFICIAL_SLEEP_MS)}, the official client's, which gives up both lag goals (p95 about ${s(0.95 * OFFICIAL_SLEEP_MS)}) and the early-notice goal.`
  );
}

/** The steady-state rate: the watch alone; where a size had none, why, and what the bench does about it. */
export function steadyNote(results: Results): string {
  const xs = results.concurrency.filter((x) => x.client === 'action');
  const has = (v: number | null) => typeof v === 'number' && Number.isFinite(v);
  const none = xs.filter((x) => !has(x.steadyPerSecond));
  const sizes = [...new Set(none.map((x) => x.suites))];
  return (
    `**Steady-state rate** (goal ≤ 2/s; from 2 s after the last trigger to the first finish): ${xs.map((x) => `${x.suites} suites ${x.history ? 'with' : 'without'} history ${has(x.steadyPerSecond) ? `${n1(x.steadyPerSecond)}/s` : 'none'}`).join('; ')}. ` +
    `Where measured it is the watch alone: the running list once per watch period (at most 1/s, \`WATCH_HOT_MS\`) and the one stream of safety polls of all runs (at most one per \`SAFETY_SPACING_MS\` = ${s(SAFETY_SPACING_MS)}), src/run/watch-plan.ts: at most ${n1(1000 / WATCH_HOT_MS + 1000 / SAFETY_SPACING_MS)}/s whatever the number of runs. ` +
    sizes
      .map((n) => {
        const d = none.find((x) => x.suites === n)?.durationS ?? QUICK.concurrencyDurationS;
        const triggersS = Math.max(0, n - BURST) / RATE;
        const now = concurrencyDurationS(QUICK, n);
        return (
          `At ${n} suites there is none, which is no miss: the ${n} executes take (${n} − ${BURST}) / ${RATE} = ${n1(triggersS)} s of the budget (src/run/budget.ts), and runs of ${d} s ±30 % start finishing at ${n1(0.7 * d)} s, before the triggers are over. ` +
          (now > d
            ? `The bench now runs ${n} suites for ${now} s ±30 % (bench/lib/cases.ts \`concurrencyDurationBySuitesS\`; first finish at ${n1(0.7 * now)} s), which leaves a steady state to measure; these figures are from before.`
            : `Runs of ${Math.ceil((triggersS + 5) / 0.7 / 5) * 5} s ±30 % or more would leave one.`)
        );
      })
      .join(' ')
  );
}

/** Several processes on one account: the list each process asks, the bursts, the account's bucket. */
export function sharedNote(results: Results): string | null {
  const shared = results.sharedAccount;
  if (!shared || !('figure' in shared)) return null;
  const f = shared.figure;
  const spanS = f.requests / f.meanPerSecond;
  const listPerS = (f.listRequests ?? 0) / spanS;
  const allowed = LIMIT.burst + LIMIT.perSecond * spanS;
  return (
    `**${f.processes} processes on one account** (goal ≤ ${LIMIT.perSecond}/s together). ${f.requests} requests (${f.listRequests ?? 0} of them running list) from ${f.processes} processes of ${f.suites / f.processes} suites each in ${n1(spanS)} s; ${f.rateLimited} answers 429; ${n1(f.meanPerSecond)}/s on average (${n1(f.answeredPerSecond ?? NaN)}/s answered), ${n1(f.steadyPerSecond ?? NaN)}/s in the steady state, at most ${f.maxPerSecond} in a second. ` +
    `Each process waits for several runs, so it watches them by the organization's running list (src/run/running-list.ts; the organization learnt by one suite read per process, src/run/organization.ts), once per watch period (\`WATCH_HOT_MS\` = ${s(WATCH_HOT_MS)} to \`WATCH_COLD_MS\` = ${s(WATCH_COLD_MS)}): all ${f.processes} ask the same organization's list, ${n1(listPerS)}/s together, plus each its safety stream (≤ ${n1(1000 / SAFETY_SPACING_MS)}/s). The mean also has each process's start (executes, history reads, the organization read, from its own burst of ${BURST}: ${f.processes * BURST} at most together) and end (confirming reads, pages). ` +
    `The account's bucket (${LIMIT.burst} at once, then ${LIMIT.perSecond}/s) allowed ${Math.round(allowed)} requests in those ${n1(spanS)} s against ${f.requests} sent: hence no 429. ` +
    `**Trade-off:** a process knows nothing of the others, so each pays for its own look at the same list every second, which one process's lag and early-notice goals need. ` +
    `**What would meet it:** one process for all the suites (one list for all: 20 suites in one process averaged ${n1(mean(results.concurrency.filter((x) => x.client === 'action' && x.suites === 20).map((x) => x.meanPerSecond)))}/s), or a watch period of ${f.processes} × ${s(WATCH_HOT_MS)} in each process (the list at 1/s for the account together), at a lag of up to ${f.processes} s, which a process could only choose if told how many share the account; sharing one answer among processes needs a store the runners do not share.`
  );
}

/** One paragraph per missed cost goal (and the steady-state rate where it could not be measured everywhere). */
export function costNotes(results: Results, notable: Goal[]): string[] {
  const has = (prefix: string) => notable.some((g) => g.goal.startsWith(prefix));
  const notes: Array<string | null> = [];
  if (has('2,000 results: reports')) notes.push(scaleNote(results));
  if (has('Requests per run')) notes.push(perRunNote(results));
  if (has('Total request rate')) notes.push(steadyNote(results));
  if (has('10 action processes')) notes.push(sharedNote(results));
  return notes.filter((x): x is string => !!x);
}
