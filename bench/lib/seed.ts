/**
 * The benchmark's emulator seed: one organization, one API key per client, and generated suites and tests
 * whose simulated runs last a set time (scenario `runDurationMs`, real time at time scale 1).
 *
 * Visuals are disabled on every suite: the emulator renders placeholder screenshots synchronously (about
 * 0.2 s of CPU each), which would stall the emulator, and every client with it, and blur what is measured.
 */
import type { Scenario, SeedFile } from '../../emulator/index.js';

export const ORG = 'org-bench';
/** API key of our action; the official client has its own, so the two are separate callers. */
export const ACTION_KEY = 'bench-action-key';
export const OFFICIAL_KEY = 'bench-official-key';
/**
 * API key of an account of its own, used only to probe whether the emulator limits the request rate
 * (shared-account.ts), so the probe cannot spend the other clients' allowance.
 */
export const PROBE_KEY = 'bench-probe-key';
const PROBE_ORG = 'org-bench-probe';

export interface SuiteSpec {
  /** Suite id; must not be a prefix-and-slash of another id (ids are matched as `/suites/<id>/`). */
  id: string;
  tests: number;
  /** Each test's run duration, ms; a function gives each test its own (called with the test's number, 1-based). */
  runDurationMs: number | ((test: number) => number);
  /** Steps per test (default 3). */
  steps?: number;
}

type SeedSuite = NonNullable<SeedFile['suites']>[number];
type SeedTest = NonNullable<SeedFile['tests']>[number];

/** The simulated executor's scenario of a passing run of `steps` steps lasting `runDurationMs`. */
export function passingScenario(runDurationMs: number, steps = 3): Scenario {
  return {
    outcome: 'pass',
    stepDurationsMs: Math.min(500, runDurationMs / (steps + 1)),
    runDurationMs,
  };
}

/** Collects suites and tests, then builds the seed. */
export class SeedBuilder {
  private readonly suites: SeedSuite[] = [];
  private readonly tests: SeedTest[] = [];

  /** Adds a suite of `tests` tests (ids `<suite id>-t<n>`), each lasting `runDurationMs`. */
  suite(spec: SuiteSpec): string {
    this.suites.push({
      _id: spec.id,
      name: `Bench ${spec.id}`,
      organization: ORG,
      startUrl: 'https://shop.bench.example/',
      disableVisuals: true,
    });
    const duration = spec.runDurationMs;
    for (let i = 1; i <= spec.tests; i++) {
      const ms = typeof duration === 'number' ? duration : duration(i);
      this.addTest(spec.id, `${spec.id}-t${i}`, ms, spec.steps);
    }
    return spec.id;
  }

  /** Adds one test to an existing suite (run on its own with test ids); returns its id. */
  test(suiteId: string, testId: string, runDurationMs: number): string {
    this.addTest(suiteId, testId, runDurationMs, 3);
    return testId;
  }

  private addTest(suiteId: string, testId: string, runDurationMs: number, steps = 3): void {
    this.tests.push({
      _id: testId,
      name: `Checkout step ${testId}`,
      suite: suiteId,
      startUrl: 'https://shop.bench.example/',
      steps: Array.from({ length: steps }, (_, i) => ({
        command: i === 0 ? 'assertTextPresent' : 'click',
        target: i === 0 ? 'h1' : `#step-${i}`,
        value: i === 0 ? 'Shop' : '',
      })),
      scenario: passingScenario(runDurationMs, steps),
    });
  }

  build(): SeedFile {
    return {
      users: [{ _id: 'user-bench', firstName: 'Bench', lastName: 'User' }],
      organizations: [
        { _id: ORG, name: 'Benchmark', plan: { maxCsvUploadRows: 1000, testRuns: 10_000_000 } },
        { _id: PROBE_ORG, name: 'Rate limit probe' },
      ],
      apiKeys: [
        { key: ACTION_KEY, user: 'user-bench', organizations: [ORG] },
        { key: OFFICIAL_KEY, user: 'user-bench', organizations: [ORG] },
        { key: PROBE_KEY, user: 'user-bench', organizations: [PROBE_ORG] },
      ],
      suites: this.suites,
      tests: this.tests,
    };
  }
}
