/**
 * `fail-fast` in the run engine, with the real client against the emulator on loopback: the first test
 * failed for good cancels every other active run remotely; those runs are reported cancelled by fail-fast.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { runPlan } from '../../../../src/run/engine.js';
import type { RunEvent } from '../../../../src/run/events.js';
import { decideVerdict } from '../../../../src/run/outcome/outcome.js';
import { runPlanOf } from '../../../support/run-factories.js';
import { useWorld } from '../../../support/world.js';

const API_KEY = 'fail-fast-test-key';

// The emulator and the engine on one virtual clock (`test/support/world.ts`).
const world = useWorld({ apiKey: API_KEY });
beforeAll(() => {
  // The smoke suite's first test never ends by itself: only a cancel ends its runs. Its other two tests
  // pass after 3 s, well before Pay by card fails (7.5 s: three steps of 1.5 s and the 3 s tail).
  world.emulator.setScenario('test-home', { hang: true });
  world.emulator.setScenario('test-login', { outcome: 'pass', runDurationMs: 3_000 });
  world.emulator.setScenario('test-search', { outcome: 'pass', runDurationMs: 3_000 });
});

const plan = runPlanOf;

const POLICY = { failOnEmpty: true, failOnTimeout: true, failOnScreenshotCompare: false };

/** The ids the action asked the emulator to cancel, suite results and test results. */
function cancelled(): string[] {
  return world.emulator
    .requests()
    .filter((q) => q.method === 'POST' && /\/cancel\/?$/.test(q.path))
    .map((q) => q.path.replace(/^\/v1\/(suite-results|results)\/([^/]+)\/cancel\/?$/, '$2'));
}

describe('fail-fast', () => {
  it('the first failed test cancels every other active run remotely; they are reported cancelled by fail-fast', async () => {
    const api = world.client({ apiKey: API_KEY });
    const events: RunEvent[] = [];
    const summary = await runPlan(
      plan({
        testIds: ['test-payment', 'test-home'],
        suiteIds: ['suite-smoke', 'suite-smoke'],
        failFast: true,
      }),
      { api, clock: world.clock, onEvent: (e) => events.push(e) },
    );
    expect(summary.interrupted).toBe('fail-fast');
    const failed = summary.runs.find((r) => r.testId === 'test-payment')!;
    expect(failed.tests.map((t) => t.state)).toEqual(['failed']);
    const others = summary.runs.filter((r) => r !== failed);
    expect(others).toHaveLength(3);
    for (const run of others) {
      expect(run.cancelled).toBe(true);
      expect(run.error).toBe('Cancelled by fail-fast: another test failed.');
    }
    // Each other run was cancelled remotely, once; the failed one never.
    const ids = others.map((r) => r.suiteResultId ?? r.testResultId);
    expect(cancelled().sort()).toEqual([...ids].sort());
    expect(cancelled()).not.toContain(failed.testResultId);
    expect(
      world.emulator
        .runs()
        .filter((f) => f.condition === 'cancelled')
        .map((f) => f.resultId),
    ).toEqual(expect.arrayContaining(ids));
    // The hanging test is cancelled with the reason; the smoke suites' other tests had passed.
    const home = others.flatMap((r) => r.tests).filter((t) => t.testName === 'Home page loads');
    expect(home).toHaveLength(3);
    for (const t of home) {
      expect(t.state).toBe('cancelled');
      expect(t.error).toBe('Cancelled by fail-fast: another test failed.');
    }
    expect(events.filter((e) => e.type === 'cancelling')).toEqual([
      { type: 'cancelling', count: 3, late: false, reason: 'fail-fast' },
    ]);
    const ff = events.find((e) => e.type === 'fail-fast');
    expect(ff).toMatchObject({ type: 'fail-fast', test: { testName: 'Pay by card' }, others: 3 });
    const verdict = decideVerdict(summary, POLICY);
    expect(verdict.status).toBe('failed');
    expect(verdict.counts.failed).toBe(1);
    expect(verdict.counts.cancelled).toBe(3);
    expect(verdict.counts.total).toBe(1 + 1 + 3 + 3);
  });

  it('under retry-failed a failed test stops the others only once its re-runs are spent', async () => {
    const api = world.client({ apiKey: API_KEY });
    const events: RunEvent[] = [];
    const summary = await runPlan(
      plan({ testIds: ['test-payment', 'test-home'], retryFailed: 2, failFast: true }),
      { api, clock: world.clock, onEvent: (e) => events.push(e) },
    );
    const types = events.map((e) => e.type).filter((t) => t === 'retrying' || t === 'fail-fast');
    expect(types).toEqual(['retrying', 'retrying', 'fail-fast']);
    const failed = summary.runs.find((r) => r.testId === 'test-payment')!;
    expect(failed.tests[0]!.state).toBe('failed');
    expect(failed.tests[0]!.attempts).toHaveLength(2);
    const home = summary.runs.find((r) => r.testId === 'test-home')!;
    expect(home.cancelled).toBe(true);
    expect(home.tests[0]!.state).toBe('cancelled');
    expect(cancelled()).toEqual([home.testResultId]);
  });

  it('under retry-failed a test that fails and then passes (flaky) stops nothing', async () => {
    const saved = world.emulator.store.scenarios.get('test-payment') ?? null;
    world.emulator.setScenario('test-payment', { failFirst: 1, failingStep: 1, error: 'Flaky element' });
    try {
      const api = world.client({ apiKey: API_KEY });
      const summary = await runPlan(
        plan({ testIds: ['test-payment', 'test-login'], retryFailed: 1, failFast: true }),
        { api, clock: world.clock },
      );
      expect(summary.interrupted).toBeUndefined();
      expect(summary.runs.map((r) => r.tests[0]!.state).sort()).toEqual(['flaky', 'passed']);
      expect(cancelled()).toEqual([]);
    } finally {
      world.emulator.setScenario('test-payment', saved);
    }
  });

  it('off (the default): a failed test cancels nothing', async () => {
    const api = world.client({ apiKey: API_KEY });
    const summary = await runPlan(plan({ suiteIds: ['suite-checkout', 'suite-checkout'] }), {
      api,
      clock: world.clock,
    });
    expect(summary.interrupted).toBeUndefined();
    expect(summary.runs.every((r) => !r.cancelled)).toBe(true);
    expect(cancelled()).toEqual([]);
  });
});

