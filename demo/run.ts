/**
 * `npm run demo [-- --executor browser|simulated] [--out DIR]`: the built action (`dist/index.js`) against
 * the local emulator.
 *
 * With Chromium (`CHROMIUM_PATH`, else Debian's headless shell or browser) the emulator uses the browser
 * executor and its demo seed: real browser runs of the demo shop it serves under `/demo/`. The action runs
 * the suite "Demo shop" with `theme=new`: "Cart total counts quantities" fails on purpose at step 7 (the
 * site's cart bug) and "Products page looks right" differs from its baseline (the site's visual change).
 * Without Chromium the demo says so and falls back to the simulated executor and the default seed (folder
 * "Web shop", where "Pay by card" fails on purpose).
 *
 * It runs the action as a child process the way the runner does (INPUT_* variables, action.yml's defaults
 * for the inputs not given), then prints the verdict, each test's outcome and where the JUnit report, the job
 * summary (and its HTML preview), results.json and the screenshots went. The reports' web app links point at the emulator's pages; every
 * link of the job summary is opened before the emulator stops. Exit code 0 when the run completed, the
 * reports were written and every link opens (the failed verdict is expected), 1 otherwise, 2 for bad options.
 */
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import type { Emulator } from '../emulator/index.js';
import { DEMO_SUITE_ID, demoTestId } from './seed.js';
import { DEMO_BUG_ERROR } from './site/suites.js';
import { chromiumAvailable, defaultChromiumPath } from './executor/chromium.js';
import { runnerInputs } from '../test/support/runner-inputs.js';
import { checkLinks } from './links.js';
import { renderSummaryPage, saveLinkedFiles } from './preview.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const entry = path.join(root, 'dist', 'index.js');
/** Simulated durations run at a quarter of real time. */
const SIMULATED_TIME_SCALE = 0.25;
const SUMMARY_FILE = 'ghost-inspector-summary.md';
const PREVIEW_FILE = 'ghost-inspector-summary.html';
const PREVIEW_FILES_DIR = 'ghost-inspector-summary-files';

/** What one mode of the demo runs and what it expects. */
interface Plan {
  executor: 'browser' | 'simulated';
  /** Why this executor (printed). */
  reason: string;
  /** Inputs by their action.yml names. */
  inputs: Record<string, string>;
  /** What the action is asked to run (printed). */
  what: string;
  /** The outcomes designed into the seed (printed after the run). */
  designed: string;
  /** The test designed to fail: run a few times before the action, so that the summary shows its history. */
  failingTestId: string;
  /** Test name -> expected state, failing step (1-based, as reports show it) and error. */
  expected: Record<
    string,
    { state: string; failingStep?: number; error?: string; screenshotDiffers?: boolean }
  >;
}

const USAGE = 'Usage: npm run demo -- [--executor browser|simulated] [--out DIR]';

/** Prints `message` and the usage; the exit code of a usage error. */
function usage(message: string): number {
  console.error(`${message}\n${USAGE}`);
  return 2;
}

/**
 * The options, or the exit code when they end the demo (0 after --help, 2 after a usage error): an exit code,
 * not process.exit, so the process ends once its writes are done.
 */
function parseCli(argv: string[]): { executor?: 'browser' | 'simulated'; out: string } | number {
  let values: { executor?: string; out?: string; help?: boolean };
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        executor: { type: 'string' },
        out: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    }));
  } catch (error) {
    return usage((error as Error).message);
  }
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  const { executor } = values;
  if (executor !== undefined && executor !== 'browser' && executor !== 'simulated')
    return usage(`--executor must be browser or simulated, got "${executor}"`);
  return { executor, out: values.out ? path.resolve(values.out) : path.join(root, 'out', 'demo') };
}

