/**
 * `retry-failed` in the run engine, with the real client against the emulator on loopback and virtual time:
 * which test is re-run and how, the `retrying` and `retry-problem` events, a stop during a re-run, the
 * test's final state and fail-fast once its re-runs are spent.
 */
import { afterEach, describe, expect, it, onTestFinished } from 'vitest';
import type { EngineOptions, RunPlan } from '../../../../src/run/engine.js';
import type { RunEvent } from '../../../../src/run/events.js';
import type { TestDefinition } from '../../../../src/api/types.js';
import type { RepoTest } from '../../../../src/inputs/test-files.js';
import { executePaths, runInWorld } from '../../../support/run-factories.js';
import { useWorld } from '../../../support/world.js';

const API_KEY = 'retry-test-key';

// The emulator and the engine on one virtual clock (`test/support/world.ts`).
const world = useWorld({ apiKey: API_KEY });
afterEach(() => {
  world.emulator.setFaults('');
  for (const id of ['test-home', 'test-login', 'test-receipt']) world.emulator.setScenario(id, null);
});

/** Runs `plan` on the virtual clock; every event is kept, and `onEvent` hears each as it comes. */
const run = (
  plan: Partial<RunPlan>,
  onEvent: (e: RunEvent) => void = () => undefined,
  more: Partial<EngineOptions> = {},
) => runInWorld(world, API_KEY, plan, { onEvent, ...more });

const executes = (): string[] => executePaths(world.emulator);

const retryProblems = (events: RunEvent[]) => events.filter((e) => e.type === 'retry-problem');

/** The emulator's ended runs of `testId`, in the order they ended: `finished` or `cancelled`. */
const endedRuns = (testId: string): string[] =>
  world.emulator
    .runs()
    .filter((r) => r.testId === testId)
    .map((r) => r.condition);

/** Calls `then` once, at the first `retrying` event. */
const atFirstRetry =
  (then: () => void) =>
  (e: RunEvent): void => {
    if (e.type !== 'retrying' || e.attempt !== 2) return;
    then();
  };

describe('which test is re-run, and how', () => {
  it('a failed test of a suite run is re-run alone, as a test (never the whole suite)', async () => {
    const { summary } = await run({ suiteIds: ['suite-checkout'], retryFailed: 1 });
    expect(executes()).toEqual(['/v1/suites/suite-checkout/execute', '/v1/tests/test-payment/execute']);
    const payment = summary.runs[0]!.tests.find((t) => t.testName === 'Pay by card')!;
    expect(payment.state).toBe('failed');
    expect(payment.attempts).toHaveLength(1);
    expect(payment.result?.suiteResult ?? null).toBeNull();
  });

  it('a test run under a start URL is re-run under it', async () => {
    const startUrl = 'https://staging.shop.test/';
    const { summary } = await run({ testIds: ['test-payment'], startUrls: [startUrl], retryFailed: 1 });
    const test = summary.runs[0]!.tests[0]!;
    expect(test.attempts.map((a) => a.startUrl)).toEqual([startUrl]);
    expect(test.result?.startUrl).toBe(startUrl);
  });
});

describe('which test is not re-run', () => {
  it('with retry-failed 0: a failed test is told finished once and never re-run', async () => {
    const { summary, events } = await run({ testIds: ['test-payment'] });
    expect(events.filter((e) => e.type === 'test-finished')).toHaveLength(1);
    expect(executes()).toHaveLength(1);
    expect(summary.runs[0]!.tests[0]!.state).toBe('failed');
  });

  it('a failed test whose result names no test (an answer without its test reference): nothing to re-run it by', async () => {
    const { summary, events } = await run({ testIds: ['test-payment'], retryFailed: 1 }, (e) => {
      if (e.type !== 'run-started') return;
      // The service's answers for this result leave out the test it ran.
      for (const id of e.resultIds) world.emulator.store.results.get(id)!.test = null as never;
    });
    expect(summary.runs[0]!.tests[0]!.state).toBe('failed');
    expect(events.filter((e) => e.type === 'retrying')).toEqual([]);
    expect(retryProblems(events)).toEqual([]);
    expect(executes()).toHaveLength(1);
  });
});

