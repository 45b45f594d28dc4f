/**
 * Adoption after a lost execute answer, with two matrix legs: two action processes (the bundle) start the
 * same suite at once on one emulator. Leg B's execute is answered; leg A's is lost, after the service
 * handled it (`reset-after`: A's own run exists) or before (a gateway's 502: none exists). A suite result
 * shows no variant, so only the step's marker (a custom variable every execute carries, shown in the test
 * results' variables) tells A's run from B's: A adopts its own run or none, never reports B's verdict as
 * its own, and never cancels B's run, neither itself nor through its post step.
 */
import { describe, expect, it } from 'vitest';
import type { Emulator, RequestRecord } from '../../../emulator/index.js';
import { postStepEnv, until, type ActionRun } from '../../support/harness.js';
import { startProxy } from '../../support/proxy.js';
import { readResults, secretsFor } from '../../support/reliability.js';
import { useWorlds, type ScaledWorld } from '../../support/world.js';

const secrets = secretsFor('adopt');

const { open, later, newWorkspace } = useWorlds();

const EXECUTE = 'POST /v1/suites/suite-green/execute';
const isExecuteOf = (method: string, path: string) =>
  method === 'POST' && /^\/v1\/suites\/suite-green\/execute/.test(path);
const isExecute = (q: RequestRecord) => isExecuteOf(q.method, q.path);
const cancelsOf = (emulator: Emulator, id: string) =>
  emulator.requests().filter((q) => q.method === 'POST' && q.path.includes(`/suite-results/${id}/cancel`));

/** The inputs of a leg: `browser` none for the default variant (nothing sent that a result could show). */
function legInputs(baseUrl: string, browser: string | null): Record<string, string> {
  return {
    'api-key': secrets.apiKey,
    'api-base-url': baseUrl,
    'suite-ids': 'suite-green',
    ...(browser ? { browser } : {}),
    'timeout-minutes': '1',
  };
}

async function leg(world: ScaledWorld, browser: string | null, baseUrl = world.emulator.baseUrl) {
  const workspace = await newWorkspace();
  const inputs = legInputs(baseUrl, browser);
  const started = await world.start({ bundle: true, workspace, inputs });
  return { ...started, workspace, inputs };
}

interface TwoLegs {
  /** How A's execute is lost: after the service handled it, or before (no run of A's exists). */
  lost: 'reset-after' | '502';
  /** The legs' browsers (A, B); none: the default variant. */
  browsers: [string | null, string | null];
  whileRunning?: (a: Awaited<ReturnType<typeof leg>>) => void;
}

/**
 * Both legs send their executes however slowly each process starts; leg B's (firefox) is handled once A's
 * was sent, and answered; then A's (chrome) is handled, its answer lost, and A's own run fails. So B's run
 * starts after A's execute was sent: a candidate for A's run. `whileRunning` runs on leg A once it has
 * looked its run up (or ended).
 */
async function twoLegs({ lost, browsers, whileRunning = () => undefined }: TwoLegs): Promise<{
  emulator: Emulator;
  a: ActionRun;
  b: ActionRun;
  aWorkspace: string;
  aInputs: Record<string, string>;
  bRunId: string;
  world: ScaledWorld;
}> {
  const world = await open({ clock: 'scaled', secrets, timeScale: 1 });
  const { emulator } = world;
  // B's runs last a few seconds: still running while A looks its run up.
  emulator.setScenario('rel-green-2', { outcome: 'pass', runDurationMs: 3_000 });
  // Each leg's executes wait at its gate: B's until A's execute arrived at A's gate, A's until B's answered.
  let bAnswered = (): void => undefined;
  let aArrived = (): void => undefined;
  const gate = async (arrive: () => void, open: Promise<unknown>) => {
    const proxy = await startProxy(emulator.origin, async (r) => {
      if (isExecuteOf(r.method, r.url)) {
        arrive();
        await open;
      }
      return null;
    });
    later(() => proxy.close());
    return proxy;
  };
  const aGate = await gate(() => aArrived(), new Promise<void>((resolve) => (bAnswered = resolve)));
  const bGate = await gate(() => undefined, new Promise<void>((resolve) => (aArrived = resolve)));
  const b = await leg(world, browsers[1], bGate.baseUrl);
  const a = await leg(world, browsers[0], aGate.baseUrl);
  await until(() => emulator.requests().some((q) => isExecute(q) && q.status === 200), 30_000);
  // A's own run fails; A's execute is handled and its answer lost.
  emulator.setScenario('rel-green-1', { outcome: 'fail', failingStep: 1, error: 'Own run failed' });
  emulator.setFaults(`route=${EXECUTE}:${lost}x1`);
  bAnswered();
  let aEnded = false;
  void a.done.finally(() => (aEnded = true)).catch(() => undefined);
  await until(() => aEnded || /Found the run|may have started/.test(a.stdout()), 20_000);
  whileRunning(a);
  const [aRun, bRun] = await Promise.all([a.done, b.done]);
  const bRunId = bRun.outputs['suite-result-ids'] ?? '';
  return { emulator, a: aRun, b: bRun, aWorkspace: a.workspace, aInputs: a.inputs, bRunId, world };
}

