/**
 * Explanations of the missed goals of issue 13 for RESULTS.md, each built from the measured figures: where
 * the time or the requests went, which module and constant set each figure, the trade-off behind the miss,
 * and what would meet the goal at what cost. The cost goals are in explain-cost.ts.
 */
import { DEFAULT_RATE_LIMIT } from '../../emulator/limits.js';
import { DEFAULT_BURST as BURST, DEFAULT_RATE_PER_SECOND as RATE } from '../../src/run/budget.js';
import {
  HISTORY_MAX_KEYS,
  HOT_LEAD_MS,
  SAFETY_SPACING_MS,
  UNSEEN_AFTER_MS,
  WATCH_COLD_MS,
  WATCH_HOT_MS,
} from '../../src/run/watch-plan.js';
import { QUICK, type LagSample } from './cases.js';
import type { ConcurrencyFigure } from './concurrency.js';
import type { EarlyFigure } from './early.js';
import { costNotes, kinds } from './explain-cost.js';
import { n1, s, type Goal } from './goals.js';
import type { Results } from './render.js';
import { spread } from './stats.js';

const mean = (xs: number[]) => spread(xs).mean;
/** A time that was measured (NaN is written as null in the raw figures). */
const noticedIn = (x: EarlyFigure, ms: number) =>
  typeof x.noticedMs === 'number' && Number.isFinite(x.noticedMs) && x.noticedMs <= ms;
const inParens = (text: string) => (text ? ` (${text})` : '');
const p95 = (xs: LagSample[]) => spread(xs.map((x) => x.lagMs)).p95;
/** A look every `periodMs` finds a finish after this long at p95, ms. */
const p95Wait = (periodMs: number) => 0.95 * periodMs;
/** How the lone mode watches a run: the sentence both lag notes and the early note share. */
const LONE =
  'Each lag process waits for one run, so it watches it in lone mode (src/run/running-list.ts): the watch request is the run’s own poll and the running list is not asked';

/** The lag's figures: p95 by kind, its two parts, the slowest runs. */
function lagFigures(xs: LagSample[]): string {
  const suites = xs.filter((x) => x.kind === 'suite');
  const tests = xs.filter((x) => x.kind === 'test');
  const slowest = [...xs].sort((a, b) => b.lagMs - a.lagMs).slice(0, 3);
  const poll = spread(xs.map((x) => x.pollDelayMs));
  const tail = spread(xs.map((x) => x.afterLastAnswerMs));
  return (
    `Ours p95: suites ${s(p95(suites))} (${suites.length} runs), single tests ${s(p95(tests))} (${tests.length} runs). ` +
    `The lag has two parts: from the finish to the first request naming the run after it (p50 ${s(poll.p50)}, p95 ${s(poll.p95)}), and the process's own work after its last answer (result pages, reports: p50 ${s(tail.p50)}, p95 ${s(tail.p95)}). ` +
    `Slowest: ${slowest.map((x) => `${s(x.lagMs)} (${x.durationS} s ${x.kind}: wait ${s(x.pollDelayMs)}, own work ${s(x.afterLastAnswerMs)})`).join('; ')}. `
  );
}

