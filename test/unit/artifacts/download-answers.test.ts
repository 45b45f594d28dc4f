/**
 * `downloadScreenshots` against a recording server on loopback (`startFakeServer`): what each request sends,
 * how each kind of answer is read (redirect or not, retried or not, refused before its body), the defaults
 * of the options, the debug lines, and failures of the local disk. No wait is real: `sleep` is injected.
 */
import { mkdir, mkdtemp, readdir, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { displayUrl, downloadScreenshots } from '../../../src/artifacts/index.js';
import type { DownloadOptions, ScreenshotJob } from '../../../src/artifacts/index.js';
import { startFakeServer } from '../../support/fake-server.js';
import type { Answer, FakeServer } from '../../support/fake-server.js';
import { randomPng } from '../../support/screenshots.js';

let server: FakeServer;
let dir: string;
const png = randomPng(8, 8);

beforeEach(async () => {
  server = await startFakeServer();
  dir = await mkdtemp(path.join(os.tmpdir(), 'gi-download-answers-'));
});
afterEach(async () => {
  await server.close();
  await rm(dir, { recursive: true, force: true });
});

/** A job for `GET /v1/<name>.png` on the recording server, saved as `Suite/<name>.png`. */
function job(name: string): ScreenshotJob {
  return {
    resultId: name,
    kind: 'screenshot',
    url: `${server.baseUrl}/${name}.png?sig=SECRET`,
    relativePath: `Suite/${name}.png`,
    state: 'failed',
  };
}

/** Downloads the jobs, http allowed (the server is plain http), every wait recorded instead of slept. */
async function download(jobs: ScreenshotJob[], options: DownloadOptions = {}) {
  const sleeps: number[] = [];
  const report = await downloadScreenshots(jobs, dir, {
    allowHttp: true,
    sleep: async (ms) => void sleeps.push(ms),
    ...options,
  });
  return { report, sleeps };
}

function hits(name: string): number {
  return server.requests.filter((r) => r.path === `/v1/${name}.png`).length;
}

const image: Answer = { headers: { 'content-type': 'image/png' }, body: png };

describe('what a screenshot request sends', () => {
  it('asks for an image (PNG first) and names the action as its user agent', async () => {
    server.route('GET', '/v1/a.png', image);
    await download([job('a')]);
    const [request] = server.requests;
    expect(request.headers.accept).toMatch(/^image\/png\b/);
    expect(request.headers['user-agent']).toBe('ghost-inspector-action');
  });
});

describe('which answers are followed as redirects', () => {
  it('a 3xx without Location is a failure, reported with its status and not tried again', async () => {
    server.route('GET', '/v1/a.png', { status: 301 });
    const { report } = await download([job('a')], { retries: 2 });
    expect(report.missing.map((m) => m.reason)).toEqual([
      expect.stringMatching(/^HTTP 301 \(http:\/\/127\.0\.0\.1:\d+\/v1\/a\.png\)$/),
    ]);
    expect(hits('a')).toBe(1);
  });

  it('a 4xx or a 2xx carrying a Location is not followed', async () => {
    server.route('GET', '/v1/target.png', image);
    const location = { location: `${server.baseUrl}/target.png` };
    server.route('GET', '/v1/bad.png', { status: 400, headers: location });
    server.route('GET', '/v1/ok.png', { headers: { ...location, 'content-type': 'image/png' }, body: png });
    const { report } = await download([job('bad'), job('ok')]);
    expect(report.missing.map((m) => m.reason.replace(/ \(http.*$/, ''))).toEqual(['HTTP 400']);
    expect(report.files.map((f) => f.job.resultId)).toEqual(['ok']);
    expect(hits('target')).toBe(0);
  });

  it('a Location that is no URL is reported as such, not tried again', async () => {
    server.route('GET', '/v1/a.png', { status: 302, headers: { location: 'http://[' } });
    const { report, sleeps } = await download([job('a')], { retries: 3 });
    expect(report.missing.map((m) => m.reason.replace(/ \(http.*$/, ''))).toEqual(['Invalid URL']);
    expect(sleeps).toEqual([]);
  });

  it('a relative Location is read against the URL that gave it', async () => {
    server.route('GET', '/v1/moved.png', { status: 302, headers: { location: 'here/a.png' } });
    server.route('GET', '/v1/here/a.png', image);
    const { report } = await download([job('moved')]);
    expect(report.files.map((f) => f.bytes)).toEqual([png.length]);
  });
});

describe('which failed answers are tried again', () => {
  it('a 408 (request timeout) is tried again, then the screenshot is had (a logger without debug lines)', async () => {
    server.route('GET', '/v1/a.png', { status: 408 }, image);
    const log = { info: () => undefined, warning: () => undefined };
    const { report, sleeps } = await download([job('a')], { log });
    expect(report.files.map((f) => f.attempts)).toEqual([2]);
    expect(sleeps).toHaveLength(1);
  });

  it('a Retry-After on a 404 does not make it retryable', async () => {
    server.route('GET', '/v1/a.png', { status: 404, headers: { 'retry-after': '1' } });
    const { report, sleeps } = await download([job('a')], { retries: 3 });
    expect(report.missing.map((m) => m.reason.replace(/ \(http.*$/, ''))).toEqual(['HTTP 404']);
    expect(sleeps).toEqual([]);
  });

  it('an empty body (200 or 204) is tried again and, while it stays empty, reported as such', async () => {
    server.route('GET', '/v1/empty.png', { body: '' });
    server.route('GET', '/v1/none.png', { status: 204 });
    const { report } = await download([job('empty'), job('none')], { retries: 1 });
    expect(report.missing.map((m) => m.reason.replace(/ \(http.*$/, ''))).toEqual([
      'empty body',
      'empty body',
    ]);
    expect([hits('empty'), hits('none')]).toEqual([2, 2]);
  });
});

describe('downloads that cannot start', () => {
  it('a screenshot URL that is no URL is refused, shown as such', async () => {
    const { report, sleeps } = await download([{ ...job('a'), url: 'not a url' }], { retries: 3 });
    expect(report.missing.map((m) => m.reason)).toEqual(['not a valid URL ((invalid URL))']);
    expect(sleeps).toEqual([]);
    expect(displayUrl('::')).toBe('(invalid URL)');
  });

  it('a stopped download is not tried again and sends nothing', async () => {
    server.route('GET', '/v1/a.png', image);
    const signal = AbortSignal.abort(new Error('the time limit passed'));
    const { report, sleeps } = await download([job('a')], { retries: 3, signal });
    expect(report.missing.map((m) => m.reason.replace(/ \(http.*$/, ''))).toEqual([
      'stopped: the time limit passed',
    ]);
    expect(sleeps).toEqual([]);
    expect(server.requests).toEqual([]);
  });
});

describe('a Content-Length against the byte cap', () => {
  /** Declares `declared` bytes and sends a few: refused on the header alone, before any body is read. */
  const declares =
    (declared: number): Answer =>
    (_req, res) => {
      res.writeHead(200, { 'content-type': 'image/png', 'content-length': String(declared) });
      res.end(png.subarray(0, 16));
    };

  it('is refused on its Content-Length, not tried again, naming the cap in MiB', async () => {
    server.route('GET', '/v1/big.png', declares(2 * 1024 * 1024 + 1));
    const { report, sleeps } = await download([job('big')], { maxBytes: 2 * 1024 * 1024 });
    expect(report.missing.map((m) => m.reason.replace(/ \(http.*$/, ''))).toEqual(['larger than 2 MiB']);
    expect(sleeps).toEqual([]);
    expect(await readdir(path.join(dir, 'Suite'))).toEqual([]);
  });

  it('a screenshot of exactly the cap is kept', async () => {
    server.route('GET', '/v1/a.png', image);
    const { report } = await download([job('a')], { maxBytes: png.length });
    expect(report.files.map((f) => f.bytes)).toEqual([png.length]);
  });

  it('the cap is 20 MiB unless given', async () => {
    server.route('GET', '/v1/big.png', declares(20 * 1024 * 1024 + 1));
    const { report } = await download([job('big')]);
    expect(report.missing.map((m) => m.reason.replace(/ \(http.*$/, ''))).toEqual(['larger than 20 MiB']);
  });
});

describe('the defaults of the download options', () => {
  it('three tries after the first, the first wait 250 to 500 ms, the waits growing', async () => {
    server.route('GET', '/v1/a.png', { status: 503 });
    const { report, sleeps } = await download([job('a')]);
    expect(hits('a')).toBe(4);
    expect(report.missing).toHaveLength(1);
    expect(sleeps).toHaveLength(3);
    expect(sleeps[0]).toBeGreaterThanOrEqual(250);
    expect(sleeps[0]).toBeLessThanOrEqual(500);
    expect(sleeps[2]).toBeGreaterThan(sleeps[0]);
  });

  it('concurrency below 1 is one download at a time', async () => {
    let inFlight = 0;
    let peak = 0;
    server.route('GET', '/v1/a.png', (_req, res) => {
      peak = Math.max(peak, ++inFlight);
      setImmediate(() => {
        inFlight--;
        res.writeHead(200, { 'content-type': 'image/png' }).end(png);
      });
    });
    const jobs = ['a', 'a', 'a'].map((name, i) => ({ ...job(name), relativePath: `Suite/${i}.png` }));
    const { report } = await download(jobs, { concurrency: 0 });
    expect(report.files).toHaveLength(3);
    expect(peak).toBe(1);
  });
});

describe('what a download logs', () => {
  it('a debug line per file and per retry, without the query string, through redact', async () => {
    server.route('GET', '/v1/a.png', { status: 500 }, image);
    const debug: string[] = [];
    await download([job('a')], {
      retries: 2,
      redact: (s) => s.replace(/127\.0\.0\.1/g, '***'),
      log: { info: () => undefined, warning: () => undefined, debug: (m) => debug.push(m) },
    });
    expect(debug).toEqual([
      expect.stringMatching(/^Screenshot http:\/\/\*\*\*:\d+\/v1\/a\.png: HTTP 500; retry 1 of 2 in \d+ ms$/),
      `Downloaded Suite/a.png (${png.length} bytes, attempt 2)`,
    ]);
  });
});

describe('failures of the local disk', () => {
  it('a full disk (ENOSPC) is not tried again', async () => {
    server.route('GET', '/v1/a.png', image);
    await mkdir(path.join(dir, 'Suite'));
    // The partial file is written through a link to a device that is always full.
    await symlink('/dev/full', path.join(dir, 'Suite', 'a.png.part'));
    const { report, sleeps } = await download([job('a')], { retries: 3 });
    expect(report.missing.map((m) => m.reason.replace(/ \(http.*$/, ''))).toEqual(['error ENOSPC']);
    expect(sleeps).toEqual([]);
  });

  it('a folder that cannot be made (a file in its place) is reported, not tried again', async () => {
    server.route('GET', '/v1/a.png', image);
    await writeFile(path.join(dir, 'Suite'), 'not a folder');
    const { report, sleeps } = await download([job('a')], { retries: 3 });
    expect(report.missing.map((m) => m.reason)).toEqual([expect.stringMatching(/EEXIST|ENOTDIR/)]);
    expect(sleeps).toEqual([]);
    expect(hits('a')).toBe(0);
  });
});
