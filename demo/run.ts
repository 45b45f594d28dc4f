/**
 * `npm run demo`: the built action (`dist/index.js`) against the local emulator with its default seed.
 *
 * Starts the emulator on loopback, runs the action as a child process the way the runner does (INPUT_*
 * variables), and prints the verdict and where the JUnit report, the job summary, results.json and the
 * screenshots went. The seed's Checkout suite holds a test that fails on purpose ("Pay by card"), so the
 * verdict is "failed"; the demo exits 0 when the run completed and the reports were written.
 */
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { DEFAULT_API_KEY, startEmulator } from '../emulator/index.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const entry = path.join(root, 'dist', 'index.js');
const workspace = path.join(root, 'out', 'demo');
/** Simulated durations run at a quarter of real time. */
const TIME_SCALE = 0.25;

function parseOutputs(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const m = /^([^=<]+)<<(.+)$/.exec(lines[i] ?? '');
    if (!m) continue;
    const body: string[] = [];
    for (i++; i < lines.length && lines[i] !== m[2]; i++) body.push(lines[i] ?? '');
    out[m[1] as string] = body.join('\n');
  }
  return out;
}

async function main(): Promise<number> {
  if (!existsSync(entry)) {
    console.error('dist/index.js is missing. Build the action first: npm run build');
    return 1;
  }
  await rm(workspace, { recursive: true, force: true });
  await mkdir(workspace, { recursive: true });
  const emulator = await startEmulator({ timeScale: TIME_SCALE, quiet: true });
  console.log(`Emulator: ${emulator.baseUrl} (default seed, time scale ${TIME_SCALE})`);
  console.log('Running the action on the folder "Web shop" (suites Smoke tests and Checkout)...\n');
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? '',
    GITHUB_WORKSPACE: workspace,
    'INPUT_API-KEY': DEFAULT_API_KEY,
    'INPUT_API-BASE-URL': emulator.baseUrl,
    'INPUT_FOLDER-IDS': 'folder-web',
    INPUT_SCREENSHOTS: 'failed',
    INPUT_TIMEOUT: '5',
  };
  let code: number | null;
  try {
    code = await new Promise<number | null>((resolve, reject) => {
      const child = spawn(process.execPath, [entry], {
        cwd: workspace,
        env,
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      child.stdout.on('data', (chunk: Buffer) => {
        for (const line of chunk.toString().split('\n')) {
          if (line && !line.startsWith('::debug::')) console.log(`  │ ${line}`);
        }
      });
      child.on('error', reject);
      child.on('close', resolve);
    });
  } finally {
    await emulator.close();
  }

  const outputsFile = path.join(workspace, 'ghost-inspector-outputs.txt');
  const outputs = existsSync(outputsFile) ? parseOutputs(readFileSync(outputsFile, 'utf8')) : {};
  const junit = path.join(workspace, 'ghost-inspector-junit.xml');
  const summary = path.join(workspace, 'ghost-inspector-summary.md');
  const results = path.join(workspace, 'ghost-inspector-results.json');
  const shots = path.join(workspace, 'ghost-inspector-screenshots');
  const shotFiles = existsSync(shots)
    ? readdirSync(shots, { recursive: true })
        .map(String)
        .filter((f) => f.endsWith('.png'))
    : [];

  console.log('');
  console.log(`Verdict: ${outputs.passing === 'true' ? 'passed' : 'failed'} (action exit code ${code})`);
  console.log(`Counts: ${outputs.counts ?? '(none)'}`);
  console.log(
    'The Checkout suite holds a test that fails on purpose ("Pay by card"): a failed verdict is expected.',
  );
  console.log('');
  console.log(`JUnit report:  ${path.relative(root, junit)}`);
  console.log(`Job summary:   ${path.relative(root, summary)}`);
  console.log(`Results JSON:  ${path.relative(root, results)}`);
  console.log(`Outputs:       ${path.relative(root, outputsFile)}`);
  console.log(
    `Screenshots:   ${path.relative(root, shots)} (${shotFiles.length} file${shotFiles.length === 1 ? '' : 's'})`,
  );
  for (const f of shotFiles) console.log(`               - ${f}`);

  const written = [junit, summary, results].every((f) => existsSync(f) && readFileSync(f, 'utf8').length > 0);
  if (!written || outputs.counts === undefined) {
    console.error('\nThe run did not complete: some reports are missing.');
    return 1;
  }
  return 0;
}

process.exitCode = await main();
