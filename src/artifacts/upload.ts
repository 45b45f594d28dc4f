import { cp } from 'node:fs/promises';
import path from 'node:path';

import type { UploadArtifactOptions, UploadArtifactResponse } from '@actions/artifact';

import { stopReason } from '../common/time-limit.js';
import { readGitHubContext, workflowRunUrl } from '../github.js';
import { messageOf, type Logger } from '../common/log.js';
import { systemClock } from '../common/clock.js';
import type { DownloadedFile } from './download.js';
import { sanitizeArtifactName, suffixedName } from './names.js';

/** The part of `@actions/artifact`'s client the uploader uses (injectable). */
export interface ArtifactUploader {
  uploadArtifact(
    name: string,
    files: string[],
    rootDirectory: string,
    options?: UploadArtifactOptions,
  ): Promise<UploadArtifactResponse>;
}

export interface UploadOptions {
  /** Artifact name (sanitized); on a 409 name clash `-2`, `-3`... are tried. */
  name: string;
  /** Days to keep the artifact, 1..90 (capped by the repository setting); undefined = repository default. */
  retentionDays?: number;
  /** Folder the files are in; paths inside the artifact are relative to it. */
  rootDirectory: string;
  /** Where files are kept when there is no artifact service (outside GitHub) or the upload failed. */
  artifactsDir: string;
  /** Decides GitHub vs local and builds the artifact URL; the artifact client reads `process.env` itself. */
  env?: NodeJS.ProcessEnv;
  /** Tries of one name on a transient failure (beyond the client's own retries); default 2. */
  attempts?: number;
  sleep?: (ms: number) => Promise<void>;
  client?: ArtifactUploader;
  log?: Logger;
  /** Stops the upload (a time limit, the workflow cancel): the files are then kept locally. */
  signal?: AbortSignal;
}

export interface UploadReport {
  /** Artifact id (GitHub only, on success). */
  artifactId?: number;
  /** The name the artifact got (may carry a `-N` suffix after a clash). */
  artifactName?: string;
  artifactUrl?: string;
  /** Absolute folder holding the files when they were kept locally (outside GitHub, or upload failed). */
  localDir?: string;
  /** Problems, each a sentence for the log; never fatal. */
  warnings: string[];
}

/** Names tried before giving up on 409 clashes. */
const MAX_NAMES = 10;
/** Wait between two tries of one name, ms. */
const RETRY_DELAY_MS = 2000;

/** True when the error says the artifact name is taken (HTTP 409 / Twirp `already_exists`). */
export function isNameClash(error: unknown): boolean {
  return /\(409\)|\b409\b.*conflict|already[_ ]exists/i.test(messageOf(error));
}

/** `work()`, or `stopped: <why>` once `signal` fires (not started if fired): the client takes no signal. */
function untilStopped<T>(work: () => Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return work();
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(new Error(`stopped: ${stopReason(signal)}`));
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    work()
      .then(resolve, reject)
      .finally(() => signal.removeEventListener('abort', onAbort));
  });
}

function isPermanent(error: unknown): boolean {
  const name = error instanceof Error ? error.name : '';
  const message = messageOf(error);
  return (
    ['GHESNotSupportedError', 'UsageError', 'FilesNotFoundError'].includes(name) ||
    /non-retryable|not valid|Unable to get the|invalid and\/or missing claims|does not exist|not a parent/i.test(
      message,
    )
  );
}

/** The web link of artifact `id`: the workflow run's page + `/artifacts/<id>`; undefined outside a run. */
export function artifactUrl(id: number, env: NodeJS.ProcessEnv = process.env): string | undefined {
  const run = workflowRunUrl(readGitHubContext(env));
  return run ? `${run}/artifacts/${id}` : undefined;
}

function describe(error: unknown): string {
  return messageOf(error).split('\n')[0].slice(0, 500);
}

