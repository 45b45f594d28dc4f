/**
 * The seeded chaos suite: the action, many times, against emulators injecting every fault kind at a steady
 * rate (below). Every seed runs in-process on virtual time (the action's production waits, no
 * real time spent); the first seeds run again as the bundle, a child process on real time, the way the
 * runner starts it. `CHAOS_RUNS` (default 100) sets how many seeds run in-process, `CHAOS_BUNDLE_RUNS`
 * (default 8: a storm seed outlasts them all) how many of them also run as the bundle, `CHAOS_SEED` the first seed (default 1),
 * `CHAOS_CONCURRENCY` how many runs of a mode go at once (default 12: they mostly wait; the two modes run side by side); `CHAOS_REPORT` names a JSON
 * file that receives the figures (`<name>.bundle.json` those of the bundle runs).
 *
 * A seed decides what the action runs (one to three of: suite-green, suite-red, test rel-green-1, test
 * rel-red-bad) and the emulator's fault PRNG. The expected outcome of every test is known from the seed
 * (`EXPECTED`), so a wrong verdict is visible. Faults outlasting the retries are allowed to turn a run
 * into an infrastructure error (`error` or `timed-out`, labelled as such), never into a test failure.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it, type ExpectStatic } from 'vitest';
import type { RequestRecord } from '../../emulator/index.js';
import { FAULT_KINDS, type FaultKind } from '../../emulator/faults.js';
import { seededRandom } from '../../emulator/util.js';
import { counts, type ActionRun } from '../support/harness.js';
import {
  executesOf,
  EXPECTED,
  FILES,
  findSecrets,
  readResults,
  secretInputs,
  secretsFor,
  SUITE_TESTS,
  wasHandled,
} from '../support/reliability.js';
import { schemaErrors } from '../support/junit.js';
import { startWorld, type ScaledWorld, type WorldOptions } from '../support/world.js';

/** Every fault kind the emulator has but signed URLs (a screenshot matter), injected at `CHAOS_RATE`. */
const CHAOS_KINDS = FAULT_KINDS.filter((kind) => kind !== 'signed-urls');
/** Probability that a `/v1` request gets a fault. */
const CHAOS_RATE = 0.12;
/** Every 10th seed is a storm: faults at this rate outlast the retries of some reads too. */
const STORM_RATE = 0.4;

/** The fault rate of seed `seed`. */
function rateFor(seed: number): number {
  return seed % 10 === 0 ? STORM_RATE : CHAOS_RATE;
}
/** The action's `timeout` input, minutes. */
const ACTION_TIMEOUT_MIN = 0.5;
/** A child still running this long after its start has hung (the deadline plus time for reports). */
const HANG_MS = ACTION_TIMEOUT_MIN * 60_000 + 20_000;
/** Emulator time scale: a simulated run of a few seconds takes a few tens of ms. */
const TIME_SCALE = 0.01;

const TARGETS = ['suite-green', 'suite-red', 'test:rel-green-1', 'test:rel-red-bad'];

/** What one seed ran and what came of it. */
interface ChaosOutcome {
  seed: number;
  targets: string[];
  /** Everything that went wrong; [] for a good run. */
  problems: string[];
  /** Faults the emulator injected, by kind. */
  faults: Partial<Record<FaultKind, number>>;
  /** Tests reported with their expected state. */
  rightTests: number;
  /** Tests reported with the opposite state (a lie). */
  wrongVerdicts: number;
  /** Tests or runs that ended as an infrastructure error (`error` or `timed-out`). */
  infraErrors: number;
  /** The explanations the infrastructure errors carried (run error, else test error). */
  infraMessages: string[];
  /**
   * Targets whose execute the emulator handled but whose answer was lost (reset, unreadable), and whose run
   * the action did not find afterwards (reported "could not start" or "may have started"): the run started
   * remotely and nobody followed it. Reconciliation (looking the run up) keeps this at 0.
   */
  orphanedRuns: number;
  /** Targets whose execute the emulator handled more than once. */
  duplicateTriggers: number;
  /** Places a secret showed up. */
  secretLeaks: number;
  /** Requests the action sent. */
  requests: number;
  exitCode: number | null;
  /** How long the action ran, ms (virtual ms in the `virtual` mode). */
  wallMs: number;
}

/** The targets seed `seed` runs: one to three distinct ones. */
function targetsFor(seed: number): string[] {
  const random = seededRandom(seed * 7919 + 17);
  const count = 1 + Math.floor(random() * 3);
  const pool = [...TARGETS];
  const out: string[] = [];
  while (out.length < count) out.push(pool.splice(Math.floor(random() * pool.length), 1)[0] as string);
  return out;
}

