/**
 * Triggering: runs followed by their result ids, the runs an answer stands for (variants, data rows) and
 * the ones it leaves out, and the runs never started after a stop. The engine with the real client against the emulator on loopback, both on one virtual clock
 * (`test/support/world.ts`).
 */
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../../src/api/errors.js';
import type { EngineOptions, RunPlan } from '../../../../src/run/engine.js';
import type { TestDefinition, TestResult } from '../../../../src/api/types.js';
import { executePaths, runInWorld } from '../../../support/run-factories.js';
import { useWorld } from '../../../support/world.js';

const API_KEY = 'trigger-test-key';

const world = useWorld({ apiKey: API_KEY });

/** Runs `plan` with the real client (or `options.api`), one execute at a time; every event is kept. */
const run = (plan: Partial<RunPlan>, options: Partial<EngineOptions> = {}) =>
  runInWorld(world, API_KEY, plan, { triggerConcurrency: 1, ...options });

const executes = (): string[] => executePaths(world.emulator);

/** `running`'s value; fails once `ms` of virtual time passed first (an engine run that never returns). */
async function within<T>(running: Promise<T>, ms: number): Promise<T> {
  const done = new AbortController();
  const late = world.clock.sleep(ms, done.signal).then(() => {
    if (!done.signal.aborted) throw new Error(`not returned within ${ms} ms of virtual time`);
  });
  try {
    return (await Promise.race([running, late])) as T;
  } finally {
    done.abort();
  }
}

/** The real client, with each test execute's answer (its results as a list) changed by `reshape`. */
function reshapingTestExecutes(reshape: (results: TestResult[]) => TestResult[]) {
  const real = world.client({ apiKey: API_KEY });
  return {
    ...real,
    executeTest: async (...args: Parameters<typeof real.executeTest>) =>
      reshape([await real.executeTest(...args)].flat()),
  };
}

