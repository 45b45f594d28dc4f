import { describe, expect, it } from 'vitest';
import { BudgetAbortedError, BURST_MARGIN, RateBudget } from '../../../src/api/budget.js';
import { RATE_LIMIT_BURST, RATE_LIMIT_PER_SECOND } from '../../../src/api/limits.js';
import { createClient } from '../../../src/api/client.js';
import { ManualClock } from '../../support/manual-clock.js';
import { fail, ok, startFakeServer } from '../../support/fake-server.js';

/**
 * Moves the manual clock by `ms`, then lets every task woken by it run until it waits again (the clock
 * alone does not yield when no sleeper is due, so time would run ahead of the promise chains).
 */
async function advance(clock: ManualClock, ms: number): Promise<void> {
  await new Promise((r) => setImmediate(r));
  await clock.advance(ms);
  await new Promise((r) => setImmediate(r));
}

/** Starts `n` acquires at once and records who got a token when; advances the clock until all have. */
async function grantTimes(
  clock: ManualClock,
  budget: RateBudget,
  n: number,
  stepMs = 50,
): Promise<Array<{ who: number; at: number }>> {
  const grants: Array<{ who: number; at: number }> = [];
  const all = Array.from({ length: n }, (_, who) =>
    budget.acquire().then(() => {
      grants.push({ who, at: clock.now() });
    }),
  );
  while (grants.length < n) await advance(clock, stepMs);
  await Promise.all(all);
  return grants;
}