function keyPrefix(target: string): string {
  return target.startsWith('test:') ? `test-${target.slice(5)}-` : `suite-${target}-`;
}

function testsOf(target: string): string[] {
  return target.startsWith('test:') ? [target.slice(5)] : (SUITE_TESTS[target] ?? []);
}

/** How a chaos run starts the action: the bundle as a child process, or in-process on virtual time. */
type ChaosMode = 'bundle' | 'virtual';

/**
 * Runs seed `seed` and checks it. Never throws for a failed check: it lands in `problems`.
 * @param mode `bundle`: `dist/index.js` as a child process against an emulator on real time; `virtual`:
 *   `run(deps)` in this process, it and the emulator on one virtual clock.
 */
async function chaosRun(seed: number, mode: ChaosMode = 'bundle'): Promise<ChaosOutcome> {
  const secrets = secretsFor(`chaos${seed}`);
  const targets = targetsFor(seed);
  const outcome: ChaosOutcome = {
    seed,
    targets,
    problems: [],
    faults: {},
    rightTests: 0,
    wrongVerdicts: 0,
    infraErrors: 0,
    infraMessages: [],
    orphanedRuns: 0,
    duplicateTriggers: 0,
    secretLeaks: 0,
    requests: 0,
    exitCode: null,
    wallMs: 0,
  };
  const problem = (text: string): void => void outcome.problems.push(text);
  let world: ScaledWorld | undefined;
  let run: ActionRun | undefined;
  try {
    world = await startWorld({
      clock: mode === 'virtual' ? undefined : 'scaled',
      timeScale: TIME_SCALE,
      secrets,
      faults: { rate: rateFor(seed), kinds: CHAOS_KINDS, seed, delayMs: 300, retryAfterS: 1 },
    } as WorldOptions & { clock: 'scaled' });
    const { emulator, clock } = world;
    const started = clock.now();
    const suiteIds = targets.filter((t) => !t.startsWith('test:'));
    const testIds = targets.filter((t) => t.startsWith('test:')).map((t) => t.slice(5));
    const inputs = {
      ...secretInputs(secrets),
      'api-base-url': emulator.baseUrl,
      'suite-ids': suiteIds.join(','),
      'test-ids': testIds.join(','),
      'timeout-minutes': String(ACTION_TIMEOUT_MIN),
      screenshots: 'failed',
    };
    // An in-process run cannot be killed: it is left behind, the hang reported.
    const action = await world.start({ inputs, bundle: mode === 'bundle' });
    const hang = setTimeout(() => {
      problem(`hang: still running ${HANG_MS} ms after the start; killed`);
      action.kill();
    }, HANG_MS);
    try {
      run = await action.done;
    } finally {
      clearTimeout(hang);
    }
    outcome.wallMs = clock.now() - started;
    outcome.exitCode = run.code;
    // Let answers still in flight land in the log (a reset-after is logged as it happens).
    await new Promise((r) => setTimeout(r, 20));
    const requests = emulator.requests();
    outcome.requests = requests.length;
    for (const r of requests) if (r.fault) outcome.faults[r.fault] = (outcome.faults[r.fault] ?? 0) + 1;
    checkRun(outcome, run, world.workspace, requests, targets, problem);
    const leaks = findSecrets(run, world.workspace, secrets);
    outcome.secretLeaks = leaks.length;
    for (const leak of leaks) problem(`secret leak: ${leak}`);
    const junit = path.join(world.workspace, FILES.junit);
    if (existsSync(junit)) {
      const invalid = schemaErrors(readFileSync(junit, 'utf8'));
      if (invalid) problem(`JUnit does not validate: ${invalid.slice(0, 500)}`);
    }
  } catch (error) {
    problem(`harness: ${error instanceof Error ? error.stack : String(error)}`);
  } finally {
    await world?.close();
  }
  if (outcome.problems.length > 0 && run) {
    outcome.problems.push(`stdout tail: ${run.stdout.slice(-1500)}`, `stderr: ${run.stderr.slice(-800)}`);
  }
  return outcome;
}

