import { describe, expect, it } from 'vitest';
import { JITTER, jittered } from '../../../bench/lib/jitter.js';

describe('bench run durations', () => {
  it('spread ±30 % around the nominal duration, seeded and independent of the order they are asked in', () => {
    const keys = Array.from({ length: 400 }, (_, i) => `s20-h-r${i}-t1`);
    const ms = keys.map((k) => jittered(20_000, k));
    expect(Math.min(...ms)).toBeGreaterThanOrEqual(20_000 * (1 - JITTER));
    expect(Math.max(...ms)).toBeLessThanOrEqual(20_000 * (1 + JITTER));
    // Spread over the whole range, not clustered: both outer tenths are used.
    expect(ms.some((x) => x < 20_000 * 0.76)).toBe(true);
    expect(ms.some((x) => x > 20_000 * 1.24)).toBe(true);
    // Mean close to the nominal duration.
    expect(ms.reduce((a, b) => a + b, 0) / ms.length).toBeGreaterThan(19_000);
    expect(ms.reduce((a, b) => a + b, 0) / ms.length).toBeLessThan(21_000);
    // Few exact multiples of the official client's 5 s sleep.
    expect(ms.filter((x) => x % 5_000 === 0).length).toBeLessThan(3);
    // The same key gives the same duration, whatever was asked before; another seed another one.
    expect([...keys].reverse().map((k) => jittered(20_000, k))).toEqual([...ms].reverse());
    expect(keys.map((k) => jittered(20_000, k, 14))).not.toEqual(ms);
  });
});
