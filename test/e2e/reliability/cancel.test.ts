/**
 * Workflow cancel, timed as the runner does it: SIGINT, then SIGTERM 7.5 s later, then a kill 2.5 s after
 * (service facts, "The GitHub platform"). Deadlines asserted here are correctness deadlines: remote cancels
 * sent within 2 s of the signal, the process gone within 7.5 s, the JUnit file, the summary and
 * results.json written with the cancelled runs marked.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Emulator, RequestRecord } from '../../../emulator/index.js';
import { refId } from '../../../src/api/refs.js';
import { until, type ActionRun } from '../../support/harness.js';
import { startProxy } from '../../support/proxy.js';
import { FILES, findSecrets, readResults, secretInputs, secretsFor } from '../../support/reliability.js';
import { schemaErrors } from '../../support/junit.js';
import { useWorlds, type ScaledWorld } from '../../support/world.js';

const secrets = secretsFor('cancel');

const { open, later } = useWorlds();

/** One case's own world, so that the cases run at once. */
async function setUp(): Promise<{ world: ScaledWorld; emulator: Emulator }> {
  // A hanging test is cut by the emulator at 10 min × 0.05 = 30 s: long after the signal.
  const world = await open({ clock: 'scaled', secrets });
  return { world, emulator: world.emulator };
}

const isCancel = (q: RequestRecord) => q.method === 'POST' && /\/cancel\/?$/.test(q.path);
const isPoll = (q: RequestRecord) => q.method === 'GET' && /^\/v1\/(suite-)?results\/[^/]+\/?$/.test(q.path);

interface Cancelled {
  run: ActionRun;
  workspace: string;
  signalledAt: number;
  exitedAt: number;
}

/**
 * Starts the bundle against `world`'s emulator (or `baseUrl`) on suite-green and test rel-green-1 (both
 * hanging), waits until `ready` holds, sends `signal`, calls `signalled` and waits for the exit.
 */
async function cancelMidRun(
  { emulator, workspace, start }: ScaledWorld,
  signal: NodeJS.Signals,
  options: { ready?: () => boolean; baseUrl?: string; signalled?: () => void } = {},
): Promise<Cancelled> {
  const ready = options.ready ?? (() => emulator.requests().some(isPoll));
  emulator.setScenario('rel-green-1', { hang: true });
  emulator.setScenario('rel-green-2', { hang: true });
  const { cancel, done } = await start({
    bundle: true,
    inputs: {
      ...secretInputs(secrets),
      'api-base-url': options.baseUrl ?? emulator.baseUrl,
      'suite-ids': 'suite-green',
      'test-ids': 'rel-green-1',
      'timeout-minutes': '5',
    },
  });
  await until(ready, 20_000);
  const signalledAt = Date.now();
  cancel(signal);
  options.signalled?.();
  const run = await done;
  const exitedAt = Date.now();
  return { run, workspace, signalledAt, exitedAt };
}

/** The checks every cancel scenario shares; returns the latest cancel request's delay after the signal. */
async function expectCancelledProperly(
  emulator: Emulator,
  c: Cancelled,
  signal: NodeJS.Signals,
  cancelsLogged = true,
): Promise<number> {
  const { run, workspace, signalledAt, exitedAt } = c;
  expect(exitedAt - signalledAt, 'exit after the signal (ms)').toBeLessThan(7_500);
  expect(run.signal, 'ended by itself, not killed').toBeNull();
  expect(run.code).not.toBe(0);
  expect(run.stdout).toContain(`Received ${signal}`);

  // Remote cancels: one per active run (the suite result and the test result), each sent within 2 s.
  let latest = NaN;
  if (cancelsLogged) {
    await until(() => emulator.requests().filter(isCancel).length >= 2, 10_000);
    const cancels = emulator.requests().filter(isCancel);
    expect(cancels.map((q) => q.path.split('/')[2]).sort()).toEqual(['results', 'suite-results']);
    latest = Math.max(...cancels.map((q) => q.time - signalledAt));
    expect(latest, 'cancel sent after the signal (ms)').toBeLessThan(2_000);
  }

  // Reports: cancelled runs marked in results.json, the JUnit file (skipped) and the summary.
  const results = readResults(workspace);
  expect(results?.interrupted).toBe('signal');
  const states = results!.results.map((t) => t.state);
  expect(states.length).toBeGreaterThanOrEqual(2);
  expect(states.every((s) => s === 'cancelled' || s === 'passed')).toBe(true);
  expect(states.filter((s) => s === 'cancelled').length).toBeGreaterThanOrEqual(2);
  const junitFile = path.join(workspace, FILES.junit);
  const junit = readFileSync(junitFile, 'utf8');
  expect(junit.match(/<skipped/g)?.length ?? 0).toBe(states.filter((s) => s === 'cancelled').length);
  expect(junit).toMatch(/Cancelled/);
  expect(schemaErrors(junit)).toBe('');
  expect(run.summary).toMatch(/cancel/i);
  expect(run.outputs.passing).toBe('false');
  expect(findSecrets(run, workspace, secrets)).toEqual([]);
  return latest;
}

