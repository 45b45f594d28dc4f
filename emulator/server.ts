/**
 * The HTTP layer: body parsing (JSON, urlencoded form, multipart via busboy), routing with and without
 * trailing slashes, envelopes (errors with HTTP 200 like the real service, docs/api-contract.md, "Resources"), fault injection and the request log.
 */
import http from 'node:http';
import { gzipSync } from 'node:zlib';
import busboy from 'busboy';
import type { ApiKeyRecord, Store } from './store.js';
import { Params, type UploadedFile } from './params.js';
import { ApiError, SERVICE_ERROR_MESSAGES } from './util.js';
import { sleepOn, type EmulatorClock, type RequestsInFlight } from './clock.js';
import { type FaultKind, type Faults, jsonWithControlChars, jsonWithSignedUrls } from './faults.js';
import type { RateLimiter } from './limits.js';

/** One request as the log keeps it (`GET /_emulator/requests`). The API key is redacted in `query`. */
export interface RequestRecord {
  seq: number;
  method: string;
  path: string;
  /** Query string with `apiKey` and `httpAuthPassword` values replaced by `***` (no leading `?`). */
  query: string;
  /** Epoch ms when the request arrived (on the emulator's clock). */
  time: number;
  /** ms until answered (or dropped). */
  durationMs: number;
  /** HTTP status sent; 0 when the connection was reset. */
  status: number;
  /** `code` of a JSON envelope answer, when there was one. */
  code?: string;
  fault?: FaultKind;
}

export interface RequestContext {
  method: string;
  /** Path without a trailing slash. */
  path: string;
  url: URL;
  params: Params;
  /** The parsed JSON body (any JSON value), undefined without one. */
  json: unknown;
  pathParams: Record<string, string>;
  /** The authenticated API key (AUTHENTICATION_ERROR when missing or unknown). */
  auth(): ApiKeyRecord;
}

/** What a handler answers: envelope data, or a raw body (CSV, zip, image, XHTML, admin JSON). */
export type Reply =
  | { data: unknown }
  | { raw: Buffer | string; contentType: string; status?: number; headers?: Record<string, string> };

export type Handler = (ctx: RequestContext) => Reply | Promise<Reply>;

export interface Route {
  methods: string[];
  /** Path with `:name` parameters and no trailing slash, e.g. `/v1/suites/:suiteId/execute`. */
  pattern: string;
  handler: Handler;
  /** Admin routes are not logged, get no faults and answer errors with HTTP 4xx. */
  admin?: boolean;
}

/** Body size limit for JSON, forms and uploads. */
const MAX_BODY = 20 * 1024 * 1024;

export interface ServerDeps {
  store: Store;
  routes: Route[];
  faults: () => Faults;
  record: (r: RequestRecord) => void;
  nextSeq: () => number;
  /** The rate limiter of `/v1` requests, undefined when the limit is off. */
  rateLimiter: () => RateLimiter | undefined;
  /** The emulator's clock: request times, the `slow` fault's delay. */
  clock: EmulatorClock;
  /** Counts the requests being answered (for a virtual clock's idleness check). */
  inFlight: RequestsInFlight;
}

/** Matches a path against `pattern`; returns the path parameters or undefined. */
function match(pattern: string, path: string): Record<string, string> | undefined {
  const a = pattern.split('/');
  const b = path.split('/');
  if (a.length !== b.length) return undefined;
  const out: Record<string, string> = {};
  for (let i = 0; i < a.length; i++) {
    if (a[i].startsWith(':')) {
      if (b[i] === '') return undefined;
      try {
        out[a[i].slice(1)] = decodeURIComponent(b[i]);
      } catch {
        return undefined;
      }
    } else if (a[i] !== b[i]) return undefined;
  }
  return out;
}

function readBody(req: http.IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > MAX_BODY) {
        reject(new ApiError('VALIDATION_ERROR', `Request body is larger than ${MAX_BODY} bytes`));
        req.destroy();
        return;
      }
      chunks.push(c);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

function readMultipart(
  req: http.IncomingMessage,
): Promise<{ fields: Array<[string, string]>; files: Map<string, UploadedFile> }> {
  return new Promise((resolve, reject) => {
    let bb: busboy.Busboy;
    try {
      bb = busboy({ headers: req.headers, limits: { fileSize: MAX_BODY } });
    } catch (error) {
      reject(new ApiError('VALIDATION_ERROR', `Malformed multipart request: ${(error as Error).message}`));
      return;
    }
    const fields: Array<[string, string]> = [];
    const files = new Map<string, UploadedFile>();
    bb.on('field', (name, value) => fields.push([name, value]));
    bb.on('file', (name, stream, info) => {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () =>
        files.set(name, { filename: info.filename ?? name, content: Buffer.concat(chunks) }),
      );
    });
    bb.on('close', () => resolve({ fields, files }));
    bb.on('error', (error) =>
      reject(new ApiError('VALIDATION_ERROR', `Malformed multipart request: ${(error as Error).message}`)),
    );
    req.pipe(bb);
  });
}

