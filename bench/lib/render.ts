/**
 * Turns the measured figures into bench/RESULTS.md (tables, goals met or missed and by how much) and the
 * Performance block of docs/performance.md.
 */
import type { ConcurrencyFigure, LagSample, OverheadSample, ScaleFigure } from './cases.js';
import type { SharedAccountResult } from './shared-account.js';
import { spread, type Spread } from './stats.js';
import { DEFAULT_BURST, DEFAULT_RATE_PER_SECOND } from '../../src/run/budget.js';

/** The most requests the action's budget lets go in any 1 s: its burst, then its refill over that second. */
const BUDGET_PEAK = DEFAULT_BURST + DEFAULT_RATE_PER_SECOND;

export interface Machine {
  cores: number;
  cpuModel: string;
  memoryGb: number;
  node: string;
  os: string;
  loadStart: number[];
  loadEnd: number[];
}

export interface Results {
  mode: 'quick' | 'full';
  date: string;
  benchSeconds: number;
  machine: Machine;
  /** Which bundle of the action was measured (no machine paths). */
  action: string;
  officialVersion: string;
  lag: LagSample[];
  startupMs: number[];
  /** A bare `node -e "fetch(...)"`: process start to its request, ms. */
  bareNodeStartupMs: number[];
  overhead: OverheadSample[];
  scale: ScaleFigure[];
  concurrency: ConcurrencyFigure[];
  /** Several action processes on one account, or why that case did not run (absent in older results). */
  sharedAccount?: SharedAccountResult;
  failures: string[];
  /** Requests of the log that no case claimed (should be 0). */
  stray: string[];
}

export interface Goal {
  goal: string;
  measured: string;
  met: boolean;
  /** How far off, when missed. */
  by: string;
  why?: string;
}

const s = (ms: number) => (Number.isFinite(ms) ? `${(ms / 1000).toFixed(2)} s` : '–');
const n1 = (x: number) => (Number.isFinite(x) ? x.toFixed(1) : '–');
const ratio = (a: number, b: number) => (Number.isFinite(a / b) && b !== 0 ? `${(a / b).toFixed(2)}×` : '–');

function lagOf(samples: LagSample[]): { lag: Spread; req: Spread } {
  return { lag: spread(samples.map((x) => x.lagMs)), req: spread(samples.map((x) => x.requests)) };
}

function lagTable(results: Results, history: boolean): string[] {
  const rows: string[] = [
    '| Runs | n ours / official | Lag p50 ours / official | Lag p95 ours / official | Lag max ours / official | Requests per run ours / official | Lag p95 official ÷ ours | Requests ours ÷ official |',
    '|---|---|---|---|---|---|---|---|',
  ];
  const sel = results.lag.filter((x) => x.history === history);
  const groups: Array<[string, (x: LagSample) => boolean]> = [
    ...[...new Set(sel.map((x) => x.durationS))]
      .sort((a, b) => a - b)
      .map((d): [string, (x: LagSample) => boolean] => [`${d} s ±30 % runs`, (x) => x.durationS === d]),
    ['suites, all durations', (x) => x.kind === 'suite'],
    ['single tests, all durations', (x) => x.kind === 'test'],
    ['**all**', () => true],
  ];
  for (const [label, pick] of groups) {
    const ours = lagOf(sel.filter((x) => x.client === 'action' && pick(x)));
    const theirs = lagOf(sel.filter((x) => x.client === 'official' && pick(x)));
    rows.push(
      `| ${label} | ${ours.lag.n} / ${theirs.lag.n} | ${s(ours.lag.p50)} / ${s(theirs.lag.p50)} | ${s(ours.lag.p95)} / ${s(theirs.lag.p95)} | ${s(ours.lag.max)} / ${s(theirs.lag.max)} | ${n1(ours.req.mean)} / ${n1(theirs.req.mean)} | ${ratio(theirs.lag.p95, ours.lag.p95)} | ${ratio(ours.req.mean, theirs.req.mean)} |`,
    );
  }
  return rows;
}

