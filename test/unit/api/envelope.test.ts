/**
 * Reading answers over HTTP on 127.0.0.1: ERROR envelopes under HTTP 200 and under error statuses, HTML and
 * malformed bodies (excerpt), raw control characters inside JSON strings, gzip, and the not-found helper.
 */
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestClient, type TestApi } from '../../support/api/client.js';
import { ApiError, isNotFound } from '../../../src/api/errors.js';
import { MAX_ANSWER_BYTES } from '../../../src/api/http.js';
import { escapeControlCharsInStrings, parseJsonTolerant } from '../../../src/api/parse.js';
import type { FakeServer } from '../../support/fake-server.js';
import { caught, fail, ok, startFakeServer } from '../../support/fake-server.js';

const KEY = 'key-envelope-321';

describe('answers', () => {
  let server: FakeServer;
  let api: TestApi;
  beforeAll(async () => {
    server = await startFakeServer();
    api = createTestClient({ apiKey: KEY, baseUrl: server.baseUrl, maxRetries: 0 });
  });
  afterAll(() => server.close());

  it('an ERROR envelope under HTTP 200 throws ApiError with its type, message, status and endpoint', async () => {
    server.route('GET', '/v1/suites/bad/', fail('AUTHENTICATION_ERROR', 'Invalid API key'));
    const err = await caught(api.getSuite('bad'));
    expect(err.errorType).toBe('AUTHENTICATION_ERROR');
    expect(err.serviceMessage).toBe('Invalid API key');
    expect(err.status).toBe(200);
    expect(err.endpoint).toBe('GET /v1/suites/bad/?apiKey=***');
    expect(err.message).toBe(
      'GET /v1/suites/bad/?apiKey=***: AUTHENTICATION_ERROR: Invalid API key. Check the API key (the account settings show it).',
    );
    expect(err.name).toBe('ApiError');
    expect(String(err.stack).startsWith('ApiError: GET /v1/suites/bad/?apiKey=***')).toBe(true);
    expect(isNotFound(err)).toBe(false);
  });

  it('a service message ending in a full stop gets no second one', async () => {
    server.route('GET', '/v1/suites/bad2/', fail('AUTHENTICATION_ERROR', 'The API key is not valid.'));
    const err = await caught(api.getSuite('bad2'));
    expect(err.message).toBe(
      'GET /v1/suites/bad2/?apiKey=***: AUTHENTICATION_ERROR: The API key is not valid. Check the API key (the account settings show it).',
    );
  });

  it('an ERROR envelope under an error status keeps both', async () => {
    server.route('POST', '/v1/folders/f1/', fail('VALIDATION_ERROR', 'name is required', 400));
    const err = await caught(api.updateFolder('f1', { name: '' }));
    expect(err.errorType).toBe('VALIDATION_ERROR');
    expect(err.status).toBe(400);
    expect(err.message).toContain('VALIDATION_ERROR (HTTP 400): name is required');
  });

  it('an ERROR envelope in place of a CSV, XML or binary answer is an error too', async () => {
    server.route('GET', '/v1/tests/t1/results/csv/', fail('VALIDATION_ERROR', 'Test not found'));
    const csv = await caught(api.listTestResultsCsv('t1'));
    expect(csv.errorType).toBe('VALIDATION_ERROR');
    server.route('GET', '/v1/suites/s1/export/json/', fail('AUTHENTICATION_ERROR', 'nope'));
    const zip = await caught(api.exportSuiteJson('s1'));
    expect(zip.errorType).toBe('AUTHENTICATION_ERROR');
  });

  it('an HTML page under HTTP 200 throws INVALID_RESPONSE with a short excerpt', async () => {
    const page = `<!DOCTYPE html>\n<html><head><title>Maintenance</title></head><body>${'We will be back soon. '.repeat(40)}</body></html>`;
    server.route('GET', '/v1/tests/', { headers: { 'content-type': 'text/html' }, body: page });
    const err = await caught(api.listTests());
    expect(err.errorType).toBe('INVALID_RESPONSE');
    expect(err.status).toBe(200);
    expect(err.excerpt!.startsWith('<!DOCTYPE html> <html><head><title>Maintenance</title>')).toBe(true);
    expect(err.excerpt!.length).toBeLessThanOrEqual(201);
    expect(err.excerpt!.endsWith('…')).toBe(true);
    expect(err.message).toContain('the answer is not JSON');
    expect(err.message).toContain(err.excerpt!);
  });

  it('truncated JSON and JSON without an envelope are INVALID_RESPONSE', async () => {
    server.route('GET', '/v1/folders/', { body: '{"code":"SUCCESS","data":[{"_id":"f1"' });
    expect((await caught(api.listFolders())).errorType).toBe('INVALID_RESPONSE');
    server.route('GET', '/v1/organizations/', { body: [{ _id: 'o1' }] });
    const err = await caught(api.listOrganizations());
    expect(err.errorType).toBe('INVALID_RESPONSE');
    expect(err.message).toMatch(/not a response envelope/);
  });

  it('a 404 HTML page gives HTTP_ERROR with status 404, recognised as not found', async () => {
    const err = await caught(api.getTestResult('unrouted'));
    expect(err.errorType).toBe('HTTP_ERROR');
    expect(err.status).toBe(404);
    expect(err.excerpt).toBe('<html><body>Not Found</body></html>');
    expect(isNotFound(err)).toBe(true);
  });

  it('tolerates raw control characters inside JSON strings', async () => {
    const raw =
      '{"code":"SUCCESS","data":{"_id":"r1","steps":[{"notes":"line one\nline\ttwo\r\u0001end","passing":true}],' +
      '"console":[{"output":"a\u0000b \\" quoted \\\\ back"}]}}';
    expect(() => JSON.parse(raw)).toThrow();
    server.route('GET', '/v1/results/r1/', { headers: { 'content-type': 'application/json' }, body: raw });
    const result = await api.getTestResult('r1');
    expect(result.steps[0].notes).toBe('line one\nline\ttwo\r\u0001end');
    expect(result.console[0].output).toBe('a\u0000b " quoted \\ back');
  });

  it('asks for gzip and decompresses a gzip answer', async () => {
    const data = { _id: 's1', name: 'Checkout ✓', testCount: 3 };
    server.route('GET', '/v1/suites/s1/', { ...ok(data), gzip: true });
    await expect(api.getSuite('s1')).resolves.toEqual(data);
    expect(server.requests[server.requests.length - 1].headers['accept-encoding']).toContain('gzip');
    const zipped = Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x01, 0x02]);
    server.route('GET', '/v1/suites/s1/export/recorder-html/', {
      headers: { 'content-type': 'application/zip' },
      body: zipped,
      gzip: true,
    });
    await expect(api.exportSuiteRecorderHtml('s1')).resolves.toEqual(zipped);
  });

  it('a gzip bomb is refused at the size cap, before it fills the memory', async () => {
    // About 70 KB on the wire, 70 MiB once decompressed.
    const bomb = gzipSync(Buffer.alloc(MAX_ANSWER_BYTES + 6 * 1024 * 1024, 0x20));
    expect(bomb.length).toBeLessThan(1024 * 1024);
    server.route('GET', '/v1/folders/bomb/', {
      headers: { 'content-encoding': 'gzip', 'content-type': 'application/json' },
      body: bomb,
    });
    const before = process.memoryUsage().arrayBuffers;
    const err = await caught(api.getFolder('bomb'));
    expect(err.errorType).toBe('INVALID_RESPONSE');
    expect(err.message).toMatch(/larger than 64 MiB/);
    expect(process.memoryUsage().arrayBuffers - before).toBeLessThan(2 * MAX_ANSWER_BYTES);
  });

  it('an answer larger than the cap as sent is refused too', async () => {
    server.route('GET', '/v1/folders/huge/', {
      headers: { 'content-type': 'application/json' },
      body: Buffer.alloc(MAX_ANSWER_BYTES + 1024, 0x20),
    });
    const err = await caught(api.getFolder('huge'));
    expect(err.errorType).toBe('INVALID_RESPONSE');
    expect(err.message).toMatch(/larger than 64 MiB/);
  });

  it('a corrupt gzip body is INVALID_RESPONSE', async () => {
    server.route('GET', '/v1/folders/f9/', {
      headers: { 'content-encoding': 'gzip', 'content-type': 'application/json' },
      body: gzipSync('{"code":"SUCCESS","data":{}}').subarray(0, 12),
    });
    const err = await caught(api.getFolder('f9'));
    expect(err.errorType).toBe('INVALID_RESPONSE');
  });
});

