/**
 * The runner's proxy (`HTTPS_PROXY`, `HTTP_PROXY`, `NO_PROXY`, and their lower-case forms) carries every
 * request of the action's one transport (`src/api/http.ts`) and of each of its users: an API exchange, a
 * screenshot download, the tunnel's browser check; and the tunnel agent's download (`@actions/tool-cache`).
 * The hosts are names only the proxy resolves (`*.test`, which no DNS answers): a request that does not go
 * through the proxy fails with ENOTFOUND.
 */
import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';

import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

import { sendHttp, TransportError } from '../../../src/api/http.js';
import { downloadScreenshots } from '../../../src/artifacts/index.js';
import { findAgent } from '../../../src/tunnel/agent.js';
import { seeAsBrowser } from '../../../src/tunnel/browser-check.js';
import { tunnelProvider } from '../../../src/tunnel/providers.js';
import { startForwardProxy, type ForwardProxy } from '../../support/proxy.js';
import {
  randomPng,
  setEnv,
  startScreenshotServer,
  type ScreenshotServer,
} from '../../support/screenshots.js';

/** Every proxy variable, unset: a test sets only the ones it is about. */
const NO_PROXY_ENV = {
  HTTPS_PROXY: undefined,
  https_proxy: undefined,
  HTTP_PROXY: undefined,
  http_proxy: undefined,
  NO_PROXY: undefined,
  no_proxy: undefined,
};

/** The bytes of a tunnel agent the app serves at `/agent`. */
const AGENT = Buffer.from('#!/bin/sh\necho agent\n');

let app: http.Server;
let shots: ScreenshotServer;
let proxy: ForwardProxy;
let restoreEnv: () => void = () => undefined;

beforeAll(async () => {
  app = http.createServer((req, res) =>
    res.end(req.url === '/agent' ? AGENT : `app saw ${req.method} ${req.url}`),
  );
  await new Promise<void>((resolve) => app.listen(0, '127.0.0.1', resolve));
  shots = await startScreenshotServer();
  proxy = await startForwardProxy({
    'api.gi.test': `127.0.0.1:${(app.address() as AddressInfo).port}`,
    'shots.gi.test': new URL(shots.url).host,
  });
});
afterAll(async () => {
  await proxy.close();
  await shots.close();
  app.closeAllConnections();
  await new Promise<void>((resolve) => app.close(() => resolve()));
});
afterEach(() => {
  restoreEnv();
  proxy.seen.length = 0;
});

const get = (url: string) =>
  sendHttp({ method: 'GET', url, headers: {}, timeoutMs: 5_000 }).then((r) => r.body.toString());

describe('the transport honours the runner proxy', () => {
  it('HTTP_PROXY or http_proxy carries an http request to a host only the proxy knows', async () => {
    for (const name of ['HTTP_PROXY', 'http_proxy']) {
      restoreEnv = setEnv({ ...NO_PROXY_ENV, [name]: proxy.url });
      expect(await get('http://api.gi.test/v1/tests/?apiKey=k'), name).toBe(
        'app saw GET /v1/tests/?apiKey=k',
      );
      expect(proxy.seen, name).toEqual(['CONNECT api.gi.test:80']);
      proxy.seen.length = 0;
      restoreEnv();
    }
  });

  it('HTTPS_PROXY or https_proxy carries an https request: the proxy is asked for a tunnel to port 443', async () => {
    for (const name of ['HTTPS_PROXY', 'https_proxy']) {
      restoreEnv = setEnv({ ...NO_PROXY_ENV, [name]: proxy.url });
      // The app speaks no TLS, so the exchange fails after the tunnel; the tunnel is what this is about.
      await expect(get('https://api.gi.test/v1/tests/')).rejects.toBeInstanceOf(TransportError);
      expect(proxy.seen, name).toEqual(['CONNECT api.gi.test:443']);
      proxy.seen.length = 0;
      restoreEnv();
    }
  });

  it('NO_PROXY or no_proxy sends a host direct, and without a proxy the name is not found', async () => {
    for (const skip of [{ NO_PROXY: 'gi.test' }, { no_proxy: '.gi.test' }, { HTTP_PROXY: undefined }]) {
      restoreEnv = setEnv({ ...NO_PROXY_ENV, HTTP_PROXY: proxy.url, ...skip });
      const error = await get('http://api.gi.test/').catch((e: unknown) => e);
      expect(error, JSON.stringify(skip)).toMatchObject({ kind: 'network', code: 'ENOTFOUND' });
      expect(proxy.seen).toEqual([]);
      restoreEnv();
    }
  });
});

describe('every user of the transport goes through the proxy', () => {
  it('a screenshot download, on a host only the proxy knows', async () => {
    restoreEnv = setEnv({ ...NO_PROXY_ENV, HTTP_PROXY: proxy.url });
    const png = randomPng(20, 20);
    const url = shots.add('through-proxy', png).replace(new URL(shots.url).host, 'shots.gi.test');
    const dir = await mkdtemp(path.join(os.tmpdir(), 'gi-proxy-'));
    try {
      const job = {
        resultId: 'r',
        kind: 'screenshot',
        url,
        relativePath: 'S/r.png',
        state: 'failed',
      } as const;
      const report = await downloadScreenshots([job], dir, { allowHttp: true, retries: 0 });
      expect(report.missing).toEqual([]);
      expect((await readFile(path.join(dir, 'S', 'r.png'))).equals(png)).toBe(true);
      expect(proxy.seen).toEqual(['CONNECT shots.gi.test:80']);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("the tunnel's browser check, on a host only the proxy knows", async () => {
    restoreEnv = setEnv({ ...NO_PROXY_ENV, HTTPS_PROXY: proxy.url, HTTP_PROXY: proxy.url });
    expect(await seeAsBrowser('http://api.gi.test/', new AbortController().signal)).toEqual({ kind: 'app' });
    expect(proxy.seen).toEqual(['CONNECT api.gi.test:80']);
  });

  it.skipIf(process.platform === 'win32')(
    "the tunnel agent's download, from a host only the proxy knows",
    async () => {
      const work = await mkdtemp(path.join(os.tmpdir(), 'gi-proxy-agent-'));
      const cache = path.join(work, 'cache');
      restoreEnv = setEnv({
        ...NO_PROXY_ENV,
        HTTP_PROXY: proxy.url,
        RUNNER_TOOL_CACHE: cache,
        RUNNER_TEMP: work,
      });
      try {
        const sha256 = createHash('sha256').update(AGENT).digest('hex');
        const asset = {
          url: 'http://api.gi.test/agent',
          file: 'agent',
          kind: 'binary',
          version: '1.0.0',
          sha256,
          source: 'this test',
        } as const;
        const provider = { ...tunnelProvider('cloudflared'), command: 'gi-proxy-agent', asset: () => asset };
        const exe = await findAgent(provider, '', () => undefined);
        expect(await readFile(exe)).toEqual(AGENT);
        expect(proxy.seen).toEqual(['CONNECT api.gi.test:80']);
      } finally {
        await rm(work, { recursive: true, force: true });
      }
    },
  );
});
