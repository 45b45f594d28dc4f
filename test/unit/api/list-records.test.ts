/**
 * A list read record by record as it arrives (`list-records.ts`, the client's `listOrganizationRunningEntries`):
 * the same value as the whole text parsed at once, however the bytes are cut into chunks; a text cut short or
 * broken is no value (a failed read); over HTTP on 127.0.0.1, gzip and plain, an answer cut short, a
 * connection closed mid-answer, an ERROR envelope, an item that is not a record and the size cap.
 */
import http from 'node:http';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readListEnvelope } from '../../../src/api/list-records.js';
import { MAX_ANSWER_BYTES } from '../../../src/api/http.js';
import { parseJsonTolerant } from '../../../src/api/parse.js';
import { createTestClient, type TestApi } from '../../support/api/client.js';
import { caught, fail, ok, startFakeServer, type FakeServer } from '../../support/fake-server.js';

const KEY = 'key-list-records-77';

/** A running list as the service words it: records with nested objects, lists, escapes, non-ASCII text. */
const ENVELOPE = JSON.stringify({
  data: [
    {
      _id: 'r1',
      name: 'Checkout ✓ "quoted" \\ back {not} [a] list, : ',
      suiteResult: 'sr1',
      steps: [{ command: 'click', target: '#a[data-x="}"]', extra: { source: { test: 't', sequence: 1 } } }],
      variables: {},
      urls: [],
    },
    { _id: 'r2', suiteResult: { _id: 'sr2', name: 'populated' }, test: null, emoji: '🧪', nested: [[1], []] },
    { _id: 'r3', suiteResult: null, data: [{ _id: 'inner' }] },
  ],
  code: 'SUCCESS',
});
const keepIds = (r: unknown) => ({ id: (r as { _id: string })._id });
const expectedIds = { code: 'SUCCESS', data: [{ id: 'r1' }, { id: 'r2' }, { id: 'r3' }] };

async function* chunksOf(bytes: Buffer, ...cuts: number[]): AsyncGenerator<Buffer> {
  let from = 0;
  for (const cut of [...cuts, bytes.length]) {
    yield bytes.subarray(from, cut);
    from = cut;
  }
}

const read = (bytes: Buffer, keep: (r: unknown) => unknown, ...cuts: number[]) =>
  readListEnvelope(chunksOf(bytes, ...cuts), keep);