describe('RateBudget (token bucket)', () => {
  it('grants the burst at once, then one token per 1/rate s, in arrival order', async () => {
    const clock = new ManualClock(0);
    const budget = new RateBudget({ burst: 10, ratePerSecond: 5, clock });
    const grants = await grantTimes(clock, budget, 30, 10);
    // FIFO: grants in the order the calls arrived.
    expect(grants.map((g) => g.who)).toEqual(Array.from({ length: 30 }, (_, i) => i));
    // The burst: the first 10 at once.
    expect(grants.slice(0, 10).every((g) => g.at === 0)).toBe(true);
    // Then the refill rate: one every 200 ms.
    for (let k = 10; k < 30; k++) expect(grants[k]!.at).toBe((k - 9) * 200);
    expect(budget.granted).toBe(30);
    // A quiet spell refills the bucket up to the burst, not beyond.
    await advance(clock, 60_000);
    expect(budget.available).toBe(10);
  });

  it("by default grants the account's burst less a small margin at once, then the account's rate", async () => {
    const clock = new ManualClock(0);
    const budget = new RateBudget({ clock });
    const burst = RATE_LIMIT_BURST - BURST_MARGIN;
    // A margin, and a small one: at least a token, at most 5 % of the account's burst.
    expect(BURST_MARGIN).toBeGreaterThanOrEqual(1);
    expect(BURST_MARGIN).toBeLessThanOrEqual(0.05 * RATE_LIMIT_BURST);
    const grants = await grantTimes(clock, budget, burst + 10, 10);
    expect(grants.filter((g) => g.at === 0)).toHaveLength(burst);
    expect(grants[burst + 9]!.at).toBe((10 / RATE_LIMIT_PER_SECOND) * 1000);
    expect(budget.ratePerSecond).toBe(RATE_LIMIT_PER_SECOND);
  });

  it('halves the rate on a 429, once per wave; after a lone wave it is back within seconds', async () => {
    const clock = new ManualClock(0);
    const budget = new RateBudget({ burst: 4, ratePerSecond: 4, clock });
    budget.onRateLimited(undefined);
    // The bucket is emptied and the rate halved.
    expect(budget.available).toBe(0);
    expect(budget.ratePerSecond).toBe(2);
    // Answers to requests already in flight (same second) do not halve it again.
    budget.onRateLimited(undefined);
    budget.onRateLimited(undefined);
    expect(budget.ratePerSecond).toBe(2);
    expect(budget.rateLimited).toBe(3);
    expect(budget.decreases).toBe(1);
    // The next token comes on the rate's ramp back: later than at the nominal rate (250 ms), sooner than
    // at the halved one (500 ms).
    const grants = await grantTimes(clock, budget, 1, 10);
    expect(grants[0]!.at).toBeGreaterThan(250);
    expect(grants[0]!.at).toBeLessThan(500);
    // The account answers again: the rate grows back linearly, to its nominal value within 2 s, no further.
    const halfway = budget.ratePerSecond;
    expect(halfway).toBeGreaterThan(2);
    expect(halfway).toBeLessThan(4);
    await advance(clock, 2_000 - clock.now()); // t = 2 s
    expect(budget.ratePerSecond).toBe(4);
    await advance(clock, 10_000);
    expect(budget.ratePerSecond).toBe(4);
  });

  it('callers waiting while the rate grows back get their tokens as the ramp earns them, not at the halved rate', async () => {
    const clock = new ManualClock(0);
    const budget = new RateBudget({ burst: 10, ratePerSecond: 4, clock });
    budget.onRateLimited(undefined); // 2/s, back at 4/s within 2 s; the bucket empty
    const grants = await grantTimes(clock, budget, 10, 10);
    // The ramp from 2 to 4 requests/s over 2 s earns 6 tokens, then 4 at 4/s: the tenth at 3 s (at the
    // halved rate it would be 5 s).
    expect(grants.map((g) => g.who)).toEqual(Array.from({ length: 10 }, (_, i) => i));
    expect(grants[5]!.at).toBeLessThanOrEqual(2_010);
    expect(grants[9]!.at).toBeGreaterThanOrEqual(3_000);
    expect(grants[9]!.at).toBeLessThanOrEqual(3_010);
  });

  it('a wave while the rate still grows back (a shared account) halves it again, and it then recovers slowly and linearly', async () => {
    const clock = new ManualClock(0);
    const budget = new RateBudget({
      burst: 4,
      ratePerSecond: 4,
      minRatePerSecond: 0.5,
      recoveryPerSecond: 0.2,
      clock,
    });
    budget.onRateLimited(undefined); // a lone wave: 2/s, growing back quickly
    await advance(clock, 1_000); // past the hold, still below 4/s
    expect(budget.ratePerSecond).toBeLessThan(4);
    budget.onRateLimited(undefined);
    expect(budget.decreases).toBe(2);
    const halved = budget.ratePerSecond;
    expect(halved).toBeLessThan(2);
    // Additive increase: +0.2 requests/s per second.
    await advance(clock, 5_000);
    expect(budget.ratePerSecond).toBeCloseTo(halved + 1, 6);
    // Back at 4/s, but not calm for long: a wave now is not a lone one either.
    await advance(clock, ((4 - halved - 1) / 0.2) * 1_000 + 1_000);
    expect(budget.ratePerSecond).toBe(4);
    budget.onRateLimited(undefined);
    await advance(clock, 5_000);
    expect(budget.ratePerSecond).toBeCloseTo(2 + 1, 6);
    // Repeated 429 waves halve down to the floor, not below.
    for (let i = 0; i < 6; i++) {
      budget.onRateLimited(undefined);
      await advance(clock, 1_000);
    }
    expect(budget.ratePerSecond).toBeLessThanOrEqual(0.5 + 6 * 0.2);
    expect(budget.ratePerSecond).toBeGreaterThanOrEqual(0.5);
    expect(budget.decreases).toBe(9);
  });

  it('a wave after a calm spell at the nominal rate is a lone one again: back within seconds', async () => {
    const clock = new ManualClock(0);
    const budget = new RateBudget({ burst: 4, ratePerSecond: 4, recoveryPerSecond: 0.2, clock });
    budget.onRateLimited(undefined);
    await advance(clock, 1_000);
    budget.onRateLimited(undefined); // recovering slowly now
    await advance(clock, 30_000); // back at 4/s for a while
    expect(budget.ratePerSecond).toBe(4);
    budget.onRateLimited(undefined);
    await advance(clock, 2_000);
    expect(budget.ratePerSecond).toBe(4);
  });

  it('earns tokens at the rising rate while recovering (the integral of a linear ramp)', async () => {
    const clock = new ManualClock(0);
    const budget = new RateBudget({ burst: 100, ratePerSecond: 4, quickRecoveryPerSecond: 0.2, clock });
    budget.onRateLimited(undefined); // rate 2, bucket empty
    await advance(clock, 10_000);
    // 10 s rising linearly from 2 to 4 requests/s: 30 tokens.
    expect(budget.available).toBeCloseTo(30, 6);
    await advance(clock, 5_000);
    // Then 5 s at 4 requests/s.
    expect(budget.available).toBeCloseTo(50, 6);
  });

  it('honours Retry-After: no grant before it has passed, for any caller', async () => {
    const clock = new ManualClock(0);
    const budget = new RateBudget({
      burst: 10,
      ratePerSecond: 4,
      recoveryPerSecond: 0,
      quickRecoveryPerSecond: 0,
      clock,
    });
    budget.onRateLimited(3_000);
    // A 429 during the pause (past the 1 s hold) answers the same wave: it does not halve again.
    await advance(clock, 2_000);
    budget.onRateLimited(undefined);
    expect(budget.decreases).toBe(1);
    const grants = await grantTimes(clock, budget, 3, 10);
    // Paused until 3 s; then the bucket refills from empty at the halved rate (2/s).
    expect(grants.map((g) => g.at)).toEqual([3_500, 4_000, 4_500]);
    // A 429 after the pause halves again (new information, not an answer to the same wave).
    budget.onRateLimited(undefined);
    expect(budget.ratePerSecond).toBe(1);
  });

  it('takes a token for every attempt the client sends, retries included; a neverWait call takes it at once', async () => {
    const server = await startFakeServer();
    try {
      const clock = new ManualClock(0);
      const budget = new RateBudget({ burst: 2, ratePerSecond: 1, clock });
      const api = createClient({
        apiKey: 'k',
        baseUrl: server.baseUrl,
        budget,
        clock: { now: () => clock.now(), random: () => 0.5, sleep: (ms, signal) => clock.sleep(ms, signal) },
      });
      const busy = fail('SERVER_ERROR', 'busy', 500);
      server.route('GET', '/v1/results/r1/', busy, busy, ok({ _id: 'r1' }));
      let readAt = -1;
      const read = api.getTestResult('r1').then(() => (readAt = clock.now()));
      while (readAt < 0) await advance(clock, 50);
      await read;
      // Three attempts: two from the burst, the third waited for the back-off and then a token (1/s).
      expect(server.requests).toHaveLength(3);
      expect(budget.granted).toBe(3);
      expect(readAt).toBeGreaterThanOrEqual(1_000);
      // The bucket is empty: a neverWait call goes at once, into debt; the next call waits for it.
      server.route('POST', '/v1/results/r1/cancel/', ok({ _id: 'r1' }));
      const before = clock.now();
      await api.cancelTestResult('r1', { neverWait: true });
      expect(clock.now()).toBe(before);
      expect(budget.available).toBeLessThan(0);
    } finally {
      await server.close();
    }
  });

  it('gives back the turn when a waiter is aborted', async () => {
    const clock = new ManualClock(0);
    const budget = new RateBudget({ burst: 1, ratePerSecond: 1, clock });
    await budget.acquire();
    const controller = new AbortController();
    const aborted = budget.acquire(controller.signal);
    let laterAt = -1;
    const later = budget.acquire().then(() => (laterAt = clock.now()));
    await advance(clock, 100);
    controller.abort();
    await expect(aborted).rejects.toBeInstanceOf(BudgetAbortedError);
    await advance(clock, 1_000);
    await later;
    // The aborted caller took no token: the next one gets the first token that comes.
    expect(laterAt).toBe(1_000);
    expect(budget.granted).toBe(2);
  });

  it('lets later callers go before a low-priority one, and never grants more than the bucket in any 1 s', async () => {
    const clock = new ManualClock(0);
    const budget = new RateBudget({ burst: 2, ratePerSecond: 2, clock });
    const grants: Array<{ who: string; at: number }> = [];
    const take = (who: string, low: boolean) =>
      budget.acquire(undefined, undefined, low).then(() => grants.push({ who, at: clock.now() }));
    // The burst goes, then an optional request waits, then requests that may not wait come.
    const all = [take('a', false), take('b', false), take('optional', true)];
    await advance(clock, 10);
    all.push(take('c', false), take('d', false));
    for (let i = 0; i < 40 && grants.length < 5; i++) await advance(clock, 50);
    await Promise.all(all);
    expect(grants.map((g) => g.who)).toEqual(['a', 'b', 'c', 'd', 'optional']);
    const times = grants.map((g) => g.at);
    for (const t of times) {
      expect(times.filter((u) => u >= t && u < t + 1_000).length).toBeLessThanOrEqual(2 + 2);
    }
  });
});

