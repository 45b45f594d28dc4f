/**
 * The bench's fair shares of the organization running-list requests (bench/lib/attribute.ts) and the
 * windows it reads rates in (bench/lib/stats.ts).
 */
import { describe, expect, it } from 'vitest';
import { runningListOrg, shareListRequests } from '../../../bench/lib/attribute.js';
import { busiestWindow, ratePerSecond, steadyWindow } from '../../../bench/lib/stats.js';

describe('bench: running-list requests shared among the runs active', () => {
  it('reads the organization from the running-list path, with or without the trailing slash', () => {
    expect(runningListOrg('/v1/organizations/org-a/running/')).toBe('org-a');
    expect(runningListOrg('/v1/organizations/org-a/running')).toBe('org-a');
    expect(runningListOrg('/v1/organizations/org-a/')).toBeNull();
    expect(runningListOrg('/v1/suites/s1/results/')).toBeNull();
  });

  it('divides each request equally among the runs of its organization active at its time', () => {
    const runs = [
      { org: 'a', fromMs: 0, toMs: 10_000 },
      { org: 'a', fromMs: 5_000, toMs: 10_000 },
      { org: 'b', fromMs: 0, toMs: 10_000 },
    ];
    const requests = [
      { org: 'a', time: 1_000 }, // only run 0 active: all its own
      { org: 'a', time: 6_000 }, // runs 0 and 1: half each
      { org: 'a', time: 10_000 }, // both, at their last moment: half each
      { org: 'b', time: 6_000 }, // run 2 alone in b
      { org: 'a', time: 12_000 }, // nobody active
      { org: 'c', time: 6_000 }, // no run of c
    ];
    const { shares, unattributed } = shareListRequests(requests, runs);
    expect(shares).toEqual([2, 1, 1]);
    expect(unattributed).toBe(2);
    // The shares and the unattributed requests add up to all requests.
    expect(shares.reduce((x, y) => x + y, 0) + unattributed).toBe(requests.length);
  });

  it('gives three runs of one moment a third each', () => {
    const runs = Array.from({ length: 3 }, () => ({ org: 'a', fromMs: 0, toMs: 1 }));
    const { shares } = shareListRequests([{ org: 'a', time: 0 }], runs);
    for (const x of shares) expect(x).toBeCloseTo(1 / 3, 10);
  });
});

describe('bench: request windows', () => {
  it('finds the busiest 1 s window: events 1 s apart are not in the same window', () => {
    expect(busiestWindow([0, 999, 1_000, 1_500, 1_998]).count).toBe(4);
    expect(busiestWindow([0, 1_000, 2_000]).count).toBe(1);
    expect(busiestWindow([]).count).toBe(0);
  });

  it('rates events per second over a span, NaN when the span is too short', () => {
    expect(ratePerSecond([0, 500, 1_000, 1_999, 2_000], 0, 2_000)).toBe(2);
    expect(ratePerSecond([0, 1], 0, 500)).toBeNaN();
  });

  it('finds the steady state from 2 s after the last creation to the first finish, none when too short', () => {
    const runs = [
      { createdAt: 0, finishedAt: 20_000 },
      { createdAt: 1_000, finishedAt: 15_000 },
    ];
    expect(steadyWindow(runs)).toEqual({ fromMs: 3_000, toMs: 15_000 });
    expect(steadyWindow([{ createdAt: 10_000, finishedAt: 14_000 }])).toBeNull();
    expect(steadyWindow([])).toBeNull();
  });
});
