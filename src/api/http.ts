/**
 * The action's one HTTP transport, `@actions/http-client`: it routes each request through the runner's proxy
 * (`HTTPS_PROXY`, `HTTP_PROXY`, `NO_PROXY`, and their lower-case forms; loopback hosts go direct), for the
 * API, the screenshot downloads and the tunnel's browser check alike (docs/api-contract.md, "Proxy").
 * {@link openHttp} sends a request and hands over the answer's body as a stream; {@link sendHttp} reads the
 * whole, decompressed answer (capped, against gzip bombs). No retries, envelopes or redaction here.
 */
import { pipeline, Readable } from 'node:stream';
import { createGunzip, createInflate, gunzip, inflate } from 'node:zlib';
import { promisify } from 'node:util';
import type {
  IncomingHttpHeaders,
  IncomingMessage,
  OutgoingHttpHeaders,
  RequestOptions as NodeRequestOptions,
} from 'node:http';
import { HttpClient } from '@actions/http-client';
import type { RequestHandler } from '@actions/http-client/lib/interfaces';

const gunzipAsync = promisify(gunzip);
const inflateAsync = promisify(inflate);

/** Largest answer read, bytes (64 MiB), as sent and once decompressed; the biggest real ones are far below. */
export const MAX_ANSWER_BYTES = 64 * 1024 * 1024;

const tooLarge = (): Error => new Error(`the answer is larger than ${MAX_ANSWER_BYTES / 1024 / 1024} MiB`);

/** The `code` of a {@link TransportError} for an answer refused at {@link MAX_ANSWER_BYTES}. */
export const TOO_LARGE = 'ETOOLARGE';

/** What to send. `body` is sent as is; a Buffer goes out as a stream with its exact length. */
export interface HttpRequest {
  method: 'GET' | 'POST' | 'DELETE';
  url: string;
  headers: OutgoingHttpHeaders;
  body?: string | Buffer;
  /** Whole-exchange deadline in ms (connect, send, answer and body). */
  timeoutMs: number;
  signal?: AbortSignal;
  /**
   * Reads a 2xx answer's body as it arrives, decompressed and capped (see {@link decodedChunks}), instead of
   * whole into `body`: what it resolves with is the answer's `read`. Other answers are read whole.
   */
  readOk?: (chunks: AsyncIterable<Buffer>, status: number) => Promise<unknown>;
}

export interface HttpResponse {
  status: number;
  headers: IncomingHttpHeaders;
  /** The whole decompressed body; empty when `readOk` read it. */
  body: Buffer;
  /** What `readOk` made of the body, when it read it. */
  read?: unknown;
}

/** How an exchange failed before a complete answer was read. */
export class TransportError extends Error {
  constructor(
    message: string,
    /** `network` (code set when the system gave one), `timeout`, `aborted` (caller's signal) or `decode`. */
    readonly kind: 'network' | 'timeout' | 'aborted' | 'decode',
    readonly code?: string,
    /** Whether an answer had started to arrive (the request certainly reached the server). */
    readonly answered = false,
  ) {
    super(message);
  }
}

function systemCode(err: unknown): string | undefined {
  if (err && typeof err === 'object') {
    const code = (err as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    // Happy-eyeballs connection attempts report an AggregateError whose parts carry the codes.
    const parts = (err as { errors?: unknown }).errors;
    if (Array.isArray(parts)) {
      for (const part of parts) {
        const c = systemCode(part);
        if (c) return c;
      }
    }
  }
  return undefined;
}

/** Read a whole body of at most {@link MAX_ANSWER_BYTES}; rejects on error, early close or the cap. */
function readAll(stream: NodeJS.ReadableStream & { destroy(): void }): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let done = false;
    let bytes = 0;
    stream.on('data', (chunk: Buffer | string) => {
      const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk);
      bytes += buffer.length;
      if (bytes > MAX_ANSWER_BYTES && !done) {
        done = true;
        stream.destroy();
        reject(new TransportError(tooLarge().message, 'decode', TOO_LARGE, true));
        return;
      }
      chunks.push(buffer);
    });
    stream.on('end', () => {
      done = true;
      resolve(Buffer.concat(chunks));
    });
    stream.on('error', (err: Error) => {
      done = true;
      reject(err);
    });
    stream.on('close', () => {
      if (!done)
        reject(
          Object.assign(new Error('connection closed before the end of the answer'), { code: 'ECONNRESET' }),
        );
    });
  });
}

/** The body without its content-encoding. @throws TransportError `decode` (corrupt, unknown, too large) */
async function decode(body: Buffer, encoding: string | undefined): Promise<Buffer> {
  const enc = (encoding ?? '').trim().toLowerCase();
  if (enc === '' || enc === 'identity') return body;
  const options = { maxOutputLength: MAX_ANSWER_BYTES };
  let problem = `unsupported content-encoding ${enc}`;
  let code: string | undefined;
  try {
    if (enc === 'gzip' || enc === 'x-gzip') return await gunzipAsync(body, options);
    if (enc === 'deflate') return await inflateAsync(body, options);
  } catch (err) {
    const big = (err as { code?: unknown }).code === 'ERR_BUFFER_TOO_LARGE';
    problem = big ? tooLarge().message : (err as Error).message;
    code = big ? TOO_LARGE : undefined;
  }
  throw new TransportError(`could not decompress the answer: ${problem}`, 'decode', code, true);
}

/** Whether `err` is zlib's (a corrupt or cut compressed body): its codes are `Z_…`. */
const isZlibError = (err: unknown): boolean => /^Z_/.test(systemCode(err) ?? '');

