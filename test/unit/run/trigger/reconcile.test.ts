/**
 * Reconciliation of an execute that may have started runs (`TRIGGER_UNCERTAIN`): the engine with the real
 * client against the emulator, whose fault injection loses the execute's answer after handling it
 * (`reset-after`) or rejects it unhandled (`500`). The execute is never sent again.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import type { SuiteResult, TestDefinition } from '../../../../src/api/types.js';
import { runPlan, type RunPlan } from '../../../../src/run/engine.js';
import type { RunEvent } from '../../../../src/run/events.js';
import {
  CLOCK_SKEW_MS,
  findTriggeredRuns,
  matchTriggered,
  mayHaveStarted,
  variantFit,
  type LookupRequest,
} from '../../../../src/run/trigger/reconcile.js';
import { ApiError } from '../../../../src/api/errors.js';
import { mayHaveStartedAmong } from '../../../../src/run/stop/deadline.js';
import { STEP_MARKER } from '../../../../src/inputs/schema.js';
import { collectingLog, runPlanOf } from '../../../support/run-factories.js';
import { useWorld } from '../../../support/world.js';
import { consoleReporter } from '../../../../src/report/console.js';

const API_KEY = 'reconcile-test-key';

// The emulator and the engine on one virtual clock (`test/support/world.ts`).
const world = useWorld({ apiKey: API_KEY });
beforeEach(() => {
  world.emulator.setFaults('');
});

const plan = (overrides: Partial<RunPlan>): RunPlan => runPlanOf({ timeoutMs: 60_000, ...overrides });

const executes = () =>
  world.emulator.requests().filter((q) => q.method === 'POST' && /\/execute\/?$/.test(q.path));

describe('an execute whose answer is lost', () => {
  it('after the service handled it: the run is found in the suite results, followed to its end, never re-sent', async () => {
    world.emulator.setFaults('route=POST /v1/suites/*/execute:reset-afterx1');
    const log = collectingLog();
    const api = world.client({ apiKey: API_KEY });
    const summary = await runPlan(plan({ suiteIds: ['suite-smoke'] }), {
      api,
      clock: world.clock,
      onEvent: consoleReporter(log),
    });
    expect(executes()).toHaveLength(1);
    expect(summary.runs).toHaveLength(1);
    const run = summary.runs[0]!;
    expect(run.error).toBeUndefined();
    expect(run.mayHaveStarted).toBeUndefined();
    expect(run.suiteResultId).toBeTruthy();
    expect(run.tests.length).toBeGreaterThan(0);
    expect(log.lines.some((l) => l.startsWith('Found the run of suite suite-smoke'))).toBe(true);
  });

  it('a test: found through its running list or results, followed to its end', async () => {
    world.emulator.setFaults('route=POST /v1/tests/*/execute:reset-afterx1');
    const api = world.client({ apiKey: API_KEY });
    const summary = await runPlan(plan({ testIds: ['test-home'] }), {
      api,
      clock: world.clock,
      onEvent: consoleReporter(collectingLog()),
    });
    expect(executes()).toHaveLength(1);
    expect(summary.runs).toHaveLength(1);
    expect(summary.runs[0]?.testResultId).toBeTruthy();
    expect(summary.runs[0]?.tests.map((t) => t.state)).not.toContain('error');
  });

  it('a test run that ended before the lookup: found in its results, not its running list', async () => {
    // The running list answers 15 s late, when the run (seconds long) has ended.
    world.emulator.setFaults(
      'delay=15000,route=POST /v1/tests/*/execute:reset-afterx1,route=GET /v1/tests/*/running:slowx1',
    );
    const summary = await runPlan(plan({ testIds: ['test-home'] }), {
      api: world.client({ apiKey: API_KEY }),
      clock: world.clock,
    });
    expect(executes()).toHaveLength(1);
    const results = world.emulator
      .requests()
      .filter((q) => q.method === 'GET' && /^\/v1\/tests\/test-home\/results\/?$/.test(q.path));
    expect(results).toHaveLength(1);
    expect(summary.runs).toHaveLength(1);
    expect(summary.runs[0]?.error).toBeUndefined();
    expect(summary.runs[0]?.tests.map((t) => t.state)).toEqual(['passed']);
  });

  it('a repository test file (on demand): found in the organization running list by its name', async () => {
    // Production durations: the run is still running (in the running list) when it is looked up.
    world.emulator.setFaults('route=POST /v1/organizations/*/on-demand/execute:reset-afterx1');
    const api = world.client({ apiKey: API_KEY });
    const definition = {
      name: 'Reconciled on demand',
      startUrl: 'https://a.test',
      steps: [{ sequence: 0, command: 'assertElementPresent', target: 'body', value: '' }],
    } as unknown as TestDefinition;
    const summary = await runPlan(
      plan({ repoTests: [{ file: 'tests/a.json', index: 0, name: definition.name, definition }] }),
      { api, clock: world.clock, onEvent: consoleReporter(collectingLog()) },
    );
    expect(executes()).toHaveLength(1);
    expect(summary.runs).toHaveLength(1);
    expect(summary.runs[0]?.error).toBeUndefined();
    expect(summary.runs[0]?.testResultId).toBeTruthy();
  });

  it('when no run can be found: reported as "may have started", an error, never re-sent', async () => {
    // A 502 is not handled by the emulator: no run exists, yet the execute may have arrived.
    world.emulator.setFaults('route=POST /v1/suites/*/execute:502x1');
    const log = collectingLog();
    const api = world.client({ apiKey: API_KEY });
    const summary = await runPlan(plan({ suiteIds: ['suite-smoke'] }), {
      api,
      clock: world.clock,
      onEvent: consoleReporter(log),
    });
    expect(executes()).toHaveLength(1);
    expect(summary.runs).toHaveLength(1);
    expect(summary.runs[0]?.mayHaveStarted).toBe(true);
    expect(summary.runs[0]?.error).toMatch(/may have started; not found/);
    expect(log.lines.filter((l) => l.startsWith('warning:'))).toHaveLength(1);
  });
});

