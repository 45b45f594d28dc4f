/**
 * A small recording HTTP server on 127.0.0.1 for the API client tests: it records every request (method,
 * path, query, headers, body; multipart bodies parsed with busboy) and answers from a per-route script of
 * canned answers. Not the emulator: it knows nothing of the service, it only answers what a test tells it.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import busboy from 'busboy';
import { expect } from 'vitest';
import { ApiError } from '../../src/api/errors.js';

export interface RecordedFile {
  field: string;
  filename: string;
  mimeType: string;
  content: Buffer;
}

export interface Recorded {
  method: string;
  path: string;
  /** Query parameters in order, repeated keys kept. */
  query: Array<[string, string]>;
  headers: http.IncomingHttpHeaders;
  rawBody: Buffer;
  /** Parsed when the body was JSON. */
  json?: unknown;
  /** Parsed when the body was multipart/form-data. */
  multipart?: { fields: Array<[string, string]>; files: RecordedFile[] };
}

/** A canned answer. An object `body` is sent as JSON. */
export interface Canned {
  status?: number;
  headers?: Record<string, string>;
  body?: string | Buffer | object;
  gzip?: boolean;
  /** Close the connection without answering (after the request body was read). */
  destroy?: boolean;
}

export type Answer = Canned | ((req: Recorded, res: http.ServerResponse) => void);

export interface FakeServer {
  /** Base URL of the API, `http://127.0.0.1:<port>/v1`. */
  baseUrl: string;
  port: number;
  requests: Recorded[];
  /** Answer `METHOD /path` (path without query) with these answers in turn; the last one repeats. */
  route(method: string, path: string, ...answers: Answer[]): void;
  close(): Promise<void>;
}

/** `{code: 'SUCCESS', data}`. */
export const ok = (data: unknown): Canned => ({ body: { code: 'SUCCESS', data } });
/** `{code: 'ERROR', errorType, message}` under the given status (200 by default). */
export const fail = (errorType: string, message: string, status = 200): Canned => ({
  status,
  body: { code: 'ERROR', errorType, message },
});

function parseMultipart(headers: http.IncomingHttpHeaders, body: Buffer): Promise<Recorded['multipart']> {
  return new Promise((resolve, reject) => {
    const fields: Array<[string, string]> = [];
    const files: RecordedFile[] = [];
    const bb = busboy({ headers });
    bb.on('field', (name, value) => fields.push([name, value]));
    bb.on('file', (field, stream, info) => {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () =>
        files.push({
          field,
          filename: info.filename ?? '',
          mimeType: info.mimeType,
          content: Buffer.concat(chunks),
        }),
      );
    });
    bb.on('close', () => resolve({ fields, files }));
    bb.on('error', reject);
    bb.end(body);
  });
}

function send(res: http.ServerResponse, canned: Canned): void {
  if (canned.destroy) {
    res.socket?.destroy();
    return;
  }
  let body: Buffer;
  const headers: Record<string, string> = { ...(canned.headers ?? {}) };
  if (Buffer.isBuffer(canned.body)) body = canned.body;
  else if (typeof canned.body === 'string') body = Buffer.from(canned.body, 'utf8');
  else if (canned.body === undefined) body = Buffer.alloc(0);
  else {
    body = Buffer.from(JSON.stringify(canned.body), 'utf8');
    headers['content-type'] ??= 'application/json; charset=utf-8';
  }
  if (canned.gzip) {
    body = gzipSync(body);
    headers['content-encoding'] = 'gzip';
  }
  headers['content-length'] = String(body.length);
  res.writeHead(canned.status ?? 200, headers);
  res.end(body);
}

/** Start a recorder on an ephemeral port of 127.0.0.1. Unrouted requests get an HTML 404 page. */
export async function startFakeServer(): Promise<FakeServer> {
  const requests: Recorded[] = [];
  const routes = new Map<string, Answer[]>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      void (async () => {
        const url = new URL(req.url ?? '/', 'http://127.0.0.1');
        const rawBody = Buffer.concat(chunks);
        const rec: Recorded = {
          method: req.method ?? '',
          path: url.pathname,
          query: [...url.searchParams.entries()],
          headers: req.headers,
          rawBody,
        };
        const type = String(req.headers['content-type'] ?? '');
        if (type.startsWith('application/json') && rawBody.length > 0) {
          rec.json = JSON.parse(rawBody.toString('utf8'));
        }
        if (type.startsWith('multipart/form-data'))
          rec.multipart = await parseMultipart(req.headers, rawBody);
        requests.push(rec);
        const answers = routes.get(`${rec.method} ${rec.path}`);
        if (!answers || answers.length === 0) {
          send(res, {
            status: 404,
            headers: { 'content-type': 'text/html' },
            body: '<html><body>Not Found</body></html>',
          });
          return;
        }
        const answer = answers.length > 1 ? answers.shift()! : answers[0];
        if (typeof answer === 'function') answer(rec, res);
        else send(res, answer);
      })();
    });
  });
  const { url, port, close } = await listen(server);
  return {
    baseUrl: `${url}/v1`,
    port,
    requests,
    route(method, path, ...answers) {
      routes.set(`${method} ${path}`, answers);
    },
    close,
  };
}

/**
 * Makes `server` listen on a free port of 127.0.0.1: its `http://127.0.0.1:<port>` URL and port, and a close
 * that ends every connection first (a held request included).
 */
export async function listen(
  server: http.Server,
): Promise<{ url: string; port: number; close(): Promise<void> }> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    close: () =>
      new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))),
  };
}

/** Query parameters without `apiKey`, as an object (last value wins); for concise assertions. */
export function queryOf(rec: Recorded): Record<string, string> {
  return Object.fromEntries(rec.query.filter(([k]) => k !== 'apiKey'));
}

/** A port on 127.0.0.1 that nothing listens on (bound, read, released). */
export async function closedPort(): Promise<number> {
  const { port, close } = await listen(http.createServer());
  await close();
  return port;
}

/** The client's rejection of `p`, checked to be an `ApiError`; fails the test when `p` resolves. */
export async function caught(p: Promise<unknown>): Promise<ApiError> {
  const error = await p.then(
    () => new Error('expected a rejection'),
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ApiError);
  return error as ApiError;
}