function choosePlan(asked: 'browser' | 'simulated' | undefined): Plan | string {
  const chromium = defaultChromiumPath();
  const hasChromium = chromiumAvailable(chromium);
  if (asked === 'browser' && !hasChromium) {
    return `No Chromium at ${chromium}: install it (Debian: apt-get install chromium-headless-shell) or set CHROMIUM_PATH.`;
  }
  if (asked !== 'simulated' && hasChromium) {
    return {
      executor: 'browser',
      reason: `browser (headless Chromium at ${chromium})`,
      inputs: {
        'suite-ids': DEMO_SUITE_ID,
        variables: 'theme=new',
        screenshots: 'all',
        'timeout-minutes': '5',
      },
      what: `the suite "Demo shop" (${DEMO_SUITE_ID}) with the variable theme=new`,
      designed:
        'The demo shop has a deliberate bug: "Cart total counts quantities" fails at step 7 (the cart total ' +
        'ignores the second line\'s quantity). With theme=new, "Products page looks right" passes but its ' +
        'screenshot differs from the baseline accepted at start-up. A failed verdict is expected.',
      failingTestId: demoTestId('Cart total counts quantities'),
      expected: {
        'Sign in shows the products': { state: 'passed' },
        'Sign in requires a username': { state: 'passed' },
        'Add a product to the cart': { state: 'passed' },
        'Cart total counts quantities': { state: 'failed', failingStep: 7, error: DEMO_BUG_ERROR },
        'Products page looks right': { state: 'passed', screenshotDiffers: true },
      },
    };
  }
  return {
    executor: 'simulated',
    reason:
      asked === 'simulated'
        ? 'simulated (as asked)'
        : `simulated: no Chromium at ${chromium} (install chromium-headless-shell or set CHROMIUM_PATH for real browser runs)`,
    inputs: { 'folder-ids': 'folder-web', screenshots: 'failed', 'timeout-minutes': '5' },
    what: 'the folder "Web shop" (suites Smoke tests and Checkout) of the default seed',
    designed:
      'The Checkout suite holds a test that fails on purpose ("Pay by card", step 3). A failed verdict is expected.',
    failingTestId: 'test-payment',
    expected: {
      'Pay by card': { state: 'failed', failingStep: 3, error: 'Element not found: .confirmation' },
    },
  };
}

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

/** The parts of a results.json result the demo prints. */
interface ResultLine {
  name: string;
  state: string;
  failingStep?: { sequence: number; command: string; target: string; error?: string };
  screenshotCompare?: { difference: number | null; threshold: number; passing: boolean | null };
}

function readResults(file: string): ResultLine[] {
  if (!existsSync(file)) return [];
  try {
    return (JSON.parse(readFileSync(file, 'utf8')) as { results?: ResultLine[] }).results ?? [];
  } catch {
    return [];
  }
}

function describe(result: ResultLine): string {
  const mark = result.state === 'passed' ? '✓' : '✗';
  let line = `  ${mark} ${result.state.padEnd(7)} ${result.name}`;
  const step = result.failingStep;
  if (step)
    line += `\n              step ${step.sequence + 1} ${step.command} ${step.target}: ${step.error ?? ''}`;
  const cmp = result.screenshotCompare;
  if (cmp && cmp.passing === false && cmp.difference !== null) {
    line +=
      `\n              screenshot comparison failed: difference ${(cmp.difference * 100).toFixed(1)}%` +
      ` (threshold ${(cmp.threshold * 100).toFixed(0)}%)`;
  }
  return line;
}

/** Differences between the designed outcomes and the results, as sentences (empty: as designed). */
function mismatches(plan: Plan, results: ResultLine[]): string[] {
  const problems: string[] = [];
  for (const [name, want] of Object.entries(plan.expected)) {
    const got = results.find((r) => r.name === name);
    if (!got) {
      problems.push(`"${name}" has no result`);
      continue;
    }
    if (got.state !== want.state) problems.push(`"${name}" ${got.state}, designed to be ${want.state}`);
    if (want.failingStep !== undefined && (got.failingStep?.sequence ?? -2) + 1 !== want.failingStep)
      problems.push(`"${name}" did not fail at step ${want.failingStep}`);
    if (want.error !== undefined && got.failingStep?.error !== want.error)
      problems.push(`"${name}" failed with another error`);
    if (want.screenshotDiffers && got.screenshotCompare?.passing !== false)
      problems.push(`"${name}" shows no screenshot difference`);
  }
  if (plan.executor === 'browser') {
    for (const r of results) {
      if (!(r.name in plan.expected)) problems.push(`unexpected test "${r.name}"`);
    }
  }
  return problems;
}

