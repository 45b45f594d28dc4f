/**
 * Retry rules over HTTP on 127.0.0.1: reads and cancels retried on 5xx, SERVER_ERROR, 429 (Retry-After in
 * seconds and as a date), timeouts; execute never repeated once it may have reached the service
 * (TRIGGER_UNCERTAIN), but repeated when the connection was refused; aborts stop at once.
 * Waits go through an injected sleep that records them: nothing here really waits for a backoff.
 */
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestClient } from '../../support/api/client.js';
import type { ClientOptions } from '../../../src/api/api.js';
import { RateBudget } from '../../../src/api/budget.js';
import { ApiError } from '../../../src/api/errors.js';
import { backoffMs, MAX_RETRY_AFTER_MS, parseRetryAfter } from '../../../src/api/backoff.js';
import { decideRetry } from '../../../src/api/retry-rules.js';
import { systemClock } from '../../../src/common/clock.js';
import type { FakeServer } from '../../support/fake-server.js';
import { caught, closedPort, fail, ok, startFakeServer } from '../../support/fake-server.js';

const KEY = 'key-retry-789';
const NOW = Date.UTC(2026, 0, 2, 3, 4, 5); // whole second: HTTP dates carry no milliseconds

function recording(extra: Partial<ClientOptions> & { baseUrl: string }) {
  const waits: number[] = [];
  const sent: string[] = [];
  const api = createTestClient({
    apiKey: KEY,
    clock: {
      now: () => NOW,
      random: () => 0.5,
      sleep: async (ms) => {
        waits.push(ms);
      },
    },
    onRequest: (m, u) => sent.push(`${m} ${u}`),
    ...extra,
  });
  return { api, waits, sent };
}

describe('backoff and Retry-After (pure)', () => {
  it('grows from 500 ms by 2 up to the 10 s cap, with jitter in the upper half of the window', () => {
    expect([0, 1, 2, 3, 4, 5, 9].map((n) => backoffMs(n, () => 0))).toEqual([
      250, 500, 1000, 2000, 4000, 5000, 5000,
    ]);
    expect([0, 1, 2, 3, 4, 5, 9].map((n) => backoffMs(n, () => 0.999999))).toEqual([
      500, 1000, 2000, 4000, 8000, 10000, 10000,
    ]);
  });

  it('reads Retry-After as seconds or as an HTTP date, and caps it', () => {
    expect(parseRetryAfter('7', NOW)).toBe(7000);
    expect(parseRetryAfter('1.5', NOW)).toBe(1500);
    expect(parseRetryAfter(new Date(NOW + 3000).toUTCString(), NOW)).toBe(3000);
    expect(parseRetryAfter(new Date(NOW - 3000).toUTCString(), NOW)).toBe(0);
    expect(parseRetryAfter('86400', NOW)).toBe(MAX_RETRY_AFTER_MS);
    expect(parseRetryAfter('soon', NOW)).toBeUndefined();
    expect(parseRetryAfter(undefined, NOW)).toBeUndefined();
    // A caller may set its own cap (the screenshot downloads wait 30 s at most).
    expect(parseRetryAfter('86400', NOW, 30_000)).toBe(30_000);
    expect(parseRetryAfter(new Date(NOW + 45_000).toUTCString(), NOW, 30_000)).toBe(30_000);
  });

  it('retries a trigger only when it never reached the service, or on 429', () => {
    const r = () => 0;
    expect(decideRetry('trigger', { kind: 'network', code: 'ECONNREFUSED' }, 0, 4, r).retry).toBe(true);
    expect(decideRetry('trigger', { kind: 'network', code: 'ENOTFOUND' }, 0, 4, r).retry).toBe(true);
    expect(decideRetry('trigger', { kind: 'status', status: 429 }, 0, 4, r).retry).toBe(true);
    expect(decideRetry('trigger', { kind: 'network', code: 'ECONNRESET' }, 0, 4, r)).toEqual({
      retry: false,
      uncertainTrigger: true,
    });
    expect(decideRetry('trigger', { kind: 'timeout' }, 0, 4, r)).toEqual({
      retry: false,
      uncertainTrigger: true,
    });
    expect(decideRetry('trigger', { kind: 'status', status: 400 }, 0, 4, r)).toEqual({
      retry: false,
      uncertainTrigger: false,
    });
    expect(decideRetry('write', { kind: 'status', status: 503 }, 0, 4, r)).toEqual({
      retry: false,
      uncertainTrigger: false,
    });
    expect(decideRetry('read', { kind: 'envelope', errorType: 'VALIDATION_ERROR' }, 0, 4, r).retry).toBe(
      false,
    );
    expect(decideRetry('read', { kind: 'status', status: 503 }, 4, 4, r).retry).toBe(false);
  });
});