/** Parses the body by content type into params and the JSON value. Malformed JSON is a VALIDATION_ERROR. */
async function parseRequest(req: http.IncomingMessage, url: URL): Promise<{ params: Params; json: unknown }> {
  const type = (req.headers['content-type'] ?? '').toLowerCase();
  if (type.startsWith('multipart/form-data')) {
    const { fields, files } = await readMultipart(req);
    return { params: new Params(url.searchParams, fields, files), json: undefined };
  }
  const body = await readBody(req);
  const text = body.toString('utf8');
  if (type.startsWith('application/x-www-form-urlencoded')) {
    return { params: new Params(url.searchParams, [...new URLSearchParams(text)]), json: undefined };
  }
  const looksJson = type.includes('json') || /^\s*[[{]/.test(text);
  if (!looksJson || text.trim() === '')
    return { params: new Params(url.searchParams, undefined), json: undefined };
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new ApiError('VALIDATION_ERROR', `Request body is not valid JSON: ${(error as Error).message}`);
  }
  const object =
    json !== null && typeof json === 'object' && !Array.isArray(json)
      ? (json as Record<string, unknown>)
      : undefined;
  return { params: new Params(url.searchParams, object), json };
}

/** A request's log record before it is answered (status 0). */
function newRecord(seq: number, method: string, url: URL, time: number): RequestRecord {
  return {
    seq,
    method,
    path: url.pathname,
    query: redactQuery(url.searchParams),
    time,
    durationMs: 0,
    status: 0,
  };
}

function redactQuery(params: URLSearchParams): string {
  const out = new URLSearchParams();
  for (const [k, v] of params) out.append(k, /^(apiKey|httpAuthPassword)(\[\])?$/.test(k) ? '***' : v);
  return out.toString();
}

/**
 * Writes an answer, gzip-compressed when the client accepts gzip and the body is over 1 KiB (the real
 * service compresses when asked). Level 1, the cheapest: a client sees the same bytes once inflated.
 */
function send(
  req: http.IncomingMessage,
  res: http.ServerResponse,
  status: number,
  headers: Record<string, string>,
  body: Buffer | string,
): void {
  const raw = typeof body === 'string' ? Buffer.from(body) : body;
  if (raw.length > 1024 && /\bgzip\b/.test(String(req.headers['accept-encoding'] ?? ''))) {
    res
      .writeHead(status, { ...headers, 'content-encoding': 'gzip', vary: 'accept-encoding' })
      .end(gzipSync(raw, { level: 1 }));
  } else {
    res.writeHead(status, headers).end(raw);
  }
}

/** Creates the HTTP server answering the given routes. */
export function createServer(deps: ServerDeps): http.Server {
  const server = http.createServer((req, res) => {
    void handle(deps, req, res);
  });
  server.requestTimeout = 0;
  server.keepAliveTimeout = 5000;
  return server;
}

async function handle(deps: ServerDeps, req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
  res.on('close', deps.inFlight.begin());
  const start = deps.clock.now();
  const method = (req.method ?? 'GET').toUpperCase();
  let url: URL;
  try {
    url = new URL(req.url ?? '/', 'http://emulator.invalid');
  } catch {
    res.writeHead(400).end();
    return;
  }
  const path =
    url.pathname.length > 1 && url.pathname.endsWith('/') ? url.pathname.slice(0, -1) : url.pathname;
  const isAdmin = path.startsWith('/_emulator/') && !path.startsWith('/_emulator/files/');
  const record = newRecord(deps.nextSeq(), method, url, start);
  const done = (status: number, code?: string) => {
    record.status = status;
    if (code) record.code = code;
    record.durationMs = deps.clock.now() - start;
    if (!isAdmin) deps.record(record);
  };
  const faults = deps.faults();
  const fault = path.startsWith('/v1/') || path === '/v1' ? faults.pick(method, path) : undefined;
  if (fault) record.fault = fault;

  const sendJson = (
    status: number,
    envelope: Record<string, unknown>,
    headers: Record<string, string> = {},
  ) => {
    let text = JSON.stringify(envelope);
    if (fault === 'control-chars') text = jsonWithControlChars(envelope);
    if (fault === 'signed-urls') text = jsonWithSignedUrls(envelope);
    if (fault === 'malformed-json') text = text.slice(0, Math.max(1, Math.floor(text.length / 2)));
    if (fault === 'reset-after') {
      done(0, String(envelope.code));
      res.socket?.destroy();
      return;
    }
    send(req, res, status, { 'content-type': 'application/json; charset=utf-8', ...headers }, text);
    done(status, String(envelope.code));
  };

  if (fault === 'reset-before') {
    req.socket.destroy();
    done(0);
    return;
  }
  try {
    if (fault === 'slow') await deps.inFlight.parked(sleepOn(deps.clock, faults.delayMs));
    const found = findRoute(deps.routes, method, path);
    const { params, json } = await parseRequest(req, url);
    if (fault === 'server-error') throw new ApiError('SERVER_ERROR', SERVICE_ERROR_MESSAGES.SERVER_ERROR);
    if (fault && ['500', '502', '503', '429'].includes(fault)) {
      done(answerStatusFault(res, Number(fault), faults.retryAfterS));
      return;
    }
    if (!isAdmin && path.startsWith('/v1') && answerRateLimited(deps, params, res)) {
      done(429);
      return;
    }
    if (!found) {
      if (isAdmin) {
        sendJson(404, { code: 'ERROR', errorType: 'VALIDATION_ERROR', message: `Unknown ${method} ${path}` });
      } else {
        send(req, res, 404, { 'content-type': 'text/html; charset=utf-8' }, NOT_FOUND_PAGE);
        done(404);
      }
      return;
    }
    let key: ApiKeyRecord | undefined;
    const ctx: RequestContext = {
      method,
      path,
      url,
      params,
      json,
      pathParams: found.pathParams,
      auth: () => (key ??= deps.store.authenticate(params.apiKey())),
    };
    const reply = await found.route.handler(ctx);
    if ('data' in reply) sendJson(200, { code: 'SUCCESS', data: reply.data });
    else done(sendRaw(req, res, reply, fault));
  } catch (error) {
    if (res.headersSent || res.destroyed) return;
    if (error instanceof ApiError) {
      sendJson(isAdmin ? 400 : 200, { code: 'ERROR', errorType: error.errorType, message: error.message });
    } else {
      sendJson(isAdmin ? 500 : 200, {
        code: 'ERROR',
        errorType: 'SERVER_ERROR',
        message: `Internal error: ${(error as Error)?.message ?? String(error)}`,
      });
    }
  }
}

/**
 * Takes one request from the account of the request's API key (the key itself when unknown); when the account
 * is over the limit, answers HTTP 429 (with `Retry-After` when configured) and returns true.
 */
function answerRateLimited(deps: ServerDeps, params: Params, res: http.ServerResponse): boolean {
  const limiter = deps.rateLimiter();
  if (!limiter) return false;
  let key = '';
  try {
    key = params.apiKey() ?? '';
  } catch {
    // A malformed key counts as no key; the handler answers the error.
  }
  if (limiter.take(deps.store.apiKeys.get(key)?.user ?? `key:${key}`)) return false;
  const retryAfter = limiter.spec.retryAfterS;
  const headers: Record<string, string> =
    retryAfter === undefined ? {} : { 'retry-after': String(retryAfter) };
  res.writeHead(429, { 'content-type': 'text/plain; charset=utf-8', ...headers }).end('Too Many Requests');
  return true;
}

/** Answers an injected HTTP status (500, 502 as a gateway's HTML page, 503, 429 with Retry-After); returns it. */
function answerStatusFault(res: http.ServerResponse, status: number, retryAfterS: number): number {
  const headers: Record<string, string> = status === 429 ? { 'retry-after': String(retryAfterS) } : {};
  const body =
    status === 502 ? '<html><body><h1>502 Bad Gateway</h1></body></html>' : `Injected HTTP ${status}`;
  res
    .writeHead(status, { 'content-type': status === 502 ? 'text/html' : 'text/plain', ...headers })
    .end(body);
  return status;
}

/**
 * Writes a raw reply (document, zip, CSV, image...), spoiled by a `reset-after` or `malformed-json` fault;
 * returns the status sent (0 when the connection was reset).
 */
function sendRaw(
  req: http.IncomingMessage,
  res: http.ServerResponse,
  reply: Extract<Reply, { raw: unknown }>,
  fault: FaultKind | undefined,
): number {
  if (fault === 'reset-after') {
    res.socket?.destroy();
    return 0;
  }
  const body =
    fault === 'malformed-json' && reply.contentType.includes('json')
      ? String(reply.raw).slice(0, 10)
      : reply.raw;
  const status = reply.status ?? 200;
  send(req, res, status, { 'content-type': reply.contentType, ...(reply.headers ?? {}) }, body);
  return status;
}

/** The page an unknown route answers with HTTP 404, as the service's web server does. */
const NOT_FOUND_PAGE =
  '<!DOCTYPE html><html><head><title>Not Found</title></head><body><h1>Not Found</h1></body></html>';

function findRoute(
  routes: Route[],
  method: string,
  path: string,
): { route: Route; pathParams: Record<string, string> } | undefined {
  for (const route of routes) {
    if (!route.methods.includes(method)) continue;
    const pathParams = match(route.pattern, path);
    if (pathParams) return { route, pathParams };
  }
  return undefined;
}
