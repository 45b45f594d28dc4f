import { describe, expect, it } from 'vitest';
import { BudgetAbortedError, RateBudget } from '../../src/run/budget.js';
import { ManualClock } from '../../src/run/clock.js';

describe('RateBudget', () => {
  it('grants in arrival order and never more than burst + rate calls in any 1 s window', async () => {
    const clock = new ManualClock(0);
    const budget = new RateBudget({ ratePerSecond: 5, burst: 2, clock });
    const grants: Array<{ who: number; at: number }> = [];
    const all = Array.from({ length: 40 }, (_, who) =>
      budget.acquire().then(() => grants.push({ who, at: clock.now() })),
    );
    while (grants.length < 40) await clock.advance(50);
    await Promise.all(all);
    expect(grants.map((g) => g.who)).toEqual(Array.from({ length: 40 }, (_, i) => i));
    for (const g of grants) {
      const inWindow = grants.filter((o) => o.at >= g.at && o.at < g.at + 1000).length;
      expect(inWindow).toBeLessThanOrEqual(7);
    }
    // Sustained rate: 40 calls need about (40 - 2) / 5 s.
    expect(grants[39]!.at).toBeGreaterThanOrEqual(7_400);
    expect(budget.granted).toBe(40);
  });

  it('gives back the turn when a waiter is aborted', async () => {
    const clock = new ManualClock(0);
    const budget = new RateBudget({ ratePerSecond: 1, burst: 1, clock });
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