/** Checks exit, verdict, every target's tests and triggers, and the reports' completeness. */
function checkRun(
  outcome: ChaosOutcome,
  run: ActionRun,
  workspace: string,
  requests: RequestRecord[],
  targets: string[],
  problem: (text: string) => void,
): void {
  if (run.signal !== null || (run.code !== 0 && run.code !== 1)) {
    problem(`exit: code ${run.code}, signal ${run.signal}`);
  }
  if (/Unhandled|unhandledRejection|ERR_UNHANDLED/i.test(run.stderr + run.stdout)) {
    problem('an unhandled rejection or error was printed');
  }
  if (/Unexpected error/.test(run.stdout)) problem('the action ended with "Unexpected error"');
  const results = readResults(workspace);
  if (!results) {
    problem('results.json is missing');
    return;
  }
  if (!existsSync(path.join(workspace, FILES.junit))) problem('the JUnit file is missing');
  if (run.summary.trim() === '') problem('the job summary is empty');
  if (run.outputs.passing !== 'true' && run.outputs.passing !== 'false') {
    problem(`output passing is ${JSON.stringify(run.outputs.passing)}`);
  }

  let expectFail = false;
  let infra = false;
  const seen = new Set<string>();
  for (const target of targets) {
    const executes = executesOf(requests, target);
    const handled = executes.filter(wasHandled).length;
    if (handled > 1) {
      outcome.duplicateTriggers += 1;
      problem(`${target}: ${handled} execute requests were handled (duplicate trigger)`);
    }
    const runs = results.runs.filter((r) => r.key.startsWith(keyPrefix(target)));
    if (runs.length !== 1) {
      problem(`${target}: ${runs.length} runs in results.json, expected 1`);
      continue;
    }
    const entry = runs[0]!;
    seen.add(entry.key);
    const tests = results.results.filter((t) => t.run === entry.key);
    const expectedIds = testsOf(target);
    if (expectedIds.some((id) => EXPECTED[id] === 'failed')) expectFail = true;
    if (handled === 0 && !entry.error) problem(`${target}: never triggered, yet no run error is reported`);
    // Started remotely but not followed: "could not start", or "may have started" (reconciliation found
    // nothing) although the emulator handled the execute.
    if (
      handled === 1 &&
      (entry.error?.startsWith('Could not start') || /may have started/.test(entry.error ?? ''))
    ) {
      outcome.orphanedRuns += 1;
    }
    const infraTests = tests.filter((t) => t.state === 'error' || t.state === 'timed-out');
    if (infraTests.length > 0 || entry.error) {
      infra = true;
      outcome.infraErrors += Math.max(1, infraTests.length);
      outcome.infraMessages.push(`${target}: ${entry.error ?? infraTests[0]?.error ?? ''}`);
      for (const t of infraTests) {
        if (!t.error) problem(`${target}: test ${t.name} is ${t.state} without an explanation`);
      }
    }
    const ids = tests.map((t) => t.testId).filter((id): id is string => id !== null);
    if (new Set(ids).size !== ids.length) problem(`${target}: a test is listed twice: ${ids.join(', ')}`);
    for (const t of tests) {
      if (t.state === 'error' || t.state === 'timed-out') continue;
      const want = t.testId ? EXPECTED[t.testId] : undefined;
      if (!t.testId || !expectedIds.includes(t.testId) || want === undefined) {
        problem(`${target}: unexpected test ${t.testId ?? '(none)'} in state ${t.state}`);
        continue;
      }
      if (t.state === want) outcome.rightTests += 1;
      else {
        outcome.wrongVerdicts += 1;
        problem(`${target}: WRONG VERDICT: ${t.testId} reported ${t.state}, expected ${want}`);
      }
    }
    const complete = tests.length === expectedIds.length && tests.every((t) => t.testId !== null);
    if (!complete && !entry.error && infraTests.length === 0) {
      problem(
        `${target}: ${tests.length} tests reported, expected ${expectedIds.length}, and no error says why`,
      );
    }
  }
  for (const r of results.runs) if (!seen.has(r.key)) problem(`results.json has an extra run ${r.key}`);

  const outs = counts(run);
  const failedReported = results.results.filter((t) => t.state === 'failed').length;
  if (outs.failed !== failedReported) problem(`counts.failed ${outs.failed} != ${failedReported}`);
  if (outs.total !== results.results.length) {
    problem(`counts.total ${outs.total} != ${results.results.length} results`);
  }
  const junit = path.join(workspace, FILES.junit);
  if (existsSync(junit)) {
    const cases = (readFileSync(junit, 'utf8').match(/<testcase /g) ?? []).length;
    if (cases !== results.results.length)
      problem(`JUnit has ${cases} test cases, results.json ${results.results.length}`);
  }
  const shouldPass = !expectFail && !infra;
  if ((run.code === 0) !== shouldPass) {
    problem(
      `exit code ${run.code}, expected ${shouldPass ? 0 : 1} (failing tests: ${expectFail}, infra: ${infra})`,
    );
  }
  if (run.outputs.passing !== String(run.code === 0)) {
    problem(`output passing=${run.outputs.passing} disagrees with exit code ${run.code}`);
  }
  // An infrastructure error is never called a test failure.
  if (!expectFail && /::error::.*\btests? failed\./.test(run.stdout)) {
    problem('the failure message blames failed tests although none failed');
  }
}

