/**
 * The stop phase of the run engine (`src/run/stop/stop.ts`, docs/architecture.md): what a workflow cancel
 * and the deadline send to the service, what they tell, and how each open run ends. The real client against
 * the emulator on loopback, both on one virtual clock (`test/support/world.ts`).
 */
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { TestResult } from '../../../../src/api/types.js';
import type { RunPlan } from '../../../../src/run/engine.js';
import type { RunEvent } from '../../../../src/run/events.js';
import { runInWorld } from '../../../support/run-factories.js';
import { useWorld } from '../../../support/world.js';

const API_KEY = 'stop-test-key';

const world = useWorld({ apiKey: API_KEY });
beforeAll(() => {
  // The smoke suite's first test never ends by itself; its other two pass after 3 s.
  world.emulator.setScenario('test-home', { hang: true });
  world.emulator.setScenario('test-login', { outcome: 'pass', runDurationMs: 3_000 });
  world.emulator.setScenario('test-search', { outcome: 'pass', runDurationMs: 3_000 });
});

afterEach(() => world.emulator.setFaults(''));

/** The ids the action asked the emulator to cancel. */
function cancelRequests(): string[] {
  return world.emulator
    .requests()
    .filter((q) => q.method === 'POST' && /\/cancel\/?$/.test(q.path))
    .map((q) => q.path.replace(/^\/v1\/(suite-results|results)\/([^/]+)\/cancel\/?$/, '$2'));
}

/** A workflow cancel `ms` from now on the virtual clock. */
function cancelAfter(ms: number): AbortSignal {
  const controller = new AbortController();
  void world.clock.sleep(ms).then(() => controller.abort());
  return controller.signal;
}

const stateOf = (tests: Array<{ testName: string; state: string }>): Record<string, string> =>
  Object.fromEntries(tests.map((t) => [t.testName, t.state]));

describe('a workflow cancel', () => {
  it('cancels every active run at once; the tests already over keep their state, the rest are cancelled', async () => {
    // The cancel comes 10 s in: the smoke suite's two short tests have passed, its first still runs.
    const signal = cancelAfter(10_000);
    const { summary, events } = await runInWorld(
      world,
      API_KEY,
      { suiteIds: ['suite-smoke'], testIds: ['test-home'] },
      { signal },
    );
    expect(summary.interrupted).toBe('signal');
    expect(events.filter((e) => e.type === 'cancelling')).toEqual([
      { type: 'cancelling', count: 2, late: false },
    ]);
    const suite = summary.runs.find((r) => r.kind === 'suite')!;
    const test = summary.runs.find((r) => r.kind === 'test')!;
    expect(cancelRequests().sort()).toEqual([suite.suiteResultId, test.testResultId].sort());
    for (const run of [suite, test]) {
      expect(run.cancelled).toBe(true);
      expect(run.error).toBe('Cancelled with the workflow.');
    }
    expect(stateOf(suite.tests)).toEqual({
      'Home page loads': 'cancelled',
      'Login works': 'passed',
      'Search finds products': 'passed',
    });
    const home = suite.tests.find((t) => t.testName === 'Home page loads')!;
    expect(home.error).toBe('Cancelled with the workflow.');
    expect(suite.tests.find((t) => t.testName === 'Login works')!.error).toBeUndefined();
    // The suite result as the cancel answered it: over, without a verdict; a test run has none.
    expect(suite.suiteResult).toMatchObject({ _id: suite.suiteResultId, passing: null, status: 8 });
    expect(test.suiteResult).toBeUndefined();
    expect(test.tests).toHaveLength(1);
    expect(test.tests[0]).toMatchObject({ state: 'cancelled', error: 'Cancelled with the workflow.' });
    // The test result as the cancel answered it (status 8: cancelled), not as last polled.
    expect(test.tests[0]!.result).toMatchObject({ _id: test.testResultId, status: 8 });
    // Nothing is told as timed out, and no heartbeat comes after the stop.
    expect(events.some((e) => e.type === 'timed-out' || e.type === 'heartbeat')).toBe(false);
  });

  it('a cancel the service refuses is told; the run is still reported cancelled with the workflow', async () => {
    world.emulator.setFaults('route=POST /v1/results/*/cancel:server-error');
    const signal = cancelAfter(5_000);
    const { summary, events } = await runInWorld(world, API_KEY, { testIds: ['test-home'] }, { signal });
    const [run] = summary.runs;
    const failed = events.filter((e) => e.type === 'cancel-failed');
    expect(failed).toEqual([
      { type: 'cancel-failed', remoteType: 'test', id: run!.testResultId, message: expect.any(String) },
    ]);
    expect(run!.cancelled).toBe(true);
    expect(run!.tests[0]!.state).toBe('cancelled');
  });
});