describe('retries over HTTP', () => {
  let server: FakeServer;
  beforeAll(async () => {
    server = await startFakeServer();
  });
  afterAll(() => server.close());
  const count = (path: string) => server.requests.filter((r) => r.path === path).length;

  it('retries a read on 500, 503 and a SERVER_ERROR envelope, then returns the data', async () => {
    const path = '/v1/results/a1/';
    server.route(
      'GET',
      path,
      { status: 500, body: 'Internal Server Error' },
      { status: 503, headers: { 'content-type': 'text/html' }, body: '<h1>Service Unavailable</h1>' },
      fail('SERVER_ERROR', 'database hiccup'),
      ok({ _id: 'a1', passing: true }),
    );
    const { api, waits, sent } = recording({ baseUrl: server.baseUrl });
    await expect(api.getTestResult('a1')).resolves.toEqual({ _id: 'a1', passing: true });
    expect(count(path)).toBe(4);
    expect(sent).toHaveLength(4);
    expect(waits).toEqual([375, 750, 1500]);
  });

  it('honours Retry-After in seconds and as an HTTP date on 429', async () => {
    const path = '/v1/suite-results/b1/';
    server.route(
      'GET',
      path,
      { status: 429, headers: { 'retry-after': '7' }, body: 'Too Many Requests' },
      { status: 429, headers: { 'retry-after': new Date(NOW + 3000).toUTCString() }, body: '' },
      { status: 429, body: 'no header: backoff' },
      ok({ _id: 'b1', passing: null }),
    );
    const limited: Array<number | undefined> = [];
    const budget = new RateBudget({ clock: systemClock });
    vi.spyOn(budget, 'onRateLimited').mockImplementation((ms) => void limited.push(ms));
    const { api, waits } = recording({ baseUrl: server.baseUrl, budget });
    await expect(api.getSuiteResult('b1')).resolves.toEqual({ _id: 'b1', passing: null });
    expect(waits).toEqual([7000, 3000, 1500]);
    expect(count(path)).toBe(4);
    // Each 429 is reported to the budget, with its Retry-After (none on the third).
    expect(limited).toEqual([7000, 3000, undefined]);
  });

  it('gives up after maxRetries with the last status and the attempt count', async () => {
    const path = '/v1/tests/c1/';
    server.route('GET', path, {
      status: 502,
      headers: { 'content-type': 'text/html' },
      body: '<b>Bad Gateway</b>',
    });
    const { api, waits, sent } = recording({ baseUrl: server.baseUrl, maxRetries: 2 });
    const err = await caught(api.getTest('c1'));
    expect(err.errorType).toBe('HTTP_ERROR');
    expect(err.status).toBe(502);
    expect(err.attempts).toBe(3);
    expect(err.message).toContain('after 3 attempts');
    expect(err.excerpt).toBe('<b>Bad Gateway</b>');
    expect(count(path)).toBe(3);
    expect(sent).toHaveLength(3);
    expect(waits).toHaveLength(2);
  });

  it('does not retry a VALIDATION_ERROR read', async () => {
    const path = '/v1/tests/c2/';
    server.route('GET', path, fail('VALIDATION_ERROR', 'Test not found'));
    const { api } = recording({ baseUrl: server.baseUrl });
    const err = await caught(api.getTest('c2'));
    expect(err.errorType).toBe('VALIDATION_ERROR');
    expect(count(path)).toBe(1);
  });

  it('retries a cancel on 502', async () => {
    const path = '/v1/results/d1/cancel/';
    server.route(
      'POST',
      path,
      { status: 502, body: 'bad gateway' },
      ok({ _id: 'd1', status: 8, passing: null }),
    );
    const { api } = recording({ baseUrl: server.baseUrl });
    await expect(api.cancelTestResult('d1')).resolves.toEqual({ _id: 'd1', status: 8, passing: null });
    expect(count(path)).toBe(2);
  });

  it('does not retry other writes on 5xx', async () => {
    server.route('POST', '/v1/folders/', { status: 500, body: 'boom' });
    const { api, waits } = recording({ baseUrl: server.baseUrl });
    const before = count('/v1/folders/');
    const err = await caught(api.createFolder({ name: 'x', organization: 'o1' }));
    expect(err.errorType).toBe('HTTP_ERROR');
    expect(err.status).toBe(500);
    expect(count('/v1/folders/') - before).toBe(1);
    expect(waits).toEqual([]);
  });

  it('retries a read that timed out', async () => {
    const path = '/v1/tests/e1/';
    let first = true;
    server.route('GET', path, (_req, res) => {
      if (first) {
        first = false; // never answer this one
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ code: 'SUCCESS', data: { _id: 'e1' } }));
    });
    const { api } = recording({ baseUrl: server.baseUrl, requestTimeoutMs: 500 });
    await expect(api.getTest('e1')).resolves.toEqual({ _id: 'e1' });
    expect(count(path)).toBe(2);
  });
});

