/**
 * `node --import tsx bench/memory.ts` (after `npm run build`): the peak memory of the bundled action holding
 * many test results. One process runs a data file of `--rows` rows (default 500) over a suite of `--tests`
 * tests (default 20), so `rows × tests` test results (default 10,000), with `screenshots: none`, against the
 * local emulator with the service's rate limit on; it prints the peak resident set size (VmHWM) and the
 * count of results the action reported. It measures and asserts nothing: the goal is in
 * docs/performance.md ("Memory"). Memory does not depend on the machine's load, but the peak moves with when
 * garbage is collected: run it three times.
 *
 * Options: `--action <file>` to measure another bundle than dist/index.js; `--rows <n>`, `--tests <n>`;
 * `--duration <s>` each test's run duration (default 5).
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { startEmulator } from '../emulator/index.js';
import { runAction } from './lib/action.js';
import { account, SeedBuilder } from './lib/seed.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SUITE = 'memory-rows';
const ACCOUNT = 'memory';

const { values } = parseArgs({
  options: {
    action: { type: 'string' },
    rows: { type: 'string', default: '500' },
    tests: { type: 'string', default: '20' },
    duration: { type: 'string', default: '5' },
  },
});

/** A positive integer option, or exit with its name, its value and the expected form. */
function count(name: string, text: string): number {
  const n = Number(text);
  if (!Number.isInteger(n) || n < 1) {
    console.error(`--${name}: "${text}" is not a positive whole number`);
    process.exit(2);
  }
  return n;
}

const rows = count('rows', values.rows);
const tests = count('tests', values.tests);
const durationS = count('duration', values.duration);
const entry = values.action ? path.resolve(values.action) : path.join(ROOT, 'dist', 'index.js');
if (!existsSync(entry)) {
  console.error(`${entry} is missing: run npm run build first`);
  process.exit(2);
}

const seed = new SeedBuilder();
seed.suite({ account: ACCOUNT, id: SUITE, tests, runDurationMs: durationS * 1000 });
const emulator = await startEmulator({ seed: seed.build(), timeScale: 1, quiet: true });
try {
  const csv = ['user,row', ...Array.from({ length: rows }, (_, i) => `user${i + 1},${i + 1}`)].join('\n');
  const began = Date.now();
  const run = await runAction({
    entry,
    baseUrl: emulator.baseUrl,
    apiKey: account(ACCOUNT).key,
    inputs: { 'suite-ids': SUITE, 'data-file': 'rows.csv', screenshots: 'none' },
    files: { 'rows.csv': `${csv}\n` },
    measureMemory: true,
  });
  let total: unknown = null;
  try {
    total = (JSON.parse(run.outputs.counts ?? '') as { total?: unknown }).total ?? null;
  } catch {
    // No counts output: the log tail below says why.
  }
  const peak = run.peakRssKb === null ? 'not measured' : `${(run.peakRssKb / 1024).toFixed(0)} MB`;
  console.log(
    `${rows} rows × ${tests} tests (${(rows * tests).toLocaleString('en')} test results expected): ` +
      `exit ${run.code}, ${String(total)} results reported, peak RSS ${peak}, ` +
      `${((Date.now() - began) / 1000).toFixed(0)} s`,
  );
  if (run.code !== 0 || total !== rows * tests) console.log(run.logTail);
} finally {
  await emulator.close();
}