/**
 * Uploads `files` (all that `rootDirectory` holds) as one artifact through `@actions/artifact`; outside GitHub
 * (no `ACTIONS_RUNTIME_TOKEN`), on GitHub Enterprise Server (not attempted: one warning naming the reason and
 * the folder), or when the upload fails for good or is stopped, keeps them in `artifactsDir` (`localDir`).
 * Never throws: problems land in `warnings`. Docs: docs/api-contract.md, "Artifacts".
 */
export async function uploadScreenshots(
  files: readonly DownloadedFile[],
  options: UploadOptions,
): Promise<UploadReport> {
  const env = options.env ?? process.env;
  const log = options.log;
  const warnings: string[] = [];
  const warn = (message: string): void => {
    warnings.push(message);
    log?.warning(message);
  };
  if (files.length === 0) return { warnings };

  /** Keeps the files in `artifactsDir`, warning `why` (if any), the folder, then `then` (if any). */
  const keep = async (why: string, then = ''): Promise<UploadReport> => {
    const localDir = path.resolve(options.artifactsDir);
    try {
      // Outside GitHub and on GitHub Enterprise Server the files were downloaded there.
      if (localDir !== path.resolve(options.rootDirectory)) {
        await cp(options.rootDirectory, localDir, { recursive: true });
      }
      if (why) warn(`${why} The ${files.length} screenshot(s) are kept in ${localDir}${then}.`);
      else log?.info(`Screenshots (${files.length}) written to ${localDir}`);
      return { localDir, warnings };
    } catch (e) {
      warn(`${why} Keeping the screenshots in ${options.artifactsDir} failed too: ${describe(e)}`.trim());
      return { warnings };
    }
  };

  const github = readGitHubContext(env);
  if (!github.artifactService) return keep('');
  if (github.enterpriseServer) {
    return keep(
      `Screenshot artifact not uploaded: ${github.serverUrl} is GitHub Enterprise Server, whose artifact service the artifact client (@actions/artifact v2 and later) does not support.`,
      `; upload that folder with actions/upload-artifact@v3 (README, "Versions")`,
    );
  }

  let base: string;
  try {
    base = sanitizeArtifactName(options.name);
  } catch (e) {
    return keep(`Screenshot artifact not uploaded: ${describe(e)}.`);
  }
  // Loaded on demand: the client and its Azure SDK are large and needless outside GitHub.
  const client = options.client ?? new (await import('@actions/artifact')).DefaultArtifactClient();
  const attempts = Math.max(1, options.attempts ?? 2);
  const sleep = options.sleep ?? ((ms: number) => systemClock.sleep(ms));
  const paths = files.map((f) => f.path);
  // No compression: PNG is compressed already.
  const uploadOptions: UploadArtifactOptions = { compressionLevel: 0 };
  if (options.retentionDays !== undefined && options.retentionDays > 0) {
    uploadOptions.retentionDays = options.retentionDays;
  }

  let lastError: unknown;
  for (let n = 1; n <= MAX_NAMES; n++) {
    const name = suffixedName(base, n);
    let clash = false;
    for (let attempt = 1; attempt <= attempts; attempt++) {
      try {
        const response = await untilStopped(
          () => client.uploadArtifact(name, paths, options.rootDirectory, uploadOptions),
          options.signal,
        );
        if (response.id === undefined) throw new Error('the artifact service returned no artifact id');
        if (n > 1) log?.info(`Artifact name ${base} was taken; uploaded as ${name}.`);
        return {
          artifactId: response.id,
          artifactName: name,
          artifactUrl: artifactUrl(response.id, env),
          warnings,
        };
      } catch (e) {
        lastError = e;
        if (isNameClash(e)) {
          clash = true;
          log?.info(`Artifact name ${name} is taken (409); trying ${suffixedName(base, n + 1)}.`);
          break;
        }
        if (options.signal?.aborted || isPermanent(e) || attempt === attempts) break;
        log?.info(`Artifact upload failed (${describe(e)}); trying again in ${RETRY_DELAY_MS} ms.`);
        await sleep(RETRY_DELAY_MS);
      }
    }
    if (!clash || options.signal?.aborted) break;
  }
  return keep(`Screenshot artifact not uploaded: ${describe(lastError)}.`);
}