describe('a workflow cancel, other runs', () => {
  it('a run started elsewhere (result-ids) is not cancelled: only no longer followed, and says so', async () => {
    const { summary: elsewhere } = await runInWorld(world, API_KEY, { testIds: ['test-home'], wait: false });
    const id = elsewhere.runs[0]!.testResultId!;
    world.emulator.resetLog();
    const { summary } = await runInWorld(
      world,
      API_KEY,
      { resultIds: [{ type: 'test', id }] },
      { signal: cancelAfter(5_000) },
    );
    expect(cancelRequests()).toEqual([]);
    const [run] = summary.runs;
    expect(run!.cancelled).toBe(false);
    const error =
      'Not followed further and not cancelled: started elsewhere (result-ids), it is only waited for.';
    expect(run!.error).toBe(error);
    expect(run!.tests.map((t) => [t.state, t.error])).toEqual([['cancelled', error]]);
    await world.client({ apiKey: API_KEY }).cancelTestResult(id);
  });

  it('a run its execute starts after the cancel is cancelled too, told as a late cancel', async () => {
    // The execute is answered 2 s after it is sent; the cancel comes at 1 s and gives it 1.5 s.
    world.emulator.setFaults('route=POST /v1/tests/*/execute:slow,delay=2000');
    const { summary, events } = await runInWorld(
      world,
      API_KEY,
      { testIds: ['test-home'] },
      { signal: cancelAfter(1_000) },
    );
    expect(events.filter((e) => e.type === 'cancelling')).toEqual([
      { type: 'cancelling', count: 1, late: true },
    ]);
    const [run] = summary.runs;
    expect(cancelRequests()).toEqual([run!.testResultId]);
    expect(run).toMatchObject({ cancelled: true, error: 'Cancelled with the workflow.' });
  });
});

describe('a workflow cancel while the only execute is in flight', () => {
  it('has no active run to cancel at once: nothing is told as being cancelled, nothing started is followed', async () => {
    // The execute is answered after 20 s; the cancel comes at 1 s and gives it 1.5 s.
    world.emulator.setFaults('route=POST /v1/tests/*/execute:slow,delay=20000');
    const signal = cancelAfter(1_000);
    const { summary, events } = await runInWorld(world, API_KEY, { testIds: ['test-home'] }, { signal });
    expect(summary.interrupted).toBe('signal');
    expect(events.filter((e) => e.type === 'cancelling')).toEqual([]);
    expect(summary.runs).toHaveLength(1);
    expect(summary.runs[0]!.testResultId).toBeUndefined();
  });
});

