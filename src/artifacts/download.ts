import pLimit from 'p-limit';
import { createWriteStream } from 'node:fs';
import { mkdir, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';

import { stopReason } from '../common/time-limit.js';
import { backoffMs, parseRetryAfter } from '../api/backoff.js';
import { openHttp, type OpenAnswer } from '../api/http.js';
import type { Logger } from '../common/log.js';
import { systemClock, timeoutSignal } from '../common/clock.js';
import {
  checkImageUrl,
  imageGuard,
  MAX_REDIRECTS,
  MAX_SCREENSHOT_BYTES,
  RefusedDownload,
} from './image-guard.js';
import type { ScreenshotJob } from './select.js';

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
  /** Why, without the URL: what missing files are counted by (`HTTP 404`, `stopped: time limit of 120 s reached`). */
  cause: string;
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
  sleep?: (ms: number) => Promise<void>;
  /** Redacts text before it is logged or reported; applied after the URL's query string is dropped. */
  redact?: (text: string) => string;
  log?: Logger;
  /** Allow `http` URLs (when the API base URL is `http` itself); default false: `https` only. */
  allowHttp?: boolean;
  /** Largest body kept, bytes; default {@link MAX_SCREENSHOT_BYTES} (20 MiB). */
  maxBytes?: number;
  /** Stops every download (a time limit, the workflow cancel); what is not done is reported missing. */
  signal?: AbortSignal;
}

export interface DownloadReport {
  files: DownloadedFile[];
  missing: MissingFile[];
}

/** Longest `Retry-After` honoured, ms: below the API client's, a missing screenshot is not fatal. */
const MAX_RETRY_AFTER_MS = 30_000;

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

/** The URL as it may be shown: no query string or fragment (object storage signatures live there). */
export function displayUrl(url: string): string {
  try {
    const u = new URL(url);
    return `${u.protocol}//${u.host}${u.pathname}`;
  } catch {
    return '(invalid URL)';
  }
}

interface AttemptRules {
  timeoutMs: number;
  allowHttp: boolean;
  maxBytes: number;
  signal?: AbortSignal;
}

