/**
 * Explanations of the missed goals of issue 13 for RESULTS.md, each built from the measured figures: where
 * the time or the requests went, so a reader sees whether the polling plan, the budget, the process or the
 * machine is the cause.
 */
import { DEFAULT_BURST as BURST, DEFAULT_RATE_PER_SECOND as RATE } from '../../src/run/budget.js';
import { NO_HISTORY_MAX_INTERVAL_MS, WINDOW_INTERVAL_MS } from '../../src/run/schedule.js';
import type { LagSample } from './cases.js';
import type { EarlyFigure } from './early.js';
import { n1, s, type Goal } from './goals.js';
import type { Results } from './render.js';
import { spread } from './stats.js';

const mean = (xs: number[]) => spread(xs).mean;
/** A time that was measured (NaN is written as null in the raw figures). */
const noticedIn = (x: EarlyFigure, ms: number) =>
  typeof x.noticedMs === 'number' && Number.isFinite(x.noticedMs) && x.noticedMs <= ms;
const inParens = (text: string) => (text ? ` (${text})` : '');
const p95 = (xs: LagSample[]) => spread(xs.map((x) => x.lagMs)).p95;
const kinds = (m: Record<string, number> | undefined) =>
  Object.entries(m ?? {})
    .sort((a, b) => b[1] - a[1])
    .map(([k, n]) => `${n1(n).replace(/\.0$/, '')} ${k}`)
    .join(', ');

/** Why suite runs are not watched by the running list, when the figures show they sent none. */
let noListTold = false;
/** The reason in full the first time in a RESULTS.md, then a pointer to it. */
const noListWhy = (): string => {
  if (noListTold) return '(Why: see the first note that says so.)';
  noListTold = true;
  return NO_LIST_FOR_SUITES;
};
const NO_LIST_FOR_SUITES =
  'A suite execute with `immediate` answers the suite by its id string (`suite: "ID"`), so the process learns no organization id from it and never starts the running list (src/run/running-list.ts `organizationOf`: from the plan, a test result’s `organization` or a populated suite only); a run of single tests learns it from the test result.';

function lagNote(results: Results, h: boolean, limit: number): string {
  const xs = results.lag.filter((x) => x.client === 'action' && x.history === h);
  const suites = xs.filter((x) => x.kind === 'suite');
  const tests = xs.filter((x) => x.kind === 'test');
  const slowest = [...xs].sort((a, b) => b.lagMs - a.lagMs).slice(0, 3);
  const poll = spread(xs.map((x) => x.pollDelayMs));
  const tail = spread(xs.map((x) => x.afterLastAnswerMs));
  const suiteList = mean(suites.map((x) => x.listShare));
  return (
    `**Lag ${h ? 'with' : 'without'} an earlier result** (goal ${s(limit)}). Ours p95: suites ${s(p95(suites))} (${suites.length} runs, ${n1(suiteList)} running-list requests per run), single tests ${s(p95(tests))} (${tests.length} runs, ${n1(mean(tests.map((x) => x.listShare)))} running-list requests per run). ` +
    `The lag has two parts: from the finish to the first request naming the run after it (p50 ${s(poll.p50)}, p95 ${s(poll.p95)}), and the process's own work after its last answer (result pages, reports: p50 ${s(tail.p50)}, p95 ${s(tail.p95)}). ` +
    `Slowest: ${slowest.map((x) => `${s(x.lagMs)} (${x.durationS} s ${x.kind}: wait ${s(x.pollDelayMs)}, own work ${s(x.afterLastAnswerMs)})`).join('; ')}. ` +
    (suiteList === 0 && suites.length
      ? `Our suite runs sent no running-list request at all: they are watched by their own adaptive poll alone, whose spacing (up to ${s(NO_HISTORY_MAX_INTERVAL_MS)} without history, ${s(WINDOW_INTERVAL_MS)} inside the expected window with one: src/run/schedule.ts) sets their lag, while single tests are woken by the list about once a second. ${noListWhy()}`
      : 'The slowest runs waited for their next poll; the rest is the process’s own work or a busy machine (load average in the header).')
  );
}

function earlyNote(results: Results): string {
  const ours = results.early.filter((x) => x.client === 'action');
  const missed = ours.filter((x) => !noticedIn(x, 1500));
  const describe = (x: EarlyFigure) =>
    `${x.case} of a ${x.kind} (history ${x.historyS >= 120 ? `${x.historyS / 60} min` : `${x.historyS} s`}): ${noticedIn(x, Infinity) ? s(x.noticedMs) : 'not noticed'}; its requests: ${x.kinds ? kinds(x.kinds) : n1(x.requests)}`;
  const noList = missed.filter((x) => x.kind === 'suite' && !x.kinds?.['running list']);
  return (
    `**Early failure and outside cancel.** Missed: ${missed.map(describe).join('; ')}. Met: ${
      ours
        .filter((x) => noticedIn(x, 1500))
        .map(describe)
        .join('; ') || 'none'
    }. ` +
    (noList.length
      ? `The suites sent no running-list request: their first own poll waits for the history's window (10 min), so nothing wakes them. ${noListWhy()} `
      : '') +
    'The official client noticed the early failures at its next 5 s poll, and never the cancels (it waits for `passing`, which stays null on a cancelled result).'
  );
}

