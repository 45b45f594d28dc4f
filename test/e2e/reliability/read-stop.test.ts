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
import { startEchoProxy, startHoldProxy } from '../../support/proxy.js';
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

  it('a list read again keeps the latest copy of each test result, not the stale one', async () => {
    const emulator = await emulatorFor();
    // The first listing lacks one test and shows the other still running; the next one is whole and fresh.
    let listings = 0;
    const proxy = await startEchoProxy(
      emulator.origin,
      () => null,
      (request, body) => {
        if (request.method !== 'GET' || !/\/suite-results\/[^/]+\/results\/?\?/.test(request.url))
          return undefined;
        const envelope = body as { data: Array<Record<string, unknown>> };
        if (++listings > 1) return undefined;
        const stale = envelope.data
          .filter((r) => (r.test as { _id: string })._id === 'rel-red-bad')
          .map((r) => ({
            ...r,
            passing: null,
            executionTime: null,
            dateExecutionFinished: '1970-01-01T00:00:00.000Z',
          }));
        return { ...envelope, data: stale };
      },
    );
    later(() => proxy.close());
    const o = await act(proxy.baseUrl, { 'suite-ids': 'suite-red' });
    expect(listings).toBeGreaterThanOrEqual(2);
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
    // Room for a read to succeed before the deadline on a busy machine (a run never read is an error).
    const o = await act(emulator.baseUrl, { 'suite-ids': 'suite-green', 'timeout-minutes': '0.2' });
    const run = o.results!.runs[0]!;
    expect(run.timedOut).toBe(true);
    expect(run.cancelled).toBe(false);
    expect(run.error).not.toMatch(/cancelled/);
    expect(o.run.stdout).toMatch(/cancel/i);
  });

  it('a run none of whose reads succeeded is an error "could not be read", not "still running" (fail-on-timeout: false)', async () => {
    const emulator = await emulatorFor();
    // Every read hangs: the test fails at once remotely, but the action never sees it.
    const hold = await startHoldProxy(emulator.origin, ({ method }) =>
      method === 'GET' ? 'hold-before' : 'forward',
    );
    later(() => hold.close());
    const o = await act(hold.baseUrl, {
      'test-ids': 'rel-red-bad',
      // Long enough for the execute to be answered on a busy machine: the reads are what hang.
      'timeout-minutes': '0.2',
      'fail-on-timeout': 'false',
    });
    const run = o.results!.runs[0]!;
    expect(run.timedOut).toBe(false);
    expect(run.error).toMatch(/could not be read before the timeout/);
    expect(run.error).not.toMatch(/Still running/);
    expect(o.results!.results.map((t) => t.state)).toEqual(['error']);
    expect(o.run.code).toBe(1);
  });

  it('an engine that does not stop at the deadline is ended by the backstop within timeout + 10 s', async () => {
    const emulator = await emulatorFor();
    emulator.setScenario('rel-green-1', { hang: true });
    // The suite result is read (still running); its list of tests hangs, and the client that lists it
    // ignores the abort of the deadline.
    const hold = await startHoldProxy(emulator.origin, ({ method, url }) =>
      method === 'GET' && /\/suite-results\/[^/]+\/results/.test(url) ? 'hold-before' : 'forward',
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