function lagNote(results: Results, h: boolean, limit: number): string {
  const xs = results.lag.filter((x) => x.client === 'action' && x.history === h);
  const list = mean(xs.map((x) => x.listShare));
  const head = `**Lag ${h ? 'with' : 'without'} an earlier result** (goal ${s(limit)}). ${lagFigures(xs)}${LONE} (${n1(list)} list requests per run). `;
  if (!h) {
    const faster = 0.8 * limit;
    return (
      head +
      `Without history the run is hot all along: one look every \`WATCH_HOT_MS\` = ${s(WATCH_HOT_MS)} (src/run/watch-plan.ts), a finish waits at p95 ${s(p95Wait(WATCH_HOT_MS))}, and the reads after it (a suite's page) come on top: the goal is met by tens of milliseconds, so a busy machine (load average in the header) tips it over. ` +
      `**What would meet it with room:** a hot period of ${s(faster)}, at ${Math.round((WATCH_HOT_MS / faster - 1) * 100)} % more watch requests.`
    );
  }
  const over = xs.filter((x) => x.pollDelayMs > WATCH_HOT_MS).length;
  const run = 20_000;
  return (
    head +
    `Its period (src/run/watch-plan.ts \`watchPeriodMs\`) is \`WATCH_HOT_MS\` = ${s(WATCH_HOT_MS)} while the run is in its expected window (from \`HOT_LEAD_MS\` = ${s(HOT_LEAD_MS)} before the low edge to the high edge; the window runs from the fastest earlier duration + 0.25 s to 1.1 × the slowest + 1 s, src/run/schedule.ts \`expectedWindow\`) and \`WATCH_COLD_MS\` = ${s(WATCH_COLD_MS)} before or after it, with one poll of its own at the low edge. ` +
    `A finish waits for the next look, at p95 about ${s(p95Wait(WATCH_HOT_MS))} in the window and ${s(p95Wait(WATCH_COLD_MS))} outside it; a look every ${s(WATCH_HOT_MS)} finds a finish within ${s(limit)} only half the time (a p95 of ${s(limit)} needs a look every ${s(limit / 0.95)}), and only the expected-finish poll, placed for a run of steady duration, does better. With ±30 % jitter many runs end away from it: ${over} of ${xs.length} runs waited more than one hot period, which only the cold period (or a busy machine) allows. ` +
    `**Trade-off:** the periods are set by the other goals at one request per look: ${s(WATCH_HOT_MS)} for the lag without history, ${s(WATCH_COLD_MS)} for the early-notice bound. ` +
    `**What would meet it:** a ${s(limit)} period in the window meets it for the runs that end in their window, at about ${n1(WATCH_HOT_MS / limit)}× the watch requests there; a run faster than every earlier result (with k of them, one run in k + 1) ends before its window and is seen by the cold period, so a p95 ≤ ${s(limit)} for every run needs a ${s(limit)} period throughout: a lone ${run / 1000} s run would send ${Math.round(run / limit)} polls instead of ${Math.round(run / WATCH_COLD_MS)}–${Math.round(run / WATCH_HOT_MS)} (the official client: ${run / 5000}).`
  );
}

function earlyNote(results: Results): string {
  const ours = results.early.filter((x) => x.client === 'action');
  const describe = (x: EarlyFigure) =>
    `${x.case} of a ${x.kind} (history ${x.historyS >= 120 ? `${x.historyS / 60} min` : `${x.historyS} s`}): ${noticedIn(x, Infinity) ? s(x.noticedMs) : 'not noticed'}; its requests: ${x.kinds ? kinds(x.kinds) : n1(x.requests)}`;
  const shorter = 1200;
  return (
    `**Early failure and outside cancel.** Missed: ${ours
      .filter((x) => !noticedIn(x, 1500))
      .map(describe)
      .join('; ')}. Met: ${
      ours
        .filter((x) => noticedIn(x, 1500))
        .map(describe)
        .join('; ') || 'none'
    }. ` +
    `${LONE.replace('Each lag process waits', 'Each process here waits')}; whatever the history says it looks at least every \`WATCH_COLD_MS\` = ${s(WATCH_COLD_MS)} (src/run/watch-plan.ts), so a finish is seen within ${s(WATCH_COLD_MS)} plus the request and the reads after it: a time above 1.5 s is a busy machine (load average in the header) or a slow read. ` +
    `**What would meet it with room:** a cold period of ${s(shorter)}, at ${Math.round((WATCH_COLD_MS / shorter - 1) * 100)} % more watch requests before a run's window. ` +
    'The official client noticed the early failures at its next 5 s poll, and never the cancels (it waits for `passing`, which stays null on a cancelled result).'
  );
}