describe('the deadline', () => {
  it('with cancel-on-timeout: each run still going is cancelled and timed out, told once', async () => {
    const { summary, events } = await runInWorld(world, API_KEY, {
      testIds: ['test-home'],
      timeoutMs: 120_000,
    });
    expect(summary.interrupted).toBe('deadline');
    expect(events.filter((e) => e.type === 'timed-out')).toEqual([{ type: 'timed-out', timeoutMs: 120_000 }]);
    const [run] = summary.runs;
    expect(cancelRequests()).toEqual([run!.testResultId]);
    expect(run).toMatchObject({
      timedOut: true,
      cancelled: true,
      error: 'Still running at the timeout (2 min 00 s); cancelled.',
    });
    expect(run!.tests).toHaveLength(1);
    expect(run!.tests[0]).toMatchObject({ state: 'timed-out', error: 'Still running at the timeout.' });
    expect(run!.tests[0]!.result?._id).toBe(run!.testResultId);
    const told = events.filter((e) => e.type === 'test-finished');
    expect(told.map((e) => (e as Extract<RunEvent, { type: 'test-finished' }>).test.state)).toEqual([
      'timed-out',
    ]);
  });

  it('without cancel-on-timeout: nothing is cancelled; the runs are timed out, left going', async () => {
    const { summary, events } = await runInWorld(world, API_KEY, {
      suiteIds: ['suite-smoke'],
      testIds: ['test-home'],
      timeoutMs: 120_000,
      cancelOnTimeout: false,
    });
    expect(summary.interrupted).toBe('deadline');
    expect(cancelRequests()).toEqual([]);
    for (const run of summary.runs) {
      expect(run.timedOut).toBe(true);
      expect(run.cancelled).toBe(false);
      expect(run.error).toBe('Still running at the timeout (2 min 00 s).');
    }
    const suite = summary.runs.find((r) => r.kind === 'suite')!;
    expect(stateOf(suite.tests)).toEqual({
      'Home page loads': 'timed-out',
      'Login works': 'passed',
      'Search finds products': 'passed',
    });
    expect(suite.tests.find((t) => t.testName === 'Home page loads')!.error).toBe(
      'Still running at the timeout.',
    );
    expect(suite.tests.find((t) => t.testName === 'Login works')!.error).toBeUndefined();
    const test = summary.runs.find((r) => r.kind === 'test')!;
    expect(test.tests[0]).toMatchObject({ state: 'timed-out', error: 'Still running at the timeout.' });
    // Every test has its state at the timeout, the suite's passed ones too: each is told once.
    const told = events.flatMap((e) =>
      e.type === 'test-finished' ? [`${e.test.testName}: ${e.test.state}`] : [],
    );
    expect(told.sort()).toEqual([
      'Home page loads: timed-out',
      'Home page loads: timed-out',
      'Login works: passed',
      'Search finds products: passed',
    ]);
  });
});

describe('the deadline, with what could not be read', () => {
  it('a suite result over whose list of test results is not read in time: an error that says so, no test made up', async () => {
    // The checkout suite ends within seconds; listing its test results is answered only after 200 s.
    world.emulator.setFaults('route=GET /v1/suite-results/*/results:slow,delay=200000');
    try {
      const { summary, events } = await runInWorld(world, API_KEY, { suiteIds: ['suite-checkout'] });
      expect(summary.interrupted).toBe('deadline');
      const [run] = summary.runs;
      expect(run!.suiteResult?.passing).toBe(false);
      expect(run!.error).toBe(
        'The suite result had ended (failed), but its list of test results was not read before the timeout (2 min 00 s).',
      );
      expect(run!.tests).toEqual([]);
      expect(run!.timedOut).toBeFalsy();
      expect(cancelRequests()).toEqual([]);
      expect(events.filter((e) => e.type === 'test-finished')).toEqual([]);
    } finally {
      // The lists the action gave up are still answered after their delay: within this test, not the next.
      await world.clock.sleep(200_000);
    }
  });

  it('a suite result that had passed, or was cancelled elsewhere, with its list unread: the error says which', async () => {
    world.emulator.setFaults('route=GET /v1/suite-results/*/results:slow,delay=200000');
    const api = world.client({ apiKey: API_KEY });
    try {
      const passed = await runInWorld(world, API_KEY, { suiteIds: ['suite-visual'] });
      expect(passed.summary.runs[0]!.error).toBe(
        'The suite result had ended (passed), but its list of test results was not read before the timeout (2 min 00 s).',
      );
      // The smoke suite never ends by itself: someone cancels it 5 s after it starts.
      const cancelled = await runInWorld(
        world,
        API_KEY,
        { suiteIds: ['suite-smoke'] },
        {
          onEvent: (e) => {
            if (e.type === 'run-started')
              void world.clock.sleep(5_000).then(() => api.cancelSuiteResult(e.resultIds[0]!));
          },
        },
      );
      expect(cancelled.summary.runs[0]!.error).toBe(
        'The suite result had ended (cancelled), but its list of test results was not read before the timeout (2 min 00 s).',
      );
    } finally {
      await world.clock.sleep(200_000);
    }
  });

  it('a test result never read: an error "could not be read", its one test in error and told, never still running', async () => {
    // Every read of the test result is answered only after 200 s; no cancel answers at the deadline.
    world.emulator.setFaults('route=GET /v1/results/*:slow,delay=200000');
    try {
      const { summary, events } = await runInWorld(world, API_KEY, {
        testIds: ['test-login'],
        cancelOnTimeout: false,
      });
      expect(summary.interrupted).toBe('deadline');
      const [run] = summary.runs;
      expect(run!.error).toBe('Its result could not be read before the timeout (2 min 00 s).');
      expect(run!.tests).toEqual([expect.objectContaining({ state: 'error', error: run!.error })]);
      expect(run!.timedOut).toBeFalsy();
      expect(cancelRequests()).toEqual([]);
      const told = events.filter((e) => e.type === 'test-finished');
      expect(told.map((e) => (e as Extract<RunEvent, { type: 'test-finished' }>).test.state)).toEqual([
        'error',
      ]);
    } finally {
      await world.clock.sleep(200_000);
    }
  });
});

