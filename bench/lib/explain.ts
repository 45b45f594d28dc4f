/**
 * Explanations of missed goals for RESULTS.md, each built from the measured figures: where the time or the
 * requests went, so a reader sees whether the polling plan, the process or the machine is the cause.
 */
import { explainIssue13 } from './explain-issue13.js';
import { goals } from './goals.js';
import type { Results } from './render.js';
import { spread } from './stats.js';

import { DEFAULT_BURST as BURST, DEFAULT_RATE_PER_SECOND as RATE } from '../../src/run/budget.js';

/** Least time the action's budget (a token bucket: `BURST` at once, then `RATE` per second) needs for `n` requests, ms. */
const budgetMs = (n: number) => (Math.max(0, n - BURST) / RATE) * 1000;

const s = (ms: number) => (Number.isFinite(ms) ? `${(ms / 1000).toFixed(2)} s` : '–');

/** One paragraph per missed goal; empty when every goal is met. */
export function explain(results: Results): string[] {
  const notes: string[] = [];
  const missed = goals(results).filter((g) => !g.met);

  // Goals met with a reservation (e.g. not measurable at one size) get their note too.
  notes.push(
    ...explainIssue13(
      results,
      goals(results).filter((g) => !g.met || g.by),
    ),
  );
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
  const data = results.scale.find((x) => x.client === 'action' && x.name.startsWith('data file'));
  const memory = missed.find((g) => g.goal.includes('peak memory'));
  if (memory && data) {
    notes.push(
      `**Memory.** Peak RSS ${data.peakRssMb?.toFixed(0)} MB for ${data.testResults} results (VmHWM of the action process).`,
    );
  }
  return notes;
}