/** The requests of a round of suites by what they are for, per the watch's rules. */
function roundParts(x: ConcurrencyFigure, n: number) {
  const spanS = x.requests / x.meanPerSecond;
  const fixed = (x.kinds.execute ?? 0) + (x.kinds.page ?? 0) + Math.min(n, x.kinds.poll ?? 0);
  const other = Math.max(0, (x.kinds.poll ?? 0) - n);
  return { spanS, fixed, other, list: x.kinds['running list'] ?? 0, history: x.kinds['results list'] ?? 0 };
}

function concurrencyWhy(ours: ConcurrencyFigure[], n: number, lagMissed: boolean, meanMissed: boolean) {
  const d = ours[0]?.durationS ?? QUICK.concurrencyDurationS;
  const parts = ours.map((x) => roundParts(x, n));
  const span = mean(parts.map((p) => p.spanS));
  const fixed = mean(parts.map((p) => p.fixed));
  const other = mean(parts.map((p) => p.other));
  const list = mean(parts.map((p) => p.list));
  const atRate = ours.filter((x) => x.meanPerSecond >= 0.8 * RATE).length;
  const triggersS = Math.max(0, n - BURST) / RATE;
  const finishSpreadS = triggersS + 0.6 * d;
  const readsPerS = (2 * n) / finishSpreadS;
  const need = readsPerS + 1000 / WATCH_HOT_MS + 1000 / SAFETY_SPACING_MS;
  const out: string[] = [
    `Per round: ${n1(fixed)} requests tied to the suites (an execute, the read of its result when it leaves the running list, its page of tests: 3 per suite), ${n1(list)} running-list requests (one per watch period, src/run/watch-plan.ts), ${n1(other)} other own reads (safety polls, one stream of at most one per \`SAFETY_SPACING_MS\` = ${s(SAFETY_SPACING_MS)}; reads of runs the list had not shown \`UNSEEN_AFTER_MS\` = ${s(UNSEEN_AFTER_MS)} after their trigger; the one organization read, src/run/organization.ts)` +
      (n > HISTORY_MAX_KEYS && !parts.some((p) => p.history)
        ? `, no history read (more than \`HISTORY_MAX_KEYS\` = ${HISTORY_MAX_KEYS} suites: every run is new to the watch, which stays hot)`
        : '') +
      `, in ${n1(span)} s.`,
  ];
  if (atRate)
    out.push(
      `In ${atRate} of ${ours.length} rounds the process sent at the budget's rate from start to end (\`DEFAULT_BURST\` = ${BURST}, then \`DEFAULT_RATE_PER_SECOND\` = ${RATE}/s, src/run/budget.ts): the ${n} executes alone take ${n1(triggersS)} s, and the budget grants in arrival order, so a suite's reads wait behind the others'.`,
    );
  if (lagMissed)
    out.push(
      `**Lag, trade-off:** each finish needs two reads (its result, its page): ${2 * n} reads at ${RATE}/s take ${n1((2 * n) / RATE)} s, while the finishes are spread over about ${n1(finishSpreadS)} s (the ${n1(triggersS)} s of triggers and the ±30 % of ${d} s), so keeping up needs about ${n1(readsPerS)}/s for the reads plus the watch. ` +
        `**What would meet it:** a refill (\`DEFAULT_RATE_PER_SECOND\`) of about ${n1(need)}/s, ${Math.round((100 * need) / DEFAULT_RATE_LIMIT.perSecond)} % of the account's ${DEFAULT_RATE_LIMIT.perSecond}/s (emulator/limits.ts \`DEFAULT_RATE_LIMIT\`, the service's), which would leave ${need >= DEFAULT_RATE_LIMIT.perSecond ? 'nothing' : 'little'} to a second process on the account; or one read per finished suite instead of two; no watch period changes it.`,
    );
  if (meanMissed) {
    const watchAllowed = 3 * span - fixed - other;
    out.push(
      `**Average, trade-off:** the goal is an average over the case, and the 3 requests per suite alone make ${n1(fixed / span)}/s of it over ${n1(span)} s. ` +
        (atRate
          ? `At this size the process is bound by the budget: even those ${n1(fixed)} need ${n1(Math.max(0, fixed - BURST) / RATE)} s, so its average is the budget's rate, not the watch's. **What would meet it:** a refill below 3/s (\`DEFAULT_RATE_PER_SECOND\`), which lengthens such a case and its lag in proportion.`
          : watchAllowed > 0
            ? `**What would meet it:** a watch of at most ${n1(watchAllowed)} requests over the case, a period of about ${n1(span / watchAllowed)} s, which gives up the lag goal without history (\`WATCH_HOT_MS\` = ${s(WATCH_HOT_MS)}) and the early-notice bound (\`WATCH_COLD_MS\` = ${s(WATCH_COLD_MS)}); or longer runs: the same requests with runs of 45 s ±30 % would average about ${n1((fixed + ((list + other) / span) * (span + 1.3 * (45 - d))) / (span + 1.3 * (45 - d)))}/s. The watch's own rate is the steady-state goal (met below 2/s).`
            : 'It cannot be met at this run length even without a watch.'),
    );
  }
  return out.join(' ');
}

