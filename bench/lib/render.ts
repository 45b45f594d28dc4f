/**
 * Turns the measured figures into bench/RESULTS.md (tables, goals met or missed and by how much) and the
 * Performance block of docs/performance.md.
 */
import { QUICK, type LagSample, type OverheadSample, type ScaleFigure } from './cases.js';
import type { ConcurrencyFigure } from './concurrency.js';
import type { EarlyFigure } from './early.js';
import { BUDGET_PEAK, goals, n1, ratio, s } from './goals.js';
import type { SharedAccountResult } from './shared-account.js';
import { spread, type Spread } from './stats.js';

export { goals, type Goal } from './goals.js';

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
  /** Early failure and cancel in the app against a long history. */
  early: EarlyFigure[];
  /** Several action processes on one account, or why that case did not run (absent in older results). */
  sharedAccount?: SharedAccountResult;
  failures: string[];
  /** Requests of the log that no case claimed (should be 0). */
  stray: string[];
  /** A line quoted under the title (`--note`), e.g. what was measured and when it will be measured again. */
  note?: string;
}

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

/** The whole of bench/RESULTS.md. `notes` are the explanations of missed goals, one paragraph each. */
export function renderResults(results: Results, notes: string[]): string {
  const m = results.machine;
  const L: string[] = [];
  L.push('# Benchmark results', '');
  L.push(
    `Written by \`npm run ${results.mode === 'full' ? 'bench:full' : 'bench'}\` (${results.mode} mode) on ${results.date}; the run took ${Math.round(results.benchSeconds)} s.`,
    '',
  );
  if (results.note) L.push(`> ${results.note}`, '');
  L.push(
    `- Machine: ${m.cores} cores (${m.cpuModel}), ${m.memoryGb.toFixed(0)} GB memory, ${m.os}, Node ${m.node}; load average ${m.loadStart.map((x) => x.toFixed(2)).join(' ')} at start, ${m.loadEnd.map((x) => x.toFixed(2)).join(' ')} at the end.`,
    `- Our action: ${results.action}, run as a child process with \`INPUT_*\` variables like the runner does.`,
    `- Official client: npm \`ghost-inspector\` ${results.officialVersion} (executes with \`immediate\`, sleeps 5 s before every poll), in a worker process of its own.`,
    "- Service: the local emulator, simulated executor, real time (time scale 1), visuals disabled, **rate limit on as the service has it** (burst 300, then 10 requests/s per account; the emulator keys the bucket on the API key's user). Both clients at once on the same emulator, **each on accounts of its own** (user, organization and API key): every lag run of ours is a process on an account of its own, as one workflow's step; the official client's runs of a case share one account (its 5 s polls are light). Only the case about 10 processes on one account shares an account on purpose.",
    "- Requests are told apart by the suite, test or result they name. The organization running list (`GET /v1/organizations/{id}/running/`) names none: each such request is divided equally among our runs active in its organization at that moment (bench/lib/attribute.ts), and the shares are counted in those runs' requests. Every lag, early and concurrency process has its organization to itself, so there it is all of its own list requests; in the case of several processes on one account it is divided among all their runs active at each request.",
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
  const all = goals(results);
  const verdict = (g: (typeof all)[number]) =>
    g.met ? `met${g.by ? `: ${g.by}` : ''}` : `**missed**: ${g.by}`;
  L.push('## Goals of issue 13', '', '| Goal | Measured | Verdict |', '|---|---|---|');
  for (const g of all.filter((x) => x.issue13)) L.push(`| ${g.goal} | ${g.measured} | ${verdict(g)} |`);
  L.push('', '### Earlier goals, still measured', '', '| Goal | Measured | Verdict |', '|---|---|---|');
  for (const g of all.filter((x) => !x.issue13)) L.push(`| ${g.goal} | ${g.measured} | ${verdict(g)} |`);
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
  L.push(...concurrencySection(results), ...earlySection(results));
  const shared = results.sharedAccount;
  if (shared) {
    L.push('## Several action processes on one account', '');
    if ('skipped' in shared) {
      L.push(`Not measured: ${shared.skipped}.`, '');
    } else {
      const f = shared.figure;
      const l = spread(f.lagsMs);
      L.push(
        '| Processes | Suites | Failed processes | Requests (running list) | 429 answers | Requests/s, mean (answered) | Requests/s, steady state | Most in any 1 s | Lag p50 | Lag max |',
        '|---|---|---|---|---|---|---|---|---|---|',
        `| ${f.processes} | ${f.suites} | ${f.failedProcesses} | ${f.requests} (${f.listRequests ?? '–'}) | ${f.rateLimited} | ${n1(f.meanPerSecond)} (${n1(f.answeredPerSecond ?? NaN)}) | ${n1(f.steadyPerSecond ?? NaN)} | ${f.maxPerSecond} | ${s(l.p50)} | ${s(l.max)} |`,
        '',
        "Every process uses the same API key (account `shared`, which nothing else uses), with the emulator's rate limit on (the service allows a burst of 300 and 10 requests/s per account). Mean: from the case's first request to its last, 429s included; steady state: from 2 s after the last run was created to the first finish.",
        '',
      );
    }
  }
  return `${L.join('\n')}\n`;
}

function concurrencySection(results: Results): string[] {
  // Figures saved before the duration was recorded were all measured at the quick plan's 20 s.
  const durations = [...new Set(results.concurrency.map((x) => x.suites))]
    .map(
      (n) =>
        `${n} suites ${results.concurrency.find((x) => x.suites === n)?.durationS ?? QUICK.concurrencyDurationS} s ±30 %`,
    )
    .join(', ');
  const L = [
    '## Suites at once',
    '',
    `One process of ours for all suites (its own account), the official client one call per suite (its own account; each round on a user of its own, so it does not start with the bucket the previous round emptied). 3 tests a suite, ${durations}.`,
    '',
    '| Suites | Client | Earlier result | Requests (running list) | 429 | Failed | Requests/s mean | Requests/s steady | Most in any 1 s | Lag p50 | Lag p95 | Lag max | Last finish → results file / last call resolved |',
    '|---|---|---|---|---|---|---|---|---|---|---|---|---|',
  ];
  for (const x of results.concurrency) {
    const l = spread(x.lagsMs);
    L.push(
      `| ${x.suites} | ${x.client === 'action' ? 'ours (one process)' : `official (${x.suites} calls)`} | ${x.history ? 'yes' : 'no'} | ${x.requests} (${x.listRequests}) | ${x.rateLimited} | ${x.failed} | ${n1(x.meanPerSecond)} | ${n1(x.steadyPerSecond)} | ${x.maxPerSecond} | ${s(l.p50)} | ${s(l.p95)} | ${s(l.max)} | ${s(x.reportsAfterLastFinishMs)} |`,
    );
  }
  const errors = results.concurrency.filter((x) => x.error);
  L.push(
    '',
    "Lag of a suite: ours, from its finish to the answer of the last request naming its result (the poll that saw it over, or its last page of test results), i.e. when the process knew it; the results file is written once for all suites (last column). Official: its call's promise resolved. Steady state: from 2 s after the last run was created to the first finish ('–': the triggers were still going at the first finish). The official client's calls that failed are not in its lag.",
    ...errors.map(
      (x) =>
        `\nOfficial, ${x.suites} suites, round ${x.history ? 2 : 1}: ${x.failed} calls failed, e.g. "${x.error}".`,
    ),
    '',
  );
  return L;
}

function earlySection(results: Results): string[] {
  if (!results.early.length) return [];
  const L = [
    '## Early failure and a run cancelled in the app',
    '',
    'Each suite or test has one earlier result, made to say it took the history shown. Early failure: the run fails at step 1 after about 2 s (±30 %). Cancelled in the app: a third party (a user of its own) cancels the running result through the API about 4 s (±30 %) in. Time to notice: from the finish record (the failure or the cancel) to the client knowing.',
    '',
    '| Case | Kind | History | Client | Run until it ended | Time to notice | Requests |',
    '|---|---|---|---|---|---|---|',
  ];
  for (const x of results.early) {
    L.push(
      `| ${x.case} | ${x.kind} | ${x.historyS >= 120 ? `${x.historyS / 60} min` : `${x.historyS} s`} | ${x.client === 'action' ? 'ours' : 'official'} | ${s(x.runMs)} | ${Number.isFinite(x.noticedMs) ? s(x.noticedMs) : (x.note ?? '–')} | ${n1(x.requests)} |`,
    );
  }
  L.push('');
  return L;
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
    "The action learns a run's outcome soon after the service knows it, with few requests (accounts share a rate limit of 10 requests/s). `npm run bench` (about 5 minutes on 2 cores; `npm run bench:full` runs up to 3-minute runs; `npm run bench -- --case early,concurrency` runs single cases and writes nothing; `--render <raw figures>` renders a saved run again) measures the bundled action side by side with the official Node client (`ghost-inspector`, which polls every 5 s) on the local emulator, and writes [bench/RESULTS.md](../bench/RESULTS.md).",
    '',
    `Latest figures (${results.mode} mode, ${results.date.slice(0, 10)}, ${m.cores} cores, Node ${m.node}):`,
    '',
    '| Measure | This action | Official client | Goal |',
    '|---|---|---|---|',
    `| Lag p95, with an earlier result | ${s(a(true).lag.p95)} | ${s(o(true).lag.p95)} | ≤ 0.5 s |`,
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
  for (const n of [...new Set(conc.map((x) => x.suites))]) {
    const a = conc.filter((x) => x.suites === n);
    const o = concO.filter((x) => x.suites === n);
    L.push(
      `| ${n} suites at once: lag p95; most requests in any 1 s | ${s(spread(a.flatMap((x) => x.lagsMs)).p95)}; ${Math.max(...a.map((x) => x.maxPerSecond))} | ${o.length ? `${s(spread(o.flatMap((x) => x.lagsMs)).p95)}; ${Math.max(...o.map((x) => x.maxPerSecond))}` : '–'} | ≤ 1.5 s; ≤ ${BUDGET_PEAK} |`,
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