describe('result ids: runs started elsewhere, each read as the kind it is', () => {
  /** Starts suite-smoke and test-home without waiting; their result ids. */
  async function startedElsewhere(): Promise<{ suiteResultId: string; testResultId: string }> {
    const { summary } = await run({ suiteIds: ['suite-smoke'], testIds: ['test-home'], wait: false });
    world.emulator.resetLog();
    return { suiteResultId: summary.runs[0]!.suiteResultId!, testResultId: summary.runs[1]!.testResultId! };
  }

  const reads = (): string[] =>
    world.emulator
      .requests()
      .filter((q) => q.method === 'GET' && /^\/v1\/(suite-results|results)\/[^/]+\/?$/.test(q.path))
      .map((q) => q.path.replace(/\/$/, ''));

  it('a bare id is read as a suite result, else as a test result; each is followed to its end, never sent', async () => {
    const { suiteResultId, testResultId } = await startedElsewhere();
    const { summary, events } = await run({
      resultIds: [
        { type: null, id: suiteResultId },
        { type: null, id: testResultId },
      ],
    });
    expect(executes()).toEqual([]);
    // The test result's id is first asked for as a suite result ("not found"), then as a test result.
    expect(reads().slice(0, 3)).toEqual([
      `/v1/suite-results/${suiteResultId}`,
      `/v1/suite-results/${testResultId}`,
      `/v1/results/${testResultId}`,
    ]);
    const [suite, test] = summary.runs;
    expect(suite).toMatchObject({ kind: 'suite', suiteId: 'suite-smoke', suiteResultId });
    expect(suite!.tests.map((t) => t.state)).toEqual(['passed', 'passed', 'passed']);
    expect(test).toMatchObject({ kind: 'test', testId: 'test-home', testResultId });
    expect(test!.tests.map((t) => t.state)).toEqual(['passed']);
    expect(summary.runs.map((r) => r.error)).toEqual([undefined, undefined]);
    expect(events.filter((e) => e.type === 'run-started')).toEqual([
      { type: 'run-started', label: `suite or test result ${suiteResultId}`, resultIds: [suiteResultId] },
      { type: 'run-started', label: `suite or test result ${testResultId}`, resultIds: [testResultId] },
    ]);
  });

  it('one run named twice (`X` and `test-result:X`, `suite-result:X` and `X`) is one run, followed once', async () => {
    const { suiteResultId, testResultId } = await startedElsewhere();
    const { summary, events } = await within(
      run({
        resultIds: [
          { type: null, id: testResultId },
          { type: 'test', id: testResultId },
          { type: 'suite', id: suiteResultId },
          { type: null, id: suiteResultId },
        ],
      }),
      120_000,
    );
    expect(summary.runs.map((r) => [r.kind, r.suiteResultId ?? r.testResultId])).toEqual([
      ['test', testResultId],
      ['suite', suiteResultId],
    ]);
    expect(summary.runs.every((r) => !r.error && r.tests.every((t) => t.state === 'passed'))).toBe(true);
    expect(events.filter((e) => e.type === 'run-started')).toHaveLength(2);
  });

  it('a typed id is read as that kind only', async () => {
    const { testResultId } = await startedElsewhere();
    const { summary, events } = await run({ resultIds: [{ type: 'test', id: testResultId }] });
    expect(reads()[0]).toBe(`/v1/results/${testResultId}`);
    expect(reads().filter((p) => p.includes('suite-results'))).toEqual([]);
    expect(summary.runs[0]).toMatchObject({ kind: 'test', testId: 'test-home', testResultId });
    expect(events.find((e) => e.type === 'run-started')).toMatchObject({
      label: `test result ${testResultId}`,
    });
  });

  it('an id no result has is asked for again each retry through the not-found grace, then is a run in error', async () => {
    const id = '000000000000000000000000';
    const t0 = world.clock.now();
    const { summary, events } = await run(
      { resultIds: [{ type: 'suite', id }] },
      { waits: { notFoundGraceMs: 3_000, notFoundRetryMs: 1_000 } },
    );
    // At 0, 1, 2 and 3 s: the last at the end of the grace.
    expect(reads()).toEqual(Array.from({ length: 4 }, () => `/v1/suite-results/${id}`));
    expect(world.clock.now() - t0).toBe(3_000);
    const message = 'no suite result has this id';
    expect(summary.runs).toEqual([
      expect.objectContaining({
        kind: 'suite',
        suiteId: null,
        suiteName: `Result ${id}`,
        key: `result-${id}-0`,
        error: `Could not read suite result ${id}: ${message}`,
        tests: [],
      }),
    ]);
    expect(events.find((e) => e.type === 'trigger-problems')).toEqual({
      type: 'trigger-problems',
      problems: [{ kind: 'error', label: `suite result ${id}`, id, message }],
    });
  });

  it('a bare id no result has is asked for as both kinds each retry; the error says neither kind has it', async () => {
    const id = '000000000000000000000003';
    const { summary } = await run(
      { resultIds: [{ type: null, id }] },
      { waits: { notFoundGraceMs: 1_000, notFoundRetryMs: 1_000 } },
    );
    expect(reads()).toEqual([
      `/v1/suite-results/${id}`,
      `/v1/results/${id}`,
      `/v1/suite-results/${id}`,
      `/v1/results/${id}`,
    ]);
    expect(summary.runs.map((r) => r.error)).toEqual([
      `Could not read suite or test result ${id}: no suite or test result has this id`,
    ]);
  });

  it('a read that fails otherwise than "not found" is not asked again: a run in error of that kind', async () => {
    const id = '000000000000000000000001';
    world.emulator.setFaults('route=GET /v1/suite-results/*:server-error');
    try {
      const { summary, events } = await run({ resultIds: [{ type: null, id }] });
      expect(reads().filter((p) => p === `/v1/results/${id}`)).toEqual([]);
      expect(summary.runs[0]?.error).toMatch(new RegExp(`^Could not read suite or test result ${id}: `));
      const problems = events.find((e) => e.type === 'trigger-problems');
      expect(problems).toMatchObject({ problems: [{ kind: 'SERVER_ERROR', id }] });
    } finally {
      world.emulator.setFaults('');
    }
  });

  it('a workflow cancel during the not-found grace ends the reading: "not read before the action stopped"', async () => {
    const id = '000000000000000000000002';
    const controller = new AbortController();
    void world.clock.sleep(1_500).then(() => controller.abort());
    const t0 = world.clock.now();
    const { summary } = await run({ resultIds: [{ type: 'test', id }] }, { signal: controller.signal });
    expect(world.clock.now() - t0).toBeLessThan(2_000);
    expect(reads()).toHaveLength(2);
    expect(summary.runs.map((r) => r.error)).toEqual([
      `Could not read test result ${id}: not read before the action stopped`,
    ]);
  });
});

