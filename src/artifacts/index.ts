/** Screenshots as workflow artifacts: select -> download -> upload, or keep in a local folder. */
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';

import type { Clock } from '../common/clock.js';
import { withinTimeLimit } from '../common/time-limit.js';
import { readGitHubContext } from '../github.js';
import type { RunSummary } from '../run/types.js';
import type { Logger } from '../common/log.js';
import type { DownloadOptions, MissingFile } from './download.js';
import { downloadScreenshots } from './download.js';
import { defaultArtifactName } from './names.js';
import type { ScreenshotJob, ScreenshotMode } from './select.js';
import { selectScreenshots } from './select.js';
import type { ArtifactUploader, UploadReport } from './upload.js';
import { uploadScreenshots } from './upload.js';

export * from './download.js';
export * from './names.js';
export * from './select.js';
export * from './upload.js';

/** Time limit of the screenshot downloads, all together, ms: at least this... */
const DOWNLOAD_TIME_LIMIT_MS = 120_000;

/** ...and this much a screenshot, ms: 4 at once from a host that takes 0.4 s each. */
const DOWNLOAD_MS_PER_SCREENSHOT = 100;

/** Time limit of the downloads of `count` screenshots, all together, ms (docs/reports.md, "Screenshots"). */
function downloadTimeLimitMs(count: number): number {
  return Math.max(DOWNLOAD_TIME_LIMIT_MS, count * DOWNLOAD_MS_PER_SCREENSHOT);
}

/** Time limit of the artifact upload, ms. */
const UPLOAD_TIME_LIMIT_MS = 120_000;

/** Where a test result's images are, as paths relative to the artifact root (forward slashes). */
type ScreenshotPaths = Partial<Record<ScreenshotJob['kind'], string>>;

export interface PublishOptions {
  mode: ScreenshotMode;
  /** The `artifact-name` input; default {@link defaultArtifactName}. */
  artifactName?: string;
  retentionDays?: number;
  /** The `artifacts-dir` input: where files are kept outside GitHub or when the upload fails. */
  artifactsDir: string;
  env?: NodeJS.ProcessEnv;
  download?: Omit<DownloadOptions, 'log' | 'signal'>;
  signal?: AbortSignal;
  client?: ArtifactUploader;
  log?: Logger;
  /** The clock of the time limits (default real time). */
  clock?: Clock;
}

/** The upload's report, with every warning given (download and upload). */
export interface PublishReport extends UploadReport {
  /** Test result id -> its image paths relative to the artifact root (or `localDir`); existing files only. */
  files: Record<string, ScreenshotPaths>;
  missing: MissingFile[];
}

/**
 * Selects, downloads and uploads the screenshots of a run (outside GitHub: into `artifactsDir`), each stage
 * within its time limit; problems warn.
 * @throws Error only when no folder can be created for the downloads
 */
export async function publishScreenshots(
  summary: RunSummary,
  options: PublishOptions,
): Promise<PublishReport> {
  const env = options.env ?? process.env;
  const log = options.log;
  const jobs = selectScreenshots(summary, options.mode);
  if (jobs.length === 0) return { files: {}, missing: [], warnings: [] };

  const github = readGitHubContext(env);
  // On GitHub Enterprise Server nothing is uploaded: the files go straight where they are kept.
  const dir =
    github.artifactService && !github.enterpriseServer
      ? path.join(
          github.runnerTemp || os.tmpdir(),
          `ghost-inspector-screenshots-${randomBytes(4).toString('hex')}`,
        )
      : path.resolve(options.artifactsDir);
  log?.info(`Downloading ${jobs.length} screenshot(s)...`);
  const downloaded = await withinTimeLimit(
    options.signal,
    downloadTimeLimitMs(jobs.length),
    (signal) => downloadScreenshots(jobs, dir, { ...options.download, log, signal }),
    options.clock,
  );
  const warnings: string[] = [];
  if (downloaded.missing.length > 0) {
    warnings.push(missingWarning(downloaded.missing, jobs.length));
    log?.warning(warnings[0]);
  }

  const uploaded = await withinTimeLimit(
    options.signal,
    UPLOAD_TIME_LIMIT_MS,
    (signal) =>
      uploadScreenshots(downloaded.files, {
        name: options.artifactName || defaultArtifactName(env),
        retentionDays: options.retentionDays,
        rootDirectory: dir,
        artifactsDir: options.artifactsDir,
        env,
        client: options.client,
        log,
        signal,
      }),
    options.clock,
  );
  const files: Record<string, ScreenshotPaths> = {};
  for (const f of downloaded.files) {
    const entry = (files[f.job.resultId] ??= {});
    entry[f.job.kind] = f.job.relativePath;
  }
  return { ...uploaded, files, missing: downloaded.missing, warnings: [...warnings, ...uploaded.warnings] };
}

/**
 * The warning about screenshots not downloaded: how many of `total`, how many for each cause, then each
 * one with its reason; cut to about 3,000 characters.
 */
function missingWarning(missing: readonly MissingFile[], total: number): string {
  const causes = new Map<string, number>();
  for (const m of missing) causes.set(m.cause, (causes.get(m.cause) ?? 0) + 1);
  const why = [...causes].map(([cause, n]) => `${n} ${cause}`).join(', ');
  const list = missing.map((m) => `${m.job.relativePath} (${m.reason})`).join('; ');
  const message = `${missing.length} of ${total} screenshot(s) not downloaded (${why}): ${list}`;
  return message.length > 3000 ? `${message.slice(0, 3000)}...` : message;
}