describe('readListEnvelope', () => {
  it('gives what parsing the whole text gives, the records each kept, at every cut of the bytes', async () => {
    const bytes = Buffer.from(ENVELOPE, 'utf8');
    const whole = parseJsonTolerant(ENVELOPE);
    for (let cut = 0; cut <= bytes.length; cut++) {
      const twoChunks = await read(bytes, (r) => r, cut);
      expect(twoChunks, `cut at byte ${cut}`).toEqual({ value: whole, head: ENVELOPE });
    }
    const byteByByte = Array.from({ length: bytes.length - 1 }, (_, i) => i + 1);
    expect(await read(bytes, keepIds, ...byteByByte)).toMatchObject({ value: expectedIds });
  });

  it('hands each record to keep once, in order, and holds only what it kept', async () => {
    const seen: string[] = [];
    const got = await read(Buffer.from(ENVELOPE), (r) => {
      seen.push((r as { _id: string })._id);
      return (r as { _id: string })._id;
    });
    expect(seen).toEqual(['r1', 'r2', 'r3']);
    expect(got).toMatchObject({ value: { code: 'SUCCESS', data: ['r1', 'r2', 'r3'] } });
  });

  it("holds none of Node's shared Buffer pools while a long list is read, whatever else takes from them", async () => {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const records = 500;
    // Each chunk is one record; between two chunks other code takes most of a pool (as sockets and parsers do),
    // so a small copy kept of each chunk would each hold a pool of its own. The pools the chunks were cut
    // from are watched (weakly: watching keeps none alive), so what else the process holds does not count.
    const churn = (Buffer.poolSize >>> 1) - 64;
    const watched = new WeakSet<ArrayBufferLike>();
    const pools: Array<WeakRef<ArrayBufferLike>> = [];
    const watch = (chunk: Buffer): Buffer => {
      if (!watched.has(chunk.buffer)) {
        watched.add(chunk.buffer);
        pools.push(new WeakRef(chunk.buffer));
      }
      return chunk;
    };
    let held = Number.NaN;
    async function* list(): AsyncGenerator<Buffer> {
      yield Buffer.from('{"code":"SUCCESS","data":[');
      for (let i = 0; i < records; i++) {
        yield watch(Buffer.from(`${i === 0 ? '' : ','}{"_id":"r${i}","steps":[{"command":"click"}]}`));
        Buffer.allocUnsafe(churn).fill(1);
        Buffer.allocUnsafe(churn).fill(2);
      }
      // A later turn of the event loop: weak references made during this one are kept until it ends.
      await new Promise((resolve) => setImmediate(resolve));
      gc();
      held = pools.filter((pool) => pool.deref() !== undefined).length;
      yield Buffer.from(']}');
    }
    const got = await readListEnvelope(list(), keepIds);
    expect((got as { value: { data: unknown[] } }).value.data).toHaveLength(records);
    expect(pools.length).toBeGreaterThan(records / 2);
    expect(held).toBeLessThan(records / 8);
  });

  it('reads a BOM, raw control characters in strings, items that are not records and other envelopes', async () => {
    const raw =
      '\ufeff{"code":"SUCCESS","data":[{"_id":"a","note":"line\nbreak\ttab"},7,"x",null,[{"_id":"b"}]]}';
    expect(await read(Buffer.from(raw), (r) => r)).toMatchObject({
      value: {
        code: 'SUCCESS',
        data: [{ _id: 'a', note: 'line\nbreak\ttab' }, 7, 'x', null, [{ _id: 'b' }]],
      },
    });
    const error = '{"code":"ERROR","errorType":"VALIDATION_ERROR","message":"no [data] {here}"}';
    expect(await read(Buffer.from(error), keepIds)).toMatchObject({ value: JSON.parse(error) });
    expect(await read(Buffer.from('{"code":"SUCCESS","data":[]}'), keepIds)).toMatchObject({
      value: { code: 'SUCCESS', data: [] },
    });
  });

  it('a text cut short anywhere is no value, and keeps its start for the excerpt', async () => {
    const bytes = Buffer.from(ENVELOPE, 'utf8');
    for (let end = 0; end < bytes.length; end++) {
      const got = await read(bytes.subarray(0, end), keepIds);
      expect(got, `cut after byte ${end}`).toMatchObject({ malformed: true });
    }
    const cut = await read(bytes.subarray(0, 40), keepIds);
    expect(cut).toEqual({ malformed: true, head: bytes.subarray(0, 40).toString('utf8') });
  });

  it('a broken text is no value: a record or envelope that is not JSON, a stray close, text after the end', async () => {
    const broken = [
      '{"code":"SUCCESS","data":[{"_id":"a"]}',
      '{"code":"SUCCESS","data":[{"_id":"a"}{"_id":"b"}]}',
      '{"code":"SUCCESS","data":[{"_id":"a",}]}',
      '{"code":"SUCCESS" "data":[]}',
      '{"code":"SUCCESS","data":[]}}',
      '{"code":"SUCCESS","data":[]} {}',
      '<html>Bad gateway</html>',
      '',
    ];
    for (const text of broken)
      expect(await read(Buffer.from(text), keepIds), text).toMatchObject({ malformed: true });
  });
});

