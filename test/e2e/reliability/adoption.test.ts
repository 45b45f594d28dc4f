/**
 * Adoption after a lost execute answer, with two matrix legs: two action processes (the bundle) start the
 * same suite within 2 s with different browsers on one emulator. Leg B's execute is answered; leg A's is
 * handled and its answer lost (`reset-after`). A suite result shows no browser, so A cannot tell its run from
 * B's: A must neither report B's verdict as its own nor cancel B's run.
 */
import { describe, expect, it } from 'vitest';
import type { Emulator, RequestRecord } from '../../../emulator/index.js';
import { startAction, waitFor, type ActionRun } from '../../support/harness.js';
import { startGateProxy } from '../../support/proxy.js';
import {
  closeAfterAll,
  makeTempWorkspace,
  readResults,
  removeWorkspace,
  secretsFor,
  startReliabilityEmulator,
} from '../../support/reliability.js';

const secrets = secretsFor('adopt');

const later = closeAfterAll();

const EXECUTE = 'POST /v1/suites/suite-green/execute';
const isExecuteOf = (method: string, path: string) =>
  method === 'POST' && /^\/v1\/suites\/suite-green\/execute/.test(path);
const isExecute = (q: RequestRecord) => isExecuteOf(q.method, q.path);
const cancelsOf = (emulator: Emulator, id: string) =>
  emulator.requests().filter((q) => q.method === 'POST' && q.path.includes(`/suite-results/${id}/cancel`));

async function leg(emulator: Emulator, browser: string, baseUrl = emulator.baseUrl) {
  const workspace = await makeTempWorkspace(`gi-rel-adopt-${browser}-`);
  later(() => removeWorkspace(workspace));
  const started = await startAction({
    workspace,
    inputs: {
      'api-key': secrets.apiKey,
      'api-base-url': baseUrl,
      'suite-ids': 'suite-green',
      browser,
      'timeout-minutes': '1',
    },
  });
  return { ...started, workspace };
}

/**
 * Both legs send their executes however slowly each process starts; leg B's (firefox) is handled once A's
 * was sent, and answered; then A's (chrome) is handled, its answer lost, and A's own run fails. So B's run
 * starts after A's execute was sent: a candidate for A's run. `whileRunning` runs on leg A once it has
 * looked its run up (or ended).
 */
async function twoLegs(
  whileRunning: (a: Awaited<ReturnType<typeof leg>>) => void = () => undefined,
): Promise<{ emulator: Emulator; a: ActionRun; b: ActionRun; aWorkspace: string; bRunId: string }> {
  const emulator = await startReliabilityEmulator(secrets, 1);
  later(() => emulator.close());
  // B's runs last a few seconds: still running while A looks its run up.
  emulator.setScenario('rel-green-2', { outcome: 'pass', runDurationMs: 3_000 });
  let bAnswered = (): void => undefined;
  const gate = async (open: Promise<unknown>) => {
    const proxy = await startGateProxy(emulator.origin, (r) => isExecuteOf(r.method, r.url), open);
    later(() => proxy.close());
    return proxy;
  };
  const aGate = await gate(new Promise<void>((resolve) => (bAnswered = resolve)));
  const bGate = await gate(aGate.arrived);
  const b = await leg(emulator, 'firefox', bGate.baseUrl);
  const a = await leg(emulator, 'chrome', aGate.baseUrl);
  await waitFor(() => emulator.requests().some((q) => isExecute(q) && q.status === 200), 30_000);
  // A's own run fails; A's execute is handled and its answer lost.
  emulator.setScenario('rel-green-1', { outcome: 'fail', failingStep: 1, error: 'Own run failed' });
  emulator.setFaults(`route=${EXECUTE}:reset-afterx1`);
  bAnswered();
  let aOut = '';
  a.child.stdout?.on('data', (d: Buffer) => (aOut += d.toString()));
  let aEnded = false;
  void a.done.finally(() => (aEnded = true)).catch(() => undefined);
  await waitFor(() => aEnded || /Found the run|may have started/.test(aOut), 20_000);
  whileRunning(a);
  const [aRun, bRun] = await Promise.all([a.done, b.done]);
  const bRunId = bRun.outputs['suite-result-ids'] ?? '';
  return { emulator, a: aRun, b: bRun, aWorkspace: a.workspace, bRunId };
}

describe('two matrix legs start the same suite at once; leg A loses its execute answer', () => {
  it('A reports "may have started" with the candidates, never B\'s pass as its own; B passes', async () => {
    const { emulator, a, b, aWorkspace, bRunId } = await twoLegs();
    expect(emulator.requests().filter(isExecute)).toHaveLength(2);
    expect(b.code).toBe(0);
    expect(b.outputs.passing).toBe('true');
    expect(bRunId).toMatch(/\S/);
    expect(a.code).not.toBe(0);
    expect(a.outputs.passing).toBe('false');
    const results = readResults(aWorkspace);
    expect(results?.verdict).not.toBe('passed');
    const run = results?.runs[0];
    expect(run?.error).toMatch(/may have started; not told apart/);
    expect(run?.error).toContain(`/suite-results/${bRunId}`);
    expect(cancelsOf(emulator, bRunId)).toEqual([]);
  }, 60_000);

  it("a workflow cancel of A never cancels B's run", async () => {
    const { emulator, a, b, bRunId } = await twoLegs((legA) => legA.child.kill('SIGINT'));
    expect(a.outputs.passing).not.toBe('true');
    expect(cancelsOf(emulator, bRunId)).toEqual([]);
    expect(b.code).toBe(0);
    expect(b.outputs.passing).toBe('true');
  }, 60_000);

  it('one leg alone: its run is adopted and followed, but a workflow cancel leaves it running (not proven)', async () => {
    const emulator = await startReliabilityEmulator(secrets, 1);
    later(() => emulator.close());
    emulator.setScenario('rel-green-1', { hang: true });
    emulator.setFaults(`route=${EXECUTE}:reset-afterx1`);
    const a = await leg(emulator, 'chrome');
    let out = '';
    a.child.stdout?.on('data', (d: Buffer) => (out += d.toString()));
    await waitFor(() => /Found the run/.test(out), 20_000);
    a.child.kill('SIGINT');
    const run = await a.done;
    const adopted = [...emulator.store.suiteResults.values()];
    expect(adopted).toHaveLength(1);
    expect(cancelsOf(emulator, adopted[0]!._id)).toEqual([]);
    const results = readResults(a.workspace);
    expect(results?.runs[0]?.suiteResultId).toBe(adopted[0]!._id);
    expect(results?.runs[0]?.cancelled).toBe(false);
    expect(results?.runs[0]?.error).toMatch(/not cancelled/);
    expect(run.code).not.toBe(0);
  }, 60_000);
});
