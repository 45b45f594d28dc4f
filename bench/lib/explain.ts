/**
 * Explanations of missed goals for RESULTS.md, each built from the measured figures: where the time or the
 * requests went, so a reader sees whether the polling plan, the process or the machine is the cause.
 */
import type { LagSample } from './cases.js';
import { goals, type Results } from './render.js';
import { spread } from './stats.js';

import { DEFAULT_BURST as BURST, DEFAULT_RATE_PER_SECOND as RATE } from '../../src/run/budget.js';

/** Least time the action's budget (a token bucket: `BURST` at once, then `RATE` per second) needs for `n` requests, ms. */
const budgetMs = (n: number) => (Math.max(0, n - BURST) / RATE) * 1000;

const s = (ms: number) => (Number.isFinite(ms) ? `${(ms / 1000).toFixed(2)} s` : '–');
const n1 = (x: number) => (Number.isFinite(x) ? x.toFixed(1) : '–');

function byDuration(samples: LagSample[], f: (xs: LagSample[]) => string): string {
  const ds = [...new Set(samples.map((x) => x.durationS))].sort((a, b) => a - b);
  return ds.map((d) => `${d} s: ${f(samples.filter((x) => x.durationS === d))}`).join(', ');
}

/** One paragraph per missed goal; empty when every goal is met. */
export function explain(results: Results): string[] {
  const notes: string[] = [];
  const missed = goals(results).filter((g) => !g.met);
  const ours = results.lag.filter((x) => x.client === 'action');
  const theirs = results.lag.filter((x) => x.client === 'official');
  const p95 = (xs: LagSample[]) => s(spread(xs.map((x) => x.lagMs)).p95);

  if (missed.some((g) => g.goal.startsWith('Lag') && g.by.includes('lag p95'))) {
    for (const h of [true, false]) {
      const xs = ours.filter((x) => x.history === h);
      if (!xs.length || spread(xs.map((x) => x.lagMs)).p95 <= 1000) continue;
      const poll = spread(xs.map((x) => x.pollDelayMs));
      const tail = spread(xs.map((x) => x.afterLastAnswerMs));
      const slowest = [...xs].sort((a, b) => b.lagMs - a.lagMs).slice(0, 3);
      notes.push(
        `**Lag ${h ? 'with' : 'without'} an earlier result.** Our p95 by run duration: ${byDuration(xs, p95)}. ` +
          `The lag has two parts: waiting for the next poll after the finish (p50 ${s(poll.p50)}, p95 ${s(poll.p95)}), ` +
          `and the process's own work after its last answer (result pages read, reports rendered and written: p50 ${s(tail.p50)}, p95 ${s(tail.p95)}). ` +
          `Slowest runs: ${slowest.map((x) => `${s(x.lagMs)} (${x.durationS} s ${x.kind}: poll wait ${s(x.pollDelayMs)}, own work ${s(x.afterLastAnswerMs)})`).join('; ')}. ` +
          (h
            ? 'With an earlier result the action polls densely inside the window where it expects the finish (src/run/schedule.ts); runs above 1 s are ones whose poll wait or end work was stretched (a run outside its expected window, or the busy machine: load average in the header).'
            : "Without an earlier result the action polls 2 s after the trigger, then at intervals growing ×1.3 up to 5 s (src/run/schedule.ts), so after a run longer than about 10 s a finish waits up to 5 s for the next poll: the lag grows with run duration up to the official client's 5 s spacing. That is the price of sending no more requests than a fixed 5 s poll; the plan meets the goal from the second run of a suite or test on."),
      );
    }
  }
  if (missed.some((g) => g.goal.startsWith('Lag') && g.by.includes('more requests'))) {
    const req = (xs: LagSample[]) => n1(spread(xs.map((x) => x.requests)).mean);
    const pair = (xs: LagSample[], ys: LagSample[]) => `${req(xs)} vs ${req(ys)}`;
    const ds = [...new Set(ours.map((x) => x.durationS))].sort((a, b) => a - b);
    notes.push(
      `**Requests per run** (ours vs official, by run duration): ${ds
        .map(
          (d) =>
            `${d} s: ${pair(
              ours.filter((x) => x.durationS === d),
              theirs.filter((x) => x.durationS === d),
            )}`,
        )
        .join('; ')}. ` +
        'Ours spends one request per run reading the last 5 results of the suite or test (to learn the expected duration), ' +
        'and polls densely inside the window where it expects the finish (without an earlier result: from 2 s on, intervals growing to 5 s); the official client sleeps 5 s before each poll, so a run shorter than 5 s costs it a single poll ' +
        'and it needs fewer requests on short runs, at the cost of up to 5 s lag. On long runs the balance turns: its polls every 5 s add up, while ours wait until the expected finish.',
    );
  }
  const startup = missed.find((g) => g.goal.startsWith('Start-up'));
  if (startup) {
    const bare = spread(results.bareNodeStartupMs);
    const st = spread(results.startupMs);
    notes.push(
      `**Start-up.** The action took a median ${Math.round(st.p50)} ms from process start to its first request; a bare Node process that sends one request took a median ${Math.round(bare.p50)} ms on the same machine, ` +
        (st.p50 > bare.p50
          ? `so about ${Math.round(st.p50 - bare.p50)} ms are the action's own (loading and evaluating the bundle, reading inputs). `
          : 'so at the time of this run the machine, not the action, set the pace. ') +
        `The machine was busy (load average ${results.machine.loadStart.map((x) => x.toFixed(1)).join(' ')} on ${results.machine.cores} cores at the start), which stretches both.`,
    );
  }
  for (const h of [false, true]) {
    const xs = results.overhead.filter((x) => x.client === 'action' && x.history === h && x.parts);
    if (!xs.length || spread(xs.map((x) => x.overheadMs)).p50 < 1500) continue;
    const p = (f: (x: (typeof xs)[number]) => number) => s(spread(xs.map(f)).p50);
    notes.push(
      `**Overhead ${h ? 'with' : 'without'} an earlier result** (median ${p((x) => x.overheadMs)}): process start to the run created ${p((x) => x.parts!.toTriggerMs)}, ` +
        `finish to results.json ${p((x) => x.parts!.lagMs)} (the detection lag), results.json to exit ${p((x) => x.parts!.toExitMs)}. ` +
        (h
          ? 'Start-up and the detection lag make up the overhead.'
          : 'Almost all of it is the detection lag of a first run (see the lag note above); start-up and the end of the process are small.'),
    );
  }
  const thousand = results.scale.filter((x) => !x.name.startsWith('data file'));
  const tOurs = thousand.find((x) => x.client === 'action');
  const tTheirs = thousand.find((x) => x.client === 'official');
  if (tOurs && tTheirs && tOurs.afterLastFinishMs > tTheirs.afterLastFinishMs + 500) {
    notes.push(
      `**${tOurs.name}** (not a goal, measured): ours knew ${s(tOurs.afterLastFinishMs)} after the last finish, the official client ${s(tTheirs.afterLastFinishMs)}. ` +
        `Ours first asked ${s(tOurs.pollDelayMs)} after the finish (a first run of the suite: no earlier result), the official client ${s(tTheirs.pollDelayMs)} after it. ` +
        `After the finish ours sent ${tOurs.requestsAfterLastFinish} requests (${tOurs.pagesAfterLastFinish} result pages of 50) under its budget (${BURST} at once, then ${RATE}/s), at least ${s(budgetMs(tOurs.requestsAfterLastFinish))}; ` +
        `the official client reads its ${tTheirs.pagesAfterLastFinish} pages back to back without a budget.`,
    );
  }
  const reports = missed.find((g) => g.goal.includes('reports written'));
  const data = results.scale.find((x) => x.client === 'action' && x.name.startsWith('data file'));
  if (reports && data) {
    notes.push(
      `**${data.testResults.toLocaleString('en')} results after the last finish.** The ${data.name} execute makes ${data.testResults / 20} suite results of 20 tests. They are polled together through the suite's results list (50 a request) and each suite result's test results are read as soon as it is over; when many are over at once, through the 20 tests' own results lists (50 test results a request). ` +
        `In the emulator all ${data.testResults / 20} rows run at once and finish within about a second, so their ${data.testResults.toLocaleString('en')} test results can only be read after the last finish: at least ${Math.ceil(data.testResults / 50)} requests of 50, ${s(budgetMs(Math.ceil(data.testResults / 50)))} under the budget of ${BURST} at once, then ${RATE} requests/s (src/run/budget.ts). ` +
        `Measured: ${data.requestsAfterLastFinish} requests after the last finish. Rendering and writing the reports is not the cost (see the 1,000-test suite row, and bench/report.bench.ts). ` +
        'The 2 s goal is reachable only when the suite results finish spread out (e.g. `max-concurrent-data-rows`), so their pages are read during the run.',
    );
  }
  const memory = missed.find((g) => g.goal.includes('peak memory'));
  if (memory && data) {
    notes.push(
      `**Memory.** Peak RSS ${data.peakRssMb?.toFixed(0)} MB for ${data.testResults} results (VmHWM of the action process).`,
    );
  }
  const conc = missed.find((g) => g.goal.includes('concurrent'));
  const concOurs = results.concurrency.filter((x) => x.client === 'action');
  if (conc && concOurs.length) {
    const worst = concOurs.reduce((a, b) => (b.maxPerSecond > a.maxPerSecond ? b : a));
    const kinds = new Map<string, number>();
    for (const q of worst.busiest) kinds.set(q.what, (kinds.get(q.what) ?? 0) + 1);
    const atMs = worst.busiest.map((q) => q.atMs);
    const slow = Math.max(...worst.busiest.map((q) => q.answerMs));
    notes.push(
      `**Rate with ${worst.suites} suites at once.** The action's budget lets at most ${BURST} requests go at once, then ${RATE} per second (a token bucket, src/run/budget.ts), ` +
        `but the service saw ${worst.maxPerSecond} arrive within one second (round ${worst.history ? 'with' : 'without'} earlier results: ` +
        `${[...kinds].map(([k, n]) => `${n} ${k}${n > 1 ? 's' : ''}`).join(', ')}; at ${atMs.map((x) => `+${x}`).join(', ')} ms; slowest answer ${slow} ms). ` +
        'Calls granted earlier but sent late (the process or the machine busy: the load average was high) arrive bunched with the ones granted on time, and the service counts arrivals. ' +
        'Network and server delays can still bunch arrivals.',
    );
  }
  if (concOurs.length) {
    const lagMax = Math.max(...concOurs.flatMap((x) => x.lagsMs));
    if (lagMax > 1000) {
      notes.push(
        `**Lag with ${concOurs[0]?.suites} suites at once** (not a goal, measured): ours up to ${s(lagMax)} after the last finish. ` +
          `${concOurs[0]?.suites} suites share the one budget of ${RATE} requests/s (after its burst of ${BURST}), so each suite gets a poll about every ${n1((concOurs[0]?.suites ?? 0) / RATE)} s however short its expected window, ` +
          "and the results file waits for the last suite's poll and result pages. The official client has no shared budget: its 20 calls poll on their own every 5 s, at up to " +
          `${Math.max(...results.concurrency.filter((x) => x.client === 'official').map((x) => x.maxPerSecond))} requests in a second, above the account's 10/s limit.`,
      );
    }
  }
  return notes;
}
