import { readdir, readFile, mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';

import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';

import { downloadScreenshots as download, displayUrl } from '../../../src/artifacts/index.js';
import type { DownloadOptions, ScreenshotJob } from '../../../src/artifacts/index.js';
import { checkImageUrl } from '../../../src/artifacts/image-guard.js';
import { randomPng, startScreenshotServer } from '../../support/screenshots.js';
import type { ScreenshotServer } from '../../support/screenshots.js';

let shots: ScreenshotServer;
let dir: string;

beforeAll(async () => {
  shots = await startScreenshotServer({ failures: 2 });
});
afterAll(async () => {
  await shots.close();
});
beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'gi-download-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** The screenshot servers of these tests are plain http on loopback. */
function downloadScreenshots(jobs: ScreenshotJob[], dir: string, options: DownloadOptions = {}) {
  return download(jobs, dir, { allowHttp: true, ...options });
}

function job(id: string, url: string, relativePath = `Suite/${id}.png`): ScreenshotJob {
  return {
    resultId: id,
    kind: 'screenshot',
    url,
    relativePath,
    state: 'failed',
  };
}

async function listFiles(root: string): Promise<string[]> {
  const entries = await readdir(root, { recursive: true, withFileTypes: true });
  return entries
    .filter((e) => e.isFile())
    .map((e) => path.relative(root, path.join(e.parentPath, e.name)))
    .sort();
}

describe('downloadScreenshots', () => {
  it('streams real PNGs to <dir>/<relativePath>, creating folders', async () => {
    const a = randomPng(64, 64);
    const b = randomPng(10, 90);
    const report = await downloadScreenshots(
      [job('a', shots.add('dl-a', a), 'One/a [x]-a.png'), job('b', shots.add('dl-b', b), 'Two/b-b.png')],
      dir,
    );
    expect(report.missing).toEqual([]);
    expect(report.files.map((f) => [f.job.resultId, f.bytes, f.attempts])).toEqual([
      ['a', a.length, 1],
      ['b', b.length, 1],
    ]);
    expect((await readFile(path.join(dir, 'One', 'a [x]-a.png'))).equals(a)).toBe(true);
    expect((await readFile(path.join(dir, 'Two', 'b-b.png'))).equals(b)).toBe(true);
  });

  it('retries 500s with backoff and gets the file', async () => {
    const png = randomPng(30, 30);
    shots.images.set('dl-flaky', png);
    const sleeps: number[] = [];
    const report = await downloadScreenshots([job('f', `${shots.url}/flaky/dl-flaky.png`)], dir, {
      retries: 3,
      backoffMs: 100,
      sleep: async (ms) => void sleeps.push(ms),
    });
    expect(report.missing).toEqual([]);
    expect(report.files[0].attempts).toBe(3);
    expect(shots.hits.get('/flaky/dl-flaky.png')).toBe(3);
    expect(sleeps).toHaveLength(2);
    // Jittered exponential: 50..100 ms, then 100..200 ms.
    expect(sleeps[0]).toBeGreaterThanOrEqual(50);
    expect(sleeps[0]).toBeLessThanOrEqual(100);
    expect(sleeps[1]).toBeGreaterThanOrEqual(100);
    expect(sleeps[1]).toBeLessThanOrEqual(200);
    expect((await readFile(report.files[0].path)).equals(png)).toBe(true);
  });

  it('a URL that never answers fails in bounded time, is reported missing and others go on', async () => {
    const ok = randomPng(20, 20);
    const started = Date.now();
    const report = await downloadScreenshots(
      [job('h', `${shots.url}/hang/x.png`), job('o', shots.add('dl-ok2', ok))],
      dir,
      { timeoutMs: 200, retries: 1, sleep: async () => undefined },
    );
    // Two attempts of 200 ms each; generous bound so the test never flakes on a slow machine.
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(report.files.map((f) => f.job.resultId)).toEqual(['o']);
    expect(report.missing).toHaveLength(1);
    expect(report.missing[0].job.resultId).toBe('h');
    expect(report.missing[0].reason).toMatch(/answer within 200 ms/);
    expect(shots.hits.get('/hang/x.png')).toBe(2);
    expect(await listFiles(dir)).toEqual(['Suite/o.png']);
  });

  it('a body that stalls half way times out and leaves no partial file', async () => {
    shots.images.set('dl-slow', randomPng(80, 80));
    const report = await downloadScreenshots([job('s', `${shots.url}/slow/dl-slow.png`)], dir, {
      timeoutMs: 200,
      retries: 0,
    });
    expect(report.files).toEqual([]);
    expect(report.missing[0].reason).toMatch(/within 200 ms/);
    expect(await listFiles(dir)).toEqual([]);
  });

  it('a 404 is not retried; the reason hides the query string and goes through redact', async () => {
    const logs: string[] = [];
    const report = await downloadScreenshots(
      [job('g', `${shots.url}/gone/x.png?sig=SECRET&token=SECRET`)],
      dir,
      {
        retries: 3,
        redact: (s) => s.replace(/127\.0\.0\.1/g, '***'),
        log: { info: (m) => logs.push(m), warning: (m) => logs.push(m), debug: (m) => logs.push(m) },
      },
    );
    expect(shots.hits.get('/gone/x.png')).toBe(1);
    expect(report.missing[0].reason).toMatch(/^HTTP 404 \(http:\/\/\*\*\*:\d+\/gone\/x\.png\)$/);
    expect(logs.join('\n')).not.toMatch(/SECRET/);
    expect(displayUrl('https://s.example/a/b.png?X-Amz-Signature=abc#f')).toBe('https://s.example/a/b.png');
  });

  it('a refused connection is retried, then reported missing', async () => {
    const server = http.createServer();
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const port = (server.address() as AddressInfo).port;
    await new Promise<void>((r) => server.close(() => r()));
    let sleeps = 0;
    const report = await downloadScreenshots([job('r', `http://127.0.0.1:${port}/x.png`)], dir, {
      retries: 2,
      sleep: async () => void sleeps++,
    });
    expect(report.missing[0].reason).toMatch(/ECONNREFUSED/);
    expect(sleeps).toBe(2);
  });

  it('honours Retry-After on 429 and keeps at most `concurrency` requests in flight', async () => {
    let inFlight = 0;
    let peak = 0;
    const seen = new Map<string, number>();
    const png = randomPng(16, 16);
    const server = http.createServer((req, res) => {
      const n = (seen.get(req.url!) ?? 0) + 1;
      seen.set(req.url!, n);
      inFlight++;
      peak = Math.max(peak, inFlight);
      setTimeout(() => {
        inFlight--;
        if (req.url === '/limited.png' && n === 1) {
          res.writeHead(429, { 'retry-after': '2' }).end();
          return;
        }
        res.writeHead(200, { 'content-length': String(png.length) }).end(png);
      }, 20);
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const sleeps: number[] = [];
    try {
      const jobs = Array.from({ length: 12 }, (_, i) => job(`c${i}`, `${base}/c${i}.png`));
      jobs.push(job('lim', `${base}/limited.png`));
      const report = await downloadScreenshots(jobs, dir, {
        concurrency: 3,
        sleep: async (ms) => void sleeps.push(ms),
      });
      expect(report.missing).toEqual([]);
      expect(report.files).toHaveLength(13);
      expect(peak).toBeLessThanOrEqual(3);
      expect(peak).toBeGreaterThan(1);
      expect(sleeps).toEqual([2000]);
    } finally {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    }
  });

  it("reads Retry-After with the API client's parser (seconds or HTTP date), cut to 30 s", async () => {
    const png = randomPng(8, 8);
    const answers = new Map<string, string[]>([
      ['/long.png', ['86400']],
      ['/date.png', [new Date(Date.now() + 60_000).toUTCString()]],
      ['/decimal.png', ['1.5']],
    ]);
    const server = http.createServer((req, res) => {
      const next = answers.get(req.url!)?.shift();
      if (next !== undefined) res.writeHead(429, { 'retry-after': next }).end();
      else res.writeHead(200, { 'content-length': String(png.length) }).end(png);
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const sleeps: number[] = [];
    try {
      const report = await downloadScreenshots(
        ['long', 'date', 'decimal'].map((n) => job(n, `${base}/${n}.png`)),
        dir,
        { concurrency: 1, sleep: async (ms) => void sleeps.push(ms) },
      );
      expect(report.missing).toEqual([]);
      expect(sleeps).toEqual([30_000, 30_000, 1_500]);
    } finally {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    }
  });

  it('a body shorter than its Content-Length is retried', async () => {
    const png = randomPng(40, 40);
    let n = 0;
    const server = http.createServer((_req, res) => {
      n++;
      res.writeHead(200, { 'content-length': String(png.length) });
      if (n === 1) {
        res.write(png.subarray(0, 100));
        res.destroy();
        return;
      }
      res.end(png);
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/cut.png`;
      const report = await downloadScreenshots([job('cut', url)], dir, { sleep: async () => undefined });
      expect(report.files[0].attempts).toBe(2);
      expect((await readFile(report.files[0].path)).equals(png)).toBe(true);
    } finally {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    }
  });
});

describe('downloadScreenshots refuses what is not a screenshot', () => {
  it('file:, ftp: and (for an https API) http: URLs are refused without a request, naming the screenshot', async () => {
    const logs: string[] = [];
    const before = shots.hits.size;
    const report = await download(
      [
        job('file', 'file:///etc/passwd'),
        job('ftp', 'ftp://files.example/shot.png'),
        job('http', `${shots.url}/img/never.png`),
      ],
      dir,
      { retries: 3, log: { info: (m) => logs.push(m), warning: (m) => logs.push(m) } },
    );
    expect(report.files).toEqual([]);
    expect(report.missing.map((m) => [m.job.resultId, m.reason])).toEqual([
      ['file', 'URL scheme file refused (only https) (file:///etc/passwd)'],
      ['ftp', 'URL scheme ftp refused (only https) (ftp://files.example/shot.png)'],
      ['http', expect.stringMatching(/^URL scheme http refused \(only https\)/)],
    ]);
    expect(shots.hits.size).toBe(before);
    expect(logs.join('\n')).toContain('Screenshot not downloaded: Suite/file.png');
    expect(await listFiles(dir)).toEqual([]);
  });

  it('a redirect to another scheme is refused; one to an allowed URL is followed', async () => {
    const png = randomPng(8, 8);
    const good = shots.add('dl-redirected', png);
    const to = (url: string) => `${shots.url}/redirect/r.png?to=${encodeURIComponent(url)}`;
    const report = await downloadScreenshots(
      [
        job('bad', to('file:///etc/passwd')),
        job('ftp', to('ftp://files.example/x.png')),
        job('ok', to(good)),
      ],
      dir,
    );
    expect(report.files.map((f) => f.job.resultId)).toEqual(['ok']);
    expect(report.missing.map((m) => [m.job.resultId, m.reason.replace(/ \(http.*$/, '')])).toEqual([
      ['bad', 'redirected to file URL refused (only https or http)'],
      ['ftp', 'redirected to ftp URL refused (only https or http)'],
    ]);
    expect((await readFile(path.join(dir, 'Suite', 'ok.png'))).equals(png)).toBe(true);
  });

  it('an HTML body is not saved as .png; a JPEG is', async () => {
    const jpeg = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(100, 1)]);
    const report = await downloadScreenshots(
      [job('h', `${shots.url}/html/login.png`), job('j', shots.add('dl-jpeg', jpeg))],
      dir,
      { retries: 3 },
    );
    expect(report.missing.map((m) => [m.job.resultId, m.reason.replace(/ \(http.*$/, '')])).toEqual([
      ['h', 'not a PNG or JPEG image'],
    ]);
    expect(shots.hits.get('/html/login.png')).toBe(1);
    expect(await listFiles(dir)).toEqual(['Suite/j.png']);
  });

  it('a body that only starts like an image is refused: a PNG signature then HTML, bodies under 16 bytes', async () => {
    const signature = randomPng(1, 1).subarray(0, 8);
    const real = randomPng(2, 2);
    const cases: Array<[string, Buffer]> = [
      ['png-html', Buffer.concat([signature, Buffer.from('<!DOCTYPE html><html>Sign in</html>')])],
      ['png-sig', signature],
      ['jpeg-3', Buffer.from([0xff, 0xd8, 0xff])],
      ['jpeg-7', Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10, 0x4a])],
      ['jpeg-html', Buffer.from('\xff\xd8\xff<html>Sign in</html>', 'latin1')],
      ['png-15', real.subarray(0, 15)],
    ];
    const report = await downloadScreenshots(
      [
        ...cases.map(([key, body]) => job(key, shots.add(`dl-${key}`, body))),
        job('ok', shots.add('dl-ok16', real)),
      ],
      dir,
      { retries: 3 },
    );
    expect(report.missing.map((m) => m.job.resultId)).toEqual(cases.map(([key]) => key));
    for (const m of report.missing) expect(m.reason).toMatch(/^not a PNG or JPEG image/);
    for (const [key] of cases) expect(shots.hits.get(`/img/dl-${key}.png`), key).toBe(1);
    expect(await listFiles(dir)).toEqual(['Suite/ok.png']);
  });

  it('checkImageUrl: a redirect from https to http is refused even where http itself is allowed', () => {
    expect(() => checkImageUrl('http://a.example/x.png', true, 'https://b.example/y.png')).toThrow(
      'redirected to http URL refused (only https or http)',
    );
    expect(() => checkImageUrl('http://a.example/x.png', true, 'http://b.example/y.png')).not.toThrow();
    expect(() => checkImageUrl('https://a.example/x.png', true, 'http://b.example/y.png')).not.toThrow();
    expect(() => checkImageUrl('http://a.example/x.png', true)).not.toThrow();
  });

  it('more than 3 redirects are refused', async () => {
    const png = shots.add('dl-far', randomPng(4, 4));
    const hop = (url: string) => `${shots.url}/redirect/r.png?to=${encodeURIComponent(url)}`;
    const report = await downloadScreenshots(
      [job('three', hop(hop(hop(png)))), job('four', hop(hop(hop(hop(png)))))],
      dir,
    );
    expect(report.files.map((f) => f.job.resultId)).toEqual(['three']);
    expect(report.missing[0]?.reason).toMatch(/^more than 3 redirects/);
  });

  it('a body without end is cut at the byte cap while it streams, and nothing is saved', async () => {
    const report = await downloadScreenshots([job('x', `${shots.url}/huge/big.png`)], dir, {
      maxBytes: 2 * 1024 * 1024,
      retries: 3,
    });
    expect(report.missing[0]?.reason).toMatch(/^larger than 2 MiB/);
    expect(shots.hits.get('/huge/big.png')).toBe(1);
    // The server writes on until the client goes: socket buffers hold a few MiB, never the whole body.
    expect(shots.sentBytes()).toBeLessThan(64 * 1024 * 1024);
    expect(await listFiles(dir)).toEqual([]);
  });

  it('a signal stops every download at once, the hanging ones included', async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error('the workflow was cancelled')), 200);
    const started = Date.now();
    const report = await downloadScreenshots(
      [job('a', `${shots.url}/hang/a.png`), job('b', `${shots.url}/hang/b.png`)],
      dir,
      { timeoutMs: 60_000, signal: controller.signal },
    );
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(report.missing.map((m) => m.reason.replace(/ \(http.*$/, ''))).toEqual([
      'stopped: the workflow was cancelled',
      'stopped: the workflow was cancelled',
    ]);
  });
});