describe('adoption only on proof (the step marker)', () => {
  it('a run started then without any marker (another client): never adopted, "may have started; not proven" with its link', async () => {
    const api = world.client({ apiKey: API_KEY });
    // Started by someone else at the same moment, with no marker of any step.
    const other = (await api.executeSuite('suite-smoke', { immediate: true })) as SuiteResult;
    world.emulator.setFaults('route=POST /v1/suites/*/execute:502x1');
    const summary = await runPlan(plan({ suiteIds: ['suite-smoke'] }), {
      api,
      clock: world.clock,
    });
    expect(summary.runs).toHaveLength(1);
    expect(summary.runs[0]?.suiteResultId).toBeUndefined();
    expect(summary.runs[0]?.mayHaveStarted).toBe(true);
    expect(summary.runs[0]?.error).toMatch(/may have started; not proven/);
    expect(summary.runs[0]?.error).toContain(`/suite-results/${other._id}`);
    expect(summary.runs[0]?.error).toContain(mayHaveStartedAmong(1, 1));
    expect(world.emulator.requests().filter((q) => q.path.includes(`${other._id}/cancel`))).toEqual([]);
  });

  it('"may have started; not proven" counts the runs asked for and the candidates in words', () => {
    expect(mayHaveStartedAmong(1, 1)).toBe(
      'The execute may have started a run, but it was not answered, and 1 run started then could be it, but ' +
        "none showed this step's marker: not followed, not cancelled (may have started; not proven).",
    );
    expect(mayHaveStartedAmong(2, 3)).toMatch(
      /^The execute may have started 3 runs, but it was not answered, and 2 runs started then could be them, but none/,
    );
  });

  it('a start URL that begins with a variable: the run, its start URL filled in by the service, proven by its marker alone', async () => {
    const targets: Array<[string, Partial<RunPlan>]> = [
      ['suites', { suiteIds: ['suite-checkout'] }],
      ['tests', { testIds: ['test-receipt'] }],
    ];
    for (const [kind, target] of targets) {
      world.emulator.setFaults(`route=POST /v1/${kind}/*/execute:reset-afterx1`);
      const summary = await runPlan(
        plan({
          ...target,
          startUrls: ['{{base}}/checkout'],
          execute: { disableVisuals: true, variables: { base: 'https://staging.shop.test' } },
        }),
        { api: world.client({ apiKey: API_KEY }), clock: world.clock },
      );
      expect(executes(), kind).toHaveLength(1);
      const [run] = summary.runs;
      expect(run?.error, kind).toBeUndefined();
      expect(run?.variant, kind).toEqual({ startUrl: '{{base}}/checkout' });
      expect(run?.tests.length, kind).toBeGreaterThan(0);
      expect(run?.tests[0]?.result?.startUrl, kind).toBe('https://staging.shop.test/checkout');
      world.emulator.resetLog();
    }
  });

  it("every execute carries the step's marker: one value for the step, another for the next step", async () => {
    const api = world.client({ apiKey: API_KEY });
    const markers = async (): Promise<unknown[]> => {
      const summary = await runPlan(plan({ testIds: ['test-home', 'test-login'] }), {
        api,
        clock: world.clock,
      });
      return summary.runs.map((r) => r.tests[0]?.result?.variables?.[STEP_MARKER]);
    };
    const [a, b] = await markers();
    const [c] = await markers();
    expect(a).toMatch(/\S/);
    expect(b).toBe(a);
    expect(c).not.toBe(a);
  });
});