/**
 * The real client, whose organization running list keeps showing every test result this client started as
 * running, ended or not (a list that lies), beside `others` test results of other watchers (a busy account).
 */
function lyingList(others = 0) {
  const real = world.client({ apiKey: API_KEY });
  const started: TestResult[] = [];
  const elsewhere = Array.from({ length: others }, (_, i) => ({ _id: `other-${i}`, suiteResult: null }));
  return {
    ...real,
    executeTest: async (...args: Parameters<typeof real.executeTest>) => {
      const answer = await real.executeTest(...args);
      started.push(...[answer].flat());
      return answer;
    },
    executeSuite: async (...args: Parameters<typeof real.executeSuite>) => {
      const answer = await real.executeSuite(...args);
      // A test result of each suite result, running.
      for (const sr of [answer].flat())
        started.push({ _id: `in-${sr._id}`, suiteResult: sr._id } as TestResult);
      return answer;
    },
    listOrganizationRunningEntries: async (
      ...args: Parameters<typeof real.listOrganizationRunningEntries>
    ) => {
      const listed = await real.listOrganizationRunningEntries(...args);
      const ours = new Set(started.map((r) => r._id));
      const entries = started.map((r) => ({ _id: r._id, suiteResult: r.suiteResult }));
      return [...listed.filter((r) => !ours.has(r._id)), ...entries, ...elsewhere];
    },
  };
}

/** The times (ms from `t0`) the action read a test result of its own. */
const ownReads = (t0: number): number[] =>
  world.emulator
    .requests()
    .filter((q) => q.method === 'GET' && /^\/v1\/results\/[^/]+\/?$/.test(q.path))
    .map((q) => q.time - t0);

