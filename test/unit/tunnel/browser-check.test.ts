/**
 * `seeAsBrowser` against a loopback host that answers as a tunnel's edge would (docs/tunnel.md, "What the
 * browsers see"): ngrok's browser warning told by its `ngrok-error-code` header alone or by its page alone
 * (ngrok.com/abuse, "Browser Warning", ERR_NGROK_6024), ngrok's other error answers and the gateway errors
 * of a tunnel that does not reach the app yet (ngrok 502 ERR_NGROK_8012, Cloudflare 502/530), no answer,
 * a redirect, which a browser check must not follow, and app answers without a body or without an end.
 */
import {
  createServer,
  type IncomingHttpHeaders,
  type OutgoingHttpHeaders,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seeAsBrowser } from '../../../src/tunnel/browser-check.js';

/** Path → the answer: status, headers, body. */
const ANSWERS: Record<string, { status: number; headers?: OutgoingHttpHeaders; body?: string }> = {
  '/app': { status: 200, body: '<html>shop</html>' },
  '/warning-header': {
    status: 200,
    headers: { 'ngrok-error-code': 'ERR_NGROK_6024' },
    body: '<html></html>',
  },
  '/warning-page': { status: 200, body: '<html>You are about to visit … ERR_NGROK_6024</html>' },
  '/not-found': { status: 404, headers: { 'ngrok-error-code': 'ERR_NGROK_3200' }, body: 'tunnel not found' },
  '/error-200': { status: 200, headers: { 'ngrok-error-code': 'ERR_NGROK_727' }, body: '' },
  '/redirect': { status: 302, headers: { location: '/warning-page' } },
  '/app-404': { status: 404, body: 'no such page in the app' },
  '/no-content': { status: 204 },
};
const GATEWAY = [502, 503, 504, 530];

/** An app page without end (a stream): written in 16 KiB chunks until the client goes away. */
function endless(res: ServerResponse): void {
  res.writeHead(200, { 'content-type': 'text/html' });
  const chunk = Buffer.alloc(16 * 1024, 0x61);
  const more = (): void => {
    while (!res.destroyed && res.write(chunk));
    if (!res.destroyed) res.once('drain', more);
  };
  more();
}

let server: Server;
let base: string;
const seen: IncomingHttpHeaders[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    seen.push(req.headers);
    if (req.url === '/endless') return endless(res);
    const gateway = /^\/gateway\/(\d+)$/.exec(req.url ?? '');
    const answer = gateway ? { status: Number(gateway[1]) } : ANSWERS[req.url ?? ''];
    if (!answer) return res.writeHead(500).end();
    res.writeHead(answer.status, answer.headers).end(answer.body ?? '');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

const look = (path: string) => seeAsBrowser(`${base}${path}`, new AbortController().signal);

describe('seeAsBrowser', () => {
  it('an answer of the app, any status, is the app; asked as a browser asks', async () => {
    expect(await look('/app')).toEqual({ kind: 'app' });
    expect(await look('/no-content')).toEqual({ kind: 'app' });
    expect(await look('/app-404')).toEqual({ kind: 'app' });
    const headers = seen.at(-1)!;
    expect(headers.accept).toMatch(/^text\/html/);
    expect(headers['user-agent']).toMatch(/^Mozilla\/5\.0 .*Chrome\//);
    expect(headers['ngrok-skip-browser-warning']).toBeUndefined();
  });

  it("ngrok's browser warning is the agent's page, told by its header alone or by its page alone", async () => {
    for (const path of ['/warning-header', '/warning-page']) {
      const view = await look(path);
      expect(view.kind, path).toBe('agent-page');
      expect(view).toMatchObject({ what: expect.stringMatching(/browser warning page \(ERR_NGROK_6024/) });
    }
  });

  it("ngrok's other error answers, whatever their status, are not the app yet", async () => {
    expect(await look('/not-found')).toEqual({ kind: 'not-yet', why: 'HTTP 404 ERR_NGROK_3200' });
    expect(await look('/error-200')).toEqual({ kind: 'not-yet', why: 'HTTP 200 ERR_NGROK_727' });
  });

  it('a gateway error of a tunnel that does not reach the app is not the app yet', async () => {
    for (const status of GATEWAY) {
      expect(await look(`/gateway/${status}`)).toEqual({ kind: 'not-yet', why: `HTTP ${status}` });
    }
    expect(await look('/gateway/500')).toEqual({ kind: 'app' });
  });

  it('an answer without end is read only as far as the agent’s page could be, then taken for the app', async () => {
    expect(await look('/endless')).toEqual({ kind: 'app' });
  });

  it('a redirect is not followed: the answer is the redirect itself', async () => {
    const before = seen.length;
    expect(await look('/redirect')).toEqual({ kind: 'app' });
    expect(seen.length - before).toBe(1);
  });

  it('no answer is not the app yet, with the reason', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(closed.address() as AddressInfo).port}/`;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    expect(await seeAsBrowser(url, new AbortController().signal)).toEqual({
      kind: 'not-yet',
      why: 'ECONNREFUSED',
    });
  });

  it('a bound already reached: not the app yet, saying it was stopped', async () => {
    const view = await seeAsBrowser(`${base}/app`, AbortSignal.abort());
    expect(view).toEqual({ kind: 'not-yet', why: expect.stringMatching(/^stopped: /) });
  });
});
