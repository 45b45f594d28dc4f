/**
 * A service whose answers lie or take the wrong shape, bent by a proxy in front of the emulator
 * (`support/proxy.ts`): a suite result's list of test results that lacks a
 * test, lists one twice or disagrees with the suite result's verdict; a list that ignores `offset`; `data:
 * null` where a suite result belongs; a list that hangs after the suite result ended; and a cancelled suite
 * of more than one page. The action never reports a pass the suite result denies, reads a bounded number of
 * pages, names a wrong answer in a warning and ends the run as an error, and reports every test of a
 * cancelled suite. It runs in-process (`run(deps)`), it and the emulator on one virtual clock
 * (`support/world.ts`): production waits and deadlines, no real time spent, whatever the load.
 */
import { describe, expect, it } from 'vitest';
import type { SeedFile } from '../../../emulator/index.js';
import type { FaultRule } from '../../../emulator/faults.js';
import { startProxy, type Bend } from '../../support/proxy.js';
import { counts, type ActionRun } from '../../support/harness.js';
import {
  ORG,
  parseAnnotations,
  readResults,
  reliabilitySeed,
  type ResultsFile,
  type ResultsRun,
  secretInputs,
  secretsFor,
} from '../../support/reliability.js';
import { useWorlds } from '../../support/world.js';

const secrets = secretsFor('lies');

const { open, later, newWorkspace } = useWorlds();

const BIG = 55;
const HUGE = 120;

/**
 * The reliability seed, `suite-big` (55 passing tests of `runMs` each) and `suite-huge` (120 of 100 ms), their
 * tests without screenshots (visuals disabled: no case here reads one, and 175 images cost seconds of CPU).
 */
function seed(runMs: number): SeedFile {
  const s = reliabilitySeed([secrets.apiKey]);
  const add = (suite: string, prefix: string, n: number, ms: number): void => {
    s.suites!.push({ _id: suite, name: `${prefix} suite`, organization: ORG });
    for (let i = 0; i < n; i++) {
      s.tests!.push({
        _id: `${prefix.toLowerCase()}-${i}`,
        name: `${prefix} ${i}`,
        suite,
        steps: [{ command: 'open', target: '/' }],
        disableVisuals: true,
        scenario: { outcome: 'pass', stepDurationsMs: 50, runDurationMs: ms },
      });
    }
  };
  add('suite-big', 'Big', BIG, runMs);
  add('suite-huge', 'Huge', HUGE, 100);
  return s;
}

interface Outcome {
  run: ActionRun;
  results: ResultsFile;
  /** Requests the proxy saw, `METHOD path?query`. */
  seen: string[];
  /** Virtual ms from the start to the end of the action. */
  tookMs: number;
}

/**
 * Runs the action through a proxy that bends (`bend`) the emulator's answers; `faults` are the emulator's
 * route faults (a `slow` one of an hour holds an answer on the virtual clock, as a service that hangs).
 */
async function act(
  inputs: Record<string, string>,
  proxy: { bend?: Bend; faults?: FaultRule[] },
  runMs = 100,
): Promise<Outcome> {
  const world = await open({
    timeScale: 0.05,
    seed: seed(runMs),
    ...(proxy.faults ? { faults: { routes: proxy.faults, delayMs: 3_600_000 } } : {}),
  });
  const seen: string[] = [];
  const p = await startProxy(
    world.emulator.origin,
    (r) => (seen.push(`${r.method} ${r.url}`), null),
    proxy.bend,
  );
  later(() => p.close());
  const workspace = await newWorkspace();
  const started = world.clock.now();
  const run = await world.run({
    workspace,
    inputs: { ...secretInputs(secrets), 'api-base-url': p.baseUrl, screenshots: 'none', ...inputs },
  });
  return { run, results: readResults(workspace)!, seen, tookMs: world.clock.now() - started };
}

const isTestList = (url: string): boolean => /\/suite-results\/[^/]+\/results\/?\?/.test(url);

