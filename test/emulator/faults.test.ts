/**
 * Fault injection: every kind, per route with counts and methods, at a seeded rate (deterministic), set from
 * options and from the admin API; faults show in the request log.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Emulator } from '../../emulator/index.js';
import { parseFaultSpec } from '../../emulator/faults.js';
import { call, data, KEY, start } from '../support/emulator.js';

let em: Emulator;
beforeAll(async () => {
  em = await start();
});
afterAll(() => em.close());

const results = () => em.store.results.size;

describe('fault kinds', () => {
  it('500, 502 and 503 answer that status without handling the request', async () => {
    for (const kind of ['500', '502', '503']) {
      em.setFaults(`route=/v1/tests/*/execute:${kind}x1`);
      const before = results();
      const res = await call(em, 'POST', '/tests/test-home/execute/', { query: { immediate: '1' } });
      expect(res.status).toBe(Number(kind));
      expect(results()).toBe(before);
      expect(em.requests().at(-1)).toMatchObject({ status: Number(kind), fault: kind });
      const next = await call(em, 'POST', '/tests/test-home/execute/', { query: { immediate: '1' } });
      expect(next.json.code).toBe('SUCCESS');
    }
  });

  it('429 carries Retry-After', async () => {
    em.setFaults('retry-after=7,route=/v1/suites:429x1');
    const res = await call(em, 'GET', '/suites/');
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toBe('7');
  });

  it("server-error answers HTTP 200 with a SERVER_ERROR envelope, in the docs' words", async () => {
    em.setFaults('route=/v1/suites:server-error');
    const res = await call(em, 'GET', '/suites/');
    expect(res.status).toBe(200);
    // The service's API docs, "Errors": the text of a SERVER_ERROR.
    expect(res.json).toEqual({
      code: 'ERROR',
      errorType: 'SERVER_ERROR',
      message: 'The Ghost Inspector service is encountering issues.',
    });
  });

  it('reset-before drops the connection and triggers nothing', async () => {
    em.setFaults('route=POST /v1/tests/*/execute:reset-before');
    const before = results();
    await expect(
      call(em, 'POST', '/tests/test-home/execute/', { query: { immediate: '1' } }),
    ).rejects.toThrow();
    expect(results()).toBe(before);
    expect(em.requests().at(-1)).toMatchObject({ status: 0, fault: 'reset-before' });
  });

  it('reset-after handles the request (the run is triggered) and then drops the connection', async () => {
    em.setFaults('route=POST /v1/tests/*/execute:reset-after');
    const before = results();
    await expect(
      call(em, 'POST', '/tests/test-home/execute/', { query: { immediate: '1' } }),
    ).rejects.toThrow();
    expect(results()).toBe(before + 1);
    // The method prefix limits the rule: GET passes.
    expect(
      (await call(em, 'GET', '/tests/test-home/execute/', { query: { immediate: '1' } })).json.code,
    ).toBe('SUCCESS');
  });

  it('slow answers after the delay', async () => {
    em.setFaults('delay=250,route=/v1/folders:slow');
    const t0 = Date.now();
    const res = await call(em, 'GET', '/folders/');
    expect(Date.now() - t0).toBeGreaterThanOrEqual(240);
    expect(res.json.code).toBe('SUCCESS');
  });

  it('malformed-json cuts the answer', async () => {
    em.setFaults('route=/v1/folders:malformed-json');
    const res = await call(em, 'GET', '/folders/');
    expect(res.status).toBe(200);
    expect(res.json).toBeUndefined();
    expect(res.text.startsWith('{"code":"SUCCESS"')).toBe(true);
  });

  it('control-chars puts raw control characters in strings (strict parsers fail, the data is intact)', async () => {
    em.setFaults('');
    const r = await data(em, 'GET', '/tests/test-login/execute/');
    em.setFaults(`route=/v1/results/${r._id}:control-chars`);
    const res = await call(em, 'GET', `/results/${r._id}/`);
    expect(res.json).toBeUndefined();
    // eslint-disable-next-line no-control-regex -- the raw characters under test
    expect(res.text).toMatch(/[\u0000-\u001f]/);
    const tolerant = JSON.parse(
      // eslint-disable-next-line no-control-regex -- escaping the raw characters under test
      res.text.replace(/[\u0000-\u001f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`),
    );
    expect(tolerant.data._id).toBe(r._id);
    expect(tolerant.data.steps[0].notes).toContain('\u0001');
    expect(tolerant.data.console[0].output).toContain('session started');
  });
});