describe('the deadline speaks only for runs read', () => {
  const twoBrowsers = { disableVisuals: true, browser: ['chrome', 'firefox'] };

  /** `target` on two browsers with an 8 s deadline, the list lying that they still run: no own read comes. */
  const readByNothingButTheCancel = (target: Partial<RunPlan>) =>
    runInWorld(world, API_KEY, { ...target, execute: twoBrowsers, timeoutMs: 8_000 }, { api: lyingList() });

  it('runs no read answered before the timeout (the list shows them running): errors "not read", never still running', async () => {
    // Two runs that never end; the list shows them; their first own reads would come after the 8 s deadline.
    const { summary } = await runInWorld(world, API_KEY, {
      testIds: ['test-home'],
      execute: twoBrowsers,
      timeoutMs: 8_000,
      cancelOnTimeout: false,
    });
    expect(summary.interrupted).toBe('deadline');
    expect(summary.runs).toHaveLength(2);
    for (const run of summary.runs) {
      expect(run.error).toBe('Its result was not read before the timeout (8.0 s).');
      expect(run.timedOut).toBeFalsy();
      expect(run.tests.map((t) => [t.state, t.error])).toEqual([['error', run.error]]);
    }
  });

  it('a suite result no read answered: the error, and no test made up for it', async () => {
    // Every read of the suite result is answered only after 200 s; nothing is cancelled at the deadline.
    world.emulator.setFaults('route=GET /v1/suite-results/*:slow,delay=200000');
    try {
      const { summary } = await runInWorld(world, API_KEY, {
        suiteIds: ['suite-smoke'],
        timeoutMs: 8_000,
        cancelOnTimeout: false,
      });
      const [run] = summary.runs;
      expect(run!.error).toMatch(/^Its result (was not|could not be) read before the timeout \(8\.0 s\)\.$/);
      expect(run!.tests).toEqual([]);
      await world.client({ apiKey: API_KEY }).cancelSuiteResult(run!.suiteResultId!);
    } finally {
      await world.clock.sleep(200_000);
    }
  });

  it('a cancel answer showing the run still going is a read: timed out and cancelled, its test named by it', async () => {
    const { summary } = await readByNothingButTheCancel({ testIds: ['test-home'] });
    expect(cancelRequests()).toHaveLength(2);
    for (const run of summary.runs) {
      expect(run).toMatchObject({
        timedOut: true,
        cancelled: true,
        error: 'Still running at the timeout (8.0 s); cancelled.',
      });
      expect(run.tests.map((t) => [t.testName, t.state, t.result?._id, t.result?.status])).toEqual([
        ['Home page loads', 'timed-out', run.testResultId, 8],
      ]);
    }
  });

  it('the cancel answers at the deadline are results: runs that had failed are taken as failed', async () => {
    // The runs fail within seconds, but the list keeps showing them running: no own read before the deadline.
    const t0 = world.clock.now();
    const { summary } = await readByNothingButTheCancel({ testIds: ['test-payment'] });
    expect(ownReads(t0)).toEqual([]);
    expect(cancelRequests()).toHaveLength(2);
    for (const run of summary.runs) {
      expect(run.timedOut).toBeFalsy();
      expect(run.cancelled).toBeFalsy();
      expect(run.error).toBeUndefined();
      expect(run.tests.map((t) => [t.state, t.result?._id])).toEqual([['failed', run.testResultId]]);
    }
  });

  it('a suite result that had ended, read by nothing but its cancel: taken, its tests listed', async () => {
    const { summary } = await readByNothingButTheCancel({ suiteIds: ['suite-visual'] });
    expect(cancelRequests()).toHaveLength(2);
    for (const run of summary.runs) {
      expect(run.timedOut).toBeFalsy();
      expect(run.error).toBeUndefined();
      expect(run.suiteResult?.passing).toBe(true);
      expect(stateOf(run.tests)).toEqual({
        'Landing page looks right': 'passed',
        'Pricing page looks right': 'passed',
      });
    }
  });

  it("a busy account never stretches a run's own read past the deadline: the failure is read before it", async () => {
    // 100 runs of other watchers: the safety reads slow down 4 times (every 40 s), the deadline is at 30 s.
    const t0 = world.clock.now();
    const { summary } = await runInWorld(
      world,
      API_KEY,
      { testIds: ['test-payment'], execute: twoBrowsers, timeoutMs: 30_000, cancelOnTimeout: false },
      { api: lyingList(100), startedAtMs: t0 },
    );
    const reads = ownReads(t0);
    expect(reads).toHaveLength(2);
    expect(Math.max(...reads)).toBeLessThan(30_000);
    // Stretched, but not to the deadline's doorstep: later than the 10 s of a quiet account.
    expect(Math.min(...reads)).toBeGreaterThan(10_000);
    expect(summary.interrupted).toBeUndefined();
    for (const run of summary.runs) expect(run.tests.map((t) => t.state)).toEqual(['failed']);
  });
});

describe('the heartbeat', () => {
  it('says nothing while the runs are still being triggered and none is going yet', async () => {
    const t0 = world.clock.now();
    // The execute is answered after 30 s; the test then runs until the deadline.
    world.emulator.setFaults('route=POST /v1/tests/*/execute:slow,delay=30000');
    const { events } = await runInWorld(
      world,
      API_KEY,
      { testIds: ['test-home'], timeoutMs: 45_000 },
      { heartbeatMs: 10_000, startedAtMs: t0 },
    );
    expect(events.filter((e) => e.type === 'heartbeat')).toEqual([
      { type: 'heartbeat', running: 1, finishedTests: 0, elapsedMs: 40_000 },
    ]);
  });

  it('tells the runs going and the tests finished, every period, from the start of the action', async () => {
    const t0 = world.clock.now();
    // The login test passes after 3 s; the smoke suite runs until the deadline.
    const { events } = await runInWorld(
      world,
      API_KEY,
      { suiteIds: ['suite-smoke'], testIds: ['test-login'], timeoutMs: 50_000 },
      { heartbeatMs: 20_000, startedAtMs: t0 - 5_000 },
    );
    // At 20 s and 40 s of the engine, 25 s and 45 s since the action started; the deadline at 45 s of the engine.
    expect(events.filter((e) => e.type === 'heartbeat')).toEqual([
      { type: 'heartbeat', running: 1, finishedTests: 1, elapsedMs: 25_000 },
      { type: 'heartbeat', running: 1, finishedTests: 1, elapsedMs: 45_000 },
    ]);
  });
});
