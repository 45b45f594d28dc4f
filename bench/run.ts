/**
 * `npm run bench` (quick mode, about 4 minutes) and `npm run bench:full` (runs of up to 3 minutes): the
 * bundled action and the official Node client (npm `ghost-inspector`) side by side on one local emulator,
 * with the emulator's rate limit on (per account, as the service: every client and case on an account of
 * its own, seed.ts). Measures detection lag and requests per run, start-up and overhead, scale (1,000 tests;
 * 2,000 results from a data file), 20 and 100 suites at once, an early failure and a run cancelled in the
 * app against a long history, and 10 action processes on one account; writes bench/RESULTS.md, refreshes
 * the Performance block of docs/performance.md and prints the results.
 *
 * Options: `--full`; `--action <file>` to measure another bundle than dist/index.js; `--action-label <text>`
 * to describe it in RESULTS.md; `--no-readme` to leave docs/performance.md alone; `--smoke` for a one-minute
 * check of the harness; `--case <names>` (comma-separated: startup, lag, concurrency, scale, early, shared)
 * to run only those cases. `--smoke` and `--case` print the results and write nothing. `--render <file>`
 * renders the raw figures a run saved (its last line names the file) again, without measuring; `--note <text>`
 * quotes a line under the title of RESULTS.md.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import * as prettier from 'prettier';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startEmulator } from '../emulator/index.js';
import {
  FULL,
  QUICK,
  runLane,
  runOverhead,
  runScale,
  runStartup,
  SMOKE,
  seedCases,
  type Context,
  type LagSample,
} from './lib/cases.js';
import { ensureOfficialClient, OfficialClient, OFFICIAL_VERSION } from './lib/official.js';
import { explain } from './lib/explain.js';
import {
  renderReadmeBlock,
  renderResults,
  withReadmeBlock,
  type Machine,
  type Results,
} from './lib/render.js';
import { SeedBuilder } from './lib/seed.js';
import { runSharedAccount, seedSharedAccount } from './lib/shared-account.js';
import { runConcurrency, seedConcurrency, type ConcurrencyFigure } from './lib/concurrency.js';
import { runEarly, seedEarly, type EarlyFigure } from './lib/early.js';

/** Names `--case` takes. */
const CASE_NAMES = ['startup', 'lag', 'concurrency', 'scale', 'early', 'shared'] as const;
type CaseName = (typeof CASE_NAMES)[number];

/** The cases `--case` names (all without it). Throws on an unknown name, naming it and the known ones. */
function selectedCases(): Set<CaseName> {
  const given = argValue('--case');
  if (given === undefined) return new Set(CASE_NAMES);
  const names = given.split(',').map((x) => x.trim());
  for (const n of names) {
    if (!(CASE_NAMES as readonly string[]).includes(n)) {
      throw new Error(
        `--case: unknown case "${n}"; expected a comma-separated list of ${CASE_NAMES.join(', ')}`,
      );
    }
  }
  return new Set(names as CaseName[]);
}

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

