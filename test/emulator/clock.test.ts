/**
 * The emulator on an injected clock (`clock` option): run progress, durations and dates, the run-time limit,
 * the not-found window, the rate limit's refill, the suite execute wait and the `slow` fault all follow it.
 * Here a virtual clock (`test/support/virtual-clock.ts`) with the real client: minutes of service time in
 * milliseconds, every figure exact.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { SuiteResult, TestResult } from '../../emulator/api-types.js';
import { RUN_LIMIT_MS } from '../../emulator/engine.js';
import { SUITE_WAIT_MS } from '../../emulator/waits.js';
import { startWorld, type World } from '../support/world.js';

let world: World;
afterEach(async () => {
  await world?.close();
});

const one = <T>(x: T | T[]): T => (Array.isArray(x) ? x[0]! : x);

describe('the emulator on a virtual clock', () => {
  it('a 60 s run takes exactly 60 s of the clock: dates, executionTime and the finish record', async () => {
    world = await startWorld({ rateLimit: false, notFoundWindowMs: 0 });
    const { clock, emulator } = world;
    emulator.setScenario('test-home', { runDurationMs: 60_000 });
    const api = world.client();
    const began = performance.now();
    const t0 = clock.now();
    const started = one(await api.executeTest('test-home', { immediate: true }));
    expect(Date.parse(started.dateCreated)).toBe(t0);
    let result: TestResult = started;
    let polls = 0;
    while (result.executionTime === null) {
      await clock.sleep(1_000);
      polls += 1;
      result = await api.getTestResult(started._id);
    }
    expect(polls).toBe(60);
    expect(result.executionTime).toBe(60_000);
    expect(Date.parse(result.dateExecutionFinished!) - Date.parse(result.dateCreated)).toBe(60_000);
    expect(result.steps.every((s) => Date.parse(s.dateExecuted!) <= t0 + 60_000)).toBe(true);
    const [finish] = emulator.runs();
    expect(finish).toMatchObject({ resultId: started._id, createdAt: t0, finishedAt: t0 + 60_000 });
    // The request log is on the same clock: the last poll at +60 s.
    expect(emulator.requests().at(-1)!.time).toBe(t0 + 60_000);
    // Well under the minute it stands for, even on a loaded machine (typically tens of ms).
    expect(performance.now() - began).toBeLessThan(20_000);
  });

  it('seeded and created records are dated on the clock', async () => {
    const start = Date.parse('2031-02-03T04:05:06.000Z');
    world = await startWorld({ rateLimit: false, clockOptions: { start } });
    const { clock, emulator } = world;
    expect(emulator.store.suites.get('suite-smoke')!.dateCreated).toBe('2031-02-03T04:05:06.000Z');
    await clock.sleep(1_500);
    const suite = await world.client().createSuite({ name: 'New', organization: 'org-acme' });
    expect(suite.dateCreated).toBe('2031-02-03T04:05:07.500Z');
  });

  it('the not-found window (a fault) ends at exactly its length times the time scale after the trigger', async () => {
    world = await startWorld({ rateLimit: false, notFoundWindowMs: 2_000, timeScale: 0.5 });
    const { clock } = world;
    const api = world.client({ maxRetries: 0 });
    const started = one(await api.executeTest('test-home', { immediate: true }));
    await expect(api.getTestResult(started._id)).rejects.toThrow(/not found/i);
    await clock.sleep(999);
    await expect(api.getTestResult(started._id)).rejects.toThrow(/not found/i);
    await clock.sleep(1);
    expect((await api.getTestResult(started._id))._id).toBe(started._id);
  });

  it("the rate limit's bucket refills on the clock", async () => {
    world = await startWorld({ rateLimit: { burst: 2, perSecond: 1 }, notFoundWindowMs: 0 });
    const { clock, emulator } = world;
    const api = world.client({ maxRetries: 0 });
    await api.listSuites();
    await api.listSuites();
    await expect(api.listSuites()).rejects.toThrow(/429|rate/i);
    await clock.sleep(999);
    await expect(api.listSuites()).rejects.toThrow(/429|rate/i);
    await clock.sleep(1);
    await api.listSuites();
    expect(emulator.requests().map((r) => r.status)).toEqual([200, 200, 429, 429, 200]);
  });

  it('a hanging run is cut at exactly the 10-minute run-time limit', async () => {
    world = await startWorld({ rateLimit: false, notFoundWindowMs: 0 });
    const { clock, emulator } = world;
    emulator.setScenario('test-home', { hang: true });
    const api = world.client();
    const started = one(await api.executeTest('test-home', { immediate: true }));
    await clock.sleep(RUN_LIMIT_MS - 1);
    expect((await api.getTestResult(started._id)).executionTime).toBeNull();
    await clock.sleep(1);
    const result = await api.getTestResult(started._id);
    expect(result.passing).toBe(false);
    expect(result.executionTime).toBe(RUN_LIMIT_MS);
  });

  it('a suite execute that waits answers TIMEOUT_ERROR at exactly 20 minutes; time moves while it is held', async () => {
    world = await startWorld({ rateLimit: false, notFoundWindowMs: 0 });
    const { clock, emulator } = world;
    // Three tests of 9 minutes, one at a time: 27 minutes in all.
    for (const id of ['test-home', 'test-login', 'test-search'])
      emulator.setScenario(id, { runDurationMs: 9 * 60_000 });
    emulator.store.suites.get('suite-smoke')!.maxConcurrentTests = 1;
    const api = world.client({ maxRetries: 0 });
    const t0 = clock.now();
    await expect(api.executeSuite('suite-smoke', {})).rejects.toThrow(/Our API reached its timeout/);
    expect(clock.now() - t0).toBe(SUITE_WAIT_MS);
    const [suiteResult] = [...emulator.store.suiteResults.values()] as SuiteResult[];
    expect(suiteResult).toMatchObject({ countPassing: 2, countUnknown: 1, executionTime: null });
    expect(emulator.requestsInFlight()).toEqual({ answering: 0, waiting: 0 });
    await clock.sleep(7 * 60_000);
    expect(suiteResult).toMatchObject({ countPassing: 3, executionTime: 27 * 60_000 });
  });

  it('a request whose connection is reset before an answer is no longer counted in flight', async () => {
    world = await startWorld({ rateLimit: false, faults: 'route=GET /v1/suites:reset-beforex1' });
    const { clock, emulator } = world;
    const t0 = clock.now();
    // The client retries the read after its back-off, on the clock.
    expect((await world.client().listSuites()).length).toBeGreaterThan(0);
    expect(emulator.requests().map((r) => r.status)).toEqual([0, 200]);
    expect(emulator.requests()[1]!.time).toBeGreaterThan(t0);
    expect(emulator.requestsInFlight()).toEqual({ answering: 0, waiting: 0 });
  });

  it('a slow answer takes its delay on the clock (time moves while the request is parked)', async () => {
    world = await startWorld({ rateLimit: false, faults: 'delay=45000,route=GET /v1/suites:slowx1' });
    const { clock, emulator } = world;
    const api = world.client();
    const t0 = clock.now();
    await api.listSuites();
    expect(clock.now() - t0).toBe(45_000);
    expect(emulator.requests()[0]).toMatchObject({ fault: 'slow', durationMs: 45_000, time: t0 });
  });
});