/** Goals of the issue, read against the figures. */
export function goals(results: Results): Goal[] {
  const out: Goal[] = [];
  const ours = (h?: boolean) =>
    results.lag.filter((x) => x.client === 'action' && (h === undefined || x.history === h));
  const theirs = (h?: boolean) =>
    results.lag.filter((x) => x.client === 'official' && (h === undefined || x.history === h));
  for (const [label, h] of [
    ['with an earlier result', true],
    ['without an earlier result', false],
    ['all runs', undefined],
  ] as Array<[string, boolean | undefined]>) {
    const a = lagOf(ours(h));
    const o = lagOf(theirs(h));
    const lagOk = a.lag.p95 <= 1000;
    const reqOk = a.req.mean <= o.req.mean;
    const misses = [
      lagOk ? '' : `lag p95 ${s(a.lag.p95 - 1000)} over 1 s`,
      reqOk ? '' : `${n1(a.req.mean - o.req.mean)} more requests per run (${ratio(a.req.mean, o.req.mean)})`,
    ].filter(Boolean);
    out.push({
      goal: `Lag p95 ≤ 1 s and requests per run ≤ official (${label})`,
      measured: `lag p95 ${s(a.lag.p95)} (official ${s(o.lag.p95)}); ${n1(a.req.mean)} requests per run (official ${n1(o.req.mean)})`,
      met: lagOk && reqOk,
      by: misses.join('; '),
    });
  }
  const st = spread(results.startupMs);
  const cold = results.startupMs[0] ?? NaN;
  const worst = Math.max(cold, st.p50);
  out.push({
    goal: 'Start-up to first request < 300 ms',
    measured: `cold ${Math.round(cold)} ms, median ${Math.round(st.p50)} ms, max ${Math.round(st.max)} ms (${st.n} runs)`,
    met: worst < 300,
    by: worst < 300 ? '' : `${Math.round(worst - 300)} ms over`,
  });
  for (const h of [true, false]) {
    const ovh = spread(
      results.overhead.filter((x) => x.client === 'action' && x.history === h).map((x) => x.overheadMs),
    );
    if (!ovh.n) continue;
    out.push({
      goal: `Overhead < 1.5 s (process wall time − run duration, 5-test suite, ${h ? 'with an earlier result' : 'first run, no earlier result'})`,
      measured: `median ${s(ovh.p50)}, max ${s(ovh.max)} (${ovh.n} run${ovh.n > 1 ? 's' : ''})`,
      met: ovh.p50 < 1500,
      by: ovh.p50 < 1500 ? '' : `${s(ovh.p50 - 1500)} over (median)`,
    });
  }
  const data = results.scale.find((x) => x.client === 'action' && x.name.startsWith('data file'));
  if (data) {
    const memOk = data.peakRssMb !== null && data.peakRssMb < 200;
    const timeOk = data.afterLastFinishMs < 2000;
    out.push({
      goal: `${data.testResults.toLocaleString('en')} results: peak memory < 200 MB`,
      measured: data.peakRssMb === null ? 'not measured' : `${data.peakRssMb.toFixed(0)} MB`,
      met: memOk,
      by: memOk || data.peakRssMb === null ? '' : `${(data.peakRssMb - 200).toFixed(0)} MB over`,
    });
    out.push({
      goal: `${data.testResults.toLocaleString('en')} results: reports written < 2 s after the last finish`,
      measured: `${s(data.afterLastFinishMs)} (${data.requestsAfterLastFinish} requests after the last finish)`,
      met: timeOk,
      by: timeOk ? '' : `${s(data.afterLastFinishMs - 2000)} over`,
    });
  }
  const conc = results.concurrency.filter((x) => x.client === 'action');
  if (conc.length) {
    const peak = Math.max(...conc.map((x) => x.maxPerSecond));
    out.push({
      goal: `${conc[0]?.suites} concurrent suites: never more than the budget (${BUDGET_PEAK} in any second: ${DEFAULT_BURST} at once, then ${DEFAULT_RATE_PER_SECOND}/s)`,
      measured: `at most ${peak} in any 1 s window`,
      met: peak <= BUDGET_PEAK,
      by: peak <= BUDGET_PEAK ? '' : `${peak - BUDGET_PEAK} over`,
    });
  }
  const shared = results.sharedAccount;
  if (shared && 'figure' in shared) {
    const f = shared.figure;
    const ok = f.failedProcesses === 0 && f.meanPerSecond <= 10;
    out.push({
      goal: `${f.processes} action processes on one account: none fails (429s retried), aggregate rate ≤ 10/s`,
      measured: `${f.failedProcesses} failed; ${f.rateLimited} answers 429; ${n1(f.meanPerSecond)} requests/s on average, at most ${f.maxPerSecond} in any 1 s`,
      met: ok,
      by: ok
        ? ''
        : [
            f.failedProcesses ? `${f.failedProcesses} failed` : '',
            f.meanPerSecond > 10 ? `${n1(f.meanPerSecond - 10)}/s over` : '',
          ]
            .filter(Boolean)
            .join('; '),
    });
  }
  return out;
}

