import { describe, expect, it } from 'vitest';
import { BudgetAbortedError, RateBudget } from '../../src/run/budget.js';
import { ManualClock } from '../../src/run/clock.js';

/** The most times in any half-open window [t, t + windowMs). */
function mostInWindow(times: number[], windowMs = 1000): number {
  return Math.max(0, ...times.map((t) => times.filter((o) => o >= t && o < t + windowMs).length));
}

describe('RateBudget', () => {
  it('grants in arrival order and never more than the limit in any rolling 1 s window', async () => {
    const clock = new ManualClock(0);
    const budget = new RateBudget({ limit: 6, clock });
    const grants: Array<{ who: number; at: number }> = [];
    const all = Array.from({ length: 40 }, (_, who) =>
      budget.acquire().then(() => grants.push({ who, at: clock.now() })),
    );
    while (grants.length < 40) await clock.advance(50);
    await Promise.all(all);
    expect(grants.map((g) => g.who)).toEqual(Array.from({ length: 40 }, (_, i) => i));
    expect(mostInWindow(grants.map((g) => g.at))).toBeLessThanOrEqual(6);
    // Never a burst: sends at least 125 ms apart.
    for (let i = 1; i < grants.length; i++) {
      expect(grants[i]!.at - grants[i - 1]!.at).toBeGreaterThanOrEqual(125);
    }
    // Sustained rate: 40 calls need 6 windows of 1 s after the first 6.
    expect(grants[39]!.at).toBeGreaterThanOrEqual(6_000);
    expect(budget.granted).toBe(40);
    expect(budget.ratePerSecond).toBe(6);
  });

  it('counts late sends at their send time, so bunched sends stay within the limit', async () => {
    const clock = new ManualClock(0);
    const budget = new RateBudget({ limit: 3, minSpacingMs: 0, clock });
    // Three slots granted at 0, but the calls go out only at 900 ms (a busy event loop).
    for (let i = 0; i < 3; i++) await budget.acquire();
    await clock.advance(900);
    for (let i = 0; i < 3; i++) budget.markSent();
    const sends = [900, 900, 900];
    const granted: number[] = [];
    const next = Array.from({ length: 3 }, () =>
      budget.acquire().then(() => {
        granted.push(clock.now());
        budget.markSent();
        sends.push(clock.now());
      }),
    );
    while (granted.length < 3) await clock.advance(50);
    await Promise.all(next);
    // A grant-time count would have allowed the next three at 1000 ms, four sends within 100 ms.
    expect(granted.every((t) => t >= 1_900)).toBe(true);
    expect(mostInWindow(sends)).toBe(3);
  });

  it('counts a send without a slot (a client retry) and lets clientSleep wait for a slot', async () => {
    const clock = new ManualClock(0);
    const budget = new RateBudget({ limit: 2, clock });
    await budget.acquire();
    budget.markSent();
    budget.markSent(); // a retry the client sent on its own
    expect(budget.sent).toBe(2);
    let retried = -1;
    const sleep = budget.clientSleep();
    const retry = sleep(100).then(() => (retried = clock.now()));
    while (retried < 0) await clock.advance(50);
    await retry;
    // Back-off of 100 ms, then the window of the two sends at 0 must pass.
    expect(retried).toBeGreaterThanOrEqual(1_000);
    expect(budget.granted).toBe(2);
  });

  it('gives back the turn when a waiter is aborted', async () => {
    const clock = new ManualClock(0);
    const budget = new RateBudget({ limit: 1, clock });
    await budget.acquire();
    const controller = new AbortController();
    const aborted = budget.acquire(controller.signal);
    let laterGranted = false;
    const later = budget.acquire().then(() => (laterGranted = true));
    controller.abort();
    await expect(aborted).rejects.toBeInstanceOf(BudgetAbortedError);
    await clock.advance(1_000);
    await later;
    expect(laterGranted).toBe(true);
  });
});