describe('a re-run (retry-failed) whose execute answer is lost', () => {
  it('is found and followed: the test is flaky, the re-run sent once', async () => {
    world.emulator.setScenario('test-login', { failFirst: 1, failingStep: 1, error: 'Flaky element' });
    // The first execute is answered; the second (the re-run) is handled and its answer lost.
    world.emulator.setFaults('route=POST /v1/tests/test-login/execute:reset-afterx2');
    const api = world.client({ apiKey: API_KEY });
    try {
      // The first execute's answer is lost too: reconciled, then the re-run's.
      const summary = await runPlan(plan({ testIds: ['test-login'], retryFailed: 1 }), {
        api,
        clock: world.clock,
        onEvent: consoleReporter(collectingLog()),
      });
      expect(executes()).toHaveLength(2);
      expect(summary.runs[0]?.tests.map((t) => t.state)).toEqual(['flaky']);
    } finally {
      world.emulator.setScenario('test-login', null);
    }
  });
});

describe('matchTriggered', () => {
  const at = Date.parse('2026-01-01T10:00:00Z');
  const result = (id: string, offsetMs: number, startUrl?: string) =>
    ({
      _id: id,
      dateCreated: new Date(at + offsetMs).toISOString(),
      ...(startUrl ? { startUrl } : {}),
    }) as unknown as SuiteResult;
  const job = { kind: 'suite' as const, suiteId: 's' };

  it('keeps results created at or after the trigger (less the skew), not known, oldest first', () => {
    const found = matchTriggered(
      [result('new2', 500), result('new1', 100), result('old', -CLOCK_SKEW_MS - 1), result('mine', 200)],
      { job, triggeredAtMs: at, expected: 1, known: new Set(['mine']), organizationId: null },
    );
    expect(found.map((c) => c.result._id)).toEqual(['new1', 'new2']);
  });

  it('with a start URL: only results with that start URL (or none said, then not beyond doubt)', () => {
    const found = matchTriggered(
      [result('a', 10, 'https://a/'), result('b', 20, 'https://b/'), result('c', 30)],
      {
        job: { ...job, startUrl: 'https://b/' },
        triggeredAtMs: at,
        expected: 2,
        known: new Set(),
        organizationId: null,
      },
    );
    expect(found.map((c) => [c.result._id, c.fit])).toEqual([
      ['b', 'match'],
      ['c', 'unknown'],
    ]);
  });

  it('with a start URL holding a variable (filled in by the service): no result is told apart by its start URL', () => {
    const found = matchTriggered([result('a', 10, 'https://a/x'), result('b', 20, 'https://b/x')], {
      job: { ...job, startUrl: '{{ngrokUrl}}/x' },
      triggeredAtMs: at,
      expected: 1,
      known: new Set(),
      organizationId: null,
    });
    expect(found.map((c) => [c.result._id, c.fit])).toEqual([
      ['a', 'match'],
      ['b', 'match'],
    ]);
  });

  it('a test: never the test result of a suite run of the same test', () => {
    const inSuite = { ...result('in-suite', 10), suiteResult: 'sr1' } as unknown as SuiteResult;
    const alone = result('alone', 20);
    const found = matchTriggered([inSuite, alone], {
      job: { kind: 'test', testId: 't' },
      triggeredAtMs: at,
      expected: 1,
      known: new Set(),
      organizationId: null,
    });
    expect(found.map((c) => c.result._id)).toEqual(['alone']);
  });

  it("a variant shown differently (browser, region, viewport, variables) is never this trigger's", () => {
    const shown = {
      ...result('t1', 10),
      browser: 'firefox',
      region: 'eu-west-1',
      viewportSize: { width: 800, height: 600 },
      variables: { PLAN: 'a' },
    } as unknown as SuiteResult;
    expect(variantFit(shown, { browser: 'chrome' })).toBe('mismatch');
    expect(variantFit(shown, { region: 'us-east-1' })).toBe('mismatch');
    expect(variantFit(shown, { viewport: '1024x768' })).toBe('mismatch');
    expect(variantFit(shown, { variables: { PLAN: 'b' } })).toBe('mismatch');
    expect(
      variantFit(shown, { browser: ['chrome', 'firefox'], region: 'eu-west-1', viewport: '800x600' }),
    ).toBe('match');
    // A test result names the browser's version: the family sent fits it, another version does not.
    const versioned = { ...result('t2', 10), browser: 'chrome-142' } as unknown as SuiteResult;
    expect(variantFit(versioned, { browser: 'chrome' })).toBe('match');
    expect(variantFit(versioned, { browser: ['firefox', 'chrome-142'] })).toBe('match');
    expect(variantFit(versioned, { browser: 'chrome-79' })).toBe('mismatch');
    expect(variantFit(versioned, { browser: 'firefox' })).toBe('mismatch');
    // A suite result shows no browser: it may be the trigger's, never beyond doubt.
    expect(variantFit(result('s1', 10), { browser: 'chrome' })).toBe('unknown');
    expect(variantFit(result('s1', 10), {})).toBe('match');
  });

  it('a result created exactly at the trigger less the skew still counts; one without id or date never does', () => {
    const noId = { ...result('x', 10), _id: '' } as unknown as SuiteResult;
    const noDate = { ...result('y', 10), dateCreated: 'not a date' } as unknown as SuiteResult;
    const found = matchTriggered([result('edge', -CLOCK_SKEW_MS), noId, noDate], {
      job,
      triggeredAtMs: at,
      expected: 1,
      known: new Set(),
      organizationId: null,
    });
    expect(found.map((c) => c.result._id)).toEqual(['edge']);
  });

  it('variantFit: fields compared without regard to case; variables as text; a field not shown is no proof', () => {
    const shown = {
      ...result('t1', 10, 'HTTPS://B.test/Path'),
      region: 'EU-WEST-1',
      viewportSize: { width: 800, height: 0 },
      variables: { PIN: 42, GONE: null },
    } as unknown as SuiteResult;
    expect(variantFit(shown, { region: 'eu-west-1' })).toBe('match');
    expect(variantFit(shown, {}, 'https://b.test/path')).toBe('match');
    expect(variantFit(shown, {}, 'https://c.test/path')).toBe('mismatch');
    expect(variantFit(shown, { variables: { PIN: '42' } })).toBe('match');
    expect(variantFit(shown, { variables: { PIN: '42', GONE: 'x' } })).toBe('unknown');
    expect(variantFit(shown, { variables: { MISSING: 'x' } })).toBe('unknown');
    // A viewport without both sides shown is not shown.
    expect(variantFit(shown, { viewport: '800x600' })).toBe('unknown');
    const noVariables = { ...result('t2', 10), variables: 'none' } as unknown as SuiteResult;
    expect(variantFit(noVariables, { variables: { PIN: '42' } })).toBe('unknown');
    // One field differing outweighs another not shown.
    expect(variantFit(shown, { region: 'us-east-1', viewport: '800x600' })).toBe('mismatch');
  });

  it('mayHaveStarted: uncertain triggers and aborts after sending, not aborts before', () => {
    const err = (errorType: string, attempts: number, inFlight?: boolean) =>
      new ApiError({ errorType, attempts, inFlight, endpoint: 'POST /v1/suites/s/execute/', message: 'x' });
    expect(mayHaveStarted(err('TRIGGER_UNCERTAIN', 1))).toBe(true);
    expect(mayHaveStarted(err('ABORTED', 1, true))).toBe(true);
    expect(mayHaveStarted(err('ABORTED', 0, false))).toBe(false);
    // Aborted while waiting to retry after a 429: nothing was started.
    expect(mayHaveStarted(err('ABORTED', 3, false))).toBe(false);
    expect(mayHaveStarted(err('VALIDATION_ERROR', 1))).toBe(false);
    // Any other error was answered: nothing to look for, whether sent or not.
    expect(mayHaveStarted(err('SERVER_ERROR', 1, true))).toBe(false);
    expect(mayHaveStarted(new Error('x'))).toBe(false);
    // Only the client's own errors say what was sent: anything else shaped like one is not.
    expect(mayHaveStarted({ errorType: 'TRIGGER_UNCERTAIN' })).toBe(false);
    expect(mayHaveStarted(null)).toBe(false);
  });

  it('a field shown as something other than text (a browser or region as a number) is no proof either way', () => {
    const odd = {
      _id: 'r',
      dateCreated: new Date(at).toISOString(),
      browser: 7,
      region: 5,
    } as unknown as SuiteResult;
    expect(variantFit(odd, { browser: 'chrome' })).toBe('unknown');
    expect(variantFit(odd, { region: 'eu-west-1' })).toBe('unknown');
    expect(variantFit(odd, { variables: { PIN: '42' } })).toBe('unknown');
  });

  it("an entry of the list that is no result is skipped; a start URL shown differently is never the trigger's", () => {
    const found = matchTriggered(
      [
        null as unknown as SuiteResult,
        result('other', 100, 'https://b.test/'),
        result('same', 200, 'https://a.test/'),
      ],
      {
        job,
        options: { startUrl: 'https://a.test/' },
        triggeredAtMs: at,
        expected: 1,
        known: new Set(),
        organizationId: null,
      },
    );
    expect(found.map((c) => [c.result._id, c.fit])).toEqual([['same', 'match']]);
  });
});

