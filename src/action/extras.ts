/** The extras after the reports and outputs, each with a time limit, stopped by a workflow cancel. */
import { publishForReport } from '../artifacts/for-report.js';
import type { GhostInspectorApi } from '../api/api.js';
import { createRedactor } from '../api/redact.js';
import type { Clock } from '../common/clock.js';
import { EXTRA_TIME_LIMIT_MS, withinTimeLimit } from '../common/time-limit.js';
import { readHistory } from '../report/history.js';
import { buildReport } from '../report/model.js';
import { withModuleNames, type ModuleNames } from '../report/module-names.js';
import {
  artifactLink,
  failureIssue,
  historySection,
  junit,
  pullRequestComment,
  resultsJson,
  writeReports,
} from '../report/writers.js';
import type { ReportContext } from '../report/writers.js';
import type { RunSummary } from '../run/types.js';

/**
 * The run model and the modules' names the reports were written with, the client it was read with, the
 * artifact client's environment, the workflow cancel, the clock of the time limits.
 */
export interface ExtrasOptions {
  summary: RunSummary;
  moduleNames?: ModuleNames;
  api: Pick<GhostInspectorApi, 'listTestResults'>;
  env: NodeJS.ProcessEnv;
  signal: AbortSignal;
  clock: Clock;
}

/**
 * Runs the extras in order with the reports' `context`; never throws. None after a cancel during the run;
 * a cancel during them stops the one under way and skips the rest (docs/architecture.md).
 */
export async function runExtras(context: ReportContext, options: ExtrasOptions): Promise<void> {
  const { inputs, verdict, sink, interrupted } = context;
  const { signal, clock } = options;
  if (interrupted || signal.aborted) return;
  const shots = await publishForReport(inputs, options.summary, {
    waited: verdict.waited,
    sink,
    env: options.env,
    signal,
  });
  if (signal.aborted) return;
  if (shots.attachments.size > 0) {
    const built = buildReport(options.summary, verdict, shots.attachments);
    const report = withModuleNames(built, options.moduleNames ?? new Map<string, string>());
    await writeReports({ ...context, report }, [resultsJson, junit]);
  }
  const artifactUrl = shots.published?.artifactUrl;
  await writeReports({ ...context, ...(artifactUrl ? { artifactUrl } : {}) }, [artifactLink]);
  if (signal.aborted) return;
  const wantsHistory = inputs.summary || inputs.prComment || inputs.failureIssue;
  const history =
    wantsHistory && context.report.totals.total > 0
      ? await withinTimeLimit(
          signal,
          EXTRA_TIME_LIMIT_MS,
          (limited) =>
            readHistory(options.api, context.report, {
              signal: limited,
              warn: (message) => sink.warning(createRedactor(inputs.secrets)(message)),
            }),
          clock,
        )
      : undefined;
  if (signal.aborted) return;
  await writeReports({ ...context, signal, clock, ...(history ? { history } : {}) }, [
    historySection,
    pullRequestComment,
    failureIssue,
  ]);
}
