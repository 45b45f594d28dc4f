/**
 * Watch cost scenarios: suites and single tests of chosen durations run by the engine, in process, against
 * the emulator on loopback, both on one virtual clock (`world.ts`: production durations, the
 * emulator's not-found window and rate limit at their defaults, time figures exact virtual ms). The client
 * and the request budget are wired as the action wires them. Figures: requests counted at the emulator, by
 * kind; per run; the busiest second; lag from the emulator's finish record to the run's end in the engine.
 * Used by test/unit/run/follow/watch.test.ts and scripts/measure-watch.ts.
 */
import { RateBudget } from '../../src/api/budget.js';
import { runPlan, type RunPlan } from '../../src/run/engine.js';
import type { RunSummary } from '../../src/run/types.js';
import type { SeedFile } from '../../emulator/index.js';
import { runPlanOf } from './run-factories.js';
import type { Client, World } from './world.js';

export const WATCH_ORG = 'org-watch';
export const WATCH_KEY = 'watch-cost-key';

/** A suite of tests, each lasting its own time (ms), or a single test. */
export interface RunSpec {
  kind: 'suite' | 'test';
  id: string;
  /** One duration per test of the suite; one for a single test. ms. */
  durationsMs: number[];
  /** Outcome of every test (default pass). */
  outcome?: 'pass' | 'fail';
}

const STEPS = 3;

/** A simulated run of `ms`. */
function scenario(ms: number, outcome: 'pass' | 'fail' = 'pass') {
  return { outcome, stepDurationsMs: ms / (STEPS + 1), runDurationMs: ms };
}

/**
 * A seed with one organization, a suite of tests for each suite of `specs` and its single tests (in a box
 * suite), for `startWorld({ seed: watchSeed(specs) })`.
 */
export function watchSeed(specs: RunSpec[]): SeedFile {
  const suites: NonNullable<SeedFile['suites']> = [
    { _id: 'box', name: 'Box', organization: WATCH_ORG, disableVisuals: true },
  ];
  const tests: NonNullable<SeedFile['tests']> = [];
  const steps = Array.from({ length: STEPS }, (_, i) => ({ command: 'click', target: `#s${i}`, value: '' }));
  for (const spec of specs) {
    if (spec.kind === 'suite') {
      suites.push({ _id: spec.id, name: spec.id, organization: WATCH_ORG, disableVisuals: true });
    }
    spec.durationsMs.forEach((ms, i) => {
      const id = spec.kind === 'suite' ? `${spec.id}-t${i + 1}` : spec.id;
      const suite = spec.kind === 'suite' ? spec.id : 'box';
      tests.push({ _id: id, name: id, suite, steps, scenario: scenario(ms, spec.outcome) });
    });
  }
  return {
    users: [{ _id: 'user-watch', firstName: 'Watch', lastName: 'User' }],
    organizations: [{ _id: WATCH_ORG, name: 'Watch', plan: { testRuns: 10_000_000 } }],
    apiKeys: [{ key: WATCH_KEY, user: 'user-watch', organizations: [WATCH_ORG] }],
    suites,
    tests,
  } as SeedFile;
}

/** Gives the tests of `spec` new durations (ms) and outcome. */
export function setDurations(bed: World, spec: RunSpec): void {
  spec.durationsMs.forEach((ms, i) => {
    const id = spec.kind === 'suite' ? `${spec.id}-t${i + 1}` : spec.id;
    bed.emulator.setScenario(id, scenario(ms, spec.outcome));
  });
}

/** The API client and request budget of one action process, wired as the action wires them. */
export function actionApi(bed: World): { api: Client; budget: RateBudget } {
  const budget = new RateBudget({ clock: bed.clock });
  return { api: bed.client({ apiKey: WATCH_KEY, budget }), budget };
}

/**
 * Starts `specs` in one engine run (one action process); `organization` false: without the organization id;
 * `over` replaces fields of the plan.
 */
export function startRuns(
  bed: World,
  specs: RunSpec[],
  organization = true,
  over: Partial<RunPlan> = {},
): Promise<RunSummary> {
  for (const s of specs) setDurations(bed, s);
  const plan = { ...planOf(specs), ...(organization ? {} : { organizationId: null }), ...over };
  return runPlan(plan, { api: actionApi(bed).api, clock: bed.clock });
}