describe('the lookup after a lost answer', () => {
  const lookups = (path: string) =>
    world.emulator.requests().filter((q) => q.method === 'GET' && q.path.replace(/\/$/, '') === path);

  it('asks up to three times, a second apart, a full page each time; then "may have started; not found"', async () => {
    world.emulator.setFaults('route=POST /v1/suites/*/execute:502x1');
    const summary = await runPlan(plan({ suiteIds: ['suite-smoke'] }), {
      api: world.client({ apiKey: API_KEY }),
      clock: world.clock,
    });
    const sent = executes()[0]!.time;
    const asked = lookups('/v1/suites/suite-smoke/results');
    expect(asked.map((q) => q.time - sent)).toEqual([0, 1_000, 2_000]);
    expect(asked.every((q) => q.query.includes('count=50'))).toBe(true);
    expect(summary.runs[0]).toMatchObject({ mayHaveStarted: true, suiteId: 'suite-smoke', tests: [] });
    expect(summary.runs[0]!.error).toMatch(/^suite suite-smoke: The execute may have started a run, .* 502/);
    // Dated from its execute, ended when the lookups gave up.
    const [triggeredAt, endedAt] = [summary.runs[0]!.triggeredAt, summary.runs[0]!.endedAt!].map(Date.parse);
    expect(triggeredAt).toBe(Math.floor(sent));
    expect(endedAt! - triggeredAt!).toBe(2_000);
  });

  it("a run of another step started then (another step's marker) is neither adopted nor a candidate", async () => {
    // Another step (another marker) starts the same suite just before this one's execute is lost.
    const other = await runPlan(plan({ suiteIds: ['suite-smoke'], wait: false }), {
      api: world.client({ apiKey: API_KEY }),
      clock: world.clock,
    });
    world.emulator.setFaults('route=POST /v1/suites/*/execute:502x1');
    const events: RunEvent[] = [];
    const summary = await runPlan(plan({ suiteIds: ['suite-smoke'] }), {
      api: world.client({ apiKey: API_KEY }),
      clock: world.clock,
      onEvent: (e) => events.push(e),
    });
    expect(summary.runs).toHaveLength(1);
    expect(summary.runs[0]!.error).toContain('(may have started; not found)');
    expect(summary.runs[0]!.error).not.toContain(other.runs[0]!.suiteResultId!);
    // Its marker was read from the first test result of its run.
    const marker = world.emulator
      .requests()
      .filter((q) => q.path.includes(`/suite-results/${other.runs[0]!.suiteResultId}/results`));
    expect(marker.length).toBeGreaterThan(0);
    expect(marker.every((q) => q.query.includes('count=1'))).toBe(true);
    expect(events.find((e) => e.type === 'trigger-problems')).toMatchObject({
      problems: [{ kind: 'may have started; not found', label: 'suite suite-smoke', id: 'suite-smoke' }],
    });
  });

  it('every variant found is followed as the variant it shows; all proven at the first lookup, no second', async () => {
    world.emulator.setFaults('route=POST /v1/tests/*/execute:reset-afterx1');
    const events: RunEvent[] = [];
    const summary = await runPlan(
      plan({ testIds: ['test-home'], execute: { disableVisuals: true, browser: ['chrome', 'firefox'] } }),
      { api: world.client({ apiKey: API_KEY }), clock: world.clock, onEvent: (e) => events.push(e) },
    );
    expect(executes()).toHaveLength(1);
    expect(lookups('/v1/tests/test-home/running')).toHaveLength(1);
    expect(summary.runs.map((r) => [r.variant.browser, r.tests[0]?.result?.browser?.split('-')[0]])).toEqual([
      ['chrome', 'chrome'],
      ['firefox', 'firefox'],
    ]);
    expect(summary.runs.every((r) => !r.error && r.tests[0]?.state === 'passed')).toBe(true);
    const found = events.filter((e) => e.type === 'runs-found');
    expect(found).toEqual([
      { type: 'runs-found', label: 'test test-home', resultIds: summary.runs.map((r) => r.testResultId) },
    ]);
  });
});