/** Bends the `data` of a suite result's list of test results. */
function bendTestList(change: (list: Array<Record<string, unknown>>, url: string) => unknown): Bend {
  return (request, body) => {
    if (request.method !== 'GET' || !isTestList(request.url)) return undefined;
    const envelope = body as { data: Array<Record<string, unknown>> };
    return { ...envelope, data: change(envelope.data, request.url) };
  };
}

const testIdOf = (r: Record<string, unknown>): string => (r.test as { _id: string })._id;

/** Bends the `data` of an execute's answer (a list of results when several runs were asked for). */
function bendExecute(change: (list: Array<Record<string, unknown>>) => unknown): Bend {
  return (request, body) => {
    if (request.method !== 'POST' || !/\/execute\/?(\?|$)/.test(request.url)) return undefined;
    const envelope = body as { data: Array<Record<string, unknown>> };
    return { ...envelope, data: change(envelope.data) };
  };
}

describe.concurrent("the suite result's own word", () => {
  it('a list that lacks the failing test: the missing test is an error, the step fails', async () => {
    const o = await act(
      { 'suite-ids': 'suite-red' },
      { bend: bendTestList((list) => list.filter((r) => testIdOf(r) !== 'rel-red-bad')) },
    );
    expect(o.run.code).toBe(1);
    expect(o.results.verdict).not.toBe('passed');
    const missing = o.results.results.filter((t) => t.name.startsWith('Missing test result'));
    expect(missing).toHaveLength(1);
    expect(missing[0]!.state).toBe('error');
    expect(missing[0]!.error).toMatch(/counts 2 tests .*held 1, also when read again/);
    expect(counts(o.run)).toMatchObject({ total: 2, passed: 1, error: 1 });
    // Listed again before giving up: at most 1 + 2 listings.
    const listings = o.seen.filter(isTestList).length;
    expect(listings).toBeGreaterThanOrEqual(2);
    expect(listings).toBeLessThanOrEqual(3);
  });

  it('a list that shows another test twice in place of the failing one: the step fails', async () => {
    const o = await act(
      { 'suite-ids': 'suite-red' },
      {
        bend: bendTestList((list) => {
          const ok = list.find((r) => testIdOf(r) === 'rel-red-ok')!;
          return [ok, ok];
        }),
      },
    );
    expect(o.run.code).toBe(1);
    expect(o.results.verdict).not.toBe('passed');
    expect(counts(o.run), o.run.stdout).toMatchObject({ total: 2, passed: 1, error: 1 });
  });

  it('a list that shows the failing test as passing: the suite result, which says failed, wins', async () => {
    const o = await act(
      { 'suite-ids': 'suite-red' },
      { bend: bendTestList((list) => list.map((r) => ({ ...r, passing: true }))) },
    );
    expect(o.run.code).toBe(1);
    expect(o.results.verdict).not.toBe('passed');
    const said = o.results.results.find((t) => t.name === 'Suite result failed');
    expect(said?.state).toBe('error');
    expect(said?.error).toMatch(/says it failed .*none of its listed test results failed/);
  });

  it('a list that is late (the first listing lacks a test): read again, the real failure reported', async () => {
    let listings = 0;
    const o = await act(
      { 'suite-ids': 'suite-red' },
      {
        bend: bendTestList((list) =>
          ++listings === 1 ? list.filter((r) => testIdOf(r) !== 'rel-red-bad') : list,
        ),
      },
    );
    expect(o.run.code).toBe(1);
    expect(o.results.results.map((t) => `${t.testId}:${t.state}`).sort()).toEqual([
      'rel-red-bad:failed',
      'rel-red-ok:passed',
    ]);
  });
});

