/**
 * The action against the emulator: the deadline with remote cancel, a workflow cancel (SIGINT) mid-run, and
 * retry-failed turning a test that fails once into a flaky one. The deadline and retry cases run in-process
 * (`run(deps)`) with their emulator on one virtual clock (`useWorld`: production
 * durations and waits, so a 0.4 min timeout is 24 s of the clock and milliseconds of real time, and its time
 * figures are exact); the SIGINT case runs the bundle (`dist/index.js`) as a child process against an
 * emulator of its own on real time, since it proves the process's signal handling.
 */
import { existsSync, readFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { counts, until } from '../support/harness.js';
import { useWorld } from '../support/world.js';

const setup = useWorld({ fixtures: true });
/** The bundle's emulator, on real time. */
const bundle = useWorld({ clock: 'scaled', timeScale: 0.02, speed: 10, fixtures: true });

beforeEach(() => {
  setup.emulator.resetLog();
  bundle.emulator.resetLog();
});

afterEach(() => {
  for (const s of [setup, bundle])
    for (const id of ['test-home', 'test-payment'])
      s.emulator.setScenario(id, s.seedScenarios.get(id) ?? null);
});

function inputs(extra: Record<string, string>, s: { connection(): Record<string, string> } = setup) {
  return { ...s.connection(), screenshots: 'none', ...extra };
}

describe('deadline, workflow cancel and retries', () => {
  it('at the timeout: cancels the remote suite run, keeps what finished, marks the rest timed out', async () => {
    setup.emulator.setScenario('test-home', { hang: true });
    const clock = setup.clock;
    const t0 = clock.now();
    const r = await setup.run({
      inputs: inputs({ 'suite-ids': 'suite-smoke', 'timeout-minutes': '0.4', 'fail-on-timeout': 'false' }),
    });
    // The action ends at exactly its 0.4 min deadline, the remote cancel sent at that ms.
    expect(clock.now() - t0).toBe(24_000);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    const c = counts(r);
    expect(c['timed-out']).toBe(1);
    expect(r.outputs['timed-out']).toBe('1');
    expect(c.passed).toBe(2);
    expect(c.failed).toBe(0);
    expect(r.outputs.passing).toBe('true');
    expect(
      setup.emulator
        .requests()
        .some((q) => q.method === 'POST' && /^\/v1\/suite-results\/[^/]+\/cancel\/?$/.test(q.path)),
    ).toBe(true);
    const ended = setup.emulator.runs();
    expect(ended.some((f) => f.kind === 'suite-result' && f.condition === 'cancelled')).toBe(true);
    expect(ended.some((f) => f.testId === 'test-home' && f.condition === 'cancelled')).toBe(true);
    const cancel = setup.emulator.requests().find((q) => q.path.endsWith('/cancel/'))!;
    expect(cancel.time - t0).toBe(24_000);
    // Login (9 s) and search (7.5 s, production durations) had passed well before.
    expect(ended.filter((f) => f.condition === 'finished').map((f) => [f.testId, f.finishedAt - t0])).toEqual(
      [
        ['test-search', 7_500],
        ['test-login', 9_000],
      ],
    );
    expect(r.stdout).toContain('Timeout');
  });

  it('at the timeout under fail-on-timeout (default): the step fails', async () => {
    setup.emulator.setScenario('test-home', { hang: true });
    const clock = setup.clock;
    const t0 = clock.now();
    const r = await setup.run({ inputs: inputs({ 'test-ids': 'test-home', 'timeout-minutes': '0.05' }) });
    // At exactly the 3 s deadline: the cancel sent, the action done.
    expect(clock.now() - t0).toBe(3_000);
    // The last request that touches the run is the cancel; the failed test's history is read after the reports.
    const history = (q: { method: string; path: string }) =>
      q.method === 'GET' && /^\/v1\/tests\/[^/]+\/results\/?$/.test(q.path);
    expect(
      setup.emulator
        .requests()
        .filter((q) => !history(q))
        .at(-1),
    ).toMatchObject({ method: 'POST', time: t0 + 3_000 });
    expect(r.code).toBe(1);
    expect(counts(r)['timed-out']).toBe(1);
    expect(r.stdout).toContain('did not finish before the timeout');
    expect(setup.emulator.requests().some((q) => /^\/v1\/results\/[^/]+\/cancel\/?$/.test(q.path))).toBe(
      true,
    );
  });

  it('SIGINT mid-run: every active remote run is cancelled, reports are written, exit non-zero', async () => {
    bundle.emulator.setScenario('test-home', { hang: true });
    await rm(path.join(bundle.workspace, 'ghost-inspector-results.json'), { force: true });
    const { cancel, done } = await bundle.start({
      bundle: true,
      inputs: inputs({ 'suite-ids': 'suite-smoke', 'test-ids': 'test-home', 'timeout-minutes': '5' }, bundle),
    });
    // Both runs started and the action is polling.
    await until(
      () =>
        bundle.emulator.requests().filter((q) => q.path.endsWith('/execute/')).length === 2 &&
        bundle.emulator
          .requests()
          .some((q) => q.method === 'GET' && /^\/v1\/(suite-)?results\//.test(q.path)),
      20_000,
    );
    const signalledAt = Date.now();
    cancel('SIGINT');
    const r = await done;
    expect(Date.now() - signalledAt).toBeLessThan(9_000);
    expect(r.code).not.toBe(0);
    expect(r.code).not.toBeNull();
    const cancels = bundle.emulator
      .requests()
      .filter((q) => q.method === 'POST' && q.path.endsWith('/cancel/'));
    expect(cancels.length).toBeGreaterThanOrEqual(2);
    const ended = bundle.emulator.runs();
    expect(ended.some((f) => f.kind === 'suite-result' && f.condition === 'cancelled')).toBe(true);
    expect(
      ended.some((f) => f.kind === 'test-result' && f.suiteResultId === null && f.condition === 'cancelled'),
    ).toBe(true);
    expect(r.stdout).toContain('Received SIGINT');
    expect(existsSync(path.join(bundle.workspace, 'ghost-inspector-results.json'))).toBe(true);
    expect(readFileSync(path.join(bundle.workspace, 'ghost-inspector-results.json'), 'utf8')).toContain(
      'cancelled',
    );
  });

  it('retry-failed: a test that fails once and then passes is flaky, not failed', async () => {
    // The setup.emulator fails the first run of the test and passes the later ones.
    setup.emulator.setScenario('test-payment', { failFirst: 1, failingStep: 1, error: 'Flaky element' });
    const r = await setup.run({
      inputs: inputs({ 'test-ids': 'test-payment', 'retry-failed': '2' }),
    });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(counts(r)).toMatchObject({ total: 1, flaky: 1, failed: 0, passed: 0 });
    expect([r.outputs.total, r.outputs.flaky, r.outputs.failed]).toEqual(['1', '1', '0']);
    expect(r.outputs.passing).toBe('true');
    expect(
      setup.emulator.requests().filter((q) => q.path === '/v1/tests/test-payment/execute/'),
    ).toHaveLength(2);
    expect(
      setup.emulator
        .runs()
        .filter((f) => f.testId === 'test-payment')
        .map((f) => f.passing),
    ).toEqual([false, true]);
    expect(r.stdout).toContain('Re-running failed test');
    const results = readFileSync(path.join(setup.workspace, 'ghost-inspector-results.json'), 'utf8');
    expect(results).toContain('flaky');
    expect(results).toContain('Flaky element');
  });

  it('retry-failed: a test that keeps failing stays failed after the re-runs', async () => {
    const r = await setup.run({
      inputs: inputs({ 'test-ids': 'test-payment', 'retry-failed': '1' }),
    });
    expect(r.code).toBe(1);
    expect(counts(r)).toMatchObject({ total: 1, failed: 1, flaky: 0 });
    expect([r.outputs.total, r.outputs.failed, r.outputs.flaky]).toEqual(['1', '1', '0']);
    expect(
      setup.emulator.requests().filter((q) => q.path === '/v1/tests/test-payment/execute/'),
    ).toHaveLength(2);
  });
});