describe.concurrent('two matrix legs start the same suite at once; leg A loses its execute answer', () => {
  it("after the service handled it: A proves and adopts its own run (it fails), never B's; B passes", async () => {
    const { emulator, a, b, aWorkspace, bRunId } = await twoLegs({
      lost: 'reset-after',
      browsers: ['chrome', 'firefox'],
    });
    expect(emulator.requests().filter(isExecute)).toHaveLength(2);
    expect(b.code).toBe(0);
    expect(b.outputs.passing).toBe('true');
    expect(bRunId).toMatch(/\S/);
    expect(a.code).not.toBe(0);
    const results = readResults(aWorkspace);
    expect(results?.verdict).toBe('failed');
    const run = results?.runs[0];
    expect(run?.suiteResultId).toMatch(/\S/);
    expect(run?.suiteResultId).not.toBe(bRunId);
    expect(results?.results.map((t) => t.state).sort()).toEqual(['failed', 'passed']);
    expect(cancelsOf(emulator, bRunId)).toEqual([]);
  }, 60_000);

  it('before the service (a 502), both legs with the default variant: A reports "may have started", never B\'s pass', async () => {
    const { emulator, a, b, aWorkspace, bRunId } = await twoLegs({ lost: '502', browsers: [null, null] });
    expect(emulator.store.suiteResults.size).toBe(1);
    expect(b.code).toBe(0);
    expect(a.code).not.toBe(0);
    expect(a.outputs.passing).toBe('false');
    const results = readResults(aWorkspace);
    expect(results?.verdict).not.toBe('passed');
    // B's run shows B's marker: proven not A's, so not even a candidate.
    expect(results?.runs[0]?.error).toMatch(/may have started; not found/);
    expect(results?.runs[0]?.error).not.toContain(bRunId);
    expect(cancelsOf(emulator, bRunId)).toEqual([]);
  }, 60_000);

  it("the same, and A is cancelled with the workflow, then its post step runs: B's run is never cancelled", async () => {
    const { emulator, a, b, aWorkspace, aInputs, bRunId, world } = await twoLegs({
      lost: '502',
      browsers: [null, null],
      whileRunning: (legA) => legA.cancel(),
    });
    const post = await world.run({
      bundle: true,
      workspace: aWorkspace,
      inputs: aInputs,
      env: postStepEnv(a.state),
    });
    expect(post.code).toBe(0);
    expect(a.outputs.passing).not.toBe('true');
    expect(cancelsOf(emulator, bRunId)).toEqual([]);
    expect(b.code).toBe(0);
    expect(b.outputs.passing).toBe('true');
  }, 60_000);

  it('one leg alone loses its answer: its run is proven by the marker, adopted, and cancelled with the workflow', async () => {
    const world = await open({ clock: 'scaled', secrets, timeScale: 1 });
    const { emulator } = world;
    emulator.setScenario('rel-green-1', { hang: true });
    emulator.setFaults(`route=${EXECUTE}:reset-afterx1`);
    const a = await leg(world, 'chrome');
    await until(() => /Found the run/.test(a.stdout()), 20_000);
    a.cancel();
    const run = await a.done;
    const adopted = [...emulator.store.suiteResults.values()];
    expect(adopted).toHaveLength(1);
    expect(cancelsOf(emulator, adopted[0]!._id)).toHaveLength(1);
    const results = readResults(a.workspace);
    expect(results?.runs[0]?.suiteResultId).toBe(adopted[0]!._id);
    expect(results?.runs[0]?.cancelled).toBe(true);
    expect(run.code).not.toBe(0);
  }, 60_000);
});
