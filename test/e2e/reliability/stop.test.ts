/**
 * Stopping, whatever the service does: the bundled action with a deadline or a signal arriving while
 * executes are still being sent, while an execute is sent but unanswered (handled by the service, answer
 * held back), against a service that never answers and one whose reads hang, and with the main flow stuck
 * on a file-system call. Every requested run is accounted for (not started, found and adopted, or "may have
 * started"), no execute is sent twice, and the step ends within `timeout` + 10 s (deadline) or 7.5 s
 * (signal). The durations measured are printed as "stop figures". Each case has its own emulator and
 * the cases run at once, except the signal at an execute in flight, which runs first, alone.
 */
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { counts, until, type ActionRun } from '../../support/harness.js';
import { startProxy, type Proxy, type ProxyRule } from '../../support/proxy.js';
import { executesOf, readResults, secretInputs, secretsFor, wasHandled } from '../../support/reliability.js';
import { useWorlds, type ScaledWorld } from '../../support/world.js';

const secrets = secretsFor('stop');

const { open, later, newWorkspace } = useWorlds();

/**
 * One case's own emulator, so that the cases run at once; `holding` puts a hold proxy in front of it (closed
 * before the emulator), `act` runs the action against it.
 */
async function setUp() {
  const world = await open({ clock: 'scaled', secrets });
  const { emulator } = world;
  const holding = async (rule: ProxyRule): Promise<Proxy> => {
    const proxy = await startProxy(emulator.origin, rule);
    later(() => proxy.close());
    return proxy;
  };
  const act = (inputs: Record<string, string>, options: ActOptions = {}) => actOn(world, inputs, options);
  return { world, emulator, holding, act };
}

interface Timed {
  run: ActionRun;
  workspace: string;
  /**
   * From the action's start to its exit, ms: the docs' bound ("the step ends within `timeout-minutes` + 10 s")
   * counts from the action's start, its first line of output, not from the spawn (the start of Node 24 and the
   * bundle takes seconds when every file of the test run shares two busy cores).
   */
  durationMs: number;
  /** From the signal to the exit, ms (NaN without a signal). */
  afterSignalMs: number;
}

interface ActOptions {
  baseUrl?: string;
  signal?: NodeJS.Signals;
  ready?: () => boolean;
}

/** Runs the bundle against `world`'s emulator (or `baseUrl`); with `signal`, sends it once `ready` holds. */
async function actOn(
  world: ScaledWorld,
  inputs: Record<string, string>,
  options: ActOptions = {},
): Promise<Timed> {
  const workspace = await newWorkspace();
  const started = Date.now();
  const { cancel, kill, done } = await world.start({
    bundle: true,
    workspace,
    // On a runner: the secrets are masked first thing, so the first output marks the action's start.
    env: { GITHUB_ACTIONS: 'true' },
    inputs: {
      ...secretInputs(secrets),
      'api-base-url': options.baseUrl ?? world.emulator.baseUrl,
      screenshots: 'none',
      ...inputs,
    },
  });
  let signalledAt = NaN;
  if (options.signal) {
    await until(options.ready ?? (() => true), 20_000);
    signalledAt = Date.now();
    cancel(options.signal);
  }
  const hang = setTimeout(kill, 60_000);
  const run = await done;
  clearTimeout(hang);
  const exitedAt = Date.now();
  const durationMs = exitedAt - (run.firstOutputAt ?? started);
  return { run, workspace, durationMs, afterSignalMs: exitedAt - signalledAt };
}

const isExecute = (url: string): boolean => /\/execute\/?(\?|$)/.test(url);

// Timed against the 1.5 s a signal leaves an execute in flight to answer, then a lookup: alone, not while
// the other cases' processes start.
describe('a trigger in flight at a signal', () => {
  it('SIGTERM while an execute is sent but not answered: its run is found and cancelled, and reported', async () => {
    const { emulator, holding, act } = await setUp();
    emulator.setScenario('rel-green-1', { hang: true });
    const p = await holding(({ method, url }) =>
      method === 'POST' && isExecute(url) ? 'hold-after' : 'forward',
    );
    const before = new Set(emulator.store.suiteResults.keys());
    // No variables: a suite result shows all that was sent, so the adopted run is cancelled.
    const t = await act(
      { 'suite-ids': 'suite-green', 'timeout-minutes': '5', variables: '', 'private-variables': '' },
      {
        baseUrl: p.baseUrl,
        signal: 'SIGTERM',
        ready: () => [...emulator.store.suiteResults.keys()].some((id) => !before.has(id)),
      },
    );
    console.log(`stop figures: SIGTERM mid-execute, exit ${t.afterSignalMs} ms after the signal`);
    expect(t.afterSignalMs).toBeLessThan(7_500);
    expect(t.run.signal).toBeNull();
    expect(t.run.code).not.toBe(0);
    const started = [...emulator.store.suiteResults.values()].filter((s) => !before.has(s._id));
    expect(started).toHaveLength(1);
    expect(
      started[0]?.dateExecutionFinished,
      'the run started by the unanswered execute is cancelled',
    ).toBeTruthy();
    expect(executesOf(emulator.requests(), 'suite-green').filter(wasHandled)).toHaveLength(1);
    const results = readResults(t.workspace);
    expect(results?.runs).toHaveLength(1);
    expect(results?.runs[0]?.suiteResultId).toBe(started[0]?._id);
    expect(results?.runs[0]?.cancelled).toBe(true);
    expect(counts(t.run).total).toBeGreaterThanOrEqual(1);
    expect(t.run.stdout).not.toMatch(/0 total/);
  });
});