/** The whole of bench/RESULTS.md. `notes` are the explanations of missed goals, one paragraph each. */
export function renderResults(results: Results, notes: string[]): string {
  const m = results.machine;
  const L: string[] = [];
  L.push('# Benchmark results', '');
  L.push(
    `Written by \`npm run ${results.mode === 'full' ? 'bench:full' : 'bench'}\` (${results.mode} mode) on ${results.date}; the run took ${Math.round(results.benchSeconds)} s.`,
    '',
  );
  L.push(
    `- Machine: ${m.cores} cores (${m.cpuModel}), ${m.memoryGb.toFixed(0)} GB memory, ${m.os}, Node ${m.node}; load average ${m.loadStart.map((x) => x.toFixed(2)).join(' ')} at start, ${m.loadEnd.map((x) => x.toFixed(2)).join(' ')} at the end.`,
    `- Our action: ${results.action}, run as a child process with \`INPUT_*\` variables like the runner does.`,
    `- Official client: npm \`ghost-inspector\` ${results.officialVersion} (executes with \`immediate\`, sleeps 5 s before every poll), in a worker process of its own.`,
    '- Service: the local emulator, simulated executor, real time (time scale 1), visuals disabled. Both clients at once on the same emulator, with separate API keys and suites; requests told apart by the suite, test or result they name.',
    "- Lag: from the emulator's finish record to the client knowing (ours: `ghost-inspector-results.json` written, by its mtime; official: its promise resolved).",
    '',
  );
  if (results.failures.length || results.stray.length) {
    L.push('**Problems during the run**', '');
    for (const f of results.failures) L.push(`- ${f.split('\n')[0]}`);
    if (results.stray.length)
      L.push(
        `- ${results.stray.length} requests no case accounted for, e.g. ${results.stray.slice(0, 3).join(', ')}`,
      );
    L.push('');
  }
  L.push('## Goals', '', '| Goal | Measured | Verdict |', '|---|---|---|');
  for (const g of goals(results))
    L.push(`| ${g.goal} | ${g.measured} | ${g.met ? 'met' : `**missed**: ${g.by}`} |`);
  L.push('');
  if (notes.length) {
    L.push('### Where a goal is missed, and why', '');
    for (const note of notes) L.push(note, '');
  }
  L.push('## Detection lag and requests', '');
  L.push(
    "Each round runs, per client, a suite of 3 tests and a single test that were run in the earlier rounds, and a suite and a test never run before, all at once; durations are per test, the row's nominal duration ±30 % (seeded, drawn afresh for each test and round, the same for both clients).",
    '',
  );
  L.push('### With an earlier result to learn from', '', ...lagTable(results, true), '');
  L.push('### Without an earlier result', '', ...lagTable(results, false), '');
  L.push('## Start-up and overhead', '');
  const st = spread(results.startupMs);
  L.push(
    `Start-up, process start to the first API request (\`wait: false\`, one run after another on a quiet emulator): ${results.startupMs.map((x) => `${Math.round(x)} ms`).join(', ')} (first is cold; median ${Math.round(st.p50)} ms). A bare Node process sending one request: ${results.bareNodeStartupMs.map((x) => `${Math.round(x)} ms`).join(', ')}.`,
    '',
    '| 5-test suite, 8 s runs | Client | Runs | Wall p50 | Run duration p50 | Overhead p50 | Overhead max | Overhead parts p50: start → run created / finish → results.json / → exit |',
    '|---|---|---|---|---|---|---|---|',
  );
  for (const h of [false, true]) {
    for (const c of ['action', 'official'] as const) {
      const xs = results.overhead.filter((x) => x.client === c && x.history === h);
      if (!xs.length) continue;
      const w = spread(xs.map((x) => x.wallMs));
      const r = spread(xs.map((x) => x.runMs));
      const o = spread(xs.map((x) => x.overheadMs));
      const part = (f: (p: NonNullable<OverheadSample['parts']>) => number) =>
        s(
          spread(xs.filter((x) => x.parts).map((x) => f(x.parts as NonNullable<OverheadSample['parts']>)))
            .p50,
        );
      const parts =
        c === 'action'
          ? `${part((p) => p.toTriggerMs)} / ${part((p) => p.lagMs)} / ${part((p) => p.toExitMs)}`
          : '–';
      L.push(
        `| ${h ? 'with' : 'without'} an earlier result | ${c === 'action' ? 'ours (whole process)' : 'official (call to resolve)'} | ${xs.length} | ${s(w.p50)} | ${s(r.p50)} | ${s(o.p50)} | ${s(o.max)} | ${parts} |`,
      );
    }
  }
  L.push('');
  L.push(
    '## Scale',
    '',
    '| Case | Client | Test results | Requests | Requests after the last finish | Last finish → reports written (ours) / resolved (official) | Peak RSS | Wall |',
    '|---|---|---|---|---|---|---|---|',
  );
  for (const x of results.scale) {
    L.push(
      `| ${x.name} | ${x.client === 'action' ? 'ours' : 'official'} | ${x.testResults.toLocaleString('en')} | ${x.requests} | ${x.requestsAfterLastFinish} | ${s(x.afterLastFinishMs)} | ${x.peakRssMb === null ? 'n/a (shared worker)' : `${x.peakRssMb.toFixed(0)} MB`} | ${s(x.wallMs)} |`,
    );
  }
  L.push(
    '',
    'The official client cannot wait for a data-file execute (it returns at once when `dataFile` is given), so it has no row for the data file.',
    '',
  );
  L.push(
    '## Concurrency',
    '',
    '| Suites at once | Client | Earlier result | Requests | Most requests in any 1 s | Lag p50 | Lag max |',
    '|---|---|---|---|---|---|---|',
  );
  for (const x of results.concurrency) {
    const l = spread(x.lagsMs);
    L.push(
      `| ${x.suites} | ${x.client === 'action' ? 'ours (one process)' : 'official (one client, 20 calls)'} | ${x.history ? 'yes' : 'no'} | ${x.requests} | ${x.maxPerSecond} | ${s(l.p50)} | ${s(l.max)} |`,
    );
  }
  L.push(
    '',
    "For our action all suites are known at once (one results file), so its lag is measured from each suite's finish to that file; the max is the lag after the last finish.",
    '',
  );
  const shared = results.sharedAccount;
  if (shared) {
    L.push('## Several action processes on one account', '');
    if ('skipped' in shared) {
      L.push(`Not measured: ${shared.skipped}.`, '');
    } else {
      const f = shared.figure;
      const l = spread(f.lagsMs);
      L.push(
        '| Processes | Suites | Failed processes | Requests | 429 answers | Requests/s, mean | Most in any 1 s | Lag p50 | Lag max |',
        '|---|---|---|---|---|---|---|---|---|',
        `| ${f.processes} | ${f.suites} | ${f.failedProcesses} | ${f.requests} | ${f.rateLimited} | ${n1(f.meanPerSecond)} | ${f.maxPerSecond} | ${s(l.p50)} | ${s(l.max)} |`,
        '',
        "Every process uses the same API key, with the emulator's rate limit on (the service allows a burst of 300 and 10 requests/s per account).",
        '',
      );
    }
  }
  return `${L.join('\n')}\n`;
}