/**
 * The service's own limit as its 2020 docs describe it: a bucket of 300 refilled at 10 requests/s per
 * account; a request finding it empty is answered 429 with `Retry-After: 1`.
 */
class AccountLimit {
  private tokens = 300;
  private at = 0;
  accepted: number[] = [];
  rejected = 0;
  take(now: number): boolean {
    this.tokens = Math.min(300, this.tokens + ((now - this.at) / 1000) * 10);
    this.at = now;
    if (this.tokens < 1) {
      this.rejected += 1;
      return false;
    }
    this.tokens -= 1;
    this.accepted.push(now);
    return true;
  }
}

/** Ten processes on one account, each sending as fast as its budget allows for `seconds`. */
async function shareOneAccount(seconds: number, backOff: boolean) {
  const clock = new ManualClock(0);
  const account = new AccountLimit();
  const budgets = Array.from({ length: 10 }, () => new RateBudget({ clock }));
  const endAt = seconds * 1000;
  const loops = budgets.map(async (budget) => {
    while (clock.now() < endAt) {
      await budget.acquire();
      if (!account.take(clock.now()) && backOff) budget.onRateLimited(1_000);
    }
  });
  while (clock.now() < endAt) await advance(clock, 100);
  await advance(clock, 10_000);
  await Promise.all(loops);
  return { account, budgets };
}

describe('RateBudget: several processes on one account', () => {
  it('stay under the account limit together without a 429 storm', async () => {
    const seconds = 300;
    const { account, budgets } = await shareOneAccount(seconds, true);
    const sent = account.accepted.length + account.rejected;
    // Without back-off, ten processes at 5/s would send 50/s and four in five would be answered 429.
    const blind = await shareOneAccount(seconds, false);
    const blindSent = blind.account.accepted.length + blind.account.rejected;
    expect(blind.account.rejected / blindSent).toBeGreaterThan(0.7);
    // With it, few 429s: under 8 % of what was sent (about 7 %, each retried by the real client).
    expect(account.rejected / sent).toBeLessThan(0.08);
    // And the account is used well: over 80 % of its 300 + 10/s.
    expect(account.accepted.length).toBeGreaterThan(0.8 * (300 + 10 * seconds));
    // Each process got a fair share (within a factor of 2 of the mean).
    const mean = sent / budgets.length;
    for (const b of budgets) {
      expect(b.granted).toBeGreaterThan(mean / 2);
      expect(b.granted).toBeLessThan(mean * 2);
    }
  });
});
