/**
 * The read and stop paths against a service that fails or lies in small ways, the action in-process
 * (`run(deps)`) against its own emulator, bent by a proxy (`support/proxy.ts`) or a fault of the
 * emulator: a page of a suite result's tests that fails once; a group read by test where a test's list
 * shows a run still going or lacks it; a cancel that fails at the deadline; an engine that does not stop at
 * the deadline (its client ignores the abort), which the deadline's backstop ends.
 */
import { describe, expect, it } from 'vitest';
import type { GhostInspectorApi } from '../../../src/api/api.js';
import { createClient } from '../../../src/api/client.js';
import type { Emulator } from '../../../emulator/index.js';
import { startHoldProxy } from '../../support/proxy.js';
import { runActionInProcess, type InProcessOptions } from '../../support/run-action.js';
import {
  closeAfterAll,
  makeTempWorkspace,
  readResults,
  removeWorkspace,
  secretInputs,
  secretsFor,
  startReliabilityEmulator,
} from '../../support/reliability.js';

const secrets = secretsFor('read-stop');

const later = closeAfterAll();

async function emulatorFor(): Promise<Emulator> {
  const emulator = await startReliabilityEmulator(secrets);
  later(() => emulator.close());
  return emulator;
}

/** Runs the action in-process against `baseUrl`; returns the run, results.json and the workspace. */
async function act(baseUrl: string, inputs: Record<string, string>, extra: Partial<InProcessOptions> = {}) {
  const workspace = await makeTempWorkspace('gi-rel-read-');
  later(() => removeWorkspace(workspace));
  const started = Date.now();
  const run = await runActionInProcess({
    workspace,
    inputs: { ...secretInputs(secrets), 'api-base-url': baseUrl, screenshots: 'none', ...inputs },
    ...extra,
  });
  return { run, results: readResults(workspace), ms: Date.now() - started };
}

describe.concurrent('reading', () => {
  it('a page of the tests that fails (an unreadable answer) is read again', async () => {
    const emulator = await emulatorFor();
    emulator.setFaults({
      routes: [{ method: 'GET', pattern: '/v1/suite-results/*/results', kind: 'malformed-json', times: 1 }],
    });
    const o = await act(emulator.baseUrl, { 'suite-ids': 'suite-red' });
    expect(emulator.requests().filter((r) => r.fault === 'malformed-json')).toHaveLength(1);
    expect(o.results?.runs[0]?.error).toBeUndefined();
    expect(o.results?.results.map((t) => `${t.testId}:${t.state}`).sort()).toEqual([
      'rel-red-bad:failed',
      'rel-red-ok:passed',
    ]);
  });
});

describe.concurrent('stopping at the deadline', () => {
  it('a cancel that fails: the timed-out run is not reported cancelled', async () => {
    const emulator = await emulatorFor();
    emulator.setScenario('rel-green-1', { hang: true });
    emulator.setFaults({ routes: [{ method: 'POST', pattern: '/v1/suite-results/*/cancel', kind: '500' }] });
    const o = await act(emulator.baseUrl, { 'suite-ids': 'suite-green', 'timeout-minutes': '0.05' });
    const run = o.results!.runs[0]!;
    expect(run.timedOut).toBe(true);
    expect(run.cancelled).toBe(false);
    expect(run.error).not.toMatch(/cancelled/);
    expect(o.run.stdout).toMatch(/cancel/i);
  });

  it('an engine that does not stop at the deadline is ended by the backstop within timeout + 10 s', async () => {
    const emulator = await emulatorFor();
    // Reads hang, and the client that sends them ignores the abort of the deadline.
    const hold = await startHoldProxy(emulator.origin, ({ method }) =>
      method === 'GET' ? 'hold-before' : 'forward',
    );
    later(() => hold.close());
    const deaf = (api: GhostInspectorApi): GhostInspectorApi =>
      new Proxy(api, {
        get: (target, name) => {
          const value = Reflect.get(target, name) as unknown;
          if (typeof value !== 'function' || !/^(get|list)/.test(String(name))) return value;
          return (...args: unknown[]) => (value as (...a: unknown[]) => unknown)(...args.slice(0, -1), {});
        },
      });
    const o = await act(
      hold.baseUrl,
      { 'suite-ids': 'suite-green', 'timeout-minutes': '0.05' },
      { createApi: (options) => deaf(createClient(options)) },
    );
    expect(o.run.signal).toBe('SIGKILL');
    expect(o.run.stdout).toMatch(/did not stop at the timeout/);
    expect(o.ms).toBeLessThan(3_000 + 10_000);
  });
});