/** The block of docs/performance.md (between the perf markers), quoting the figures. */
export function renderReadmeBlock(results: Results): string {
  const m = results.machine;
  const a = (h: boolean) => lagOf(results.lag.filter((x) => x.client === 'action' && x.history === h));
  const o = (h: boolean) => lagOf(results.lag.filter((x) => x.client === 'official' && x.history === h));
  const ovh = (h: boolean) =>
    spread(results.overhead.filter((x) => x.client === 'action' && x.history === h).map((x) => x.overheadMs));
  const st = spread(results.startupMs);
  const data = results.scale.find((x) => x.client === 'action' && x.name.startsWith('data file'));
  const big = results.scale.filter((x) => !x.name.startsWith('data file'));
  const conc = results.concurrency.filter((x) => x.client === 'action');
  const concO = results.concurrency.filter((x) => x.client === 'official');
  const L = [
    '# Performance',
    '',
    "The action learns a run's outcome soon after the service knows it, with few requests (accounts share a rate limit of 10 requests/s). `npm run bench` (about 4 minutes; `npm run bench:full` runs up to 3-minute runs) measures the bundled action side by side with the official Node client (`ghost-inspector`, which polls every 5 s) on the local emulator, and writes [bench/RESULTS.md](../bench/RESULTS.md).",
    '',
    `Latest figures (${results.mode} mode, ${results.date.slice(0, 10)}, ${m.cores} cores, Node ${m.node}):`,
    '',
    '| Measure | This action | Official client | Goal |',
    '|---|---|---|---|',
    `| Lag p95, with an earlier result | ${s(a(true).lag.p95)} | ${s(o(true).lag.p95)} | ≤ 1 s |`,
    `| Lag p95, without an earlier result | ${s(a(false).lag.p95)} | ${s(o(false).lag.p95)} | ≤ 1 s |`,
    `| Requests per run (with / without an earlier result) | ${n1(a(true).req.mean)} / ${n1(a(false).req.mean)} | ${n1(o(true).req.mean)} / ${n1(o(false).req.mean)} | ≤ official |`,
    `| Start-up to first request (cold / median) | ${Math.round(results.startupMs[0] ?? NaN)} ms / ${Math.round(st.p50)} ms | – | < 300 ms |`,
    `| Overhead, 5-test suite, median (with / without an earlier result) | ${s(ovh(true).p50)} / ${s(ovh(false).p50)} | – | < 1.5 s |`,
  ];
  for (const b of big) {
    const other = big.find((x) => x !== b && x.client !== b.client);
    if (b.client !== 'action') continue;
    L.push(
      `| ${b.name}: requests; last finish → known | ${b.requests}; ${s(b.afterLastFinishMs)} | ${other ? `${other.requests}; ${s(other.afterLastFinishMs)}` : '–'} | – |`,
    );
  }
  if (data) {
    L.push(
      `| ${data.testResults.toLocaleString('en')} results (data file): peak memory; last finish → reports | ${data.peakRssMb?.toFixed(0) ?? '–'} MB; ${s(data.afterLastFinishMs)} | n/a | < 200 MB; < 2 s |`,
    );
  }
  if (conc.length) {
    L.push(
      `| ${conc[0]?.suites} suites at once: most requests in any 1 s | ${Math.max(...conc.map((x) => x.maxPerSecond))} | ${concO.length ? Math.max(...concO.map((x) => x.maxPerSecond)) : '–'} | ≤ ${BUDGET_PEAK} |`,
    );
  }
  const missed = goals(results).filter((g) => !g.met);
  L.push('');
  if (missed.length) {
    L.push('Goals missed in this run (bench/RESULTS.md says by how much and why):', '');
    for (const g of missed) L.push(`- ${g.goal}: ${g.by}.`);
  } else {
    L.push('Every goal was met in this run.');
  }
  return L.join('\n');
}

const START = '<!-- perf:start -->';
const END = '<!-- perf:end -->';

/** Replaces the text between the perf markers of `readme`, or appends the markers and block at the end. */
export function withReadmeBlock(readme: string, block: string): string {
  const section = `${START}\n${block}\n${END}`;
  const a = readme.indexOf(START);
  const b = readme.indexOf(END);
  if (a >= 0 && b > a) return readme.slice(0, a) + section + readme.slice(b + END.length);
  return `${readme.replace(/\s*$/, '')}\n\n${section}\n`;
}