describe('the runs an answer stands for: one per variant and data row', () => {
  it('a data source (rows unknown before): each result is its own run, numbered by data row', async () => {
    const { summary, events } = await run({
      testIds: ['test-login-data'],
      execute: { disableVisuals: true, dataSource: 'ds-logins' },
    });
    expect(executes()).toHaveLength(1);
    expect(summary.runs.map((r) => r.variant)).toEqual([{ dataRow: 0 }, { dataRow: 1 }, { dataRow: 2 }]);
    const started = events.find((e) => e.type === 'run-started');
    expect(summary.runs.map((r) => r.testResultId)).toEqual(
      started?.type === 'run-started' && started.resultIds,
    );
    expect(summary.runs.every((r) => !r.error && r.tests.length === 1)).toBe(true);
  });

  it('a data source answered with one result: one run, no data row number', async () => {
    const api = reshapingTestExecutes((results) => results.slice(0, 1));
    const { summary } = await run(
      { testIds: ['test-login-data'], execute: { disableVisuals: true, dataSource: 'ds-logins' } },
      { api },
    );
    expect(summary.runs.map((r) => r.variant)).toStrictEqual([{}]);
    expect(summary.runs[0]!.tests.map((t) => t.state)).toEqual(['passed']);
  });

  it('an answer with fewer results than variants: each variant left out is a run in error', async () => {
    // The service answers the first result only.
    const api = reshapingTestExecutes((results) => results.slice(0, 1));
    const { summary, events } = await run(
      {
        testIds: ['test-home'],
        execute: { disableVisuals: true, browser: ['chrome', 'firefox'], viewport: ['800x600', '375x667'] },
      },
      { api },
    );
    expect(summary.runs).toHaveLength(4);
    const [first, ...missing] = summary.runs;
    expect(first).toMatchObject({ variant: { browser: 'chrome', viewport: '800x600' } });
    expect(first!.tests.map((t) => t.state)).toEqual(['passed']);
    expect(missing.map((r) => r.variant)).toEqual([
      { browser: 'chrome', viewport: '375x667' },
      { browser: 'firefox', viewport: '800x600' },
      { browser: 'firefox', viewport: '375x667' },
    ]);
    for (const r of missing) {
      expect(r.error).toBe('test test-home: the service answered 1 of 4 runs; this one is missing.');
      expect(r.tests).toEqual([]);
    }
    // A shortfall is the answer's, not a trigger problem.
    expect(events.filter((e) => e.type === 'trigger-problems')).toEqual([]);
  });

  it('a data file answered without its first row: each result is the row its variables show; the one left out is row 1 and may have run', async () => {
    const csv = 'username,password,greeting\nann,pw1,Hi Ann\nbob,pw2,Hi Bob\ncy,pw3,Hi Cy\n';
    const api = reshapingTestExecutes((results) => results.slice(1));
    const { summary } = await run(
      {
        testIds: ['test-login-data'],
        execute: { disableVisuals: true, dataFile: { name: 'rows.csv', content: Buffer.from(csv) } },
      },
      { api },
    );
    const rows = summary.runs.map((r) => [r.variant.dataRow, r.tests[0]?.result?.variables?.username]);
    expect(rows).toEqual([
      [1, 'bob'],
      [2, 'cy'],
      [0, undefined],
    ]);
    const missing = summary.runs[2]!;
    expect(missing.error).toBe(
      'test test-login-data: the service answered 2 of 3 runs; this one is missing.',
    );
    // It may have run: the service only left it out of its answer.
    expect(missing.mayHaveStarted).toBe(true);
  });

  it('an answer naming one run twice: that run followed once, the variant left out a run in error', async () => {
    const api = reshapingTestExecutes((results) => [results[0]!, results[0]!]);
    const { summary, events } = await within(
      run(
        { testIds: ['test-home'], execute: { disableVisuals: true, browser: ['chrome', 'firefox'] } },
        { api },
      ),
      120_000,
    );
    expect(summary.runs.map((r) => [r.variant.browser, r.error, r.tests.map((t) => t.state)])).toEqual([
      ['chrome', undefined, ['passed']],
      ['firefox', 'test test-home: the service answered 1 of 2 runs; this one is missing.', []],
    ]);
    expect(events.find((e) => e.type === 'run-started')).toMatchObject({
      resultIds: [summary.runs[0]!.testResultId],
    });
  });

  it('each result is the run of the variant it shows, whatever the order of the answer', async () => {
    const api = reshapingTestExecutes((results) => results.reverse());
    const { summary } = await run(
      { testIds: ['test-home'], execute: { disableVisuals: true, browser: ['chrome', 'firefox'] } },
      { api },
    );
    expect(summary.runs.map((r) => [r.variant.browser, r.tests[0]?.result?.browser?.split('-')[0]])).toEqual([
      ['firefox', 'firefox'],
      ['chrome', 'chrome'],
    ]);
  });

  it('an answer with no result: one run in error named after the job, not a trigger problem', async () => {
    const real = world.client({ apiKey: API_KEY });
    const api = {
      ...real,
      executeSuite: async () => [],
      executeOnDemand: async () => null as unknown as TestResult,
    };
    const definition = {
      name: 'Repo test',
      startUrl: 'https://a.test',
      steps: [],
    } as unknown as TestDefinition;
    const { summary, events } = await run(
      {
        suiteIds: ['suite-smoke'],
        repoTests: [{ file: 'tests/repo.json', index: 0, name: definition.name, definition }],
      },
      { api },
    );
    expect(summary.runs.map((r) => [r.suiteName, r.error])).toEqual([
      ['suite suite-smoke', 'The execute of suite suite-smoke answered no result.'],
      ['tests/repo.json', 'The execute of tests/repo.json "Repo test" answered no result.'],
    ]);
    expect(events.filter((e) => e.type === 'trigger-problems' || e.type === 'run-started')).toEqual([]);
  });
});