function concurrencyNote(results: Results, n: number): string {
  const ours = results.concurrency.filter((x) => x.client === 'action' && x.suites === n);
  const theirs = results.concurrency.filter((x) => x.client === 'official' && x.suites === n);
  const rounds = ours
    .map((x) => {
      const l = spread(x.lagsMs);
      const spanS = x.requests / x.meanPerSecond;
      const atRate = x.meanPerSecond >= 0.8 * RATE;
      return `${x.history ? 'with' : 'without'} history: ${x.requests} requests${inParens(kinds(x.kinds))} in ${n1(spanS)} s, ${n1(x.meanPerSecond)}/s${atRate ? ' (the budget’s rate)' : ''}, at most ${x.maxPerSecond} in a second; lag p50 ${s(l.p50)}, p95 ${s(l.p95)}`;
    })
    .join('; ');
  const perSuite = mean(ours.map((x) => x.requests / n));
  const minS = Math.max(0, perSuite * n - BURST) / RATE;
  const full = ours.filter((x) => x.meanPerSecond >= 0.8 * RATE).length;
  const failed = theirs.filter((x) => x.failed);
  return (
    `**${n} suites at once.** Ours, ${rounds}. ` +
    `That is ${n1(perSuite)} requests per suite: ${n1(perSuite * n)} requests need at least ${n1(minS)} s at the budget's ${RATE}/s after its burst of ${BURST} (src/run/budget.ts), against runs of 20 s ±30 %. ` +
    (full
      ? `In ${full} of ${ours.length} rounds the process sent at the budget's rate from start to end (hence more than 3/s on average and ${BURST + RATE} in its busiest second: the burst, then the refill); the budget grants in arrival order, so a suite's poll waits behind the other suites' requests and the lag grows with the number of suites. `
      : 'The busiest second is the budget’s burst at the start (executes and history reads), then its refill. ') +
    (ours.every((x) => x.listRequests === 0)
      ? `No running-list request was sent: each suite is polled on its own. ${noListWhy()} `
      : '') +
    (failed.length
      ? `The official client (one account, no budget) sent up to ${Math.max(...theirs.map((x) => x.maxPerSecond))} requests in a second and ${n1(Math.max(...theirs.map((x) => x.meanPerSecond)))}/s on average: the account's limit answered 429 and ${failed.map((x) => x.failed).join(' and ')} of its ${n} calls failed (it does not retry).`
      : `The official client sent up to ${Math.max(...theirs.map((x) => x.maxPerSecond))} requests in a second.`)
  );
}

function scaleNote(results: Results): string | null {
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
  const pages = data.kindsAfterLastFinish?.page ?? 0;
  const lists = data.kindsAfterLastFinish?.['results list'] ?? 0;
  return (
    `**2,000 results after the last finish** (${data.name}: ${data.testResults / 20} suite results of 20 tests, finishing within about a second). ${s(data.afterLastFinishMs)} from the last finish to the reports; ${data.requestsAfterLastFinish} requests after it (${kinds(data.kindsAfterLastFinish)}); the service answered each in ${Math.round(answer.p50)} ms (median), ${Math.round(answer.max)} ms at most. ` +
    (t.length
      ? `First ${burst} requests back to back within ${t[burst - 1]?.atMs ?? 0} ms (${byKindIn(t.slice(0, burst))}: the budget's burst of ${BURST}), then ${slow.length} at the budget's refill rate, one every ${Math.round(spread(gaps.slice(burst - 1)).p50)} ms (${byKindIn(slow)}) until ${s(slow.at(-1)?.atMs ?? NaN)}. `
      : '') +
    (pages && lists
      ? readOrder(pages, lists, data.requestsAfterLastFinish)
      : 'Rendering and writing the reports is not the cost (bench/report.bench.ts); the requests after the last finish are. ') +
    'Reading them during the run (rows finishing spread out, e.g. `max-concurrent-data-rows`) would leave less for the end.'
  );
}

/**
 * Where the 2,000 results' reads go, when the figures show a single suite result's page and the tests'
 * results lists after the last finish (src/run/read.ts, src/run/read-plan.ts).
 */