/** The plan of one engine run of `specs` (`runPlanOf`'s, in the watch organization, a 10 min timeout). */
export function planOf(specs: RunSpec[]): RunPlan {
  return runPlanOf({
    suiteIds: specs.filter((s) => s.kind === 'suite').map((s) => s.id),
    testIds: specs.filter((s) => s.kind === 'test').map((s) => s.id),
    organizationId: WATCH_ORG,
    timeoutMs: 600_000,
  });
}

/** What a request was. */
export function requestKind(path: string): 'execute' | 'history' | 'list' | 'page' | 'poll' | 'other' {
  if (/\/execute\/?$/.test(path)) return 'execute';
  if (/\/organizations\/[^/]+\/running\/?$/.test(path)) return 'list';
  if (/\/(suites|tests)\/[^/]+\/results\/?$/.test(path)) return 'history';
  if (/\/suite-results\/[^/]+\/results\/?$/.test(path)) return 'page';
  if (/\/(suite-results|results)\/[^/]+\/?$/.test(path)) return 'poll';
  return 'other';
}

/** Figures of one scenario run. */
export interface WatchFigures {
  summaries: RunSummary[];
  runs: number;
  requests: number;
  byKind: Record<string, number>;
  perRun: number;
  /** Requests per second over the engine runs' whole wall time. */
  ratePerSecond: number;
  /** Most requests in any 1 s window. */
  busiestSecond: number;
  /** Per run: ms from the emulator's finish record to the run's end in the engine. */
  lagsMs: number[];
  /** Requests (ms since the first) in order. */
  times: number[];
  /** Answers with HTTP 429. */
  rateLimited: number;
}

/** The official client's requests for a run of `ms` (1 execute + one poll per started 5 s, + 1 page for a suite). */
export function officialRequests(kind: 'suite' | 'test', ms: number): number {
  return 1 + Math.ceil(ms / 5_000) + (kind === 'suite' ? 1 : 0);
}

/**
 * Runs `specs` at once: in one engine run (`together`), or each in an engine run of its own (as separate
 * action processes do), and measures. `organization` false: the plan has no organization id (as without
 * the `organization-id` input); `over` replaces fields of the plan.
 */
export function runWatch(
  bed: World,
  specs: RunSpec[],
  together = true,
  organization = true,
  over: Partial<RunPlan> = {},
): Promise<WatchFigures> {
  return runProcesses(bed, together ? [specs] : specs.map((s) => [s]), organization, over);
}

/**
 * Runs each group of `groups` in an engine run of its own (an action process with its own client and
 * budget), all at once on the one account, and measures as `runWatch`.
 */
export async function runProcesses(
  bed: World,
  groups: RunSpec[][],
  organization = true,
  over: Partial<RunPlan> = {},
): Promise<WatchFigures> {
  bed.emulator.resetLog();
  const startedAt = bed.clock.now();
  const summaries = await Promise.all(groups.map((g) => startRuns(bed, g, organization, over)));
  const endedAt = bed.clock.now();
  const requests = bed.emulator.requests();
  const byKind: Record<string, number> = {};
  for (const q of requests) byKind[requestKind(q.path)] = (byKind[requestKind(q.path)] ?? 0) + 1;
  const times = requests.map((q) => q.time).sort((a, b) => a - b);
  let busiest = 0;
  for (let i = 0, j = 0; i < times.length; i++) {
    while (times[i]! - times[j]! >= 1_000) j++;
    busiest = Math.max(busiest, i - j + 1);
  }
  const records = bed.emulator.runs();
  const lagsMs: number[] = [];
  for (const summary of summaries) {
    for (const run of summary.runs) {
      const id = run.kind === 'suite' ? run.suiteResultId : run.testResultId;
      const record = records.find((r) => r.resultId === id);
      if (record && run.endedAt) lagsMs.push(Date.parse(run.endedAt) - record.finishedAt);
    }
  }
  const runs = summaries.reduce((n, s) => n + s.runs.length, 0);
  return {
    summaries,
    runs,
    requests: requests.length,
    byKind,
    perRun: requests.length / runs,
    ratePerSecond: requests.length / ((endedAt - startedAt) / 1_000),
    busiestSecond: busiest,
    lagsMs,
    times: times.map((t) => t - (times[0] ?? 0)),
    rateLimited: requests.filter((q) => q.status === 429).length,
  };
}