function argValue(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

function gitHead(file?: string): string {
  try {
    const args = ['log', '-1', '--format=%h', ...(file ? ['--', file] : [])];
    return execFileSync('git', args, { cwd: ROOT, encoding: 'utf8' }).trim() || 'unknown';
  } catch {
    return 'unknown';
  }
}

/** Whether dist/index.js differs from its committed version. */
function distChanged(): boolean {
  try {
    execFileSync('git', ['diff', '--quiet', '--', 'dist/index.js'], { cwd: ROOT });
    return false;
  } catch {
    return true;
  }
}

/** Formats Markdown with the project's Prettier settings, so `npm run lint` stays clean. */
async function markdown(text: string, name: string): Promise<string> {
  const options = (await prettier.resolveConfig(path.join(ROOT, name))) ?? {};
  return prettier.format(text, { ...options, parser: 'markdown' });
}

function machine(loadStart: number[]): Machine {
  const cpus = os.cpus();
  return {
    cores: cpus.length,
    cpuModel: cpus[0]?.model.trim() ?? 'unknown CPU',
    memoryGb: os.totalmem() / 1024 ** 3,
    node: process.version,
    os: `${os.type()} ${os.release()}`,
    loadStart,
    loadEnd: os.loadavg(),
  };
}

/** Runs the cases; returns the figures and whether they are only a check (smoke or some cases). */
async function measure(): Promise<{ results: Results; smoke: boolean }> {
  const full = process.argv.includes('--full');
  const cases = selectedCases();
  const only = (name: CaseName) => cases.has(name);
  const partial = cases.size < CASE_NAMES.length;
  const plan = process.argv.includes('--smoke') ? SMOKE : full ? FULL : QUICK;
  const smoke = process.argv.includes('--smoke') || partial;
  const given = argValue('--action');
  const entry = given ? path.resolve(given) : path.join(ROOT, 'dist', 'index.js');
  if (!existsSync(entry)) throw new Error(`${entry} is missing: run npm run build first`);
  if (!readFileSync(entry, 'utf8').includes('/suite-results/')) {
    throw new Error(
      `${path.relative(ROOT, entry)} does not contain the run engine (is dist/ still the skeleton?): ` +
        'run npm run build, or pass --action <bundle>',
    );
  }
  const actionLabel = given
    ? (argValue('--action-label') ?? 'a bundle given with --action')
    : `dist/index.js (last committed in ${gitHead('dist/index.js')}${distChanged() ? ', with uncommitted changes' : ''})`;

  ensureOfficialClient();
  const loadStart = os.loadavg();
  const began = Date.now();
  const seed = new SeedBuilder();
  seedCases(seed, plan);
  seedConcurrency(seed, plan);
  seedEarly(seed);
  seedSharedAccount(seed, plan);
  const emulator = await startEmulator({ seed: seed.build(), timeScale: 1, quiet: true });
  const official = await OfficialClient.start(emulator.origin);
  const ctx: Context = {
    emulator,
    official,
    entry,
    log: (line) => console.log(`[${((Date.now() - began) / 1000).toFixed(0).padStart(4)} s] ${line}`),
    claimed: new Set(),
    failures: [],
  };
  let results: Results;
  try {
    ctx.log(
      `${process.argv.includes('--smoke') ? 'Smoke' : full ? 'Full' : 'Quick'} mode${partial ? ` (cases: ${[...cases].join(', ')}; nothing written)` : ''}; emulator at ${emulator.origin}; measuring ${actionLabel}`,
    );
    ctx.log('Start-up and overhead (quiet emulator) ...');
    const startup = only('startup')
      ? await runStartup(ctx, plan.startupSamples)
      : { actionMs: [], bareNodeMs: [] };
    const overhead = only('startup') ? await runOverhead(ctx, plan.overheadRounds) : [];

    ctx.log(
      'Lag lanes, suites at once, early failure and cancel: all at once; then several processes on one account, then scale ...',
    );
    const stagger = (i: number) => new Promise((r) => setTimeout(r, i * 400));
    const longest = Math.max(...plan.lanes.map((l) => l.durationS * l.rounds));
    const lanes = only('lag')
      ? plan.lanes.map(async (lane, i) => (await stagger(i), runLane(ctx, lane)))
      : [];
    const concurrency: Promise<ConcurrencyFigure[]> = only('concurrency')
      ? stagger(plan.lanes.length).then(() => runConcurrency(ctx, plan))
      : Promise.resolve([]);
    const early: Promise<EarlyFigure[]> = only('early')
      ? stagger(plan.lanes.length + 10).then(() => runEarly(ctx, plan))
      : Promise.resolve([]);
    // The processes on their own account once the lag lanes are done (their CPU would blur the lags),
    // beside the suites at once; scale after them.
    const shared = Promise.all([...lanes, early]).then(async () => {
      if (!only('shared')) return undefined;
      ctx.log('Several action processes on one account (only when the emulator limits the rate) ...');
      return runSharedAccount(ctx, plan);
    });
    const shorter = plan.lanes.flatMap((l, i) => (l.durationS * l.rounds === longest ? [] : [lanes[i]]));
    const scale = Promise.all([...shorter, shared, early]).then(() => {
      if (!only('scale')) return [];
      ctx.log('Scale ...');
      return runScale(ctx, plan);
    });
    const [laneSamples, concurrencyFigures, scaleFigures, sharedAccount, earlyFigures] = await Promise.all([
      Promise.all(lanes),
      concurrency,
      scale,
      shared,
      early,
    ]);

    const stray = emulator
      .requests()
      .filter((r) => !ctx.claimed.has(r.seq))
      .map((r) => `${r.method} ${r.path}`);
    results = {
      mode: full ? 'full' : 'quick',
      date: new Date().toISOString(),
      benchSeconds: (Date.now() - began) / 1000,
      machine: machine(loadStart),
      action: actionLabel,
      officialVersion: OFFICIAL_VERSION,
      lag: laneSamples.flat() as LagSample[],
      startupMs: startup.actionMs,
      bareNodeStartupMs: startup.bareNodeMs,
      overhead,
      scale: scaleFigures,
      concurrency: concurrencyFigures,
      early: earlyFigures,
      ...(sharedAccount ? { sharedAccount } : {}),
      failures: ctx.failures,
      stray,
    };
  } finally {
    official.close();
    await emulator.close();
  }

  const raw = path.join(os.tmpdir(), 'ghost-inspector-bench-last.json');
  writeFileSync(raw, JSON.stringify(results, null, 1));
  console.log(`Raw figures: ${raw} (render them again with --render <file>)`);
  return { results, smoke };
}

/**
 * Renders the figures: prints RESULTS.md; unless `smoke`, writes it and the block of docs/performance.md
 * (not with `--no-readme`).
 */
async function write(results: Results, smoke: boolean): Promise<void> {
  const text = await markdown(renderResults(results, explain(results)), 'RESULTS.md');
  if (smoke) {
    console.log(`\n${text}`);
    return;
  }
  writeFileSync(path.join(ROOT, 'bench', 'RESULTS.md'), text);
  if (!process.argv.includes('--no-readme')) {
    const readmePath = path.join(ROOT, 'docs', 'performance.md');
    const readme = withReadmeBlock(readFileSync(readmePath, 'utf8'), `\n${renderReadmeBlock(results)}\n`);
    writeFileSync(readmePath, await markdown(readme, 'docs/performance.md'));
  }
  console.log(`\n${text}`);
  console.log(
    `Wrote bench/RESULTS.md${process.argv.includes('--no-readme') ? '' : ' and the block of docs/performance.md'}.`,
  );
  if (results.failures.length) process.exitCode = 1;
}

/** The figures with the `--note` text, when one is given. */
function withNote(results: Results): Results {
  const note = argValue('--note');
  return note ? { ...results, note } : results;
}

async function main(): Promise<void> {
  const rendered = argValue('--render');
  if (rendered) {
    const results = JSON.parse(readFileSync(rendered, 'utf8')) as Results;
    return write(withNote(results), process.argv.includes('--smoke'));
  }
  const { results, smoke } = await measure();
  return write(withNote(results), smoke);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? (error.stack ?? error.message) : error);
  process.exit(1);
});