function readOrder(pages: number, lists: number, all: number): string {
  const floor = Math.max(0, all - BURST) / RATE;
  return (
    `src/run/read.ts reads the group by test, page by page of the 20 tests' results lists as the rows on each page are over (src/run/read-plan.ts): ${pages} suite result read alone (the first, to learn the suite's tests) and ${lists} results-list requests (2 pages of each test's list for 100 rows, the group's polls included) after the last finish. ` +
    `When the first rows seen over are seen at about the last finish, every page is read after it: ${all} requests from a bucket of at most ${BURST} take at least ${n1(floor)} s at ${RATE}/s, whatever the order. The budget's burst, not the reading, sets the time: a burst of 40 (the 40 pages at once) brings it near the detection lag. `
  );
}

function costNotes(results: Results, missed: Goal[]): string[] {
  const notes: string[] = [];
  if (missed.some((g) => g.goal.startsWith('Requests per run'))) {
    const ds = [...new Set(results.lag.map((x) => x.durationS))].filter((d) => d >= 20).sort((a, b) => a - b);
    const part = (client: string, d: number, kind: string) => {
      const xs = results.lag.filter((x) => x.client === client && x.durationS === d && x.kind === kind);
      return { req: mean(xs.map((x) => x.requests)), list: mean(xs.map((x) => x.listShare)) };
    };
    notes.push(
      `**Requests per run on runs of 20 s or more** (ours, of which running list / official): ${ds
        .map((d) =>
          (['test', 'suite'] as const)
            .map((k) => {
              const a = part('action', d, k);
              const o = part('official', d, k);
              return `${d} s ${k}s ${n1(a.req)}, ${n1(a.list)} / ${n1(o.req)}`;
            })
            .join('; '),
        )
        .join('; ')}. ` +
        'A single-test run alone in its process asks the running list about once a second for its whole duration (its running-list share grows with its length), where the official client polls every 5 s; suite runs that ask no list cost about as much as the official client.',
    );
  }
  if (missed.some((g) => g.goal.startsWith('Total request rate'))) {
    const xs = results.concurrency.filter((x) => x.client === 'action');
    notes.push(
      `**Steady-state rate** (from 2 s after the last trigger to the first finish): ${xs
        .map(
          (x) =>
            `${x.suites} suites ${x.history ? 'with' : 'without'} history ${Number.isFinite(x.steadyPerSecond) ? `${n1(x.steadyPerSecond)}/s` : 'none'}`,
        )
        .join('; ')}. ` +
        (xs.some((x) => x.steadyPerSecond >= 0.8 * RATE)
          ? `Where it is near the budget's ${RATE}/s, the suites' own polls (each suite polled on its own schedule: no running list, see above) want more than the budget gives, so the process runs at the budget's rate. `
          : '') +
        (xs.some((x) => !Number.isFinite(x.steadyPerSecond) || x.steadyPerSecond === null)
          ? `Where there is none, the triggers (an execute and a history read per suite, at ${RATE}/s after the burst of ${BURST}) were still going when the first suite finished: the goal cannot be met at that size for want of a steady state.`
          : ''),
    );
  }
  const shared = results.sharedAccount;
  if (shared && 'figure' in shared && missed.some((g) => g.goal.startsWith('10 action processes'))) {
    const f = shared.figure;
    notes.push(
      `**10 processes on one account.** ${f.requests} requests (${f.listRequests ?? 0} of them running list) from ${f.processes} processes of ${f.suites / f.processes} suites each; ${f.rateLimited} answers 429; ${n1(f.meanPerSecond)}/s on average from the first request to the last (${n1(f.answeredPerSecond ?? NaN)}/s answered), ${n1(f.steadyPerSecond ?? NaN)}/s in the steady state, at most ${f.maxPerSecond} in a second. ` +
        `Each process may send its burst of ${BURST} at once and ${RATE}/s after it: ten together start at up to ${10 * BURST} and may reach ${10 * RATE}/s, which the account's burst of 300 absorbs at first; the mean over the case includes those bursts (its triggers and reads at the end).`,
    );
  }
  return notes;
}

/** One paragraph per missed goal of issue 13. */
export function explainIssue13(results: Results, missed: Goal[]): string[] {
  noListTold = false;
  const notes: string[] = [];
  if (missed.some((g) => g.goal.includes('without an earlier result') && g.goal.startsWith('Lag')))
    notes.push(lagNote(results, false, 1000));
  if (missed.some((g) => g.goal.includes('with an earlier result') && g.goal.startsWith('Lag')))
    notes.push(lagNote(results, true, 500));
  if (missed.some((g) => g.goal.startsWith('An early failure')) && results.early.length)
    notes.push(earlyNote(results));
  for (const n of [...new Set(results.concurrency.map((x) => x.suites))].sort((a, b) => a - b)) {
    if (missed.some((g) => g.goal.startsWith(`${n} suites at once`))) notes.push(concurrencyNote(results, n));
  }
  if (missed.some((g) => g.goal.startsWith('2,000 results: reports'))) {
    const note = scaleNote(results);
    if (note) notes.push(note);
  }
  notes.push(...costNotes(results, missed));
  return notes;
}
