/**
 * `startTunnel` with the fake ngrok agent on loopback: the public URL learnt from the agent's log and
 * answering once the app answers; the Host header rewrite; the agent's own error when it exits; the bound
 * naming the local address; the agent stopped every time.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TunnelInputs } from '../../../src/inputs/schema.js';
import { startTunnel } from '../../../src/tunnel/tunnel.js';
import { installFakeAgent, type FakeAgent } from '../../support/fake-tunnel.js';

let agent: FakeAgent;
let app: Server;
let appUrl: string;
const hosts: string[] = [];

beforeAll(async () => {
  agent = await installFakeAgent();
  app = createServer((req, res) => {
    hosts.push(req.headers.host ?? '');
    res.end('app');
  });
  await new Promise<void>((resolve) => app.listen(0, '127.0.0.1', resolve));
  appUrl = `http://127.0.0.1:${(app.address() as AddressInfo).port}`;
});
afterAll(async () => {
  app.closeAllConnections();
  app.close();
  await agent.remove();
});

function tunnel(over: Partial<TunnelInputs> = {}): TunnelInputs {
  return {
    address: appUrl,
    provider: 'ngrok',
    authtoken: 'ngrok-token-7Qx2Lm9Zr4Kp1Vb8',
    urlVariable: 'ngrokUrl',
    hostHeader: '',
    ...over,
  };
}

function start(over: Partial<TunnelInputs> = {}, timeoutMs = 10_000) {
  const env = { ...agent.env(), NGROK_AUTHTOKEN: '' };
  return startTunnel({
    tunnel: tunnel(over),
    env,
    log: () => {},
    signal: new AbortController().signal,
    timeoutMs,
  });
}

describe('startTunnel', () => {
  it('opens a tunnel that leads to the app, and stops its agent', async () => {
    const open = await start();
    const res = await fetch(open.url);
    expect(await res.text()).toBe('app');
    expect(hosts.at(-1)).toBe(new URL(open.url).host);
    expect(await agent.alive()).toHaveLength(1);
    await open.stop();
    expect(await agent.alive()).toEqual([]);
  });

  it('rewrites the Host header to the local address with hostHeader rewrite', async () => {
    const open = await start({ hostHeader: 'rewrite' });
    await fetch(open.url);
    expect(hosts.at(-1)).toBe(new URL(appUrl).host);
    await open.stop();
  });

  it("passes on the agent's error when it exits before the tunnel opens", async () => {
    await expect(start({ authtoken: '' })).rejects.toThrow(
      /The ngrok agent exited \(code 1\) before it opened the tunnel to http:\/\/127\.0\.0\.1:\d+: command failed: authentication failed/,
    );
    expect(await agent.alive()).toEqual([]);
  });

  it('fails at the bound naming the local address when nothing answers there', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const address = `http://127.0.0.1:${(closed.address() as AddressInfo).port}`;
    closed.close();
    const startedAt = Date.now();
    await expect(start({ address }, 1_500)).rejects.toThrow(`nothing answers at ${address} (ECONNREFUSED)`);
    expect(Date.now() - startedAt).toBeLessThan(1_500 + 5_000);
    expect(await agent.alive()).toEqual([]);
  });
});
