/**
 * The step's listener in front of the app (`src/tunnel/forward.ts`, docs/tunnel.md, "Push through the
 * tunnel"), real servers on loopback: every request off the secret path reaches the app unchanged and its
 * answer comes back unchanged (status, repeated headers, body, the Host header the agent set); an upgrade is
 * piped both ways; the secret path is never handed on; an app that does not answer is a 502, as the agents
 * answer then.
 */
import {
  createServer,
  request,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type Server,
} from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPushListener, type PushListener } from '../../../src/run/follow/push.js';
import { forwardTo } from '../../../src/tunnel/forward.js';

let app: Server;
let appUrl: string;
const seen: Array<{ req: IncomingMessage; body: string }> = [];
let front: PushListener;
const hints: string[] = [];

beforeAll(async () => {
  app = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      seen.push({ req, body });
      res.setHeader('set-cookie', ['a=1; Path=/', 'b=2; Path=/']);
      res.writeHead(req.url === '/missing' ? 404 : 201, { 'x-app': 'yes' });
      res.end(`${req.method} ${req.url} ${body}`);
    });
  });
  // An upgrade: switches protocols, then echoes every byte upper-cased.
  app.on('upgrade', (req: IncomingMessage, socket) => {
    seen.push({ req, body: '' });
    socket.write('HTTP/1.1 101 Switching Protocols\r\nConnection: Upgrade\r\nUpgrade: echo\r\n\r\n');
    socket.on('data', (c: Buffer) => socket.write(c.toString('utf8').toUpperCase()));
  });
  await new Promise<void>((resolve) => app.listen(0, '127.0.0.1', resolve));
  appUrl = `http://127.0.0.1:${(app.address() as AddressInfo).port}`;
  front = await startPushListener({ port: 0, host: '127.0.0.1', forward: forwardTo(appUrl) });
  front.onHint((id) => hints.push(id));
});
afterAll(async () => {
  await front.close();
  app.closeAllConnections();
  app.close();
});

const local = (path: string) => `http://127.0.0.1:${front.port}${path}`;

describe('the listener in front of the app', () => {
  it('hands every request off the secret path on to the app and its answer back unchanged', async () => {
    // As the agent sends it: its own Host header (fetch cannot set one).
    const res = await new Promise<{ status: number; headers: IncomingHttpHeaders; body: string }>(
      (resolve, reject) => {
        const req = request(local('/shop/cart?item=3'), {
          method: 'POST',
          headers: { host: 'public.example.test', 'x-client': 'browser' },
        });
        req.on('response', (answer) => {
          let body = '';
          answer.on('data', (c: Buffer) => (body += c.toString('utf8')));
          answer.on('end', () => resolve({ status: answer.statusCode!, headers: answer.headers, body }));
        });
        req.on('error', reject);
        req.end('qty=2');
      },
    );
    expect(res.status).toBe(201);
    expect(res.headers['x-app']).toBe('yes');
    expect(res.headers['set-cookie']).toEqual(['a=1; Path=/', 'b=2; Path=/']);
    expect(res.body).toBe('POST /shop/cart?item=3 qty=2');
    const last = seen.at(-1)!.req;
    // The Host header the agent set stays: the app sees what it would see without the step in between.
    expect(last.headers.host).toBe('public.example.test');
    expect(last.headers['x-client']).toBe('browser');
    const missing = await fetch(local('/missing'));
    expect(missing.status).toBe(404);
    expect(await missing.text()).toBe('GET /missing ');
  });

  it('pipes an upgrade to the app and back; closing the listener ends it', async () => {
    const alone = await startPushListener({ port: 0, host: '127.0.0.1', forward: forwardTo(appUrl) });
    const socket = connect(alone.port, '127.0.0.1');
    let received = '';
    socket.on('data', (c: Buffer) => (received += c.toString('utf8')));
    const closed = new Promise((resolve) => socket.once('close', resolve));
    await new Promise<void>((resolve) => socket.once('connect', resolve));
    socket.write(
      'GET /live HTTP/1.1\r\nHost: public.example.test\r\nConnection: Upgrade\r\nUpgrade: echo\r\n\r\n',
    );
    await expect.poll(() => received).toContain('101 Switching Protocols');
    socket.write('hello');
    await expect.poll(() => received).toContain('HELLO');
    expect(seen.at(-1)!.req.url).toBe('/live');
    // The app keeps its end open: the listener's close ends the connection all the same.
    await alone.close();
    await closed;
  });

  it('keeps the secret path to itself: a webhook is a hint, anything else there a 404, none reaches the app', async () => {
    const before = seen.length;
    const webhook = await fetch(front.url, {
      method: 'POST',
      body: JSON.stringify({ type: 'result', data: { _id: 'result-1' } }),
    });
    expect(webhook.status).toBe(200);
    expect(hints).toEqual(['result-1']);
    expect((await fetch(front.url)).status).toBe(404);
    expect((await fetch(front.url, { method: 'POST', body: '{}' })).status).toBe(400);
    expect(seen.length).toBe(before);
  });

  it('answers 502 when the app does not answer, as the agents do', async () => {
    const down = createServer();
    await new Promise<void>((resolve) => down.listen(0, '127.0.0.1', resolve));
    const downUrl = `http://127.0.0.1:${(down.address() as AddressInfo).port}`;
    await new Promise((resolve) => down.close(resolve));
    const alone = await startPushListener({ port: 0, host: '127.0.0.1', forward: forwardTo(downUrl) });
    try {
      const res = await fetch(`http://127.0.0.1:${alone.port}/`);
      expect(res.status).toBe(502);
    } finally {
      await alone.close();
    }
  });
});
