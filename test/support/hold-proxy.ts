/**
 * A service that does not answer: a loopback proxy in front of the emulator that forwards requests, but
 * holds some of them open forever, either before forwarding (`hold-before`: the service never saw it) or
 * after (`hold-after`: the service handled it, its side effects happened, and the answer never comes).
 * Held connections end only when the client gives up or the proxy closes. With `bend`, every forwarded
 * answer's text is rewritten on the way back (e.g. screenshot URLs pointed at another host).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** What to do with one request. */
export type HoldRule = (request: { method: string; url: string }) => 'forward' | 'hold-before' | 'hold-after';

export interface HoldProxy {
  /** e.g. `http://127.0.0.1:4011/v1`. */
  baseUrl: string;
  /** Requests held, oldest first (`METHOD path?query`). */
  held: string[];
  close(): Promise<void>;
}

/**
 * Starts the proxy in front of `targetOrigin` (e.g. the emulator's `origin`).
 * @param bend rewrites the text of every forwarded answer (asked for uncompressed)
 */
export async function startHoldProxy(
  targetOrigin: string,
  rule: HoldRule,
  bend?: (body: string) => string,
): Promise<HoldProxy> {
  const held: string[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const method = req.method ?? 'GET';
      const url = req.url ?? '/';
      const action = rule({ method, url });
      if (action !== 'forward') held.push(`${method} ${url}`);
      if (action === 'hold-before') return;
      const headers = { ...req.headers };
      delete headers.host;
      if (bend) delete headers['accept-encoding'];
      const upstream = http.request(
        new URL(url, targetOrigin),
        { method, headers: { ...headers, 'content-length': String(body.length) } },
        (answer) => {
          if (action === 'hold-after') {
            answer.resume();
            return;
          }
          if (!bend) {
            res.writeHead(answer.statusCode ?? 502, answer.headers);
            answer.pipe(res);
            return;
          }
          const parts: Buffer[] = [];
          answer.on('data', (c: Buffer) => parts.push(c));
          answer.on('end', () => {
            const text = Buffer.from(bend(Buffer.concat(parts).toString('utf8')));
            const { 'transfer-encoding': _chunked, ...rest } = answer.headers;
            res.writeHead(answer.statusCode ?? 502, { ...rest, 'content-length': text.length });
            res.end(text);
          });
        },
      );
      upstream.on('error', () => res.destroy());
      upstream.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    held,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
