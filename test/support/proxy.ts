/**
 * A service that misbehaves: a loopback proxy in front of the emulator that forwards every request except
 * those its rule handles itself. A rule may answer a request (e.g. an error that echoes the whole request,
 * URL with the API key and body with the secrets, as careless services do), or hold it open forever, before
 * forwarding (`hold-before`: the service never saw it) or after (`hold-after`: the service handled it and
 * the answer never comes), or make it wait for an event. Held connections end only when the client gives up
 * or the proxy closes. With `bend`, forwarded JSON answers are rewritten on the way back.
 *
 * Also a forward proxy, as a runner's `HTTPS_PROXY` names one ({@link startForwardProxy}).
 */
import http from 'node:http';
import net from 'node:net';
import { listen } from './fake-server.js';

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
  /** Other headers (e.g. `content-encoding` for a compressed body). */
  headers?: Record<string, string>;
  body: string | Buffer;
}

/** What the proxy does with one request. */
export type ProxyAction = 'forward' | 'hold-before' | 'hold-after' | ProxyReply;

export interface Proxy {
  /** e.g. `http://127.0.0.1:4011/v1`. */
  baseUrl: string;
  /** Requests answered by the rule, oldest first. */
  answered: SeenRequest[];
  /** Requests held, oldest first (`METHOD path?query`). */
  held: string[];
  close(): Promise<void>;
}

/** What the proxy does with one request: `null` forwards it. */
export type ProxyRule = (request: SeenRequest) => ProxyAction | null | Promise<ProxyAction | null>;

/**
 * Rewrites the parsed JSON body of a forwarded 2xx answer; returns it (or a new value) to send instead,
 * `undefined` to send it unchanged (a lying service: a test result left out of a list, a record where a
 * list belongs; screenshot URLs pointed elsewhere).
 */
export type Bend = (request: SeenRequest, body: unknown) => unknown;

/**
 * Starts the proxy in front of `targetOrigin` (e.g. the emulator's `origin`): `rule` (default: forward all)
 * says what to do with each request; a rule may answer with a promise, and the request waits, unforwarded,
 * until it settles (a gate another event opens). `bend` rewrites forwarded JSON answers.
 */
export async function startProxy(targetOrigin: string, rule?: ProxyRule, bend?: Bend): Promise<Proxy> {
  const answered: SeenRequest[] = [];
  const held: string[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    const answer = async (): Promise<void> => {
      const body = Buffer.concat(chunks);
      const seen: SeenRequest = {
        method: req.method ?? 'GET',
        url: req.url ?? '/',
        headers: req.headers,
        body: body.toString('utf8'),
      };
      const action = (await rule?.(seen)) ?? 'forward';
      if (typeof action === 'object') {
        answered.push(seen);
        res
          .writeHead(action.status, {
            'content-type': action.contentType ?? 'application/json',
            ...action.headers,
          })
          .end(action.body);
        return;
      }
      if (action !== 'forward') held.push(`${seen.method} ${seen.url}`);
      if (action === 'hold-before') return;
      const headers = { ...req.headers };
      delete headers.host;
      if (bend) delete headers['accept-encoding'];
      const upstream = http.request(
        new URL(seen.url, targetOrigin),
        { method: seen.method, headers: { ...headers, 'content-length': String(body.length) } },
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
            const status = answer.statusCode ?? 502;
            const original = Buffer.concat(parts).toString('utf8');
            const json = status >= 200 && status <= 299 && /json/.test(answer.headers['content-type'] ?? '');
            const bent = json ? bend(seen, JSON.parse(original) as unknown) : undefined;
            const text = Buffer.from(bent === undefined ? original : JSON.stringify(bent));
            const { 'transfer-encoding': _chunked, ...rest } = answer.headers;
            res.writeHead(status, { ...rest, 'content-length': text.length });
            res.end(text);
          });
        },
      );
      upstream.on('error', () => res.destroy());
      upstream.end(body);
    };
    req.on('end', () => void answer());
  });
  const { url, close } = await listen(server);
  return { baseUrl: `${url}/v1`, answered, held, close };
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

/** A forward proxy: what a runner's `HTTPS_PROXY` / `HTTP_PROXY` points at. */
export interface ForwardProxy {
  /** e.g. `http://127.0.0.1:4012`: the value of `HTTPS_PROXY`. */
  url: string;
  /**
   * What went through it, oldest first: `CONNECT host:port` for a tunnel (RFC 9110, 9.3.6; how
   * `@actions/http-client` and undici reach http and https targets alike), `GET http://host/path` for a
   * request in absolute form (RFC 9112, 3.2.2).
   */
  seen: string[];
  close(): Promise<void>;
}

/**
 * Starts a forward proxy on 127.0.0.1 that knows host names nothing else resolves: `hosts` maps each name
 * (e.g. `api.gi.test`, a reserved name no DNS answers, RFC 6761) to the `host:port` it stands for,
 * whatever port was asked. Other targets are reached as named (a real proxy reaches the internet).
 */
export async function startForwardProxy(hosts: Record<string, string>): Promise<ForwardProxy> {
  const seen: string[] = [];
  const target = (host: string, port: string): { host: string; port: number } => {
    const mapped = hosts[host.toLowerCase()];
    const [h, p] = mapped ? mapped.split(':') : [host, port];
    return { host: h!, port: Number(p) };
  };
  const sockets = new Set<net.Socket>();
  const server = http.createServer((req, res) => {
    seen.push(`${req.method} ${req.url}`);
    let url: URL;
    try {
      url = new URL(req.url ?? '');
    } catch {
      res.writeHead(400).end('a proxy takes requests in absolute form');
      return;
    }
    const to = target(url.hostname, url.port || '80');
    const upstream = http.request(
      { ...to, method: req.method, path: url.pathname + url.search, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => (res.headersSent ? res.destroy() : res.writeHead(502).end()));
    req.pipe(upstream);
  });
  server.on('connect', (req: http.IncomingMessage, client: net.Socket, head: Buffer) => {
    seen.push(`CONNECT ${req.url}`);
    const [host = '', port = '443'] = (req.url ?? '').split(/:(?=\d+$)/);
    const upstream = net.connect(target(host, port), () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
    }
    upstream.on('error', () => client.end('HTTP/1.1 502 Bad Gateway\r\n\r\n'));
    client.on('error', () => upstream.destroy());
  });
  const { url, close } = await listen(server);
  return {
    url,
    seen,
    close: () => {
      for (const socket of sockets) socket.destroy();
      return close();
    },
  };
}