/** Bends every suite result the service answers once it has ended (alone or in the suite's results list). */
function bendEndedSuiteResult(change: (result: Record<string, unknown>) => Record<string, unknown>): Bend {
  const bent = (r: Record<string, unknown>) =>
    r.passing === null || r.passing === undefined ? r : change(r);
  return (request, body) => {
    if (request.method !== 'GET') return undefined;
    const envelope = body as { data: unknown };
    if (/\/suite-results\/[^/]+\/?\?/.test(request.url)) {
      return { ...envelope, data: bent(envelope.data as Record<string, unknown>) };
    }
    if (/\/suites\/[^/]+\/results\/?\?/.test(request.url)) {
      return { ...envelope, data: (envelope.data as Array<Record<string, unknown>>).map(bent) };
    }
    return undefined;
  };
}

describe('counts that lie', () => {
  it('a suite result that says passing with countFailing 1, and a list of passes: never passed', async () => {
    const o = await act(
      { 'suite-ids': 'suite-green' },
      { bend: bendEndedSuiteResult((r) => ({ ...r, passing: true, countPassing: 1, countFailing: 1 })) },
    );
    expect(o.run.code).toBe(1);
    expect(o.results.verdict).not.toBe('passed');
    const said = o.results.results.find((t) => t.name === 'Suite result failed');
    expect(said?.error).toMatch(/says it passed but counts 1 failing/);
  });

  it('countUnknown 1e6: a shape error, a bounded number of requests and results, every report written', async () => {
    const o = await act(
      { 'suite-ids': 'suite-green' },
      { bend: bendEndedSuiteResult((r) => ({ ...r, countUnknown: 1_000_000 })) },
    );
    expect(o.run.code).toBe(1);
    expect(o.results.results.length).toBeLessThanOrEqual(2 + 1);
    expect(o.results.results.find((t) => t.state === 'error')?.error).toMatch(/counts not believed/);
    // One listing of one page, read again twice at most.
    expect(o.seen.filter(isTestList).length).toBeLessThanOrEqual(3);
    expect(o.run.stdout.length).toBeLessThan(200_000);
  });

  it('a count above the list (30 for 2 tests): one stand-in each up to a cap, then one line with the number', async () => {
    const o = await act(
      { 'suite-ids': 'suite-green' },
      { bend: bendEndedSuiteResult((r) => ({ ...r, countUnknown: 28 })) },
    );
    expect(o.run.code).toBe(1);
    const missing = o.results.results.filter((t) => t.name.startsWith('Missing test result'));
    expect(missing.length).toBeLessThan(28);
    expect(missing.at(-1)?.name).toMatch(/\b\d+ more\b/);
    expect(o.run.stdout).toMatch(/counts 30 tests/);
  });

  it('a count that lies low (40 for 120 tests): every page is read on, all 120 reported', async () => {
    const o = await act(
      { 'suite-ids': 'suite-huge' },
      { bend: bendEndedSuiteResult((r) => ({ ...r, countPassing: 40, countUnknown: 0 })) },
    );
    expect(counts(o.run)).toMatchObject({ total: HUGE, passed: HUGE });
    expect(o.run.code).toBe(0);
  });
});

describe('an execute answer with fewer runs than asked', () => {
  it('two browsers, the answer lists only the second: one error run for the missing browser, the other labelled by what it shows', async () => {
    const o = await act(
      { 'test-ids': 'rel-green-1', browser: 'chrome,firefox' },
      { bend: bendExecute((list) => list.filter((r) => !String(r.browser).startsWith('chrome'))) },
    );
    expect(o.run.code).toBe(1);
    expect(o.results.verdict).not.toBe('passed');
    expect(counts(o.run)).toMatchObject({ total: 2, passed: 1, error: 1 });
    const runs = o.results.runs as Array<ResultsRun & { variant: { browser?: string } }>;
    const missing = runs.find((r) => r.error);
    expect(missing?.error).toMatch(/the service answered 1 of 2 runs/);
    expect(missing?.variant.browser).toBe('chrome');
    expect(runs.find((r) => !r.error)?.variant.browser).toBe('firefox');
  });

  it('an answer naming one run twice: that run followed once, the missing one an error run; the step ends and fails', async () => {
    const o = await act(
      { 'test-ids': 'rel-green-1', browser: 'chrome,firefox' },
      { bend: bendExecute((list) => [list[0], list[0]]) },
    );
    expect(o.run.code).toBe(1);
    expect(counts(o.run)).toMatchObject({ total: 2, passed: 1, error: 1 });
    expect(o.results.runs.find((r) => r.error)?.error).toMatch(/the service answered 1 of 2 runs/);
  });

  it('a suite with two browsers answered with one suite result: total is what was asked, the step fails', async () => {
    const o = await act(
      { 'suite-ids': 'suite-green', browser: 'chrome,firefox' },
      { bend: bendExecute((list) => list.slice(1)) },
    );
    expect(o.run.code).toBe(1);
    expect(counts(o.run)).toMatchObject({ passed: 2, error: 1 });
    expect(o.results.runs.filter((r) => r.error)).toHaveLength(1);
  });
});

