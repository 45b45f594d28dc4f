/**
 * Streams screenshots from object storage to disk, a bounded number at once, each request with a deadline
 * and retries; never whole in memory (piped to a temporary file renamed when complete).
 */
import pLimit from 'p-limit';
import { createWriteStream } from 'node:fs';
import { mkdir, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';

import { HttpClient } from '@actions/http-client';

import { stopReason } from '../common/time-limit.js';
import { backoffMs, parseRetryAfter } from '../api/backoff.js';
import type { Logger } from '../common/log.js';
import { systemClock } from '../common/clock.js';
import {
  checkImageUrl,
  imageGuard,
  MAX_REDIRECTS,
  MAX_SCREENSHOT_BYTES,
  RefusedDownload,
} from './image-guard.js';
import type { ScreenshotJob } from './select.js';

/** A screenshot on disk. */
export interface DownloadedFile {
  job: ScreenshotJob;
  /** Absolute path of the file. */
  path: string;
  bytes: number;
  /** Requests it took (1 = first try). */
  attempts: number;
}

/** A screenshot that could not be had, and why (a short sentence without the URL's query string). */
export interface MissingFile {
  job: ScreenshotJob;
  reason: string;
}

export interface DownloadOptions {
  /** Downloads at once; default 4. */
  concurrency?: number;
  /** Extra tries after the first, for 5xx, 429, timeouts and network errors; default 3. */
  retries?: number;
  /** Deadline of one request, from sending it to the last byte, in ms; default 30000. */
  timeoutMs?: number;
  /** First backoff in ms (doubled each retry, jittered, capped at 10 s); default 500. */
  backoffMs?: number;
  /** Sleep between retries; default `setTimeout`. */
  sleep?: (ms: number) => Promise<void>;
  /** Redacts text before it is logged or reported; applied after the URL's query string is dropped. */
  redact?: (text: string) => string;
  log?: Logger;
  userAgent?: string;
  /** Allow `http` URLs (when the API base URL is `http` itself); default false: `https` only. */
  allowHttp?: boolean;
  /** Largest body kept, bytes; default {@link MAX_SCREENSHOT_BYTES} (20 MiB). */
  maxBytes?: number;
  /** Stops every download (a time limit, the workflow cancel); what is not done is reported missing. */
  signal?: AbortSignal;
}

/** Result of {@link downloadScreenshots}. */
export interface DownloadReport {
  files: DownloadedFile[];
  missing: MissingFile[];
}

/** Longest `Retry-After` honoured, ms: below the API client's, a missing screenshot is not fatal. */
const MAX_RETRY_AFTER_MS = 30_000;

/** A failure of one attempt; `retryable` decides whether another attempt is made. */
class AttemptError extends Error {
  constructor(
    message: string,
    readonly retryable: boolean,
    readonly retryAfterMs?: number,
  ) {
    super(message);
    this.name = 'AttemptError';
  }
}

const NETWORK_CODES = new Set([
  'ECONNRESET',
  'ECONNREFUSED',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ECONNABORTED',
  'ERR_STREAM_PREMATURE_CLOSE',
  'UND_ERR_SOCKET',
]);

/** The URL as it may be shown: no query string or fragment (object storage signatures live there). */
export function displayUrl(url: string): string {
  try {
    const u = new URL(url);
    return `${u.protocol}//${u.host}${u.pathname}`;
  } catch {
    return '(invalid URL)';
  }
}

/** How one attempt may go: its deadline, the schemes it may use, the workflow cancel. */
interface AttemptRules {
  timeoutMs: number;
  allowHttp: boolean;
  maxBytes: number;
  signal?: AbortSignal;
}

/**
 * One attempt: GET `url` (redirects checked), stream the body through the image guard into `tmp`.
 * @throws AttemptError on any failure (retryable for 5xx, 429, timeouts and network errors)
 */
async function attemptDownload(
  client: HttpClient,
  url: string,
  tmp: string,
  rules: AttemptRules,
): Promise<number> {
  const { timeoutMs, signal } = rules;
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  let response: Awaited<ReturnType<HttpClient['get']>> | undefined;
  let onAbort: (() => void) | undefined;
  const timeout = (): AttemptError => new AttemptError(`no complete answer within ${timeoutMs} ms`, true);
  const deadline = new Promise<never>((_, reject) => {
    const stop = (error: AttemptError): void => {
      stopped = true;
      response?.message.destroy(new Error(error.message));
      reject(error);
    };
    timer = setTimeout(() => stop(timeout()), timeoutMs);
    onAbort = () => stop(new AttemptError(`stopped: ${stopReason(signal as AbortSignal)}`, false));
    if (signal?.aborted) onAbort();
    else signal?.addEventListener('abort', onAbort, { once: true });
  });
  deadline.catch(() => undefined);
  try {
    const work = (async () => {
      let current = url;
      for (let hop = 0; ; hop++) {
        checkImageUrl(current, rules.allowHttp, hop > 0 ? url : undefined);
        try {
          response = await client.get(current, { Accept: 'image/png,image/*;q=0.9,*/*;q=0.5' });
        } catch (e) {
          throw toAttemptError(e, timeoutMs);
        }
        if (stopped) {
          response.message.destroy();
          throw timeout();
        }
        const status = response.message.statusCode ?? 0;
        const location = response.message.headers.location;
        if (status < 300 || status >= 400 || !location) break;
        response.message.resume();
        if (hop >= MAX_REDIRECTS) throw new RefusedDownload(`more than ${MAX_REDIRECTS} redirects`);
        current = new URL(location, current).href;
      }
      const status = response.message.statusCode ?? 0;
      if (status < 200 || status >= 300) {
        response.message.resume();
        const retryable = status >= 500 || status === 429 || status === 408;
        throw new AttemptError(
          `HTTP ${status}`,
          retryable,
          retryable
            ? parseRetryAfter(response.message.headers['retry-after'], Date.now(), MAX_RETRY_AFTER_MS)
            : undefined,
        );
      }
      const declared = Number(response.message.headers['content-length']);
      const hasLength = Number.isFinite(declared) && !!response.message.headers['content-length'];
      if (hasLength && declared > rules.maxBytes) {
        response.message.destroy();
        throw new RefusedDownload(`larger than ${Math.round(rules.maxBytes / 1024 / 1024)} MiB`);
      }
      const out = createWriteStream(tmp);
      try {
        await pipeline(response.message, imageGuard(rules.maxBytes), out);
      } catch (e) {
        if (stopped && !(e instanceof RefusedDownload)) throw timeout();
        throw toAttemptError(e, timeoutMs);
      }
      if (hasLength && declared !== out.bytesWritten) {
        throw new AttemptError(`body cut short: ${out.bytesWritten} of ${declared} bytes`, true);
      }
      if (out.bytesWritten === 0) throw new AttemptError('empty body', true);
      return out.bytesWritten;
    })();
    return await Promise.race([work, deadline]);
  } finally {
    clearTimeout(timer);
    if (onAbort) signal?.removeEventListener('abort', onAbort);
  }
}

function toAttemptError(e: unknown, timeoutMs: number): AttemptError {
  if (e instanceof AttemptError) return e;
  if (e instanceof RefusedDownload) return new AttemptError(e.message, false);
  const err = e as NodeJS.ErrnoException;
  const message = err?.message ?? String(e);
  if (/^Request timeout/.test(message)) return new AttemptError(`no answer within ${timeoutMs} ms`, true);
  if (err?.code && NETWORK_CODES.has(err.code)) return new AttemptError(`network error ${err.code}`, true);
  if (/aborted|socket hang up|premature close/i.test(message))
    return new AttemptError('connection lost', true);
  if (err?.code && /^E[A-Z]+$/.test(err.code))
    return new AttemptError(`error ${err.code}`, err.code !== 'ENOSPC');
  return new AttemptError(
    message.replace(/https?:\/\/\S+/g, (u) => displayUrl(u)),
    false,
  );
}

/** Runs `worker` over `items`, at most `limit` in flight; rejects with the first worker error. */
export async function runPool<T>(
  items: readonly T[],
  limit: number,
  worker: (item: T) => Promise<void>,
): Promise<void> {
  const pool = pLimit(Math.max(1, Math.floor(limit)));
  await Promise.all(items.map((item) => pool(() => worker(item))));
}

/**
 * Downloads screenshots to `dir/<job.relativePath>` (`dir` absolute). Every job ends in `files` or in
 * `missing` (with a reason), in the order of `jobs`; a failed download leaves no file behind.
 * @throws Error only when `dir` cannot be created
 */
export async function downloadScreenshots(
  jobs: readonly ScreenshotJob[],
  dir: string,
  options: DownloadOptions = {},
): Promise<DownloadReport> {
  const concurrency = Math.max(1, Math.floor(options.concurrency ?? 4));
  const retries = Math.max(0, Math.floor(options.retries ?? 3));
  const timeoutMs = Math.max(1, options.timeoutMs ?? 30_000);
  const baseMs = Math.max(0, options.backoffMs ?? 500);
  const signal = options.signal;
  const sleep = options.sleep ?? ((ms: number) => systemClock.sleep(ms, signal));
  const redact = options.redact ?? ((s: string) => s);
  const log = options.log;
  const rules: AttemptRules = {
    timeoutMs,
    allowHttp: options.allowHttp ?? false,
    maxBytes: options.maxBytes ?? MAX_SCREENSHOT_BYTES,
    ...(signal ? { signal } : {}),
  };
  await mkdir(dir, { recursive: true });

  const client = new HttpClient(options.userAgent ?? 'ghost-inspector-action', [], {
    socketTimeout: timeoutMs,
    keepAlive: true,
    allowRetries: false,
    allowRedirects: false,
    maxSockets: concurrency,
  });
  const outcomes = new Map<ScreenshotJob, DownloadedFile | MissingFile>();
  try {
    await runPool(jobs, concurrency, async (job) => {
      const target = path.join(dir, ...job.relativePath.split('/'));
      const tmp = `${target}.part`;
      let lastError = 'not attempted';
      for (let attempt = 1; attempt <= retries + 1; attempt++) {
        try {
          await mkdir(path.dirname(target), { recursive: true });
          const bytes = await attemptDownload(client, job.url, tmp, rules);
          await rename(tmp, target);
          outcomes.set(job, { job, path: target, bytes, attempts: attempt });
          log?.debug?.(`Downloaded ${job.relativePath} (${bytes} bytes, attempt ${attempt})`);
          return;
        } catch (e) {
          await rm(tmp, { force: true }).catch(() => undefined);
          const err = e instanceof AttemptError ? e : toAttemptError(e, timeoutMs);
          lastError = err.message;
          if (!err.retryable || attempt > retries) break;
          const wait = err.retryAfterMs ?? backoffMs(attempt - 1, Math.random, { baseMs });
          log?.debug?.(
            redact(
              `Screenshot ${displayUrl(job.url)}: ${err.message}; retry ${attempt} of ${retries} in ${wait} ms`,
            ),
          );
          await sleep(wait);
        }
      }
      const reason = redact(`${lastError} (${displayUrl(job.url)})`);
      outcomes.set(job, { job, reason });
      log?.info(`Screenshot not downloaded: ${job.relativePath}: ${reason}`);
    });
  } finally {
    client.dispose();
  }
  const files: DownloadedFile[] = [];
  const missing: MissingFile[] = [];
  for (const job of jobs) {
    const o = outcomes.get(job);
    if (!o) missing.push({ job, reason: 'not attempted' });
    else if ('path' in o) files.push(o);
    else missing.push(o);
  }
  return { files, missing };
}