/**
 * The body's chunks as they arrive, without its content-encoding (gzip, deflate), at most
 * {@link MAX_ANSWER_BYTES} once decompressed; the body is destroyed when the reader stops early.
 * @throws TransportError `decode` (corrupt, unknown encoding, too large); the body's own errors (a close
 * before its end: `ERR_STREAM_PREMATURE_CLOSE`, `ECONNRESET`; an abort)
 */
async function* decodedChunks(body: IncomingMessage, encoding: string | undefined): AsyncGenerator<Buffer> {
  const enc = (encoding ?? '').trim().toLowerCase();
  const decoder =
    enc === 'gzip' || enc === 'x-gzip' ? createGunzip() : enc === 'deflate' ? createInflate() : null;
  if (!decoder && enc !== '' && enc !== 'identity') {
    body.destroy();
    throw new TransportError(
      `could not decompress the answer: unsupported content-encoding ${enc}`,
      'decode',
    );
  }
  const source: AsyncIterable<Buffer> = decoder ? pipeline(body, decoder, () => undefined) : body;
  let bytes = 0;
  try {
    for await (const chunk of source) {
      bytes += chunk.length;
      if (bytes > MAX_ANSWER_BYTES) throw new TransportError(tooLarge().message, 'decode', TOO_LARGE, true);
      yield chunk;
    }
  } catch (err) {
    if (!isZlibError(err)) throw err;
    const problem = (err as Error).message;
    throw new TransportError(`could not decompress the answer: ${problem}`, 'decode', undefined, true);
  } finally {
    body.destroy();
    decoder?.destroy();
  }
}

/** A request whose answer is read as it arrives. */
export interface OpenRequest {
  method: 'GET' | 'POST' | 'DELETE';
  url: string;
  headers: OutgoingHttpHeaders;
  /** Sent as is; a Buffer goes out as a stream with its exact length. */
  body?: string | Buffer;
  /** Aborts the request, and the answer's body while it is read. */
  signal: AbortSignal;
  /** The library's idle-socket timer, ms: a backstop behind `signal`. */
  socketTimeoutMs: number;
}

/** An answer whose body is still to be read: `body` streams it as sent (not decompressed). */
export interface OpenAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  body: IncomingMessage;
}

/**
 * Sends one request through the runner's proxy and resolves once the answer's head arrived; redirects are
 * not followed, nothing is retried. The caller reads or destroys `body`.
 * @throws the system's error (its `code`: ENOTFOUND, ECONNREFUSED, ...), or an AbortError once `signal` fired
 */
export async function openHttp(req: OpenRequest): Promise<OpenAnswer> {
  const handler: RequestHandler = {
    prepareRequest(options: NodeRequestOptions): void {
      options.signal = req.signal;
    },
    canHandleAuthentication: () => false,
    handleAuthentication: () => Promise.reject(new Error('authentication handling is not supported')),
  };
  const { 'user-agent': userAgent, ...headers } = req.headers;
  const client = new HttpClient(String(userAgent ?? 'ghost-inspector-action'), [handler], {
    allowRedirects: false,
    allowRetries: false,
    keepAlive: false,
    socketTimeout: req.socketTimeoutMs,
  });
  let data: string | NodeJS.ReadableStream | null = null;
  if (typeof req.body === 'string') {
    data = req.body;
  } else if (req.body) {
    headers['content-length'] = req.body.length;
    data = Readable.from([req.body]);
  }
  const res = await client.request(req.method, req.url, data, headers);
  return { status: res.message.statusCode ?? 0, headers: res.message.headers, body: res.message };
}

/**
 * Send one request and read its whole answer, whatever the status; redirects are not followed.
 * @throws TransportError: `network`, `timeout` after `timeoutMs`, `aborted`, or `decode` (corrupt, too large)
 */
export async function sendHttp(req: HttpRequest): Promise<HttpResponse> {
  if (req.signal?.aborted) throw new TransportError('aborted before sending', 'aborted');
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, req.timeoutMs);
  const onCallerAbort = (): void => controller.abort();
  req.signal?.addEventListener('abort', onCallerAbort, { once: true });
  let answered = false;
  try {
    const res = await openHttp({
      method: req.method,
      url: req.url,
      headers: { 'accept-encoding': 'gzip', ...req.headers },
      body: req.body,
      signal: controller.signal,
      // The library's own idle-socket timer; ours (above) covers the whole exchange and fires first.
      socketTimeoutMs: req.timeoutMs + 1000,
    });
    answered = true;
    const encoding = res.headers['content-encoding'];
    if (req.readOk && res.status >= 200 && res.status < 300) {
      const read = await req.readOk(decodedChunks(res.body, encoding), res.status);
      return { status: res.status, headers: res.headers, body: Buffer.alloc(0), read };
    }
    const body = await decode(await readAll(res.body), encoding);
    return { status: res.status, headers: res.headers, body };
  } catch (err) {
    if (err instanceof TransportError) throw err;
    if (req.signal?.aborted && !timedOut)
      throw new TransportError('aborted by the caller', 'aborted', undefined, answered);
    const message = err instanceof Error ? err.message : String(err);
    if (timedOut || /^Request timeout/.test(message)) {
      throw new TransportError(
        `no complete answer within ${req.timeoutMs} ms`,
        'timeout',
        undefined,
        answered,
      );
    }
    throw new TransportError(message, 'network', systemCode(err), answered);
  } finally {
    clearTimeout(timer);
    req.signal?.removeEventListener('abort', onCallerAbort);
  }
}