function readIfExists(file: string): string {
  return existsSync(file) ? readFileSync(file, 'utf8') : '';
}

async function runAction(workspace: string, env: Record<string, string>): Promise<number | null> {
  return new Promise<number | null>((resolve, reject) => {
    const child = spawn(process.execPath, [entry], {
      cwd: workspace,
      env,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let rest = '';
    child.stdout.on('data', (chunk: Buffer) => {
      const lines = (rest + chunk.toString()).split('\n');
      rest = lines.pop() ?? '';
      for (const line of lines) if (line && !line.startsWith('::debug::')) console.log(`  │ ${line}`);
    });
    child.on('error', reject);
    child.on('close', (code) => {
      if (rest && !rest.startsWith('::debug::')) console.log(`  │ ${rest}`);
      resolve(code);
    });
  });
}

/** Writes the HTML preview of the job summary, with the emulator's images saved beside it. */
async function writePreview(workspace: string, emulator: Emulator): Promise<string | undefined> {
  const summaryFile = path.join(workspace, SUMMARY_FILE);
  if (!existsSync(summaryFile)) return undefined;
  const { markdown } = await saveLinkedFiles(
    readFileSync(summaryFile, 'utf8'),
    emulator.origin,
    path.join(workspace, PREVIEW_FILES_DIR),
    PREVIEW_FILES_DIR,
  );
  const file = path.join(workspace, PREVIEW_FILE);
  await writeFile(file, renderSummaryPage(markdown, 'Ghost Inspector job summary (preview of the demo run)'));
  return file;
}

/** Runs of the failing test before the action: the nights before, read back as its history. */
const EARLIER_RUNS = 3;

/**
 * Runs `testId` {@link EARLIER_RUNS} times through the emulator's API, all at once; without `immediate` each
 * request answers once its run finished (docs/api-contract.md, "Execute answers").
 */
async function runEarlierNights(emulator: Emulator, apiKey: string, testId: string): Promise<void> {
  const runs = Array.from({ length: EARLIER_RUNS }, async () => {
    const answer = await fetch(`${emulator.baseUrl}/tests/${testId}/execute/?apiKey=${apiKey}`);
    if (!answer.ok) throw new Error(`earlier run of ${testId}: HTTP ${answer.status}`);
    await answer.arrayBuffer();
  });
  await Promise.all(runs);
}

/** The job summary's history lines (`- test: failed 4 of its last 4 runs`), without the list marks. */
function historyLines(summary: string): string[] {
  const section = /### History of the failed tests\n\n([\s\S]*?)(?:\n\n|$)/.exec(summary)?.[1] ?? '';
  return section
    .split('\n')
    .filter((l) => l.startsWith('- '))
    .map((l) => l.slice(2));
}

async function main(): Promise<number> {
  const args = parseCli(process.argv.slice(2));
  if (typeof args === 'number') return args;
  if (!existsSync(entry)) {
    console.error('dist/index.js is missing. Build the action first: npm run build');
    return 1;
  }
  const plan = choosePlan(args.executor);
  if (typeof plan === 'string') {
    console.error(plan);
    return 1;
  }
  const workspace = args.out;
  await rm(workspace, { recursive: true, force: true });
  await mkdir(workspace, { recursive: true });
  console.log(`Executor: ${plan.reason}`);
  const started = Date.now();
  // Loaded once the options are known good: a usage error answers at once.
  const { DEFAULT_API_KEY, startEmulator } = await import('../emulator/index.js');
  let emulator: Emulator;
  try {
    emulator =
      plan.executor === 'browser'
        ? await (await import('./start.js')).startDemoEmulator({ browser: { maxConcurrent: 3 } })
        : await startEmulator({ timeScale: SIMULATED_TIME_SCALE });
  } catch (error) {
    console.error(`The emulator could not start: ${(error as Error).message}`);
    if (plan.executor === 'browser')
      console.error('Try the simulated executor: npm run demo -- --executor simulated');
    return 1;
  }
  let code: number | null;
  let preview: string | undefined;
  let links: Awaited<ReturnType<typeof checkLinks>>;
  try {
    if (plan.executor === 'browser') {
      console.log(`Emulator: ${emulator.baseUrl} (demo seed; demo shop at ${emulator.origin}/demo/)`);
      console.log('Screenshot baseline of "Products page looks right" accepted at start-up (theme=classic).');
    } else {
      console.log(`Emulator: ${emulator.baseUrl} (default seed, time scale ${SIMULATED_TIME_SCALE})`);
    }
    console.log(`Running "${plan.failingTestId}" ${EARLIER_RUNS} times first: its history in the summary...`);
    await runEarlierNights(emulator, DEFAULT_API_KEY, plan.failingTestId);
    console.log(`Running the action on ${plan.what}...\n`);
    const env: Record<string, string> = {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      GITHUB_WORKSPACE: workspace,
      // The reports' web app links open the emulator's pages.
      GHOST_INSPECTOR_APP_URL: emulator.origin,
      ...runnerInputs({ 'api-key': DEFAULT_API_KEY, 'api-base-url': emulator.baseUrl, ...plan.inputs }),
    };
    code = await runAction(workspace, env);
    // Before the emulator stops: the summary's links and images live on it.
    links = await checkLinks(readIfExists(path.join(workspace, SUMMARY_FILE)), emulator.origin);
    preview = await writePreview(workspace, emulator);
  } finally {
    await emulator.close();
  }

  const outputsFile = path.join(workspace, 'ghost-inspector-outputs.txt');
  const outputs = existsSync(outputsFile) ? parseOutputs(readFileSync(outputsFile, 'utf8')) : {};
  const junit = path.join(workspace, 'ghost-inspector-junit.xml');
  const summary = path.join(workspace, SUMMARY_FILE);
  const resultsFile = path.join(workspace, 'ghost-inspector-results.json');
  const shots = path.join(workspace, 'ghost-inspector-screenshots');
  const shotFiles = existsSync(shots)
    ? readdirSync(shots, { recursive: true })
        .map(String)
        .filter((f) => f.endsWith('.png'))
        .sort()
    : [];
  const results = readResults(resultsFile);
  const shown = (file: string) => path.relative(process.cwd(), file) || '.';

  console.log('');
  console.log(`Verdict: ${outputs.passing === 'true' ? 'passed' : 'failed'} (action exit code ${code})`);
  console.log(`Counts: ${outputs.counts ?? '(none)'}`);
  console.log('Tests:');
  for (const r of results) console.log(describe(r));
  console.log('');
  console.log(plan.designed);
  const problems = mismatches(plan, results);
  console.log(
    problems.length === 0
      ? 'Outcomes: as designed.'
      : `Outcomes differ from the design: ${problems.join('; ')}.`,
  );
  for (const line of historyLines(readIfExists(summary))) console.log(`History: ${line}`);
  console.log('');
  console.log(`JUnit report:     ${shown(junit)}`);
  console.log(`Job summary:      ${shown(summary)}`);
  console.log(`Summary preview:  ${preview ? `${shown(preview)} (open it in a browser)` : '(none)'}`);
  console.log(`Results JSON:     ${shown(resultsFile)}`);
  console.log(`Outputs:          ${shown(outputsFile)}`);
  console.log(
    `Screenshots:      ${shown(shots)} (${shotFiles.length} file${shotFiles.length === 1 ? '' : 's'})`,
  );
  for (const f of shotFiles) console.log(`                  - ${f}`);
  console.log(
    links.broken.length === 0
      ? `Summary links:    ${links.checked} checked, all open`
      : `Summary links:    ${links.broken.length} of ${links.checked} do not open: ${links.broken.join(', ')}`,
  );
  console.log(`Took ${((Date.now() - started) / 1000).toFixed(1)} s.`);

  const written = [junit, summary, resultsFile].every(
    (f) => existsSync(f) && readFileSync(f, 'utf8').length > 0,
  );
  if (!written || outputs.counts === undefined || results.length === 0) {
    console.error('\nThe run did not complete: some reports are missing.');
    return 1;
  }
  if (links.broken.length > 0) {
    console.error('\nSome links of the job summary do not open.');
    return 1;
  }
  return 0;
}

process.exitCode = await main();