describe('an execute that fails: the runs it was for', () => {
  it('refused by the service: one run in error with the start URL, a trigger problem of its error type', async () => {
    const { summary, events } = await run({
      testIds: ['no-such-test'],
      startUrls: ['https://one.test'],
      execute: { disableVisuals: true, browser: ['chrome', 'firefox'] },
    });
    expect(summary.runs).toHaveLength(1);
    expect(summary.runs[0]!.variant).toEqual({ startUrl: 'https://one.test' });
    expect(summary.runs[0]!.error).toMatch(/^Could not start test no-such-test: .*not found/i);
    expect(events.find((e) => e.type === 'trigger-problems')).toMatchObject({
      problems: [{ kind: 'VALIDATION_ERROR', label: 'test no-such-test', id: 'no-such-test' }],
    });
  });

  it('after a workflow cancel nothing is sent: each variant is a run not started, one trigger problem per job', async () => {
    const controller = new AbortController();
    controller.abort();
    const { summary, events } = await run(
      { testIds: ['test-home'], execute: { disableVisuals: true, browser: ['chrome', 'firefox'] } },
      { signal: controller.signal },
    );
    expect(executes()).toEqual([]);
    const error = 'Not started before the workflow was cancelled';
    expect(summary.runs.map((r) => [r.variant.browser, r.error, r.notStarted])).toEqual([
      ['chrome', error, 'signal'],
      ['firefox', error, 'signal'],
    ]);
    expect(events.find((e) => e.type === 'trigger-problems')).toEqual({
      type: 'trigger-problems',
      problems: [{ kind: error, label: 'test test-home', id: 'test-home', message: error }],
    });
  });

  it('failing because of a workflow cancel that came meanwhile (not sent): not started, not an error', async () => {
    const controller = new AbortController();
    const real = world.client({ apiKey: API_KEY });
    const api = {
      ...real,
      executeTest: async () => {
        controller.abort();
        throw new ApiError({
          errorType: 'ABORTED',
          message: 'POST /v1/tests/test-home/execute/: aborted',
          endpoint: 'POST /v1/tests/test-home/execute/',
          attempts: 0,
          inFlight: false,
        });
      },
    };
    const { summary } = await run({ testIds: ['test-home'] }, { api, signal: controller.signal });
    expect(summary.runs.map((r) => [r.error, r.notStarted])).toEqual([
      ['Not started before the workflow was cancelled', 'signal'],
    ]);
  });
});
