/**
 * A hostile service for the secret tests: a loopback proxy in front of the emulator that forwards every
 * request, except those a rule answers itself, typically with an error that echoes the whole request
 * (URL with the API key, body with the HTTP auth password and private variables) the way careless services
 * do. The action must keep all of it out of its logs and files. With `bend`, a lying service: forwarded
 * JSON answers are rewritten (a test result left out of a list, a record where a list belongs).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** A request as the proxy saw it. */
export interface SeenRequest {
  method: string;
  /** Path and query, as sent. */
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** What a rule answers instead of forwarding. */
export interface ProxyReply {
  status: number;
  contentType?: string;
  body: string;
}

export interface EchoProxy {
  /** e.g. `http://127.0.0.1:4011/v1`. */
  baseUrl: string;
  /** Requests answered by a rule, oldest first. */
  answered: SeenRequest[];
  close(): Promise<void>;
}

/**
 * Rewrites the parsed JSON body of a forwarded 2xx answer; returns it (or a new value) to send instead,
 * `undefined` to send it unchanged.
 */
export type Bend = (request: SeenRequest, body: unknown) => unknown;

/**
 * Starts the proxy in front of `targetOrigin` (e.g. the emulator's `origin`).
 * @param rule returns a reply to answer a request itself, or null to forward it.
 * @param bend rewrites forwarded JSON answers (see `Bend`); without it they pass unchanged.
 */
export async function startEchoProxy(
  targetOrigin: string,
  rule: (request: SeenRequest) => ProxyReply | null,
  bend?: Bend,
): Promise<EchoProxy> {
  const answered: SeenRequest[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const seen: SeenRequest = {
        method: req.method ?? 'GET',
        url: req.url ?? '/',
        headers: req.headers,
        body: body.toString('utf8'),
      };
      const reply = rule(seen);
      if (reply) {
        answered.push(seen);
        res
          .writeHead(reply.status, { 'content-type': reply.contentType ?? 'application/json' })
          .end(reply.body);
        return;
      }
      const headers = { ...req.headers };
      delete headers.host;
      // A bent answer is read whole: asked uncompressed.
      if (bend) delete headers['accept-encoding'];
      const upstream = http.request(
        new URL(seen.url, targetOrigin),
        { method: seen.method, headers: { ...headers, 'content-length': String(body.length) } },
        (answer) => {
          const status = answer.statusCode ?? 502;
          if (!bend || status < 200 || status > 299 || !/json/.test(answer.headers['content-type'] ?? '')) {
            res.writeHead(status, answer.headers);
            answer.pipe(res);
            return;
          }
          const parts: Buffer[] = [];
          answer.on('data', (c: Buffer) => parts.push(c));
          answer.on('end', () => {
            const text = Buffer.concat(parts).toString('utf8');
            const bent = bend(seen, JSON.parse(text) as unknown);
            const out = bent === undefined ? text : JSON.stringify(bent);
            res.writeHead(status, { 'content-type': 'application/json' }).end(out);
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
    answered,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** An error envelope (HTTP 200, like the service) whose message repeats the whole request. */
export function echoEnvelope(request: SeenRequest, errorType = 'VALIDATION_ERROR'): ProxyReply {
  return {
    status: 200,
    body: JSON.stringify({
      code: 'ERROR',
      errorType,
      message: `Rejected ${request.method} ${request.url} with body ${request.body} and headers ${JSON.stringify(request.headers)}`,
    }),
  };
}
