/**
 * Push notice of ended test runs (docs/architecture.md, "Push"): a listener on the runner at a secret random path,
 * whose public URL every test execute carries as its `webhook` (docs/api-contract.md, "Execute parameters").
 * A webhook is never a result: it only names a run, which the watch then reads with the API key at once.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import type { Clock } from '../../common/clock.js';
import type { Forwarder } from '../../tunnel/forward.js';

/** Largest webhook body read, bytes; a longer one is refused (413) unread. */
export const PUSH_MAX_BODY_BYTES = 1024 * 1024;
/**
 * The watch tick while push is on, ms: the safety net under the webhooks (docs/architecture.md, "Push"),
 * never faster than the tick a busy account stretches. A run whose webhook is lost is noticed within one
 * tick and one read (1.5 s); each tick costs one request (its own read or the running list), so a lone run
 * of D costs about D / tick of them besides its execute and the read its webhook hints at.
 */
export const PUSH_TICK_MS = 1_450;
/** A run is read on a webhook's hint at most this often, ms. */
const PUSH_HINT_EVERY_MS = 1_000;

/** A running listener. */
export interface PushListener {
  /** The URL the service posts to: the public base URL and the secret path. A secret: mask and redact it. */
  readonly url: string;
  /** The random part of the secret path (hex: the same in every encoding): the secret to mask and redact. */
  readonly secret: string;
  /** The local port listened on. */
  readonly port: number;
  /** Sets who is told the result id each webhook at the secret path names (one receiver at a time). */
  onHint(receiver: (resultId: string) => void): void;
  /** Stops listening; resolves once closed. */
  close(): Promise<void>;
}

export interface PushListenerOptions {
  /** Public base URL under which the listener is reached, without the secret path (default: its own address). */
  publicUrl?: string;
  /** Local port to listen on (0: any free port). */
  port: number;
  /** Local address to listen on (default all interfaces). */
  host?: string;
  /** Where every request off the secret path goes instead of a 404 (the app behind the tunnel). */
  forward?: Forwarder;
}

/**
 * Starts a listener: a POST to the secret path (the public URL's path, then the secret) whose JSON body is `{type: "result", data: {_id}}` tells the
 * receiver `data._id`; every other path answers 404 (or goes to `forward`: the secret path never does), a body
 * over {@link PUSH_MAX_BODY_BYTES} 413, a body that names no result 400. Throws when the port cannot be
 * listened on.
 */
export async function startPushListener(options: PushListenerOptions): Promise<PushListener> {
  const secret = randomBytes(24).toString('hex');
  const publicPath = options.publicUrl ? new URL(options.publicUrl).pathname.replace(/\/+$/, '') : '';
  const secretPath = `${publicPath}/${secret}`;
  let receiver: (resultId: string) => void = () => undefined;
  const { forward } = options;
  const server = createServer((req, res) => {
    const path = (req.url ?? '').split('?')[0];
    if (forward && path !== secretPath) return forward.request(req, res);
    if (req.method !== 'POST' || path !== secretPath) return answer(res, 404);
    void readBody(req).then(
      (body) => {
        const id = body === null ? undefined : resultIdOf(body);
        if (body === null) answer(res, 413);
        else if (id === undefined) answer(res, 400);
        else {
          answer(res, 200);
          receiver(id);
        }
      },
      () => answer(res, 400),
    );
  });
  // A webhook is small; the app's own requests keep Node's default bound, as without the step in between.
  if (!forward) server.requestTimeout = 10_000;
  // An upgraded connection is no longer the server's: closing the listener ends those too.
  const upgraded = new Set<Duplex>();
  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    if (!forward || (req.url ?? '').split('?')[0] === secretPath) return void socket.destroy();
    upgraded.add(socket);
    socket.once('close', () => upgraded.delete(socket));
    forward.upgrade(req, socket, head);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => (server.off('error', reject), resolve()));
  });
  const { port } = server.address() as AddressInfo;
  const base = options.publicUrl ?? `http://${options.host ?? '127.0.0.1'}:${port}`;
  return {
    url: `${base.replace(/\/+$/, '')}/${secret}`,
    secret,
    port,
    onHint: (next) => void (receiver = next),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
        for (const socket of upgraded) socket.destroy();
      }),
  };
}

function answer(res: ServerResponse, status: number): void {
  if (res.headersSent) return;
  res.writeHead(status, { connection: 'close' }).end();
}

/** The body, or null when longer than the limit (the rest is not read). */
function readBody(req: IncomingMessage): Promise<string | null> {
  return new Promise((resolve, reject) => {
    const declared = Number(req.headers['content-length']);
    if (declared > PUSH_MAX_BODY_BYTES) return resolve(null);
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > PUSH_MAX_BODY_BYTES) {
        req.removeAllListeners('data');
        req.pause();
        resolve(null);
      } else chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

/** The test result id a webhook body names (`{type: "result", data: {_id}}`), else undefined. */
function resultIdOf(body: string): string | undefined {
  try {
    const parsed = JSON.parse(body) as { type?: unknown; data?: { _id?: unknown } | null };
    const id = parsed?.type === 'result' ? parsed.data?._id : undefined;
    return typeof id === 'string' && id.length > 0 && id.length <= 64 ? id : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Paces hinted reads: `read(key)` runs at once for a key's first hint, then at most once per
 * {@link PUSH_HINT_EVERY_MS} (hints meanwhile are one read at the end of that second); none after `signal`.
 * The caller passes only keys of runs it watches (a forged id never reaches here).
 */
export function pacedHints<K>(clock: Clock, signal: AbortSignal, read: (key: K) => void): (key: K) => void {
  const lastAtMs = new Map<K, number>();
  const waiting = new Set<K>();
  return (key) => {
    if (waiting.has(key)) return;
    waiting.add(key);
    void clock.sleep((lastAtMs.get(key) ?? -Infinity) + PUSH_HINT_EVERY_MS - clock.now(), signal).then(() => {
      waiting.delete(key);
      if (signal.aborted) return;
      lastAtMs.set(key, clock.now());
      read(key);
    });
  };
}