describe('fault rules', () => {
  it('route=PATTERN:KINDxN faults the first N matching requests only', async () => {
    em.setFaults('route=/v1/results/*:503x2');
    const r = await data(em, 'GET', '/folders/');
    expect(r.length).toBeGreaterThan(0);
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await call(em, 'GET', '/results/nope/')).status);
    expect(statuses).toEqual([503, 503, 200]);
  });

  it('rate faults are seeded and deterministic; admin routes never get faults', async () => {
    const run = async () => {
      const other = await start({ faults: 'rate=0.5,kinds=500+503,seed=42' });
      const statuses: number[] = [];
      for (let i = 0; i < 20; i++) statuses.push((await call(other, 'GET', '/folders/')).status);
      expect((await fetch(`${other.origin}/_emulator/health`)).status).toBe(200);
      await other.close();
      return statuses;
    };
    const a = await run();
    const b = await run();
    expect(a).toEqual(b);
    expect(a.some((s) => s === 200)).toBe(true);
    expect(a.some((s) => s !== 200)).toBe(true);
    expect(a.every((s) => [200, 500, 503].includes(s))).toBe(true);
  });

  it('POST /_emulator/faults sets faults from spec text or an object; bad specs are refused', async () => {
    const set = await fetch(`${em.origin}/_emulator/faults`, {
      method: 'POST',
      body: JSON.stringify({ spec: 'route=/v1/organizations:502x1' }),
    });
    expect(set.status).toBe(200);
    expect((await call(em, 'GET', '/organizations/')).status).toBe(502);
    expect((await call(em, 'GET', '/organizations/')).status).toBe(200);
    await fetch(`${em.origin}/_emulator/faults`, {
      method: 'POST',
      body: JSON.stringify({ routes: [{ pattern: '/v1/organizations', kind: '503', times: 1 }] }),
    });
    expect((await call(em, 'GET', '/organizations/')).status).toBe(503);
    const current = await (await fetch(`${em.origin}/_emulator/faults`)).json();
    expect(current.routes[0]).toMatchObject({ pattern: '/v1/organizations', kind: '503' });
    const bad = await fetch(`${em.origin}/_emulator/faults`, {
      method: 'POST',
      body: JSON.stringify({ spec: 'kinds=teapot' }),
    });
    expect(bad.status).toBe(400);
    expect((await bad.json()).message).toContain('teapot');
    await fetch(`${em.origin}/_emulator/faults`, { method: 'POST', body: JSON.stringify({ spec: '' }) });
    expect((await call(em, 'GET', '/organizations/', { key: KEY })).status).toBe(200);
  });

  it('parseFaultSpec reads every item and names a bad one', () => {
    expect(
      parseFaultSpec(
        'rate=0.1,kinds=500+429+reset-after,seed=42,delay=10,retry-after=3,route=GET /v1/x/*:503x2',
      ),
    ).toEqual({
      rate: 0.1,
      kinds: ['500', '429', 'reset-after'],
      seed: 42,
      delayMs: 10,
      retryAfterS: 3,
      routes: [{ method: 'GET', pattern: '/v1/x/*', kind: '503', times: 2 }],
    });
    expect(() => parseFaultSpec('rate=2')).toThrow(/rate/);
    expect(() => parseFaultSpec('route=/v1/x')).toThrow(/route/);
    expect(() => parseFaultSpec('colour=red')).toThrow(/colour/);
  });
});