describe('listOrganizationRunningEntries over HTTP', () => {
  let server: FakeServer;
  let api: TestApi;
  let once: TestApi;
  const PATH = '/v1/organizations/o1/running/';
  const running = Array.from({ length: 3_000 }, (_, i) => ({
    _id: `r${i}`,
    name: `Test ${i}`,
    suiteResult: i % 3 === 0 ? null : i % 3 === 1 ? `sr${i}` : { _id: `sr${i}`, name: 'x' },
    steps: [{ command: 'open', value: 'https://shop.test/', passing: null }],
  }));
  const entries = running.map((r) => ({
    _id: r._id,
    suiteResult:
      r.suiteResult === null ? null : typeof r.suiteResult === 'string' ? r.suiteResult : r.suiteResult._id,
  }));

  beforeAll(async () => {
    server = await startFakeServer();
    api = createTestClient({ apiKey: KEY, baseUrl: server.baseUrl, maxRetries: 1 });
    once = createTestClient({ apiKey: KEY, baseUrl: server.baseUrl, maxRetries: 0 });
  });
  afterAll(() => server.close());

  it('keeps the id and the suite result id of each record, gzip or plain', async () => {
    server.route('GET', PATH, { ...ok(running), gzip: true });
    await expect(api.listOrganizationRunningEntries('o1')).resolves.toEqual(entries);
    server.route('GET', PATH, ok(running));
    await expect(api.listOrganizationRunningEntries('o1')).resolves.toEqual(entries);
  });

  it('an answer cut short is INVALID_RESPONSE with an excerpt of its start, as a whole read (the watch loop asks again)', async () => {
    const text = JSON.stringify({ code: 'SUCCESS', data: running });
    const cut = { headers: { 'content-type': 'application/json' }, body: text.slice(0, text.length / 2) };
    server.route('GET', PATH, { ...cut, gzip: true });
    const before = server.requests.length;
    const err = await caught(api.listOrganizationRunningEntries('o1'));
    expect(err.errorType).toBe('INVALID_RESPONSE');
    expect(err.message).toContain('the answer is not JSON (HTTP 200): {"code":"SUCCESS","data":[{"_id":"r0"');
    expect(server.requests.length - before).toBe(1);
    // The same failure, word for word, as the list read whole.
    expect((await caught(api.listOrganizationRunning('o1'))).message).toBe(err.message);
  });

  it('a connection closed in the middle of the answer is a network error, asked again', async () => {
    const text = JSON.stringify({ code: 'SUCCESS', data: running });
    const closeMidway = (_req: unknown, res: http.ServerResponse) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(text.length) });
      res.write(text.slice(0, text.length / 2), () => res.socket?.destroy());
    };
    server.route('GET', PATH, closeMidway);
    const before = server.requests.length;
    const err = await caught(api.listOrganizationRunningEntries('o1'));
    expect(err.errorType).toBe('NETWORK_ERROR');
    expect(server.requests.length - before).toBe(2);
    server.route('GET', PATH, closeMidway, ok(running));
    await expect(api.listOrganizationRunningEntries('o1')).resolves.toEqual(entries);
  });

  it('an ERROR envelope, an item that is not a record and a corrupt gzip body fail as the whole read would', async () => {
    server.route('GET', PATH, fail('AUTHENTICATION_ERROR', 'Invalid API key'));
    expect((await caught(once.listOrganizationRunningEntries('o1'))).errorType).toBe('AUTHENTICATION_ERROR');
    server.route('GET', PATH, ok([{ _id: 'r1' }, 'not a record']));
    const shape = await caught(once.listOrganizationRunningEntries('o1'));
    expect(shape.errorType).toBe('UNEXPECTED_SHAPE');
    expect(shape.message).toContain('a list with an item that is not a record (a string)');
    server.route('GET', PATH, ok([{ name: 'no id' }]));
    expect((await caught(once.listOrganizationRunningEntries('o1'))).errorType).toBe('UNEXPECTED_SHAPE');
    server.route('GET', PATH, {
      headers: { 'content-encoding': 'gzip', 'content-type': 'application/json' },
      body: gzipSync(JSON.stringify({ code: 'SUCCESS', data: running })).subarray(0, 200),
    });
    expect((await caught(once.listOrganizationRunningEntries('o1'))).errorType).toBe('INVALID_RESPONSE');
  });

  it('a list larger than the size cap once decompressed is refused as it arrives', async () => {
    const padding = ' '.repeat(1024 * 1024);
    const bomb = gzipSync(
      `{"code":"SUCCESS","data":[${padding.repeat(MAX_ANSWER_BYTES / padding.length + 2)}]}`,
    );
    server.route('GET', PATH, {
      headers: { 'content-encoding': 'gzip', 'content-type': 'application/json' },
      body: bomb,
    });
    const before = process.memoryUsage().arrayBuffers;
    const err = await caught(once.listOrganizationRunningEntries('o1'));
    expect(err.errorType).toBe('INVALID_RESPONSE');
    expect(err.message).toMatch(/larger than 64 MiB/);
    expect(process.memoryUsage().arrayBuffers - before).toBeLessThan(2 * MAX_ANSWER_BYTES);
  });
});