describe.concurrent('bounded reads', () => {
  it('a service that ignores offset: a bounded number of pages, the missing tests reported, no timeout', async () => {
    let first: unknown = null;
    const o = await act(
      { 'suite-ids': 'suite-big', 'timeout-minutes': '1' },
      // Every page is the first one.
      {
        bend: bendTestList((list, url) => {
          if (/[?&]offset=0(&|$)/.test(url) || !/offset=/.test(url)) first = list;
          return first ?? list;
        }),
      },
    );
    // Reading ignores offset: every listing answers the first 50, of 55.
    expect(o.results.runs[0]?.timedOut).toBe(false);
    expect(counts(o.run)).toMatchObject({ total: BIG, passed: 50, error: 5 });
    // 3 listings of at most 2 pages (the second adds no new result).
    expect(o.seen.filter(isTestList).length).toBeLessThanOrEqual(6);
  });

  it('data null where a suite result belongs: a named warning, then the run is an error, long before the deadline', async () => {
    const o = await act(
      { 'suite-ids': 'suite-green', 'timeout-minutes': '30' },
      {
        bend: (request, body) =>
          request.method === 'GET' && /\/suite-results\/[^/]+\/?\?/.test(request.url)
            ? { ...(body as object), data: null }
            : undefined,
      },
    );
    expect(o.tookMs).toBeLessThan(60_000);
    expect(o.run.code).toBe(1);
    const warnings = parseAnnotations(o.run.stdout).filter((a) => a.kind === 'warning');
    expect(warnings.map((w) => w.message).join('\n')).toMatch(
      /GET \/v1\/suite-results\/[^ ]+: the answer's data is null where one record .* was expected/,
    );
    expect(o.results.runs[0]?.error).toMatch(/could not be read: .*data is null/);
    expect(o.results.runs[0]?.timedOut).toBe(false);
  });

  it('a list that hangs after the suite result ended: reported as such, not as still running', async () => {
    const o = await act(
      { 'suite-ids': 'suite-green', 'timeout-minutes': '0.1', 'fail-on-timeout': 'false' },
      { faults: [{ method: 'GET', pattern: '/v1/suite-results/*/results', kind: 'slow' }] },
    );
    const run = o.results.runs[0]!;
    expect(run.error).toMatch(/suite result had ended \(passed\), but its list of test results was not read/);
    expect(run.error).not.toMatch(/Still running/);
    expect(run.timedOut).toBe(false);
    expect(o.run.code).toBe(1);
  });
});

describe.concurrent('stopping', () => {
  it('fail-fast cancels a suite of more than 50 tests: every one of them is reported', async () => {
    const o = await act(
      { 'suite-ids': 'suite-red,suite-big', 'fail-fast': 'true' },
      {},
      // The big suite's tests run for 10 min of emulator time (30 s of virtual time): still going at the fail-fast.
      600_000,
    );
    const big = o.results.runs.find((r) => r.suiteId === 'suite-big')!;
    expect(big.cancelled).toBe(true);
    expect(o.results.results.filter((t) => t.run === big.key)).toHaveLength(BIG);
  });
});