// Every case has its own emulator: they run at once.
describe.concurrent('workflow cancel', () => {
  it('SIGINT mid-run: remote cancels within 2 s, exit within 7.5 s, reports with the cancelled runs', async () => {
    const { world, emulator } = await setUp();
    const c = await cancelMidRun(world, 'SIGINT');
    const latest = await expectCancelledProperly(emulator, c, 'SIGINT');
    console.log(`cancel figures: SIGINT cancel ${latest} ms, exit ${c.exitedAt - c.signalledAt} ms`);
    // The emulator saw the cancels: both remote runs ended cancelled.
    await until(() => emulator.runs().filter((f) => f.condition === 'cancelled').length >= 2, 5_000);
  });

  it('SIGTERM alone behaves the same', async () => {
    const { world, emulator } = await setUp();
    const c = await cancelMidRun(world, 'SIGTERM');
    const latest = await expectCancelledProperly(emulator, c, 'SIGTERM');
    console.log(`cancel figures: SIGTERM cancel ${latest} ms, exit ${c.exitedAt - c.signalledAt} ms`);
  });

  it('SIGINT while the service is slow to cancel: the process still exits within 7.5 s', async () => {
    const { world, emulator } = await setUp();
    // Every cancel answer takes 6 s: longer than the action may wait for it. (The emulator logs a request
    // when it answers, and it never answers one whose client left: the action's own lines tell.)
    emulator.setFaults({
      routes: [{ method: 'POST', pattern: '/v1/*/cancel', kind: 'slow' }],
      delayMs: 6_000,
    });
    const c = await cancelMidRun(world, 'SIGINT');
    await expectCancelledProperly(emulator, c, 'SIGINT', false);
    console.log(`cancel figures: SIGINT with a slow service, exit ${c.exitedAt - c.signalledAt} ms`);
    expect(c.run.stdout).toMatch(/Could not cancel suite result/);
    expect(c.run.stdout).toMatch(/Could not cancel test result/);
  });

  it('SIGINT while a trigger is in flight: the run it starts is cancelled too, never left running', async () => {
    const { world, emulator } = await setUp();
    // The suite's execute waits at a gate, sent and unanswered, until the signal has been sent; then the
    // service handles it and answers.
    let open = (): void => undefined;
    const opened = new Promise<void>((resolve) => (open = resolve));
    let inFlight = false;
    const gate = await startProxy(emulator.origin, async ({ method, url }) => {
      if (method === 'POST' && url.startsWith('/v1/suites/suite-green/execute')) {
        inFlight = true;
        await opened;
      }
      return null;
    });
    later(() => gate.close());
    const c = await cancelMidRun(world, 'SIGINT', {
      baseUrl: gate.baseUrl,
      ready: () =>
        inFlight && emulator.requests().some((q) => q.path.startsWith('/v1/tests/rel-green-1/execute')),
      signalled: open,
    });
    await expectCancelledProperly(emulator, c, 'SIGINT');
    const suiteResults = [...emulator.store.suiteResults.values()].filter(
      (s) => refId(s.suite) === 'suite-green',
    );
    const last = suiteResults[suiteResults.length - 1];
    expect(last?.dateExecutionFinished, 'the suite result started during the cancel has ended').toBeTruthy();
    expect(last?.passing).toBeNull();
  });
});
