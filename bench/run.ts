/**
 * `npm run bench` (quick mode, about 4 minutes) and `npm run bench:full` (runs of up to 3 minutes): the
 * bundled action and the official Node client (npm `ghost-inspector`) side by side on one local emulator,
 * with the emulator's rate limit on (per account, as the service: every client and case on an account of
 * its own, seed.ts). Measures detection lag and requests per run, start-up and overhead, scale (1,000 tests;
 * 2,000 results from a data file), 20 and 100 suites at once, an early failure and a run cancelled in the
 * app against a long history, and processes sharing one account (30 of a suite and a test, 30 of one test,
 * one suite beside 100), and lone test runs pushed beside polled; writes the goals against the figures
 * to bench/RESULTS.md and prints them.
 *
 * Options: `--full`; `--action <file>` to measure another bundle than dist/index.js; `--action-label <text>`
 * to describe it in RESULTS.md; `--smoke` for a one-minute
 * check of the harness; `--case <names>` (comma-separated: startup, lag, concurrency, scale, early, shared, push)
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
import { parseArgs } from 'node:util';
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
import { renderResults, type Machine, type Results } from './lib/render.js';
import { SeedBuilder } from './lib/seed.js';
import { runSharedAccount, seedSharedAccount } from './lib/shared-account.js';
import { runConcurrency, seedConcurrency, type ConcurrencyFigure } from './lib/concurrency.js';
import { runEarly, seedEarly, type EarlyFigure } from './lib/early.js';
import { runPush, seedPush } from './lib/push.js';

/** Names `--case` takes. */
const CASE_NAMES = ['startup', 'lag', 'concurrency', 'scale', 'early', 'shared', 'push'] as const;
type CaseName = (typeof CASE_NAMES)[number];

/** The cases `--case` names (all without it). Throws on an unknown name, naming it and the known ones. */
function selectedCases(): Set<CaseName> {
  const given = ARGS.case;
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

const USAGE =
  'Usage: npm run bench -- [--full | --smoke] [--case NAMES] [--action FILE] [--action-label TEXT] ' +
  '[--render FILE] [--note TEXT]';

/** The command line, parsed by `util.parseArgs`: bad options print the usage and exit with code 2. */
const ARGS = (() => {
  try {
    const { values } = parseArgs({
      options: {
        full: { type: 'boolean' },
        smoke: { type: 'boolean' },
        case: { type: 'string' },
        action: { type: 'string' },
        'action-label': { type: 'string' },
        render: { type: 'string' },
        note: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    });
    if (values.help) {
      console.log(USAGE);
      process.exit(0);
    }
    return values;
  } catch (error) {
    console.error(`${(error as Error).message}\n${USAGE}`);
    process.exit(2);
  }
})();

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
  const full = ARGS.full === true;
  const cases = selectedCases();
  const only = (name: CaseName) => cases.has(name);
  const partial = cases.size < CASE_NAMES.length;
  const plan = ARGS.smoke === true ? SMOKE : full ? FULL : QUICK;
  const smoke = ARGS.smoke === true || partial;
  const given = ARGS.action;
  const entry = given ? path.resolve(given) : path.join(ROOT, 'dist', 'index.js');
  if (!existsSync(entry)) throw new Error(`${entry} is missing: run npm run build first`);
  if (!readFileSync(entry, 'utf8').includes('/suite-results/')) {
    throw new Error(
      `${path.relative(ROOT, entry)} does not contain the run engine (is dist/ still the skeleton?): ` +
        'run npm run build, or pass --action <bundle>',
    );
  }
  const actionLabel = given
    ? (ARGS['action-label'] ?? 'a bundle given with --action')
    : `dist/index.js (last committed in ${gitHead('dist/index.js')}${distChanged() ? ', with uncommitted changes' : ''})`;

  ensureOfficialClient();
  const loadStart = os.loadavg();
  const began = Date.now();
  const seed = new SeedBuilder();
  seedCases(seed, plan);
  seedConcurrency(seed, plan);
  seedEarly(seed);
  seedSharedAccount(seed, plan);
  seedPush(seed, plan);
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
      `${ARGS.smoke === true ? 'Smoke' : full ? 'Full' : 'Quick'} mode${partial ? ` (cases: ${[...cases].join(', ')}; nothing written)` : ''}; emulator at ${emulator.origin}; measuring ${actionLabel}`,
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
    // Push beside poll once the processes on one account are done: its lags are tenths of a second.
    const push = shared.then(async () => {
      if (!only('push')) return undefined;
      ctx.log('Push beside poll: lone test runs pushed, with the webhooks lost, and polled ...');
      return runPush(ctx, plan);
    });
    const shorter = plan.lanes.flatMap((l, i) => (l.durationS * l.rounds === longest ? [] : [lanes[i]]));
    const scale = Promise.all([...shorter, shared, early, push]).then(() => {
      if (!only('scale')) return [];
      ctx.log('Scale ...');
      return runScale(ctx, plan);
    });
    const [laneSamples, concurrencyFigures, scaleFigures, sharedAccount, earlyFigures, pushSamples] =
      await Promise.all([Promise.all(lanes), concurrency, scale, shared, early, push]);

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
      ...(pushSamples ? { push: pushSamples } : {}),
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

/** Renders the figures: prints RESULTS.md and, unless `smoke`, writes it. */
async function write(results: Results, smoke: boolean): Promise<void> {
  const text = await markdown(renderResults(results), 'RESULTS.md');
  console.log(`\n${text}`);
  if (smoke) return;
  writeFileSync(path.join(ROOT, 'bench', 'RESULTS.md'), text);
  console.log('Wrote bench/RESULTS.md.');
  if (results.failures.length) process.exitCode = 1;
}

/** The figures with the `--note` text, when one is given. */
function withNote(results: Results): Results {
  const note = ARGS.note;
  return note ? { ...results, note } : results;
}

async function main(): Promise<void> {
  const rendered = ARGS.render;
  if (rendered) {
    const results = JSON.parse(readFileSync(rendered, 'utf8')) as Results;
    return write(withNote(results), ARGS.smoke === true);
  }
  const { results, smoke } = await measure();
  return write(withNote(results), smoke);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? (error.stack ?? error.message) : error);
  process.exit(1);
});