/** Sums the outcomes into the figures the README quotes. */
function totals(outcomes: ChaosOutcome[]) {
  const faults: Partial<Record<FaultKind, number>> = {};
  for (const o of outcomes) {
    for (const [k, n] of Object.entries(o.faults)) faults[k as FaultKind] = (faults[k as FaultKind] ?? 0) + n;
  }
  const sum = (f: (o: ChaosOutcome) => number) => outcomes.reduce((a, o) => a + f(o), 0);
  const walls = outcomes.map((o) => o.wallMs).sort((a, b) => a - b);
  return {
    runs: outcomes.length,
    targets: sum((o) => o.targets.length),
    requests: sum((o) => o.requests),
    faultsInjected: sum((o) => Object.values(o.faults).reduce((a, n) => a + n, 0)),
    faults,
    rightTests: sum((o) => o.rightTests),
    wrongVerdicts: sum((o) => o.wrongVerdicts),
    infraErrors: sum((o) => o.infraErrors),
    runsWithInfraErrors: outcomes.filter((o) => o.infraErrors > 0).length,
    orphanedRuns: sum((o) => o.orphanedRuns),
    duplicateTriggers: sum((o) => o.duplicateTriggers),
    secretLeaks: sum((o) => o.secretLeaks),
    runsWithProblems: outcomes.filter((o) => o.problems.length > 0).length,
    medianRunMs: walls[Math.floor(walls.length / 2)] ?? 0,
    maxRunMs: walls[walls.length - 1] ?? 0,
  };
}

/** Runs `tasks` with at most `limit` running at once; results in input order. */
export async function pool<T, R>(items: T[], limit: number, task: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array<R>(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const i = next++;
      out[i] = await task(items[i] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}

const RUNS = Number(process.env.CHAOS_RUNS ?? 100);
const BUNDLE_RUNS = Math.min(RUNS, Number(process.env.CHAOS_BUNDLE_RUNS ?? 8));
const FIRST = Number(process.env.CHAOS_SEED ?? 1);
const CONCURRENCY = Number(process.env.CHAOS_CONCURRENCY ?? 12);

/** Runs `count` seeds in `mode` and checks the figures every chaos run must meet. */
async function chaos(expect: ExpectStatic, mode: ChaosMode, count: number, report: string | undefined) {
  const started = Date.now();
  const seeds = Array.from({ length: count }, (_, i) => FIRST + i);
  const outcomes: ChaosOutcome[] = await pool(seeds, CONCURRENCY, (seed) => chaosRun(seed, mode));
  const figures = { ...totals(outcomes), mode, wallMs: Date.now() - started, concurrency: CONCURRENCY };
  console.log(`chaos figures: ${JSON.stringify(figures)}`);
  if (report) writeFileSync(report, `${JSON.stringify({ figures, outcomes }, null, 2)}\n`);
  const bad = outcomes
    .filter((o) => o.problems.length > 0)
    .map((o) => `seed ${o.seed}: ${o.problems.join('\n  ')}`);
  expect(bad).toEqual([]);
  expect(figures.wrongVerdicts).toBe(0);
  expect(figures.duplicateTriggers).toBe(0);
  expect(figures.secretLeaks).toBe(0);
  // The suite did break things: faults were injected and some runs met them.
  expect(figures.faultsInjected).toBeGreaterThan(count / 2);
  expect(figures.rightTests).toBeGreaterThan(0);
  return figures;
}

describe.concurrent('chaos: the action under injected faults', () => {
  it(
    `${RUNS} seeded runs in-process on virtual time at a ${CHAOS_RATE * 100} % fault rate (every 10th at ${STORM_RATE * 100} %): right verdicts or labelled infrastructure errors, one trigger per run, no leak, no hang`,
    async ({ expect }) => {
      const figures = await chaos(expect, 'virtual', RUNS, process.env.CHAOS_REPORT);
      if (RUNS >= 50) expect(Object.keys(figures.faults).sort()).toEqual([...CHAOS_KINDS].sort());
    },
    Math.max(120_000, RUNS * 3_000),
  );

  it(
    `the first ${BUNDLE_RUNS} seeds as the bundled action (a child process on real time): the same checks, and the exit code, stderr and no unhandled rejection of a real process`,
    async ({ expect }) => {
      const report = process.env.CHAOS_REPORT?.replace(/(\.json)?$/, '.bundle.json');
      await chaos(expect, 'bundle', BUNDLE_RUNS, report);
    },
    Math.max(120_000, BUNDLE_RUNS * 15_000),
  );
});
