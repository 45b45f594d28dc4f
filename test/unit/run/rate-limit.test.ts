/**
 * An execute answered HTTP 429 is sent again until the deadline, not given up after a fixed number of
 * attempts: a 429 means the request never reached the service (docs/api-contract.md, "Rate limit"), and
 * with several action processes on one account (matrix legs) the account can stay over its limit for a
 * while. The real client and request budget against the emulator's rate limit on loopback; another
 * process on the same account is played by a loop that takes every request the account is allowed.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createClient } from '../../../src/api/client.js';
import { RateBudget } from '../../../src/run/budget.js';
import { runPlan } from '../../../src/run/engine.js';
import { decideVerdict } from '../../../src/run/outcome.js';
import { runPlanOf } from '../../support/run-factories.js';
import { startEmulator, type Emulator } from '../../../emulator/index.js';

const API_KEY = 'rate-limit-test-key';
let emulator: Emulator;

beforeAll(async () => {
  emulator = await startEmulator({
    timeScale: 0.02,
    apiKey: API_KEY,
    quiet: true,
    // The account's limit: a small burst, 2 requests/s, and a Retry-After of 1 s on each 429.
    rateLimit: { burst: 5, perSecond: 2, retryAfterS: 1 },
  });
});
afterAll(async () => {
  await emulator?.close();
});
beforeEach(() => emulator.resetLog());

const POLICY = { failOnEmpty: true, failOnTimeout: true, failOnScreenshotCompare: false };

/**
 * Another process on the same account: sends requests back to back for `ms`, so that the account is over
 * its limit the whole time (each token the account earns is taken within a few ms). Resolves when done.
 */
async function busyAccount(ms: number): Promise<void> {
  const end = Date.now() + ms;
  const loop = async (): Promise<void> => {
    while (Date.now() < end) {
      const res = await fetch(`${emulator.baseUrl}/folders/?apiKey=${API_KEY}`);
      await res.arrayBuffer();
    }
  };
  await Promise.all([loop(), loop()]);
}

/** The client as the action makes it: its retries wait for the one budget, which slows down on 429s. */
function clientAndBudget(): { api: ReturnType<typeof createClient>; budget: RateBudget } {
  // A budget that never drops below its nominal rate: the client's attempts come about once a second
  // (the Retry-After), so five of them fit in the seconds the account stays busy.
  const budget = new RateBudget({ minRatePerSecond: 5 });
  const api = createClient({
    apiKey: API_KEY,
    baseUrl: emulator.baseUrl,
    sleep: budget.clientSleep(),
    onRequest: () => budget.markSent(),
    onRateLimited: (retryAfterMs) => budget.onRateLimited(retryAfterMs),
  });
  return { api, budget };
}

/** Answers of the execute requests, in order: HTTP statuses. */
function executeStatuses(): number[] {
  return emulator
    .requests()
    .filter((q) => q.method === 'POST' && /\/execute\/?$/.test(q.path))
    .map((q) => q.status);
}

describe('an execute answered 429', () => {
  it('is sent again until the account has room, however many 429s come first', async () => {
    const busy = busyAccount(6_500);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const { api, budget } = clientAndBudget();
    const summary = await runPlan(runPlanOf({ testIds: ['test-login'] }), { api, budget });
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
  });

  it('until the deadline: then the run is "not started before the timeout", never "may have started"', async () => {
    const busy = busyAccount(5_000);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const { api, budget } = clientAndBudget();
    const summary = await runPlan(runPlanOf({ testIds: ['test-login'], timeoutMs: 3_000 }), { api, budget });
    await busy;
    expect(executeStatuses().every((s) => s === 429)).toBe(true);
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
