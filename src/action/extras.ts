/**
 * The extras, run after the reports and outputs are written: the screenshots (download, then artifact
 * upload), results.json and JUnit written again with the screenshots' paths, the artifact's link in the job
 * summary, and the pull-request comment. Each network part has a time limit and stops on a workflow
 * cancel; a stop or a failure warns and never costs a report, an output or the verdict.
 */
import { publishForReport } from '../artifacts/for-report.js';
import { buildReport } from '../report/model.js';
import { artifactLink, junit, pullRequestComment, resultsJson, writeReports } from '../report/writers.js';
import type { ReportContext } from '../report/writers.js';
import type { RunSummary } from '../run/types.js';

/** What the extras need besides the reports' context. */
export interface ExtrasOptions {
  /** The run model the reports were built from. */
  summary: RunSummary;
  /** The environment of the artifact client (`ACTIONS_RUNTIME_TOKEN`, `RUNNER_TEMP`, ...). */
  env: NodeJS.ProcessEnv;
  /** The workflow cancel. */
  signal: AbortSignal;
}

/**
 * Runs the extras in order (screenshots, reports with their paths, artifact link, pull-request comment).
 * Never throws. Skipped after a workflow cancel during the run (`context.interrupted`); a cancel during
 * the extras stops the one under way and skips the rest.
 * @param context the context the reports were written with
 */
export async function runExtras(context: ReportContext, options: ExtrasOptions): Promise<void> {
  const { inputs, verdict, sink, interrupted } = context;
  const { signal } = options;
  if (interrupted || signal.aborted) return;
  const shots = await publishForReport(inputs, options.summary, {
    waited: verdict.waited,
    sink,
    env: options.env,
    signal,
  });
  if (signal.aborted) return;
  if (shots.attachments.size > 0) {
    const report = buildReport(options.summary, verdict.policy, shots.attachments, verdict);
    await writeReports({ ...context, report }, [resultsJson, junit]);
  }
  const artifactUrl = shots.published?.artifactUrl;
  await writeReports({ ...context, ...(artifactUrl ? { artifactUrl } : {}) }, [artifactLink]);
  if (signal.aborted) return;
  await writeReports({ ...context, signal }, [pullRequestComment]);
}