describe('isNotFound', () => {
  const make = (errorType: string, status: number | undefined, serviceMessage?: string) =>
    new ApiError({ errorType, status, endpoint: 'GET /v1/x/', attempts: 1, message: 'm', serviceMessage });

  it('recognises HTTP 404 and VALIDATION_ERROR envelopes about unknown identifiers', () => {
    expect(isNotFound(make('HTTP_ERROR', 404))).toBe(true);
    expect(isNotFound(make('VALIDATION_ERROR', 200, 'Test not found'))).toBe(true);
    expect(isNotFound(make('VALIDATION_ERROR', 200, 'Result does not exist'))).toBe(true);
    expect(isNotFound(make('VALIDATION_ERROR', 200, 'Invalid suite ID'))).toBe(true);
    expect(isNotFound(make('VALIDATION_ERROR', 200, 'No such suite result: x'))).toBe(true);
    expect(isNotFound(make('NOT_FOUND', 200))).toBe(true);
  });

  it('leaves other errors alone', () => {
    expect(isNotFound(make('VALIDATION_ERROR', 200, 'Invalid browser: chrome-x'))).toBe(false);
    expect(isNotFound(make('VALIDATION_ERROR', 400, 'delay must be at most 300000'))).toBe(false);
    expect(isNotFound(make('SERVER_ERROR', 500, 'not found in cache'))).toBe(false);
    expect(isNotFound(make('HTTP_ERROR', 410))).toBe(false);
    expect(isNotFound(new Error('not found'))).toBe(false);
    expect(isNotFound(undefined)).toBe(false);
  });
});

describe('tolerant JSON', () => {
  it('escapes control characters only inside strings', () => {
    expect(escapeControlCharsInStrings('{\n "a": "x\ny",\t"b": 1}')).toBe('{\n "a": "x\\ny",\t"b": 1}');
    expect(parseJsonTolerant('\ufeff{"a":"\u001f"}')).toEqual({ a: '\u001f' });
    expect(() => parseJsonTolerant('{"a":')).toThrow(SyntaxError);
  });
});