describe('the retrying events', () => {
  it('one per re-run, counting the attempt from 2 of the runs allowed (retry-failed + 1)', async () => {
    const { summary, events } = await run({ testIds: ['test-payment'], retryFailed: 2 });
    expect(events.filter((e) => e.type === 'retrying')).toEqual([
      { type: 'retrying', testName: 'Pay by card', variant: {}, attempt: 2, attempts: 3 },
      { type: 'retrying', testName: 'Pay by card', variant: {}, attempt: 3, attempts: 3 },
    ]);
    const test = summary.runs[0]!.tests[0]!;
    expect(test.state).toBe('failed');
    expect(test.attempts).toHaveLength(2);
    expect(retryProblems(events)).toEqual([]);
  });
});

describe('a re-run that passes', () => {
  it('ends the re-runs: the test is flaky, its failed first result an earlier attempt', async () => {
    world.emulator.setScenario('test-login', { failFirst: 1, failingStep: 1, error: 'Flaky element' });
    const { summary, events } = await run({ testIds: ['test-login'], retryFailed: 3 });
    expect(events.filter((e) => e.type === 'retrying')).toHaveLength(1);
    const test = summary.runs[0]!.tests[0]!;
    expect(test.state).toBe('flaky');
    expect(test.attempts.map((a) => a.passing)).toEqual([false]);
    expect(test.result?.passing).toBe(true);
  });
});

describe('finished tests as the heartbeat counts them', () => {
  it('a re-run, flaky or failed again, is no further finished test', async () => {
    world.emulator.setScenario('test-login', { failFirst: 1, failingStep: 1, error: 'Flaky element' });
    // Still running at the first heartbeat (60 s), when the other two and their re-runs are over.
    world.emulator.setScenario('test-home', { outcome: 'pass', runDurationMs: 90_000 });
    const { summary, events } = await run(
      { testIds: ['test-payment', 'test-login', 'test-home'], retryFailed: 1 },
      undefined,
      { heartbeatMs: 60_000 },
    );
    // The three executes are in flight at once: the runs are in the order they were answered.
    expect(Object.fromEntries(summary.runs.map((r) => [r.testId, r.tests[0]!.state]))).toEqual({
      'test-payment': 'failed',
      'test-login': 'flaky',
      'test-home': 'passed',
    });
    const beat = events.find((e) => e.type === 'heartbeat');
    expect(beat).toMatchObject({ running: 1, finishedTests: 2 });
  });
});

describe('retry problems', () => {
  it('a re-run the service refuses (the test was deleted meanwhile): not-sent with the reason', async () => {
    const { tests } = world.emulator.store;
    const payment = tests.get('test-payment')!;
    try {
      const { summary, events } = await run(
        { testIds: ['test-payment'], retryFailed: 2 },
        atFirstRetry(() => tests.delete('test-payment')),
      );
      expect(retryProblems(events)).toEqual([
        {
          type: 'retry-problem',
          testName: 'Pay by card',
          variant: {},
          problem: 'not-sent',
          message: expect.stringMatching(/\/v1\/tests\/test-payment\/execute/),
        },
      ]);
      // No further attempt after a re-run that could not be sent; the test keeps its first result.
      expect(events.filter((e) => e.type === 'retrying')).toHaveLength(1);
      const test = summary.runs[0]!.tests[0]!;
      expect(test.state).toBe('failed');
      expect(test.attempts).toEqual([]);
    } finally {
      tests.set('test-payment', payment);
    }
  });

  it('a re-run whose answer is lost and that cannot be found: told once, not-found with the reason', async () => {
    // A 502 is not handled: no run exists, yet the execute may have arrived.
    const { summary, events } = await run(
      { testIds: ['test-payment'], retryFailed: 1 },
      atFirstRetry(() => world.emulator.setFaults('route=POST /v1/tests/*/execute:502x1')),
    );
    const names = { testName: 'Pay by card', variant: {} };
    expect(retryProblems(events)).toEqual([
      {
        type: 'retry-problem',
        ...names,
        problem: 'not-found',
        message: expect.stringMatching(/502.*The run may have started/),
      },
    ]);
    expect(executes()).toHaveLength(2);
    expect(summary.runs[0]!.tests[0]!.state).toBe('failed');
  });

  it('a re-run whose answer is lost and that is found: followed to its end, no problem told', async () => {
    world.emulator.setScenario('test-login', { failFirst: 1, failingStep: 1, error: 'Flaky element' });
    const { summary, events } = await run(
      { testIds: ['test-login'], retryFailed: 1 },
      atFirstRetry(() => world.emulator.setFaults('route=POST /v1/tests/*/execute:reset-afterx1')),
    );
    expect(retryProblems(events)).toEqual([]);
    expect(executes()).toHaveLength(2);
    expect(summary.runs[0]!.tests[0]!.state).toBe('flaky');
  });

  it('a re-run whose result cannot be read: not-read with the reason; the test keeps its first result', async () => {
    const { summary, events } = await run(
      { testIds: ['test-payment'], retryFailed: 1 },
      atFirstRetry(() => world.emulator.setFaults('route=GET /v1/results/*:500')),
    );
    expect(retryProblems(events)).toEqual([
      {
        type: 'retry-problem',
        testName: 'Pay by card',
        variant: {},
        problem: 'not-read',
        message: expect.stringMatching(/could not be read/),
      },
    ]);
    const test = summary.runs[0]!.tests[0]!;
    expect(test.state).toBe('failed');
    expect(test.attempts).toEqual([]);
    expect(endedRuns('test-payment')).toEqual(['finished', 'finished']);
  });
});