describe('findTriggeredRuns, called directly', () => {
  const runningLists = () =>
    world.emulator
      .requests()
      .filter((q) => q.method === 'GET' && /\/v1\/tests\/test-home\/running/.test(q.path));

  /** Execute options carrying `marker` as the step's marker; none: no variables. */
  const marked = (marker?: string) => (marker === undefined ? {} : { variables: { [STEP_MARKER]: marker } });

  /** A lookup for test-home from now (a second ago, to be safe), `marker` the step's marker if any. */
  function lookup(over: Partial<LookupRequest> = {}, marker?: string): LookupRequest {
    return {
      job: { kind: 'test', testId: 'test-home' },
      options: marked(marker),
      triggeredAtMs: world.clock.now() - 1_000,
      expected: 1,
      known: new Set(),
      organizationId: null,
      ...over,
    };
  }

  /** Starts test-home `times` times with `marker` (none: no variables); their result ids, oldest first. */
  async function start(times: number, marker?: string): Promise<string[]> {
    const api = world.client({ apiKey: API_KEY });
    const ids: string[] = [];
    for (let i = 0; i < times; i++) {
      const answer = await api.executeTest('test-home', { immediate: true, ...marked(marker) });
      ids.push(([answer].flat()[0] as { _id: string })._id);
      await world.clock.sleep(10);
    }
    return ids;
  }

  const cancelAll = (ids: string[]) =>
    Promise.all(ids.map((id) => world.client({ apiKey: API_KEY }).cancelTestResult(id)));

  it('adopts at most the runs expected, the oldest proven first; without a signal too', async () => {
    const request = lookup({}, 'step-a');
    const ids = await start(2, 'step-a');
    const found = await findTriggeredRuns(world.client({ apiKey: API_KEY }), request, world.clock);
    expect(found.adopted.map((r) => r._id)).toEqual([ids[0]]);
    expect(found.candidates).toEqual([]);
    await cancelAll(ids);
  });

  it('without a marker sent, or one not shown, a run that fits is a candidate, never adopted', async () => {
    const unmarked = lookup();
    const ids = await start(1);
    const api = world.client({ apiKey: API_KEY });
    for (const request of [unmarked, { ...unmarked, options: marked('step-b') }]) {
      const found = await findTriggeredRuns(api, request, world.clock);
      expect(found.adopted).toEqual([]);
      expect(found.candidates.map((r) => r._id)).toEqual(ids);
    }
    await cancelAll(ids);
  });

  it('a signal already fired asks nothing; one fired during the pause asks no more', async () => {
    const api = world.client({ apiKey: API_KEY });
    world.emulator.resetLog();
    const found = await findTriggeredRuns(api, lookup({ signal: AbortSignal.abort() }), world.clock);
    expect(found).toEqual({ adopted: [], candidates: [] });
    expect(runningLists()).toEqual([]);
    const controller = new AbortController();
    void world.clock.sleep(500).then(() => controller.abort());
    await findTriggeredRuns(api, lookup({ signal: controller.signal }), world.clock);
    expect(runningLists()).toHaveLength(1);
  });

  it('lists that fail every time: nothing adopted, no candidate', async () => {
    world.emulator.setFaults('route=GET /v1/tests/*/running:server-error');
    const found = await findTriggeredRuns(
      world.client({ apiKey: API_KEY }),
      lookup({}, 'step-c'),
      world.clock,
    );
    expect(found).toEqual({ adopted: [], candidates: [] });
  });
});

