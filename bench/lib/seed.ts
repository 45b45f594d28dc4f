/**
 * The benchmark's emulator seed: accounts (user, organization and API key; see `Account`), and generated suites and tests
 * whose simulated runs last a set time (scenario `runDurationMs`, real time at time scale 1).
 *
 * Visuals are disabled on every suite: the emulator renders placeholder screenshots synchronously (about
 * 0.2 s of CPU each), which would stall the emulator, and every client with it, and blur what is measured.
 */
import type { Scenario, SeedFile } from '../../emulator/index.js';

/**
 * A caller of the service with a rate-limit bucket of its own. The service limits requests per account
 * (burst 300, then 10/s); the emulator keys that bucket on the API key's user, so every account here has a
 * user, an organization and an API key of its own. Cases that must not spend each other's allowance (the
 * two clients, each lag run) use different accounts; a case about several processes on one account shares
 * one on purpose.
 */
export interface Account {
  /** API key (its user is `user-<name>`). */
  key: string;
  /** Organization id: its suites, and the running list its action processes ask (`/organizations/{org}/running/`). */
  org: string;
}

/** The account named `name` (deterministic: cases compute it without asking the seed). */
export function account(name: string): Account {
  return { key: `bench-${name}-key`, org: `org-bench-${name}` };
}

/**
 * A second caller of account `name`'s organization with a user, hence a rate-limit bucket, of its own (e.g. a
 * later round of a case, so it does not start with the bucket an earlier round emptied). Seed it with
 * `SeedBuilder.caller`.
 */
export function callerKey(name: string, caller: string): string {
  return `bench-${name}-${caller}-key`;
}

/**
 * API key of a third party (a user in the web app) that sees every organization: it cancels runs "in the
 * app" (early.ts). A user of its own, so its requests never spend the clients' allowance.
 */
export const APP_KEY = 'bench-app-key';

export interface SuiteSpec {
  /** Name of the account (`account(name)`) whose organization holds the suite. */
  account: string;
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
  private readonly accounts = new Set<string>();
  private readonly callers: Array<{ name: string; caller: string }> = [];

  /** Adds the account named `name` (also done by `suite`); returns it. */
  account(name: string): Account {
    this.accounts.add(name);
    return account(name);
  }

  /** Adds a second caller of account `name` (`callerKey`), a user of its own; returns its API key. */
  caller(name: string, caller: string): string {
    this.account(name);
    this.callers.push({ name, caller });
    return callerKey(name, caller);
  }

  /** Adds a suite of `tests` tests (ids `<suite id>-t<n>`), each lasting `runDurationMs`. */
  suite(spec: SuiteSpec): string {
    this.account(spec.account);
    this.suites.push({
      _id: spec.id,
      name: `Bench ${spec.id}`,
      organization: account(spec.account).org,
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
    const names = [...this.accounts].sort();
    return {
      users: [
        ...names.map((n) => ({ _id: `user-${n}`, firstName: 'Bench', lastName: n })),
        ...this.callers.map((c) => ({
          _id: `user-${c.name}-${c.caller}`,
          firstName: 'Bench',
          lastName: c.caller,
        })),
        { _id: 'user-app', firstName: 'App', lastName: 'User' },
      ],
      organizations: names.map((n) => ({
        _id: account(n).org,
        name: `Benchmark ${n}`,
        plan: { maxCsvUploadRows: 1000, testRuns: 10_000_000 },
      })),
      apiKeys: [
        ...names.map((n) => ({ key: account(n).key, user: `user-${n}`, organizations: [account(n).org] })),
        ...this.callers.map((c) => ({
          key: callerKey(c.name, c.caller),
          user: `user-${c.name}-${c.caller}`,
          organizations: [account(c.name).org],
        })),
        { key: APP_KEY, user: 'user-app', organizations: names.map((n) => account(n).org) },
      ],
      suites: this.suites,
      tests: this.tests,
    };
  }
}