describe('a re-run answered with a run followed already', () => {
  it("another test's re-run named again: not-read, that run followed once; the engine returns", async () => {
    // Two browsers: two failed tests re-run at once; the second re-run is answered with the first's result.
    const real = world.client({ apiKey: API_KEY });
    let sent = 0;
    let first: ReturnType<typeof real.executeTest> | undefined;
    const api = {
      ...real,
      executeTest: (...args: Parameters<typeof real.executeTest>) => {
        sent += 1;
        if (sent === 3) return first!;
        const answer = real.executeTest(...args);
        if (sent === 2) first = answer;
        return answer;
      },
    };
    const done = new AbortController();
    const running = run(
      {
        testIds: ['test-payment'],
        retryFailed: 1,
        execute: { disableVisuals: true, browser: ['chrome', 'firefox'] },
      },
      () => undefined,
      { api },
    );
    const late = world.clock.sleep(120_000, done.signal).then(() => 'not returned' as const);
    const outcome = await Promise.race([running, late]);
    done.abort();
    expect(outcome).not.toBe('not returned');
    const { summary, events } = await running;
    expect(sent).toBe(3);
    expect(retryProblems(events)).toEqual([
      expect.objectContaining({ problem: 'not-read', message: expect.stringMatching(/followed already/) }),
    ]);
    const tests = summary.runs.map((r) => r.tests[0]!);
    expect(tests.map((t) => [t.state, t.attempts.length]).sort()).toEqual([
      ['failed', 0],
      ['failed', 1],
    ]);
  });
});