function concurrencyNote(results: Results, n: number, goal: Goal): string {
  const ours = results.concurrency.filter((x) => x.client === 'action' && x.suites === n);
  const theirs = results.concurrency.filter((x) => x.client === 'official' && x.suites === n);
  const rounds = ours
    .map((x) => {
      const l = spread(x.lagsMs);
      return `${x.history ? 'with' : 'without'} history: ${x.requests} requests${inParens(kinds(x.kinds))}, ${n1(x.meanPerSecond)}/s, at most ${x.maxPerSecond} in a second; lag p50 ${s(l.p50)}, p95 ${s(l.p95)}`;
    })
    .join('; ');
  const failed = theirs.filter((x) => x.failed);
  const d = ours[0]?.durationS ?? QUICK.concurrencyDurationS;
  return (
    `**${n} suites at once** (3 tests, ${d} s ±30 %; missed: ${goal.by}). Ours, ${rounds}. ` +
    `Several runs in one process are watched by the organization's running list (src/run/running-list.ts); the suites' execute answers name no organization, so it is learnt by one suite read (src/run/organization.ts). ` +
    `${concurrencyWhy(ours, n, goal.by.includes('lag'), goal.by.includes('on average'))} ` +
    (failed.length
      ? `The official client (one account, no budget) sent up to ${Math.max(...theirs.map((x) => x.maxPerSecond))} requests in a second and ${n1(Math.max(...theirs.map((x) => x.meanPerSecond)))}/s on average: the account's limit answered 429 and ${failed.map((x) => x.failed).join(' and ')} of its ${n} calls failed (it does not retry).`
      : `The official client sent up to ${Math.max(...theirs.map((x) => x.maxPerSecond))} requests in a second.`)
  );
}

/**
 * One paragraph per goal of issue 13 that is missed, or met with a reservation (`by` set on a met goal, e.g.
 * the steady-state rate where a size had no steady state to measure).
 */
export function explainIssue13(results: Results, notable: Goal[]): string[] {
  const notes: string[] = [];
  const find = (prefix: string) => notable.find((g) => g.goal.startsWith(prefix));
  const lag = (h: boolean) =>
    notable.some(
      (g) => g.goal.startsWith('Lag') && g.goal.endsWith(`${h ? ' with' : ' without'} an earlier result`),
    );
  if (lag(false)) notes.push(lagNote(results, false, 1000));
  if (lag(true)) notes.push(lagNote(results, true, 500));
  if (find('An early failure') && results.early.length) notes.push(earlyNote(results));
  for (const n of [...new Set(results.concurrency.map((x) => x.suites))].sort((a, b) => a - b)) {
    const goal = find(`${n} suites at once`);
    if (goal && !goal.met) notes.push(concurrencyNote(results, n, goal));
  }
  notes.push(...costNotes(results, notable));
  return notes;
}
