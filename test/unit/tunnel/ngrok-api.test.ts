/**
 * `askNgrokApi` against a loopback stand-in for ngrok's local agent API (ngrok docs, "ngrok Agent API",
 * https://ngrok.com/docs/agent/api/: "List Tunnels", `GET /api/tunnels` answers
 * `{ tunnels: [{ name, public_url, proto, config: { addr } }] }`, one entry per protocol when an http
 * tunnel is started with both). The agent's answers here are shaped as those docs show; the lists of
 * several tunnels (other addresses, both protocols) are cases the docs allow, not captured answers.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { askNgrokApi } from '../../../src/tunnel/ngrok-api.js';
import { until } from '../../support/harness.js';

const APP = 'http://localhost:3000';

/** A tunnel as the agent lists it. */
const tunnel = (publicUrl: string, addr: string, proto = publicUrl.split(':')[0]) => ({
  name: `${proto}-${addr}`,
  public_url: publicUrl,
  proto,
  config: { addr, inspect: true },
});

/** Agent API path prefix → its answer: status and body (JSON when not a string). */
const AGENTS: Record<string, { status: number; body: unknown }> = {
  '/both': {
    status: 200,
    body: {
      tunnels: [
        tunnel('https://other.ngrok.app', 'http://localhost:4000'),
        tunnel('http://shop.ngrok.app', APP),
        tunnel('https://shop.ngrok.app', APP),
      ],
    },
  },
  '/http-first': {
    status: 200,
    body: {
      tunnels: [
        tunnel('http://shop.ngrok.app', APP),
        tunnel('https://other.ngrok.app', 'http://localhost:4000'),
      ],
    },
  },
  '/only': { status: 200, body: { tunnels: [tunnel('https://only.ngrok.app', 'http://localhost:8080')] } },
  '/none-of-ours': {
    status: 200,
    body: {
      tunnels: [
        tunnel('https://a.ngrok.app', 'http://localhost:4000'),
        tunnel('https://b.ngrok.app', 'http://localhost:5000'),
      ],
    },
  },
  '/no-url-yet': {
    status: 200,
    body: {
      tunnels: [
        { name: 'starting', proto: 'https', config: { addr: APP } },
        tunnel('http://shop.ngrok.app', APP),
      ],
    },
  },
  '/no-config': {
    status: 200,
    body: {
      tunnels: [
        { name: 'bare', public_url: 'https://bare.ngrok.app' },
        tunnel('https://shop.ngrok.app', APP),
      ],
    },
  },
  '/empty': { status: 200, body: { tunnels: [] } },
  '/no-list': { status: 200, body: { uri: '/api/tunnels' } },
  '/failing': { status: 500, body: { tunnels: [tunnel('https://shop.ngrok.app', APP)] } },
  '/not-json': { status: 200, body: '<html>not the agent</html>' },
};

let server: Server;
let origin = '';
const seen: Array<{ url: string; accept: string | undefined }> = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    seen.push({ url: req.url ?? '', accept: req.headers.accept });
    const prefix = (req.url ?? '').replace(/\/api\/tunnels$/, '');
    const answer = AGENTS[prefix];
    if (prefix === '/hang') return; // accepts and never answers
    if (!answer || !req.url?.endsWith('/api/tunnels')) return void res.writeHead(404).end();
    const body = typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body);
    res.writeHead(answer.status, { 'content-type': 'application/json' }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const ask = (agent: string, bound = new AbortController().signal) =>
  askNgrokApi(`${origin}${agent}`, APP, bound);

describe('askNgrokApi', () => {
  it('takes the https URL of the tunnel to the app, among tunnels to other addresses', async () => {
    expect(await ask('/both')).toBe('https://shop.ngrok.app');
  });

  it('takes the http URL of the tunnel to the app when it has no https one, not another address’s https', async () => {
    expect(await ask('/http-first')).toBe('http://shop.ngrok.app');
  });

  it('takes the only tunnel listed, whatever its address', async () => {
    expect(await ask('/only')).toBe('https://only.ngrok.app');
  });

  it('null when several tunnels are listed and none leads to the app', async () => {
    expect(await ask('/none-of-ours')).toBeNull();
  });

  it('skips a listed tunnel without its config, among others', async () => {
    expect(await ask('/no-config')).toBe('https://shop.ngrok.app');
  });

  it('skips a tunnel without a public URL yet', async () => {
    expect(await ask('/no-url-yet')).toBe('http://shop.ngrok.app');
  });

  it('null when no tunnel is listed, or the list is missing', async () => {
    expect(await ask('/empty')).toBeNull();
    expect(await ask('/no-list')).toBeNull();
  });

  it('null for an error answer, even one that lists a tunnel, and for an answer that is not JSON', async () => {
    expect(await ask('/failing')).toBeNull();
    expect(await ask('/not-json')).toBeNull();
  });

  it('null at once when the bound has passed while the agent does not answer', async () => {
    const bound = new AbortController();
    const answer = ask('/hang', bound.signal);
    await until(() => seen.some((s) => s.url === '/hang/api/tunnels'), 20_000);
    bound.abort();
    expect(await answer).toBeNull();
  });

  it('asks GET /api/tunnels for JSON', async () => {
    seen.length = 0;
    await ask('/only');
    expect(seen).toEqual([{ url: '/only/api/tunnels', accept: 'application/json' }]);
  });
});