/** One header of an answer (the first, when sent twice). */
function header(answer: OpenAnswer, name: string): string | undefined {
  const value = answer.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/**
 * One attempt: GET `url` (redirects checked), its body streamed through the image guard into `tmp`; the bytes saved.
 * @throws AttemptError on any failure (retryable for 5xx, 408, 429, timeouts and network errors)
 */
async function attemptDownload(url: string, tmp: string, rules: AttemptRules): Promise<number> {
  // Ends the deadline's timer and whatever of the request is still open, once the attempt is over.
  const done = new AbortController();
  const deadline = timeoutSignal(systemClock, rules.timeoutMs, done.signal);
  const signal = AbortSignal.any([deadline, done.signal, ...(rules.signal ? [rules.signal] : [])]);
  try {
    let response: OpenAnswer;
    for (let hop = 0, current = url; ; hop++) {
      checkImageUrl(current, rules.allowHttp, hop > 0 ? url : undefined);
      response = await openHttp({
        method: 'GET',
        url: current,
        headers: { accept: 'image/png,image/*;q=0.9,*/*;q=0.5', 'user-agent': 'ghost-inspector-action' },
        signal,
        socketTimeoutMs: rules.timeoutMs + 1000,
      });
      const location = header(response, 'location');
      if (response.status < 300 || response.status >= 400 || !location) break;
      response.body.destroy();
      if (hop >= MAX_REDIRECTS) throw new RefusedDownload(`more than ${MAX_REDIRECTS} redirects`);
      current = new URL(location, current).href;
    }
    const { status } = response;
    if (status < 200 || status > 299) {
      response.body.destroy();
      const retryable = status >= 500 || status === 429 || status === 408;
      const retryAfter = header(response, 'retry-after');
      const waitMs = retryable ? parseRetryAfter(retryAfter, Date.now(), MAX_RETRY_AFTER_MS) : undefined;
      throw new AttemptError(`HTTP ${status}`, retryable, waitMs);
    }
    if (Number(header(response, 'content-length')) > rules.maxBytes) {
      response.body.destroy();
      throw new RefusedDownload(`larger than ${Math.round(rules.maxBytes / 1024 / 1024)} MiB`);
    }
    const out = createWriteStream(tmp);
    await pipeline(response.body, imageGuard(rules.maxBytes), out);
    if (out.bytesWritten === 0) throw new AttemptError('empty body', true);
    return out.bytesWritten;
  } catch (e) {
    if (e instanceof AttemptError) throw e;
    if (e instanceof RefusedDownload) throw new AttemptError(e.message, false);
    if (rules.signal?.aborted) throw new AttemptError(`stopped: ${stopReason(rules.signal)}`, false);
    if (deadline.aborted) throw new AttemptError(`no complete answer within ${rules.timeoutMs} ms`, true);
    const err = e as Error & { code?: string; cause?: { code?: string } };
    const code = err.cause?.code ?? err.code;
    if (code && /^E[A-Z]+$/.test(code)) {
      throw new AttemptError(`error ${code}`, code !== 'ENOSPC');
    }
    throw new AttemptError(String(err.message).replace(/https?:\/\/\S+/g, displayUrl), false);
  } finally {
    done.abort();
  }
}

/**
 * Streams screenshots to `dir/<job.relativePath>` (`dir` absolute) through a `.part` file renamed when
 * complete. Every job ends in `files` or in `missing` (with a reason), in the order of `jobs`.
 * @throws Error only when `dir` cannot be created
 */
export async function downloadScreenshots(
  jobs: readonly ScreenshotJob[],
  dir: string,
  options: DownloadOptions = {},
): Promise<DownloadReport> {
  const concurrency = Math.max(1, Math.floor(options.concurrency ?? 4));
  const retries = Math.max(0, Math.floor(options.retries ?? 3));
  const baseMs = Math.max(0, options.backoffMs ?? 500);
  const signal = options.signal;
  const sleep = options.sleep ?? ((ms: number) => systemClock.sleep(ms, signal));
  const redact = options.redact ?? ((s: string) => s);
  const log = options.log;
  const rules: AttemptRules = {
    timeoutMs: Math.max(1, options.timeoutMs ?? 30_000),
    allowHttp: options.allowHttp ?? false,
    maxBytes: options.maxBytes ?? MAX_SCREENSHOT_BYTES,
    ...(signal ? { signal } : {}),
  };
  await mkdir(dir, { recursive: true });

  const one = async (job: ScreenshotJob): Promise<DownloadedFile | MissingFile> => {
    const target = path.join(dir, ...job.relativePath.split('/'));
    const tmp = `${target}.part`;
    for (let attempt = 1; ; attempt++) {
      try {
        await mkdir(path.dirname(target), { recursive: true });
        const bytes = await attemptDownload(job.url, tmp, rules);
        await rename(tmp, target);
        log?.debug?.(`Downloaded ${job.relativePath} (${bytes} bytes, attempt ${attempt})`);
        return { job, path: target, bytes, attempts: attempt };
      } catch (e) {
        await rm(tmp, { force: true }).catch(() => undefined);
        const err = e instanceof AttemptError ? e : new AttemptError(String((e as Error).message), false);
        if (!err.retryable || attempt > retries) {
          const reason = redact(`${err.message} (${displayUrl(job.url)})`);
          log?.info(`Screenshot not downloaded: ${job.relativePath}: ${reason}`);
          return { job, reason, cause: redact(err.message) };
        }
        const wait = err.retryAfterMs ?? backoffMs(attempt - 1, Math.random, { baseMs });
        log?.debug?.(
          redact(
            `Screenshot ${displayUrl(job.url)}: ${err.message}; retry ${attempt} of ${retries} in ${wait} ms`,
          ),
        );
        await sleep(wait);
      }
    }
  };
  const limit = pLimit(concurrency);
  const outcomes = await Promise.all(jobs.map((job) => limit(() => one(job))));
  return {
    files: outcomes.filter((o): o is DownloadedFile => 'path' in o),
    missing: outcomes.filter((o): o is MissingFile => 'reason' in o),
  };
}