describe('stopping, as the stop phase decides it', () => {
  it("fail-fast looks at every test of a suite: the checkout suite's second test fails and stops the rest", async () => {
    const api = world.client({ apiKey: API_KEY });
    const summary = await runPlan(
      plan({ suiteIds: ['suite-checkout'], testIds: ['test-home'], failFast: true }),
      { api, clock: world.clock },
    );
    expect(summary.interrupted).toBe('fail-fast');
    const checkout = summary.runs.find((r) => r.kind === 'suite')!;
    expect(checkout.tests[0]!.state).toBe('passed');
    expect(checkout.tests.map((t) => t.state)).toContain('failed');
    expect(summary.runs.find((r) => r.testId === 'test-home')!.cancelled).toBe(true);
  });

  it('the deadline during the wrap-up of a fail-fast stop does not override it', async () => {
    // The suite's execute answers after 20 s: still in flight at the failure (7.5 s), given 5 s more; the
    // deadline (10 s) comes in between.
    world.emulator.setFaults('route=POST /v1/suites/*/execute:slow,delay=20000');
    try {
      const api = world.client({ apiKey: API_KEY });
      const summary = await runPlan(
        plan({ testIds: ['test-payment'], suiteIds: ['suite-smoke'], failFast: true, timeoutMs: 10_000 }),
        { api, clock: world.clock },
      );
      expect(summary.interrupted).toBe('fail-fast');
    } finally {
      world.emulator.setFaults('');
    }
  });

  it('at the deadline a run whose result is over keeps it, though its re-run still goes', async () => {
    const api = world.client({ apiKey: API_KEY });
    // Once the first result is over, the re-run's execute answers only after a minute.
    const onEvent = (e: RunEvent): void => {
      if (e.type === 'test-finished')
        world.emulator.setFaults('route=POST /v1/tests/*/execute:slow,delay=60000');
    };
    try {
      const summary = await runPlan(plan({ testIds: ['test-payment'], retryFailed: 1, timeoutMs: 20_000 }), {
        api,
        clock: world.clock,
        onEvent,
      });
      expect(summary.interrupted).toBe('deadline');
      const run = summary.runs[0]!;
      expect(run.timedOut).toBeFalsy();
      expect(run.tests.map((t) => t.state)).toEqual(['failed']);
    } finally {
      world.emulator.setFaults('');
    }
  });
});
