/**
 * An execute answered HTTP 429 is sent again until the deadline, not given up after a fixed number of
 * attempts: a 429 means the request never reached the service (docs/api-contract.md, "Rate limit"), and
 * with several action processes on one account (matrix legs) the account can stay over its limit for a
 * while. The real client and request budget against the emulator's rate limit on loopback, both on one
 * virtual clock (`test/support/world.ts`: time figures exact); another process on the same account
 * is played by a loop on the same clock that takes every request the account is allowed.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RateBudget } from '../../../../src/api/budget.js';
import { runPlan } from '../../../../src/run/engine.js';
import { decideVerdict } from '../../../../src/run/outcome/outcome.js';
import { runPlanOf } from '../../../support/run-factories.js';
import type { RateLimitSpec } from '../../../../emulator/index.js';
import { startWorld, type World, type Client } from '../../../support/world.js';

const API_KEY = 'rate-limit-test-key';
/** The account's limit: a small burst, 2 requests/s, and a Retry-After of 1 s on each 429. */
const LIMIT: RateLimitSpec = { burst: 5, perSecond: 2, retryAfterS: 1 };
let world: World;
let emulator: World['emulator'];

// A world of its own for each test: the account's bucket starts full at time 0, so which request earns
// which token does not depend on what an earlier test left in the bucket.
beforeEach(async () => {
  world = await startWorld({ apiKey: API_KEY, rateLimit: LIMIT });
  emulator = world.emulator;
});
afterEach(async () => {
  await world?.close();
});

const POLICY = { failOnEmpty: true, failOnTimeout: true, failOnScreenshotCompare: false };

/**
 * Another process on the same account, on the virtual clock: for `ms` from now it takes every token the
 * account earns within half a ms of its earning, so that the account is over its limit the whole time.
 * It asks at half-ms offsets (the action's requests leave at whole virtual ms, so the two never meet in one
 * ms): again at once after a 200 (the burst), and after its first 429 it rests until 2 ms before the next
 * token is due (a token takes `1000 / perSecond` ms to earn; what is left of one after a 200 is under 1 %),
 * then asks once a ms until it gets it. Each request is tracked on the clock, as the
 * action's are, so that time stands still while it is in flight. Resolves when done.
 */
async function busyAccount(ms: number): Promise<void> {
  const { clock } = world;
  const end = clock.now() + ms;
  const ask = async (): Promise<number> => {
    const res = await fetch(`${emulator.baseUrl}/folders/?apiKey=${API_KEY}`);
    await res.arrayBuffer();
    return res.status;
  };
  await clock.sleep(0.5);
  let last = 0;
  while (clock.now() < end) {
    const status = await clock.track(ask());
    if (status === 200) {
      last = 200;
      continue;
    }
    await clock.sleep(last === 200 ? 1000 / LIMIT.perSecond - 2 : 1);
    last = status;
  }
}

/** The budget's floor rate here, its nominal rate: requests/s. */
const BUDGET_FLOOR_PER_S = 5;
/**
 * The client's attempts after a 429 (virtual ms apart): the Retry-After, then the budget's next token (the
 * 429 empties the budget's bucket; it refills at its floor rate).
 */
const ATTEMPT_EVERY_MS = (LIMIT.retryAfterS ?? 0) * 1000 + 1000 / BUDGET_FLOOR_PER_S;

/** The client as the action makes it: its retries wait for the one budget, which slows down on 429s. */
function clientAndBudget(): { api: Client; budget: RateBudget } {
  // A budget that never drops below its nominal rate: the client's attempts come every 1.2 s (the
  // Retry-After, then a token: ATTEMPT_EVERY_MS), so five of them fit in the seconds the account stays busy.
  const budget = new RateBudget({
    ratePerSecond: BUDGET_FLOOR_PER_S,
    minRatePerSecond: BUDGET_FLOOR_PER_S,
    clock: world.clock,
  });
  const api = world.client({ apiKey: API_KEY, budget });
  return { api, budget };
}