describe('the lookup after a lost answer, several runs asked', () => {
  it('goes on past the first run proven: a run listed late is found by the next lookup', async () => {
    world.emulator.setFaults('route=POST /v1/tests/*/execute:reset-afterx1');
    const real = world.client({ apiKey: API_KEY });
    let asked = 0;
    // The first look at the running list shows only the first of the two runs.
    const api = {
      ...real,
      listTestRunning: async (...args: Parameters<typeof real.listTestRunning>) => {
        const running = await real.listTestRunning(...args);
        return ++asked === 1 ? running.slice(0, 1) : running;
      },
    };
    const summary = await runPlan(
      plan({ testIds: ['test-home'], execute: { disableVisuals: true, browser: ['chrome', 'firefox'] } }),
      { api, clock: world.clock },
    );
    expect(executes()).toHaveLength(1);
    expect(asked).toBe(2);
    expect(summary.runs.map((r) => [r.variant.browser, r.error, r.tests[0]?.state])).toEqual([
      ['chrome', undefined, 'passed'],
      ['firefox', undefined, 'passed'],
    ]);
  });
});

describe('a test run started then without proof', () => {
  it('is a candidate linked as a test result; the problem says "not proven"', async () => {
    const api = world.client({ apiKey: API_KEY });
    const other = [await api.executeTest('test-login', { immediate: true })].flat()[0]!;
    world.emulator.setFaults('route=POST /v1/tests/*/execute:502x1');
    const events: RunEvent[] = [];
    const summary = await runPlan(plan({ testIds: ['test-login'] }), {
      api,
      clock: world.clock,
      onEvent: (e) => events.push(e),
    });
    expect(summary.runs).toHaveLength(1);
    expect(summary.runs[0]?.error).toContain(`https://app.ghostinspector.com/results/${other._id}`);
    expect(summary.runs[0]?.error).toMatch(/^test test-login: /);
    expect(events.find((e) => e.type === 'trigger-problems')).toMatchObject({
      problems: [{ kind: 'may have started; not proven', label: 'test test-login', id: 'test-login' }],
    });
  });
});
