/**
 * A local fake of GitHub's artifact service, enough for the real `@actions/artifact` 6 client to upload:
 *
 * - Twirp JSON: `POST /twirp/github.actions.results.api.v1.ArtifactService/CreateArtifact` answers
 *   `{ok: true, signed_upload_url}` (409 `already_exists` when the name is taken in the run), and
 *   `.../FinalizeArtifact` answers `{ok: true, artifact_id}` once the blob is committed.
 * - Blob side at the signed URL: Azure Blob "Put Block" (`PUT ?comp=block&blockid=...`), "Put Block List"
 *   (`PUT ?comp=blocklist`, XML body) and a single "Put Blob" (`PUT` with `x-ms-blob-type: BlockBlob`).
 *
 * Blocks and assembled zips are streamed to files under a temporary folder, never held in memory, so the
 * fake can take a benchmark's worth of data in the same process. Faults are queued per operation with
 * {@link FakeArtifactService.failNext}. Listens on 127.0.0.1 only.
 */
import { createHash, randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { listen } from '../fake-server.js';

export type FakeOperation = 'CreateArtifact' | 'FinalizeArtifact' | 'PutBlock' | 'PutBlockList' | 'PutBlob';

/** A finalized artifact. */
export interface StoredArtifact {
  id: number;
  name: string;
  /** Run and job backend ids from the token's `scp` claim. */
  runId: string;
  jobId: string;
  /** Size the client reported at finalize, in bytes. */
  reportedSize: number;
  /** Bytes of the stored zip. */
  size: number;
  /** `sha256:<hex>` the client sent at finalize, if any. */
  reportedHash?: string;
  /** SHA-256 (hex) of the stored zip. */
  sha256: string;
  /** ISO 8601 expiry the client asked for, if any. */
  expiresAt?: string;
  mimeType?: string;
  /** Path of the assembled zip on disk. */
  zipPath: string;
}

/** One request the fake saw. */
export interface SeenRequest {
  method: string;
  /** Path without query. */
  path: string;
  operation: FakeOperation | 'other';
  status: number;
  /** Artifact name for Twirp calls. */
  name?: string;
}

/** An artifact being created: its upload token, folder and blob, and whether the blob was committed. */
interface Pending extends Pick<StoredArtifact, 'name' | 'runId' | 'jobId' | 'expiresAt' | 'mimeType'> {
  token: string;
  dir: string;
  blobPath: string;
  committed: boolean;
}

export interface FakeArtifactService {
  /** `http://127.0.0.1:<port>`. */
  url: string;
  /** Finalized artifacts, in order. */
  artifacts: StoredArtifact[];
  /** Every request, in order of answer. */
  requests: SeenRequest[];
  /**
   * Makes the next `count` calls of `operation` answer `status` (default body: a Twirp or Azure error).
   * `status: 0` means: accept and never answer (connection held open until close()).
   */
  failNext(operation: FakeOperation, status: number, count?: number): void;
  /** Requests held unanswered so far (`failNext` with status 0). */
  heldCount(): number;
  /** Marks a name as taken in the run, so CreateArtifact answers 409 for it. */
  reserveName(name: string): void;
  /** The environment `@actions/artifact` needs to talk to this fake. */
  env(options?: { runId?: string; jobId?: string; serverUrl?: string }): Record<string, string>;
  /** The stored zip of an artifact, as bytes. */
  readZip(artifact: StoredArtifact): Promise<Buffer>;
  close(): Promise<void>;
}

const TWIRP_PREFIX = '/twirp/github.actions.results.api.v1.ArtifactService/';

function base64url(text: string): string {
  return Buffer.from(text).toString('base64url');
}

/**
 * An unsigned JWT like the runner's `ACTIONS_RUNTIME_TOKEN`: `scp` holds `Actions.Results:<runId>:<jobId>`.
 * The client decodes it without checking the signature.
 */
export function fakeRuntimeToken(runId: string, jobId: string): string {
  const header = base64url(JSON.stringify({ alg: 'none', typ: 'JWT' }));
  const payload = base64url(
    JSON.stringify({ scp: `Actions.GenericRead:00000000 Actions.Results:${runId}:${jobId}`, iat: 0 }),
  );
  return `${header}.${payload}.${base64url('unsigned')}`;
}

function scopeFromAuth(auth: string | undefined): { runId: string; jobId: string } | undefined {
  const token = auth?.replace(/^Bearer\s+/i, '');
  const payload = token?.split('.')[1];
  if (!payload) return undefined;
  try {
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { scp?: string };
    for (const scope of (claims.scp ?? '').split(' ')) {
      const [kind, runId, jobId] = scope.split(':');
      if (kind === 'Actions.Results' && runId && jobId) return { runId, jobId };
    }
  } catch {
    return undefined;
  }
  return undefined;
}

async function readJson(req: http.IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as Record<string, unknown>;
}

async function sha256File(file: string): Promise<string> {
  const hash = createHash('sha256');
  await pipeline(createReadStream(file), hash);
  return hash.digest('hex');
}

/**
 * Starts the fake on 127.0.0.1 at a free port.
 * @param options.dir folder for blocks and zips (default: a new temporary folder, removed on close)
 */
export async function startFakeArtifactService(options: { dir?: string } = {}): Promise<FakeArtifactService> {
  const ownDir = !options.dir;
  const root = options.dir ?? (await mkdtemp(path.join(os.tmpdir(), 'fake-artifact-service-')));
  const artifacts: StoredArtifact[] = [];
  const requests: SeenRequest[] = [];
  const faults = new Map<FakeOperation, number[]>();
  const pendingByToken = new Map<string, Pending>();
  const pendingByName = new Map<string, Pending>();
  const taken = new Set<string>();
  /** Names taken in every run (an artifact of another job, say). */
  const reserved = new Set<string>();
  let nextId = 1000;
  let url = '';

  const takeFault = (op: FakeOperation): number | undefined => faults.get(op)?.shift();

  function send(
    res: http.ServerResponse,
    seen: SeenRequest,
    status: number,
    body: string,
    headers: Record<string, string> = {},
  ): void {
    seen.status = status;
    requests.push(seen);
    res.writeHead(status, {
      'x-ms-request-id': randomUUID(),
      'x-ms-version': '2025-01-05',
      date: new Date().toUTCString(),
      'content-length': String(Buffer.byteLength(body)),
      ...headers,
    });
    res.end(body);
  }

  function twirpError(
    res: http.ServerResponse,
    seen: SeenRequest,
    status: number,
    code: string,
    msg: string,
  ): void {
    send(res, seen, status, JSON.stringify({ code, msg }), { 'content-type': 'application/json' });
  }

  /** An Azure Storage error; the request's body, if any, is left unread. */
  function azureError(res: http.ServerResponse, seen: SeenRequest, status: number, code: string): void {
    res.req.resume();
    const xml = `<?xml version="1.0" encoding="utf-8"?><Error><Code>${code}</Code><Message>${code}</Message></Error>`;
    send(res, seen, status, xml, { 'content-type': 'application/xml', 'x-ms-error-code': code });
  }

  async function handleTwirp(
    req: http.IncomingMessage,
    res: http.ServerResponse,
    seen: SeenRequest,
  ): Promise<void> {
    const method = seen.path.slice(TWIRP_PREFIX.length);
    const body = await readJson(req);
    seen.name = typeof body.name === 'string' ? body.name : undefined;
    const scope = scopeFromAuth(req.headers.authorization);
    if (!scope) return twirpError(res, seen, 401, 'unauthenticated', 'missing or invalid token');
    if (body.workflow_run_backend_id !== scope.runId || body.workflow_job_run_backend_id !== scope.jobId) {
      return twirpError(res, seen, 400, 'invalid_argument', 'backend ids do not match the token');
    }
    const key = `${scope.runId}/${String(body.name)}`;
    if (method === 'CreateArtifact') {
      seen.operation = 'CreateArtifact';
      const fault = takeFault('CreateArtifact');
      if (fault !== undefined) return injectTwirpFault(res, seen, fault);
      if (!seen.name) return twirpError(res, seen, 400, 'invalid_argument', 'name is required');
      if (taken.has(key) || reserved.has(seen.name)) {
        return twirpError(
          res,
          seen,
          409,
          'already_exists',
          'an artifact with this name already exists on the workflow run',
        );
      }
      taken.add(key);
      const token = randomUUID();
      const dir = path.join(root, token);
      await mkdir(path.join(dir, 'blocks'), { recursive: true });
      const pending: Pending = {
        token,
        name: seen.name,
        runId: scope.runId,
        jobId: scope.jobId,
        expiresAt: typeof body.expires_at === 'string' ? body.expires_at : undefined,
        mimeType: typeof body.mime_type === 'string' ? body.mime_type : undefined,
        dir,
        blobPath: path.join(dir, 'artifact.zip'),
        committed: false,
      };
      pendingByToken.set(token, pending);
      pendingByName.set(key, pending);
      const signed = `${url}/devstoreaccount1/actions-results/${token}/${encodeURIComponent(seen.name)}.zip?sig=fake-signature&se=2099-01-01T00%3A00%3A00Z&sp=cw&sv=2025-01-05&sr=b`;
      return send(res, seen, 200, JSON.stringify({ ok: true, signed_upload_url: signed }), {
        'content-type': 'application/json',
      });
    }
    if (method === 'FinalizeArtifact') {
      seen.operation = 'FinalizeArtifact';
      const fault = takeFault('FinalizeArtifact');
      if (fault !== undefined) return injectTwirpFault(res, seen, fault);
      const pending = pendingByName.get(key);
      if (!pending)
        return twirpError(res, seen, 404, 'not_found', 'no artifact is being created under this name');
      if (!pending.committed)
        return twirpError(res, seen, 400, 'failed_precondition', 'the blob was not uploaded');
      const size = (await stat(pending.blobPath)).size;
      const stored: StoredArtifact = {
        id: nextId++,
        name: pending.name,
        runId: pending.runId,
        jobId: pending.jobId,
        reportedSize: Number(body.size ?? 0),
        size,
        reportedHash: typeof body.hash === 'string' ? body.hash : undefined,
        sha256: await sha256File(pending.blobPath),
        expiresAt: pending.expiresAt,
        mimeType: pending.mimeType,
        zipPath: pending.blobPath,
      };
      artifacts.push(stored);
      pendingByName.delete(key);
      pendingByToken.delete(pending.token);
      return send(res, seen, 200, JSON.stringify({ ok: true, artifact_id: String(stored.id) }), {
        'content-type': 'application/json',
      });
    }
    return twirpError(res, seen, 404, 'bad_route', `no handler for ${method}`);
  }

  const held: http.ServerResponse[] = [];
  function injectTwirpFault(res: http.ServerResponse, seen: SeenRequest, status: number): void {
    if (status === 0) {
      held.push(res);
      return;
    }
    twirpError(res, seen, status, status === 409 ? 'already_exists' : 'unavailable', `injected ${status}`);
  }

  async function handleBlob(
    req: http.IncomingMessage,
    res: http.ServerResponse,
    seen: SeenRequest,
    query: URLSearchParams,
  ): Promise<void> {
    const token = seen.path.split('/')[3] ?? '';
    const pending = pendingByToken.get(token);
    const comp = query.get('comp');
    seen.operation = comp === 'block' ? 'PutBlock' : comp === 'blocklist' ? 'PutBlockList' : 'PutBlob';
    if (req.method !== 'PUT') return azureError(res, seen, 405, 'UnsupportedHttpVerb');
    if (!pending || query.get('sig') !== 'fake-signature')
      return azureError(res, seen, 403, 'AuthenticationFailed');
    const fault = takeFault(seen.operation);
    if (fault !== undefined) {
      req.resume();
      if (fault === 0) {
        held.push(res);
        return;
      }
      return azureError(res, seen, fault, fault === 503 ? 'ServerBusy' : 'InternalError');
    }
    const etag = `"0x${randomUUID().replace(/-/g, '').slice(0, 16).toUpperCase()}"`;
    const written = {
      etag,
      'last-modified': new Date().toUTCString(),
      'x-ms-request-server-encrypted': 'true',
    };
    if (comp === 'block') {
      const blockId = query.get('blockid');
      if (!blockId) return azureError(res, seen, 400, 'InvalidQueryParameterValue');
      const file = path.join(pending.dir, 'blocks', Buffer.from(blockId, 'base64').toString('hex'));
      await pipeline(req, createWriteStream(file));
      return send(res, seen, 201, '', written);
    }
    if (comp === 'blocklist') {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      const xml = Buffer.concat(chunks).toString('utf8');
      const ids = [...xml.matchAll(/<(Latest|Committed|Uncommitted)>([^<]*)<\/\1>/g)].map((m) => m[2]);
      const files = ids.map((id) =>
        path.join(pending.dir, 'blocks', Buffer.from(id, 'base64').toString('hex')),
      );
      try {
        await Promise.all(files.map((f) => stat(f)));
      } catch {
        return azureError(res, seen, 400, 'InvalidBlockList');
      }
      // One pipeline through all blocks in order: streamed, never whole in memory.
      await pipeline(async function* () {
        for (const file of files) yield* createReadStream(file);
      }, createWriteStream(pending.blobPath));
      await rm(path.join(pending.dir, 'blocks'), { recursive: true, force: true });
      pending.committed = true;
      return send(res, seen, 201, '', written);
    }
    if (req.headers['x-ms-blob-type'] !== 'BlockBlob')
      return azureError(res, seen, 400, 'MissingRequiredHeader');
    await pipeline(req, createWriteStream(pending.blobPath));
    pending.committed = true;
    return send(res, seen, 201, '', written);
  }

  const server = http.createServer((req, res) => {
    const parsed = new URL(req.url ?? '/', 'http://127.0.0.1');
    const seen: SeenRequest = {
      method: req.method ?? 'GET',
      path: parsed.pathname,
      operation: 'other',
      status: 0,
    };
    const work =
      req.method === 'POST' && parsed.pathname.startsWith(TWIRP_PREFIX)
        ? handleTwirp(req, res, seen)
        : parsed.pathname.startsWith('/devstoreaccount1/')
          ? handleBlob(req, res, seen, parsed.searchParams)
          : Promise.resolve(send(res, seen, 404, 'not found'));
    work.catch((e: unknown) => {
      if (!res.headersSent) send(res, seen, 500, String(e));
      else res.destroy();
    });
  });
  server.keepAliveTimeout = 5_000;
  const listening = await listen(server);
  url = listening.url;

  return {
    url,
    artifacts,
    requests,
    heldCount: () => held.length,
    failNext(operation, status, count = 1) {
      const list = faults.get(operation) ?? [];
      for (let i = 0; i < count; i++) list.push(status);
      faults.set(operation, list);
    },
    reserveName(name) {
      reserved.add(name);
    },
    env({ runId = 'run-1111', jobId = 'job-2222', serverUrl = 'https://github.com' } = {}) {
      return {
        ACTIONS_RUNTIME_TOKEN: fakeRuntimeToken(runId, jobId),
        ACTIONS_RESULTS_URL: `${url}/`,
        GITHUB_SERVER_URL: serverUrl,
      };
    },
    readZip(artifact) {
      return readFile(artifact.zipPath);
    },
    async close() {
      for (const res of held) res.destroy();
      await listening.close();
      if (ownDir) await rm(root, { recursive: true, force: true });
    },
  };
}
