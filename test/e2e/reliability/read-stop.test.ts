/**
 * The read and stop paths against a service that fails or lies in small ways, the action in-process
 * (`run(deps)`) against its own emulator, bent by a proxy (`support/proxy.ts`) or a fault of the
 * emulator: a page of a suite result's tests that fails once; a list read again whose first copy is stale;
 * a cancel that fails at the deadline; reads that all hang until the deadline. The action and the emulator
 * run on one virtual clock (`support/world.ts`): production deadlines, no real time spent, whatever
 * the load. The deadline's backstop, a real-time timer by design, is proven in `backstop.test.ts`.
 */
import { describe, expect, it } from 'vitest';
import type { FaultRule } from '../../../emulator/faults.js';
import { startProxy, type Bend } from '../../support/proxy.js';
import { readResults, secretInputs, secretsFor } from '../../support/reliability.js';
import { useWorlds } from '../../support/world.js';

const secrets = secretsFor('read-stop');

const { open, later, newWorkspace } = useWorlds();

/** What a case bends: the answers (`bend`, through a proxy), the emulator's route faults, hanging tests. */
interface Service {
  bend?: Bend;
  /** Route faults; a `slow` one holds its answer for an hour of virtual time, as a service that hangs. */
  faults?: FaultRule[];
  /** Tests whose runs never finish. */
  hang?: string[];
}

/**
 * Runs the action in-process against its own emulator on a virtual clock, through a proxy; returns the
 * run, results.json and the emulator.
 */
async function act(inputs: Record<string, string>, service: Service = {}) {
  // No case here reads a screenshot: without them the emulator renders no images.
  const world = await open({
    timeScale: 0.05,
    secrets,
    visuals: false,
    ...(service.faults ? { faults: { routes: service.faults, delayMs: 3_600_000 } } : {}),
  });
  for (const id of service.hang ?? []) world.emulator.setScenario(id, { hang: true });
  const proxy = await startProxy(world.emulator.origin, undefined, service.bend);
  later(() => proxy.close());
  const workspace = await newWorkspace();
  const run = await world.run({
    workspace,
    inputs: { ...secretInputs(secrets), 'api-base-url': proxy.baseUrl, screenshots: 'none', ...inputs },
  });
  return { run, results: readResults(workspace), emulator: world.emulator };
}

describe.concurrent('reading', () => {
  it('a page of the tests that fails (an unreadable answer) is read again', async () => {
    const o = await act(
      { 'suite-ids': 'suite-red' },
      {
        faults: [{ method: 'GET', pattern: '/v1/suite-results/*/results', kind: 'malformed-json', times: 1 }],
      },
    );
    expect(o.emulator.requests().filter((r) => r.fault === 'malformed-json')).toHaveLength(1);
    expect(o.results?.runs[0]?.error).toBeUndefined();
    expect(o.results?.results.map((t) => `${t.testId}:${t.state}`).sort()).toEqual([
      'rel-red-bad:failed',
      'rel-red-ok:passed',
    ]);
  });

  it('a list read again keeps the latest copy of each test result, not the stale one', async () => {
    // The first listing lacks one test and shows the other still running; the next one is whole and fresh.
    let listings = 0;
    const o = await act(
      { 'suite-ids': 'suite-red' },
      {
        bend: (request, body) => {
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
      },
    );
    expect(listings).toBeGreaterThanOrEqual(2);
    expect(o.results?.results.map((t) => `${t.testId}:${t.state}`).sort()).toEqual([
      'rel-red-bad:failed',
      'rel-red-ok:passed',
    ]);
  });
});

describe.concurrent('stopping at the deadline', () => {
  it('a cancel that fails: the timed-out run is not reported cancelled', async () => {
    const o = await act(
      { 'suite-ids': 'suite-green', 'timeout-minutes': '0.2' },
      {
        hang: ['rel-green-1'],
        faults: [{ method: 'POST', pattern: '/v1/suite-results/*/cancel', kind: '500' }],
      },
    );
    expect(o.emulator.requests().some((r) => r.method === 'POST' && /\/cancel\/?$/.test(r.path))).toBe(true);
    const run = o.results!.runs[0]!;
    expect(run.timedOut).toBe(true);
    expect(run.cancelled).toBe(false);
    expect(run.error).not.toMatch(/cancelled/);
    expect(o.run.stdout).toMatch(/cancel/i);
  });

  it('a run none of whose reads succeeded: the cancel at the deadline answers its failure, which is taken (fail-on-timeout: false)', async () => {
    // Every read hangs: the test fails at once remotely; only the cancel's answer shows it.
    const o = await act(
      { 'test-ids': 'rel-red-bad', 'timeout-minutes': '0.2', 'fail-on-timeout': 'false' },
      { faults: [{ method: 'GET', pattern: '/v1/*', kind: 'slow' }] },
    );
    const run = o.results!.runs[0]!;
    expect(run.timedOut).toBe(false);
    expect(run.error).toBeUndefined();
    expect(o.results!.results.map((t) => t.state)).toEqual(['failed']);
    expect(o.run.code).toBe(1);
  });

  it('a run none of whose reads succeeded, not cancelled: an error "could not be read", not "still running" (fail-on-timeout: false)', async () => {
    const o = await act(
      {
        'test-ids': 'rel-red-bad',
        'timeout-minutes': '0.2',
        'fail-on-timeout': 'false',
        'cancel-on-timeout': 'false',
      },
      { faults: [{ method: 'GET', pattern: '/v1/*', kind: 'slow' }] },
    );
    const run = o.results!.runs[0]!;
    expect(run.timedOut).toBe(false);
    expect(run.error).toMatch(/could not be read before the timeout/);
    expect(run.error).not.toMatch(/Still running/);
    expect(o.results!.results.map((t) => t.state)).toEqual(['error']);
    expect(o.run.code).toBe(1);
  });
});
