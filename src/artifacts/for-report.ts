import path from 'node:path';
import type { ActionInputs } from '../inputs/index.js';
import type { ReportAttachments } from '../report/model-types.js';
import type { RunSummary } from '../run/types.js';
import { artifactsLog, messageOf } from '../common/log.js';
import type { ActionSink } from '../common/sink.js';
import type { PublishReport } from './index.js';

export interface PublishedScreenshots {
  /** Null when nothing was published (off, not waited, interrupted, or the step failed). */
  published: PublishReport | null;
  /** Test result id → its image paths, for the JUnit file and the summary. */
  attachments: ReportAttachments;
}

/**
 * Publishes the screenshots when the run waited and `screenshots` is not `none`; sets the `artifact-id` and
 * `artifact-url` outputs. `signal` stops the downloads and the upload. A problem only warns: the verdict stays.
 */
export async function publishForReport(
  inputs: ActionInputs,
  summary: RunSummary,
  options: { waited: boolean; sink: ActionSink; env: NodeJS.ProcessEnv; signal?: AbortSignal },
): Promise<PublishedScreenshots> {
  const { sink } = options;
  if (!options.waited || inputs.screenshots === 'none') {
    return { published: null, attachments: new Map() };
  }
  let published: PublishReport | null = null;
  try {
    // Loaded on demand: the artifact client is large and most of the run does not need it.
    const { publishScreenshots } = await import('./index.js');
    published = await publishScreenshots(summary, {
      mode: inputs.screenshots,
      artifactName: inputs.artifactName,
      ...(inputs.artifactRetentionDays !== null ? { retentionDays: inputs.artifactRetentionDays } : {}),
      artifactsDir: inputs.artifactsDir,
      env: options.env,
      download: { allowHttp: new URL(inputs.apiBaseUrl).protocol === 'http:' },
      ...(options.signal ? { signal: options.signal } : {}),
      log: artifactsLog(sink),
    });
    if (published.localDir) sink.info(`Screenshots: ${published.localDir}`);
    if (published.artifactName) sink.info(`Screenshot artifact: ${published.artifactName}`);
    if (published.artifactId !== undefined) sink.setOutput('artifact-id', String(published.artifactId));
    if (published.artifactUrl) sink.setOutput('artifact-url', published.artifactUrl);
  } catch (error) {
    sink.warning(`Could not publish screenshots: ${messageOf(error)}`);
  }
  return { published, attachments: attachmentsOf(published, inputs.workspace) };
}

/** Each test result's image paths: artifact paths, or under `localDir` when kept locally. */
function attachmentsOf(published: PublishReport | null, workspace: string): ReportAttachments {
  const attachments: ReportAttachments = new Map();
  const base = published?.localDir;
  const at = (file: string): string => (base ? workspacePath(path.join(base, file), workspace) : file);
  for (const [resultId, files] of Object.entries(published?.files ?? {})) {
    attachments.set(resultId, Object.fromEntries(Object.entries(files).map(([kind, f]) => [kind, at(f)])));
  }
  return attachments;
}

function workspacePath(file: string, workspace: string): string {
  const rel = path.relative(workspace, file);
  return rel && !rel.startsWith('..') && !path.isAbsolute(rel) ? rel.split(path.sep).join('/') : file;
}