describe('a workflow cancel and the re-runs', () => {
  it('a test that fails as the workflow is cancelled is not re-run', async () => {
    const stop = new AbortController();
    const { events } = await run(
      { testIds: ['test-payment'], retryFailed: 1 },
      (e) => {
        if (e.type === 'test-finished') stop.abort();
      },
      { signal: stop.signal },
    );
    expect(events.filter((e) => e.type === 'retrying')).toEqual([]);
    expect(executes()).toHaveLength(1);
  });

  it('a re-run still running is cancelled remotely', async () => {
    const stop = new AbortController();
    const { summary, events } = await run(
      { testIds: ['test-payment'], retryFailed: 1 },
      // The re-run takes 7.5 s: the workflow is cancelled 1 s into it.
      atFirstRetry(() => void world.clock.sleep(1_000).then(() => stop.abort())),
      { signal: stop.signal },
    );
    expect(summary.interrupted).toBe('signal');
    expect(endedRuns('test-payment')).toEqual(['finished', 'cancelled']);
    expect(events.filter((e) => e.type === 'cancel-failed')).toEqual([]);
    expect(retryProblems(events)).toEqual([]);
  });

  it('a re-run whose execute is in flight is aborted and looked up: not found, told as may have started', async () => {
    const stop = new AbortController();
    const { summary, events } = await run(
      { testIds: ['test-payment'], retryFailed: 1 },
      atFirstRetry(() => {
        // The re-run's execute is handled only after 20 s; the workflow is cancelled 1 s into it.
        world.emulator.setFaults('route=POST /v1/tests/*/execute:slow,delay=20000');
        void world.clock.sleep(1_000).then(() => stop.abort());
      }),
      { signal: stop.signal },
    );
    expect(summary.interrupted).toBe('signal');
    expect(retryProblems(events)).toEqual([
      {
        type: 'retry-problem',
        testName: 'Pay by card',
        variant: {},
        problem: 'not-found',
        message: expect.stringMatching(/execute.*: aborted\. The run may have started/),
      },
    ]);
    expect(summary.runs[0]!.tests[0]!.state).toBe('failed');
    // The emulator still handles the abandoned execute after its delay: that re-run ends within this test.
    await world.clock.sleep(30_000);
  });

  it('a re-run whose answer is lost, found after the cancel: cancelled remotely, no problem told', async () => {
    const stop = new AbortController();
    const { summary, events } = await run(
      { testIds: ['test-payment'], retryFailed: 1 },
      atFirstRetry(() => {
        // The re-run starts but its answer is lost; the first look for it fails once (a 503, read again
        // after a back-off of at least 250 ms): the workflow is cancelled meanwhile.
        world.emulator.setFaults(
          'route=POST /v1/tests/*/execute:reset-afterx1,route=GET /v1/tests/*/running*:503x1',
        );
        void world.clock.sleep(100).then(() => stop.abort());
      }),
      { signal: stop.signal },
    );
    expect(summary.interrupted).toBe('signal');
    expect(endedRuns('test-payment')).toEqual(['finished', 'cancelled']);
    expect(events.filter((e) => e.type === 'cancel-failed')).toEqual([]);
    expect(retryProblems(events)).toEqual([]);
    expect(summary.runs[0]!.tests[0]!.state).toBe('failed');
  });
});

describe('fail-fast after re-runs', () => {
  it("a test whose re-runs are spent stops its suite run's other re-runs at once", async () => {
    // The receipt test fails too, after 30 s: its re-run is still running when the payment's has failed.
    world.emulator.setScenario('test-receipt', { outcome: 'fail', runDurationMs: 30_000 });
    const { summary, events } = await run({ suiteIds: ['suite-checkout'], retryFailed: 1, failFast: true });
    expect(summary.interrupted).toBe('fail-fast');
    expect(events.find((e) => e.type === 'fail-fast')).toMatchObject({ test: { testName: 'Pay by card' } });
    expect(endedRuns('test-payment')).toEqual(['finished', 'finished']);
    expect(endedRuns('test-receipt')).toEqual(['finished', 'cancelled']);
  });
});

describe('a failed repository test file', () => {
  const steps = [{ sequence: 0, command: 'assertElementPresent', target: '#pay', value: '' }];
  const definition = {
    name: 'Pay from the repository',
    startUrl: 'https://shop.test/login',
    steps,
  } as unknown as TestDefinition;
  const staging = 'https://staging.shop.test';
  const repoTest: RepoTest = {
    file: 'tests/pay.json',
    index: 0,
    name: definition.name,
    definition,
    byStartUrl: new Map([[staging, { ...definition, startUrl: `${staging}/login` }]]),
  };
  const onDemand = () =>
    world.emulator.requests().filter((q) => q.method === 'POST' && q.path.includes('/on-demand/execute'));

  it('is re-run from its definition as first sent: the start URL it was rebased onto', async () => {
    // The emulator's scenario for an on-demand test, by its name: every run of it fails.
    world.emulator.setScenario(definition.name, { outcome: 'fail' });
    onTestFinished(() => world.emulator.setScenario(definition.name, null));
    const { summary } = await run({
      repoTests: [repoTest],
      startUrls: [staging],
      retryFailed: 1,
    });
    const [first, rerun] = onDemand();
    expect(onDemand()).toHaveLength(2);
    expect(rerun!.query).toBe(first!.query);
    const test = summary.runs[0]!.tests[0]!;
    expect(test.state).toBe('failed');
    const shown = `${staging}/login`;
    expect([...test.attempts, test.result].map((r) => r?.startUrl)).toEqual([shown, shown]);
  });
});
