/**
 * Test helpers for screenshots: real PNG bytes (pngjs), a loopback screenshot server with fault routes,
 * and a finished test result with screenshot URLs (`makeResult`; the run model's other builders are in
 * `run-factories.ts`).
 */
import { randomBytes } from 'node:crypto';
import http from 'node:http';

import { PNG } from 'pngjs';

import type { ImageRef, TestResult } from '../../emulator/api-types.js';
import { listen } from './fake-server.js';
import { testResult } from './run-factories.js';

/** A PNG of `width` x `height` random pixels (incompressible, so about 4 * w * h bytes). */
export function randomPng(width: number, height: number): Buffer {
  const png = new PNG({ width, height });
  randomBytes(width * height * 4).copy(png.data);
  return PNG.sync.write(png);
}

/**
 * Screenshot server on 127.0.0.1. Routes (path -> behaviour):
 * - `/img/<key>.png`: 200 with the PNG registered under `key`.
 * - `/flaky/<key>.png`: answers `failures` times 500 (per key), then 200.
 * - `/hang/<key>.png`: accepts and never answers.
 * - `/gone/<key>.png`: 404.
 * - `/slow/<key>.png`: sends headers and half the body, then stalls.
 * - `/html/<key>.png`: 200 with an HTML page (a login or error page where an image was expected).
 * - `/huge/<key>.png`: 200, a PNG signature and IHDR chunk header and then 1 MiB chunks without end (no Content-Length), until
 *   the client stops reading; `sentBytes` counts what was written.
 * - `/redirect/<key>.png?to=<url>`: 302 to `url`.
 */
export interface ScreenshotServer {
  url: string;
  images: Map<string, Buffer>;
  /** Requests per path. */
  hits: Map<string, number>;
  /** Bytes written by the `huge` route, all requests together. */
  sentBytes(): number;
  add(key: string, png: Buffer): string;
  close(): Promise<void>;
}

export async function startScreenshotServer(
  options: { failures?: number; image?: (key: string) => Buffer } = {},
): Promise<ScreenshotServer> {
  const images = new Map<string, Buffer>();
  const hits = new Map<string, number>();
  const failures = options.failures ?? 1;
  const held: http.ServerResponse[] = [];
  let sent = 0;
  const server = http.createServer((req, res) => {
    const parsed = new URL(req.url ?? '/', 'http://x');
    const p = parsed.pathname;
    const count = (hits.get(p) ?? 0) + 1;
    hits.set(p, count);
    const [, route, file] = p.split('/');
    const key = (file ?? '').replace(/\.png$/, '');
    const body = images.get(key) ?? options.image?.(key);
    const ok = (): void => {
      if (!body) {
        res.writeHead(404).end('no such image');
        return;
      }
      res.writeHead(200, { 'content-type': 'image/png', 'content-length': String(body.length) });
      res.end(body);
    };
    if (route === 'img') return ok();
    if (route === 'flaky') {
      if (count <= failures) return void res.writeHead(500, { 'content-type': 'text/plain' }).end('boom');
      return ok();
    }
    if (route === 'html') {
      return void res
        .writeHead(200, { 'content-type': 'text/html' })
        .end('<!DOCTYPE html><html><body>Please sign in</body></html>');
    }
    if (route === 'redirect') {
      return void res.writeHead(302, { location: parsed.searchParams.get('to') ?? '/' }).end();
    }
    if (route === 'huge') {
      res.writeHead(200, { 'content-type': 'image/png' });
      const chunk = Buffer.alloc(1024 * 1024, 7);
      // A PNG signature and its IHDR chunk, then filler: an image until its size gives it away.
      randomPng(1, 1).copy(chunk, 0, 0, 16);
      const pump = (): void => {
        while (!res.destroyed && sent < 512 * 1024 * 1024) {
          sent += chunk.length;
          if (!res.write(chunk)) return void res.once('drain', pump);
        }
        res.end();
      };
      res.on('error', () => undefined);
      return pump();
    }
    if (route === 'hang') {
      held.push(res);
      return;
    }
    if (route === 'slow' && body) {
      res.writeHead(200, { 'content-type': 'image/png', 'content-length': String(body.length) });
      res.write(body.subarray(0, body.length >> 1));
      held.push(res);
      return;
    }
    res.writeHead(404).end('not found');
  });
  const { url, close } = await listen(server);
  return {
    url,
    images,
    hits,
    sentBytes: () => sent,
    add(key, png) {
      images.set(key, png);
      return `${url}/img/${key}.png`;
    },
    close() {
      for (const res of held) res.destroy();
      return close();
    },
  };
}

function image(url: string, size = 0): ImageRef {
  return { defaultUrl: url, dims: { h: 800, w: 1280 }, path: url, size };
}

/** A finished test result with only the fields artifacts/ reads set meaningfully. */
export function makeResult(
  id: string,
  options: {
    passing?: boolean | null;
    name?: string;
    screenshotUrl?: string;
    compareUrl?: string;
    comparePassing?: boolean | null;
  } = {},
): TestResult {
  return testResult({
    _id: id,
    uuid: `uuid-${id}`,
    name: options.name ?? `Test ${id}`,
    test: null,
    passing: options.passing === undefined ? true : options.passing,
    screenshot: options.screenshotUrl
      ? { original: image(options.screenshotUrl), small: image(options.screenshotUrl) }
      : undefined,
    screenshotCompare: options.compareUrl
      ? { compareOriginal: image(options.compareUrl), compareSmall: image(options.compareUrl) }
      : undefined,
    screenshotCompareEnabled: options.compareUrl ? true : null,
    screenshotComparePassing: options.comparePassing ?? null,
  });
}

/** Sets environment variables for the duration of a test; returns a function restoring the old values. */
export function setEnv(values: Record<string, string | undefined>): () => void {
  const old: Record<string, string | undefined> = {};
  for (const [k, v] of Object.entries(values)) {
    old[k] = process.env[k];
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
  return () => {
    for (const [k, v] of Object.entries(old)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  };
}
