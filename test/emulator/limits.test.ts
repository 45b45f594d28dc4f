/**
 * The rate limit the emulator reproduces by default (burst 300, then 10 requests/s per account, then HTTP
 * 429), and the opt-in "not found" window right after a trigger (off by default, as the service answers a
 * triggered result at once).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startEmulator, type Emulator } from '../../emulator/index.js';
import { realClock } from '../../emulator/clock.js';
import {
  DEFAULT_NOT_FOUND_WINDOW_MS,
  DEFAULT_RATE_LIMIT,
  parseRateLimit,
  RateLimiter,
} from '../../emulator/limits.js';
import { call, data, start } from '../support/emulator.js';

let em: Emulator | undefined;
afterEach(async () => {
  await em?.close();
  em = undefined;
});

describe('rate limit', () => {
  it('parses off, on and burst/rate/retry-after; refuses unknown settings naming them', () => {
    expect(parseRateLimit('off')).toBe(false);
    expect(parseRateLimit('on')).toEqual(DEFAULT_RATE_LIMIT);
    expect(parseRateLimit('burst=5,rate=2,retry-after=1')).toEqual({
      burst: 5,
      perSecond: 2,
      retryAfterS: 1,
    });
    expect(() => parseRateLimit('speed=3')).toThrow(/speed/);
    expect(() => parseRateLimit('burst=-1')).toThrow(/burst=-1/);
  });

  it('a token bucket per account: the burst at once, then the sustained rate', () => {
    let now = 0;
    const limiter = new RateLimiter({ burst: 3, perSecond: 2 }, () => now);
    expect([1, 2, 3, 4].map(() => limiter.take('a'))).toEqual([true, true, true, false]);
    expect(limiter.take('b')).toBe(true);
    now = 500;
    expect(limiter.take('a')).toBe(true);
    expect(limiter.take('a')).toBe(false);
  });

  it('is on by default: the 301st request at once answers HTTP 429 without Retry-After', async () => {
    // Time stands still: however slowly the requests go, no token is earned back meanwhile.
    const now = Date.now();
    em = await startEmulator({
      timeScale: 0.01,
      quiet: true,
      clock: { now: () => now, sleep: realClock.sleep },
    });
    const answers: Array<{ status: number; headers: Headers }> = [];
    for (let batch = 0; batch < 7; batch++) {
      answers.push(
        ...(await Promise.all(Array.from({ length: 50 }, () => call(em!, 'GET', '/organizations/')))),
      );
    }
    const statuses = answers.map((a) => a.status);
    // 350 requests at once: the burst of 300 passes, the rest is refused.
    expect(statuses.slice(0, 300).every((s) => s === 200)).toBe(true);
    expect(statuses.slice(300).every((s) => s === 429)).toBe(true);
    const refused = answers.find((a) => a.status === 429)!;
    expect(refused.headers.get('retry-after')).toBeNull();
    expect(em.requests().filter((r) => r.status === 429)).toHaveLength(50);
  });

  it('counts per account, sends the configured Retry-After, and admin requests are never limited', async () => {
    em = await start({ rateLimit: { burst: 2, perSecond: 0.001, retryAfterS: 7 } });
    await data(em, 'GET', '/suites/');
    await data(em, 'GET', '/suites/');
    const refused = await call(em, 'GET', '/suites/');
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('7');
    // Another account (here an unknown key) has its own bucket.
    expect((await call(em, 'GET', '/suites/', { key: 'unknown-key' })).status).toBe(200);
    expect((await fetch(`${em.origin}/_emulator/health`)).status).toBe(200);
  });

  it('rateLimit: false turns it off', async () => {
    em = await start({ rateLimit: false });
    const answers = await Promise.all(Array.from({ length: 400 }, () => call(em!, 'GET', '/folders/')));
    expect(answers.every((a) => a.status === 200)).toBe(true);
  });
});

describe('not-found window after a trigger', () => {
  it('is off by default: a triggered test result and suite result are found at once', async () => {
    expect(DEFAULT_NOT_FOUND_WINDOW_MS).toBe(0);
    em = await startEmulator({ timeScale: 0.01, quiet: true, rateLimit: false });
    const r = await data(em, 'POST', '/tests/test-home/execute/', { query: { immediate: '1' } });
    const sr = await data(em, 'POST', '/suites/suite-smoke/execute/', { query: { immediate: '1' } });
    expect((await data(em, 'GET', `/results/${r._id}/`))._id).toBe(r._id);
    expect((await data(em, 'GET', `/suite-results/${sr._id}/`))._id).toBe(sr._id);
    expect(await data(em, 'GET', `/suite-results/${sr._id}/results/`)).toHaveLength(3);
  });

  it('as a fault, test results and suite results answer "not found" to GET within it, then are found', async () => {
    // A window far longer than the calls inside it take on a slow machine; the clock then jumps past it.
    let skippedMs = 0;
    const clock = { now: () => Date.now() + skippedMs, sleep: realClock.sleep };
    em = await start({ timeScale: 1, notFoundWindowMs: 60_000, clock });
    const r = await data(em, 'POST', '/tests/test-home/execute/', { query: { immediate: '1' } });
    const sr = await data(em, 'POST', '/suites/suite-smoke/execute/', { query: { immediate: '1' } });
    for (const path of [
      `/results/${r._id}/`,
      `/suite-results/${sr._id}/`,
      `/suite-results/${sr._id}/results/`,
    ]) {
      const hidden = await call(em, 'GET', path);
      expect(hidden.json, path).toMatchObject({ code: 'ERROR', errorType: 'VALIDATION_ERROR' });
      expect(hidden.json.message, path).toMatch(/^(Result|Suite result) not found$/);
    }
    skippedMs = 60_001;
    expect((await data(em, 'GET', `/results/${r._id}/`))._id).toBe(r._id);
    expect((await data(em, 'GET', `/suite-results/${sr._id}/`))._id).toBe(sr._id);
  });
});