// Every other case has its own emulator: all of them run at once.
describe.concurrent('stopping early', () => {
  describe.concurrent('every requested run is accounted for when the action stops early', () => {
    it('deadline while executes are still being sent: the rest are "not started", total = asked, the step fails under fail-on-timeout: false', async () => {
      const { emulator, act } = await setUp();
      // 4 tests × 4 start URLs = 16 executes, each answered 1.5 s late, 4 at a time: 6 s to send them all.
      emulator.setFaults({
        routes: [{ method: 'POST', pattern: '/v1/tests/*/execute', kind: 'slow' }],
        delayMs: 1_500,
      });
      const t = await act({
        'test-ids': 'rel-green-1,rel-green-2,rel-red-ok,rel-red-bad',
        'start-url': 'https://a.example/\nhttps://b.example/\nhttps://c.example/\nhttps://d.example/',
        'timeout-minutes': '0.05',
        'fail-on-timeout': 'false',
      });
      console.log(`stop figures: deadline mid-trigger (3 s timeout), step ${t.durationMs} ms`);
      expect(t.run.code).toBe(1);
      const c = counts(t.run);
      expect(c.total).toBe(16);
      expect(c.error).toBeGreaterThan(0);
      const results = readResults(t.workspace);
      expect(results?.runs).toHaveLength(16);
      const notStarted = results!.runs.filter((r) => r.error === 'Not started before the timeout');
      expect(notStarted.length).toBeGreaterThan(0);
      expect(t.run.outputs.passing).toBe('false');
      // Sub-minute timeouts in seconds; one grouped warning for all the runs not started.
      expect(t.run.stdout).toContain('Timeout: 3.0 s passed');
      expect(t.run.stdout).not.toMatch(/0 min passed/);
      const grouped = t.run.stdout
        .split('\n')
        .filter((l) => l.startsWith('::warning') && l.includes('Not started before the timeout'));
      expect(grouped).toHaveLength(1);
      expect(grouped[0]).toMatch(new RegExp(`Could not start ${notStarted.length} runs`));
      expect(t.durationMs).toBeLessThan(3_000 + 10_000);
    });
  });

  describe.concurrent('every requested run is accounted for on a workflow cancel', () => {
    it('SIGINT while executes are still being sent: the rest are "not started", total = asked, exit within 7.5 s', async () => {
      const { emulator, act } = await setUp();
      emulator.setFaults({
        routes: [{ method: 'POST', pattern: '/v1/tests/*/execute', kind: 'slow' }],
        delayMs: 1_500,
      });
      const t = await act(
        {
          'test-ids': 'rel-green-1,rel-green-2,rel-red-ok,rel-red-bad',
          'start-url': 'https://a.example/\nhttps://b.example/\nhttps://c.example/\nhttps://d.example/',
          'timeout-minutes': '5',
        },
        { signal: 'SIGINT', ready: () => emulator.requests().some((q) => q.method === 'POST') },
      );
      console.log(`stop figures: SIGINT mid-trigger, exit ${t.afterSignalMs} ms after the signal`);
      expect(t.afterSignalMs).toBeLessThan(7_500);
      expect(t.run.code).not.toBe(0);
      expect(counts(t.run).total).toBe(16);
      const results = readResults(t.workspace);
      expect(results?.runs).toHaveLength(16);
      const notStarted = results!.runs.filter(
        (r) => r.error === 'Not started before the workflow was cancelled',
      );
      expect(notStarted.length).toBeGreaterThan(0);
      // Never sent twice: at most one execute per test and start URL reached the service.
      const executes = emulator.requests().filter((q) => q.method === 'POST' && isExecute(q.path));
      expect(executes.length).toBeLessThanOrEqual(16);
    });
  });

  describe.concurrent('a trigger in flight is reconciled, never re-sent', () => {
    it('deadline while an execute is sent but not answered: its run is found, cancelled and reported timed out', async () => {
      const { emulator, holding, act } = await setUp();
      emulator.setScenario('rel-green-1', { hang: true });
      const p = await holding(({ method, url }) =>
        method === 'POST' && isExecute(url) ? 'hold-after' : 'forward',
      );
      const before = new Set(emulator.store.results.keys());
      const t = await act({ 'test-ids': 'rel-green-1', 'timeout-minutes': '0.1' }, { baseUrl: p.baseUrl });
      console.log(`stop figures: deadline mid-execute (6 s timeout), step ${t.durationMs} ms`);
      expect(t.durationMs).toBeLessThan(6_000 + 10_000);
      expect(t.run.code).toBe(1);
      const started = [...emulator.store.results.values()].filter((r) => !before.has(r._id));
      expect(started).toHaveLength(1);
      expect(executesOf(emulator.requests(), 'test:rel-green-1').filter(wasHandled)).toHaveLength(1);
      const results = readResults(t.workspace);
      expect(results?.results).toHaveLength(1);
      expect(results?.results[0]?.resultId).toBe(started[0]?._id);
      expect(results?.results[0]?.state).toBe('timed-out');
      expect(results?.runs[0]?.cancelled).toBe(true);
    });
  });

  describe.concurrent('the deadline holds whatever the service does', () => {
    it('a service that never answers: the step ends within timeout + 10 s, the run "may have started"', async () => {
      const { holding, act } = await setUp();
      const p = await holding(() => 'hold-before');
      const t = await act({ 'suite-ids': 'suite-green', 'timeout-minutes': '0.1' }, { baseUrl: p.baseUrl });
      console.log(`stop figures: service never answers (6 s timeout), step ${t.durationMs} ms`);
      expect(t.durationMs).toBeLessThan(6_000 + 10_000);
      expect(t.run.code).toBe(1);
      const results = readResults(t.workspace);
      expect(results?.runs).toHaveLength(1);
      expect(results?.runs[0]?.error).toMatch(/may have started; not found/);
      expect(counts(t.run).total).toBe(1);
    });

    it('reads that hang: the step ends within timeout + 10 s, the suite run timed out as its cancel answered, cancelled', async () => {
      const { emulator, holding, act } = await setUp();
      // Polls hang, and so does the listing of the suite result's tests after the deadline.
      emulator.setScenario('rel-green-1', { hang: true });
      const p = await holding(({ method }) => (method === 'GET' ? 'hold-before' : 'forward'));
      const t = await act({ 'suite-ids': 'suite-green', 'timeout-minutes': '0.1' }, { baseUrl: p.baseUrl });
      console.log(`stop figures: reads hang (6 s timeout), step ${t.durationMs} ms`);
      expect(t.durationMs).toBeLessThan(6_000 + 10_000);
      expect(t.run.code).toBe(1);
      const results = readResults(t.workspace);
      expect(results?.runs).toHaveLength(1);
      // Not one read succeeded, but the cancel's answer is a read: it showed the run going.
      expect(results?.runs[0]?.timedOut).toBe(true);
      expect(results?.runs[0]?.error).toMatch(/^Still running at the timeout .*; cancelled/);
      expect(emulator.requests().some((q) => /\/suite-results\/[^/]+\/cancel/.test(q.path))).toBe(true);
      expect(counts(t.run)).toMatchObject({ total: 1, 'timed-out': 1 });
    });

    it('SIGTERM while the main flow is stuck on a file-system call: the process still ends within 7.5 s', async () => {
      const { world, emulator } = await setUp();
      emulator.setScenario('rel-green-1', { hang: true });
      // Writing results.json to a FIFO nobody reads blocks forever.
      execFileSync('mkfifo', [path.join(world.workspace, 'stuck.json')]);
      const started = Date.now();
      const { cancel, kill, done } = await world.start({
        bundle: true,
        inputs: {
          ...secretInputs(secrets),
          'api-base-url': emulator.baseUrl,
          screenshots: 'none',
          'test-ids': 'rel-green-1',
          'results-path': 'stuck.json',
          'timeout-minutes': '5',
        },
      });
      await until(() => emulator.requests().some((q) => q.method === 'POST' && isExecute(q.path)), 20_000);
      await new Promise((r) => setTimeout(r, 300));
      const signalledAt = Date.now();
      cancel('SIGTERM');
      const hang = setTimeout(kill, 30_000);
      const run = await done;
      clearTimeout(hang);
      const afterSignal = Date.now() - signalledAt;
      console.log(
        `stop figures: SIGTERM with a stuck write, exit ${afterSignal} ms after the signal (start ${started})`,
      );
      expect(afterSignal).toBeLessThan(7_500);
      expect(run.code === 0).toBe(false);
      expect(run.stdout).toMatch(/did not finish within 6\.5 s/);
    });
  });
});