describe('no run is triggered twice', () => {
  let server: FakeServer;
  beforeAll(async () => {
    server = await startFakeServer();
  });
  afterAll(() => server.close());
  const count = (path: string) => server.requests.filter((r) => r.path === path).length;

  const expectUncertain = (err: ApiError) => {
    expect(err.errorType).toBe('TRIGGER_UNCERTAIN');
    expect(err.attempts).toBe(1);
    expect(err.message).toMatch(/may have started/);
    expect(err.message).toMatch(/running list/);
    expect(err.message).toContain('/organizations/{organizationId}/running/');
  };

  it('execute on HTTP 500: sent once, TRIGGER_UNCERTAIN with the running-list advice', async () => {
    const path = '/v1/suites/s500/execute/';
    server.route('POST', path, { status: 500, body: 'Internal Server Error' }, ok({ _id: 'never' }));
    const { api, waits } = recording({ baseUrl: server.baseUrl });
    const err = await caught(api.executeSuite('s500', { immediate: true }));
    expectUncertain(err);
    expect(err.status).toBe(500);
    expect(err.causeType).toBe('HTTP_ERROR');
    expect(count(path)).toBe(1);
    expect(waits).toEqual([]);
  });

  it('execute on a SERVER_ERROR envelope under HTTP 200: sent once, TRIGGER_UNCERTAIN', async () => {
    const path = '/v1/tests/tse/execute/';
    server.route('POST', path, fail('SERVER_ERROR', 'worker crashed'), ok({ _id: 'never' }));
    const { api } = recording({ baseUrl: server.baseUrl });
    const err = await caught(api.executeTest('tse', { immediate: true }));
    expectUncertain(err);
    expect(err.causeType).toBe('SERVER_ERROR');
    expect(err.serviceMessage).toBe('worker crashed');
    expect(count(path)).toBe(1);
  });

  it('execute whose connection is reset after the body was sent: sent once, TRIGGER_UNCERTAIN', async () => {
    const path = '/v1/tests/treset/execute/';
    server.route('POST', path, { destroy: true }, ok({ _id: 'never' }));
    const { api } = recording({ baseUrl: server.baseUrl });
    const err = await caught(api.executeTest('treset', { immediate: true }));
    expectUncertain(err);
    expect(err.causeType).toBe('NETWORK_ERROR');
    expect(err.networkCode).toBe('ECONNRESET');
    expect(count(path)).toBe(1);
    expect(server.requests.find((r) => r.path === path)!.json).toEqual({ apiKey: KEY, immediate: 1 });
  });

  it('execute that times out: sent once, TRIGGER_UNCERTAIN', async () => {
    const path = '/v1/suites/slow/execute/';
    server.route('POST', path, () => undefined);
    const { api } = recording({ baseUrl: server.baseUrl, requestTimeoutMs: 500 });
    const err = await caught(api.executeSuite('slow', { immediate: true }));
    expectUncertain(err);
    expect(err.causeType).toBe('REQUEST_TIMEOUT');
    await expect.poll(() => count(path)).toBe(1);
  });

  it('execute answered with an unreadable HTTP 200 page: sent once, TRIGGER_UNCERTAIN', async () => {
    const path = '/v1/tests/thtml/execute/';
    server.route('POST', path, { headers: { 'content-type': 'text/html' }, body: '<html>Accepted</html>' });
    const { api } = recording({ baseUrl: server.baseUrl });
    const err = await caught(api.executeTest('thtml', { immediate: true }));
    expectUncertain(err);
    expect(err.causeType).toBe('INVALID_RESPONSE');
    expect(err.excerpt).toBe('<html>Accepted</html>');
    expect(count(path)).toBe(1);
  });

  it('an execute that waits for completion is not cut by the short per-request timeout', async () => {
    const path = '/v1/tests/tsync/execute/';
    const late = (_req: unknown, res: http.ServerResponse) =>
      setTimeout(() => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ code: 'SUCCESS', data: { _id: 'rs', passing: true } }));
      }, 1000);
    server.route('POST', path, late);
    const { api } = recording({ baseUrl: server.baseUrl, requestTimeoutMs: 300 });
    // Without immediate the service answers after the run: the client waits up to 11 minutes for a test.
    await expect(api.executeTest('tsync', { immediate: false })).resolves.toEqual({
      _id: 'rs',
      passing: true,
    });
    // With immediate the short timeout applies.
    const err = await caught(api.executeTest('tsync', { immediate: true }));
    expectUncertain(err);
    expect(err.causeType).toBe('REQUEST_TIMEOUT');
    await expect.poll(() => count(path)).toBe(2);
  });

  it('execute on 429 is retried (the rate limiter rejected it before any run)', async () => {
    const path = '/v1/tests/t429/execute/';
    server.route(
      'POST',
      path,
      { status: 429, headers: { 'retry-after': '2' }, body: 'slow down' },
      ok({ _id: 'r429', passing: null }),
    );
    const { api, waits } = recording({ baseUrl: server.baseUrl });
    await expect(api.executeTest('t429', { immediate: true })).resolves.toEqual({
      _id: 'r429',
      passing: null,
    });
    expect(waits).toEqual([2000]);
    expect(count(path)).toBe(2);
  });

  it('execute on 429: with a signal, retried past maxRetries until it goes through; without one, counted', async () => {
    const path = '/v1/tests/t429many/execute/';
    const limited = { status: 429, body: 'slow down' };
    const answers = [...Array.from({ length: 9 }, () => limited), ok({ _id: 'r9', passing: null })];
    server.route('POST', path, ...answers);
    const { api, waits } = recording({ baseUrl: server.baseUrl });
    const signal = new AbortController().signal;
    await expect(api.executeTest('t429many', { immediate: true }, { signal })).resolves.toMatchObject({
      _id: 'r9',
    });
    expect(count(path)).toBe(10);
    // The one back-off, growing to its cap (no Retry-After here).
    expect(waits).toEqual([375, 750, 1500, 3000, 6000, 7500, 7500, 7500, 7500]);
    server.route('POST', '/v1/tests/t429few/execute/', limited);
    const err = await caught(recording({ baseUrl: server.baseUrl }).api.executeTest('t429few', {}));
    expect(err.status).toBe(429);
    expect(count('/v1/tests/t429few/execute/')).toBe(5);
  });

  it('execute on 429: the retry signal ends the wait (not in flight: nothing started), never an answer', async () => {
    const path = '/v1/tests/t429stop/execute/';
    server.route('POST', path, { status: 429, body: 'slow down' });
    const stop = new AbortController();
    const api = createTestClient({
      apiKey: KEY,
      baseUrl: server.baseUrl,
      clock: {
        ...systemClock,
        sleep: (ms, signal) => {
          stop.abort();
          return systemClock.sleep(ms, signal);
        },
      },
    });
    const err = await caught(
      api.executeTest('t429stop', {}, { signal: new AbortController().signal, retrySignal: stop.signal }),
    );
    expect(err.errorType).toBe('ABORTED');
    expect(err.inFlight).toBe(false);
    expect(count(path)).toBe(1);
  });

  it('execute with a TIMEOUT_ERROR envelope is not retried and says the tests stay triggered', async () => {
    const path = '/v1/suites/stimeout/execute/';
    server.route('POST', path, fail('TIMEOUT_ERROR', 'Suite execution timed out'));
    const { api } = recording({ baseUrl: server.baseUrl });
    const err = await caught(api.executeSuite('stimeout', {}));
    expect(err.errorType).toBe('TIMEOUT_ERROR');
    expect(err.message).toMatch(/stay triggered.*running list/);
    expect(count(path)).toBe(1);
  });

  it('execute to a refused port is retried, then fails clearly with the attempt count', async () => {
    const port = await closedPort();
    const { api, waits, sent } = recording({ baseUrl: `http://127.0.0.1:${port}/v1`, maxRetries: 3 });
    const err = await caught(api.executeTest('t1', { immediate: true }));
    expect(err.errorType).toBe('NETWORK_ERROR');
    expect(err.networkCode).toBe('ECONNREFUSED');
    expect(err.attempts).toBe(4);
    expect(err.message).toMatch(/ECONNREFUSED/);
    expect(err.message).toMatch(/never reached the service/);
    expect(err.message).toContain('after 4 attempts');
    expect(sent).toHaveLength(4);
    expect(waits).toHaveLength(3);
  });

  it('execute to a refused port succeeds once the service comes up, triggering exactly one run', async () => {
    const port = await closedPort();
    const received: string[] = [];
    const late = http.createServer((req, res) => {
      received.push(`${req.method} ${req.url}`);
      req.resume();
      req.on('end', () => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ code: 'SUCCESS', data: { _id: 'sr-late', passing: null } }));
      });
    });
    const sent: string[] = [];
    const api = createTestClient({
      apiKey: KEY,
      baseUrl: `http://127.0.0.1:${port}/v1`,
      clock: {
        ...systemClock,
        random: () => 0,
        // The first wait brings the service up on the refused port.
        sleep: () =>
          new Promise<void>((resolve) =>
            late.listening ? resolve() : late.listen(port, '127.0.0.1', resolve),
          ),
      },
      onRequest: (m, u) => sent.push(`${m} ${u}`),
    });
    try {
      await expect(api.executeSuite('s1', { immediate: true })).resolves.toEqual({
        _id: 'sr-late',
        passing: null,
      });
      expect(sent).toHaveLength(2);
      expect(received).toEqual([`POST /v1/suites/s1/execute/?apiKey=${KEY}`]);
    } finally {
      late.closeAllConnections();
      await new Promise<void>((resolve) => late.close(() => resolve()));
    }
  });

  it('other writes are retried on a refused connection too (never reached)', async () => {
    const port = await closedPort();
    const { api, sent } = recording({ baseUrl: `http://127.0.0.1:${port}/v1`, maxRetries: 1 });
    const err = await caught(api.deleteSuite('s1'));
    expect(err.networkCode).toBe('ECONNREFUSED');
    expect(sent).toHaveLength(2);
  });
});