/** The execute requests, in order. */
function executeRequests() {
  return emulator.requests().filter((q) => q.method === 'POST' && /\/execute\/?$/.test(q.path));
}

/** Answers of the execute requests, in order: HTTP statuses. */
function executeStatuses(): number[] {
  return executeRequests().map((q) => q.status);
}

describe('an execute answered 429', () => {
  it('is sent again until the account has room, however many 429s come first', async () => {
    const t0 = world.clock.now();
    const busy = busyAccount(6_500);
    await world.clock.sleep(300);
    const { api, budget } = clientAndBudget();
    const summary = await runPlan(runPlanOf({ testIds: ['test-login'] }), {
      api,
      clock: world.clock,
    });
    await busy;
    const statuses = executeStatuses();
    // At least 5 429s in a row (the first attempt and the client's 4 retries: where it used to give up),
    // then the execute went through: the run was watched.
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(5);
    expect(statuses.at(-1)).toBe(200);
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(summary.runs).toHaveLength(1);
    expect(summary.runs[0]!.error).toBeUndefined();
    expect(summary.runs[0]!.tests.map((t) => t.state)).toEqual(['passed']);
    expect(decideVerdict(summary, POLICY).passing).toBe(true);
    expect(budget.rateLimited).toBeGreaterThanOrEqual(5);
    // Exactly: an attempt every ATTEMPT_EVERY_MS from 300 ms on; all six while the account was busy (until
    // 6.5 s) were answered 429, the first one after it went through.
    const times = executeRequests().map((q) => q.time - t0);
    expect(times).toEqual(Array.from({ length: 7 }, (_, i) => 300 + i * ATTEMPT_EVERY_MS));
    expect(statuses).toEqual([429, 429, 429, 429, 429, 429, 200]);
    expect(budget.rateLimited).toBe(6);
  });

  it('until the deadline: then the run is "not started before the timeout", never "may have started"', async () => {
    const busy = busyAccount(5_000);
    await world.clock.sleep(300);
    const { api, budget } = clientAndBudget();
    const t0 = world.clock.now();
    const summary = await runPlan(runPlanOf({ testIds: ['test-login'], timeoutMs: 3_000 }), {
      api,
      clock: world.clock,
    });
    // The run ends at exactly the deadline, its next attempt (at 3.6 s) never sent.
    expect(world.clock.now() - t0).toBe(3_000);
    await busy;
    expect(executeStatuses().every((s) => s === 429)).toBe(true);
    expect(executeRequests().map((q) => q.time - t0)).toEqual([0, ATTEMPT_EVERY_MS, 2 * ATTEMPT_EVERY_MS]);
    expect(budget.rateLimited).toBe(3);
    expect(summary.interrupted).toBe('deadline');
    expect(summary.runs).toHaveLength(1);
    const run = summary.runs[0]!;
    expect(run.notStarted).toBe('deadline');
    expect(run.mayHaveStarted).toBeUndefined();
    expect(run.error).toBe('Not started before the timeout');
    // Nothing was looked up: an execute refused with 429 started nothing.
    expect(
      emulator.requests().filter((q) => /\/tests\/test-login\/(results|running)\/?$/.test(q.path)),
    ).toEqual([]);
  });
});

describe("a 429's Retry-After", () => {
  it('holds every request of the step until it has passed, not only the one answered 429', async () => {
    const { api, budget } = clientAndBudget();
    emulator.setFaults('retry-after=5,route=GET /v1/folders:429x1');
    const t0 = world.clock.now();
    const refused = api.listFolders();
    while (budget.rateLimited === 0) await world.clock.sleep(1);
    const rateLimitedAt = world.clock.now() - t0;
    await api.listSuites();
    await refused;
    const suitesAt = emulator.requests().find((q) => /\/suites\/?$/.test(q.path))!.time - t0;
    // The other request waited for the account's Retry-After (5 s), not only for a token (0.2 s).
    expect(suitesAt - rateLimitedAt).toBeGreaterThanOrEqual(5_000);
  });
});