describe('abort', () => {
  let server: FakeServer;
  beforeAll(async () => {
    server = await startFakeServer();
  });
  afterAll(() => server.close());

  it('stops retrying at once when the signal fires during a wait', async () => {
    const path = '/v1/results/ab1/';
    server.route('GET', path, { status: 503, body: 'busy' });
    const controller = new AbortController();
    const api = createTestClient({
      apiKey: KEY,
      baseUrl: server.baseUrl,
      clock: {
        ...systemClock,
        sleep: (ms, signal) => {
          controller.abort();
          return systemClock.sleep(ms, signal);
        },
      },
    });
    const err = await caught(api.getTestResult('ab1', { signal: controller.signal }));
    expect(err.errorType).toBe('ABORTED');
    expect(server.requests.filter((r) => r.path === path)).toHaveLength(1);
  });

  it('aborts a request in flight and sends nothing once aborted', async () => {
    const path = '/v1/results/ab2/';
    const controller = new AbortController();
    server.route('GET', path, () => controller.abort()); // abort once the server has the request; never answer
    const api = createTestClient({ apiKey: KEY, baseUrl: server.baseUrl, requestTimeoutMs: 60_000 });
    const err = await caught(api.getTestResult('ab2', { signal: controller.signal }));
    expect(err.errorType).toBe('ABORTED');
    expect(err.inFlight).toBe(true);
    const again = await caught(api.getTestResult('ab2', { signal: controller.signal }));
    expect(again.errorType).toBe('ABORTED');
    expect(server.requests.filter((r) => r.path === path)).toHaveLength(1);
  });
});
