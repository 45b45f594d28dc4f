/** The report writers over the one report model; a failing writer warns, never changes the verdict. */
import type { Clock } from '../common/clock.js';
import { messageOf } from '../common/log.js';
import type { ActionSink } from '../common/sink.js';
import { EXTRA_TIME_LIMIT_MS, withinTimeLimit } from '../common/time-limit.js';
import { commentKey, failureIssueKey, workflowRunUrl, type GitHubContext } from '../github.js';
import type { ActionInputs } from '../inputs/index.js';
import type { Verdict } from '../run/outcome/outcome.js';
import { emitAnnotations, renderAnnotations } from './annotations.js';
import type { TestHistory } from './history.js';
import { renderHistorySection } from './history.js';
import { writeJUnit } from './junit.js';
import type { Report } from './model-types.js';
import { writeResultsJson } from './results-json.js';
import { DEFAULT_TITLE, renderArtifactLine, renderSummary } from './summary.js';
import { link } from './summary-failures.js';
import { escapeInline } from './text.js';
import { createRedactor } from '../api/redact.js';

/** What every writer may read. */
export interface ReportContext {
  report: Report;
  inputs: ActionInputs;
  verdict: Verdict;
  /** True after a workflow cancel: only the quick, local reports are written. */
  interrupted: boolean;
  /** The uploaded screenshot artifact's web link, when there is one. */
  artifactUrl?: string;
  /** The tunnel the runs reached the app through, when there was one. */
  tunnel?: { url: string; address: string };
  github: GitHubContext;
  sink: ActionSink;
  /** The workflow cancel: stops a writer that talks to the network (the pull-request comment). */
  signal?: AbortSignal;
  /** The clock of such a writer's time limit (default real time). */
  clock?: Clock;
  /** Failed tests' history lines by test id, once read (`action/extras.ts`). */
  history?: TestHistory;
}

/** One report: when it is written, and how. */
export interface ReportWriter {
  /** The report in a warning: `Could not write <what>: <reason>`. */
  what: string;
  wanted(context: ReportContext): boolean;
  /** Writes it; may throw (the caller warns). */
  write(context: ReportContext): Promise<void>;
}

/** The JUnit file, when `junit-path` is set and the run waited. */
function junitPathOf({ inputs, verdict }: ReportContext): string | null {
  return inputs.junitPath && verdict.waited ? inputs.junitPath : null;
}

/** results.json; written again after the screenshots with their paths. */
export const resultsJson: ReportWriter = {
  what: 'results.json (results-path)',
  wanted: () => true,
  write: async ({ report, inputs, sink }) => {
    await writeResultsJson(report, inputs.resultsPath);
    sink.info(`Results: ${inputs.resultsPath}`);
  },
};

/** The JUnit file; written again after the screenshots with their attachment lines. */
export const junit: ReportWriter = {
  what: 'the JUnit report (junit-path)',
  wanted: (context) => junitPathOf(context) !== null,
  write: async (context) => {
    const file = junitPathOf(context) as string;
    await writeJUnit(context.report, file);
    context.sink.info(`JUnit report: ${file}`);
  },
};

const jobSummary: ReportWriter = {
  what: 'the job summary',
  wanted: ({ inputs }) => inputs.summary,
  write: async (context) => {
    const junitPath = junitPathOf(context);
    const markdown = renderSummary(context.report, {
      resultsPath: context.inputs.resultsPath,
      title: context.inputs.summaryTitle,
      ...(junitPath ? { junitPath } : {}),
      ...(context.tunnel ? { tunnel: context.tunnel } : {}),
    });
    await context.sink.appendSummary(markdown);
  },
};

/** The screenshot artifact's link, added to the job summary once the artifact is uploaded. */
export const artifactLink: ReportWriter = {
  what: 'the job summary',
  wanted: ({ inputs, artifactUrl }) => inputs.summary && !!artifactUrl,
  write: ({ sink, artifactUrl }) => sink.appendSummary(renderArtifactLine(artifactUrl as string)),
};

/** The failed tests' history, added to the job summary once read. */
export const historySection: ReportWriter = {
  what: 'the job summary',
  wanted: ({ inputs, history, report }) =>
    inputs.summary && !!history && !!renderHistorySection(report, history),
  write: ({ sink, report, history }) => sink.appendSummary(renderHistorySection(report, history!)),
};

const annotations: ReportWriter = {
  what: 'the annotations',
  wanted: ({ inputs, verdict }) => inputs.annotations && verdict.waited,
  write: ({ report, sink }) => {
    emitAnnotations(renderAnnotations(report), sink);
    return Promise.resolve();
  },
};

/** The sticky pull-request comment, within its time limit and stopped by a workflow cancel. */
export const pullRequestComment: ReportWriter = {
  what: 'the pull-request comment',
  wanted: ({ inputs, interrupted, verdict }) => inputs.prComment && !interrupted && verdict.waited,
  write: async ({ report, inputs, github, sink, signal: cancel, clock, history }) => {
    const { pullRequest: number, repository } = github;
    if (number === null || !repository) {
      sink.info('pr-comment: not a pull request event; no comment.');
      return;
    }
    if (!inputs.githubToken) {
      sink.warning('pr-comment: no github-token; no comment.');
      return;
    }
    const { renderPullRequestComment, upsertPullRequestComment } = await import('./pr-comment.js');
    const runUrl = workflowRunUrl(github);
    const key = commentKey(github, inputs.commentKey);
    await withinTimeLimit(
      cancel,
      EXTRA_TIME_LIMIT_MS,
      (signal) =>
        upsertPullRequestComment({
          token: inputs.githubToken,
          ...repository,
          issueNumber: number,
          key,
          body: renderPullRequestComment(report, {
            key,
            title: inputs.summaryTitle,
            ...(runUrl ? { runUrl } : {}),
            ...(history ? { history } : {}),
          }),
          ...(github.apiUrl ? { baseUrl: github.apiUrl } : {}),
          signal,
        }),
      clock,
    );
  },
};

/** Why GitHub refused the failure issue, naming the permission or the cause (REST API status codes). */
const ISSUE_REFUSALS: Record<number, string> = {
  403: 'the token may not write issues (the job needs permissions: issues: write)',
  410: 'issues are disabled in this repository',
};

/** The failure issue (`failure-issue`) for a failed or passed verdict, within its time limit. */
export const failureIssue: ReportWriter = {
  what: 'the failure issue',
  wanted: ({ inputs, interrupted, report }) =>
    inputs.failureIssue && !interrupted && (report.verdict === 'failed' || report.verdict === 'passed'),
  write: async ({ report, inputs, github, sink, signal: cancel, clock, history }) => {
    const { repository, eventName } = github;
    if (!repository || !inputs.githubToken) {
      sink.warning('failure-issue: no repository or no github-token; no issue.');
      return;
    }
    if (!eventName || !inputs.failureIssueEvents.includes(eventName)) {
      sink.info(
        `failure-issue: ${eventName ? `a ${eventName} run` : 'a run of no known event'} does not own the failure issue (failure-issue-events: ${inputs.failureIssueEvents.join(', ')}); no issue.`,
      );
      return;
    }
    const { renderFailures, trackFailureIssue } = await import('./failure-issue.js');
    const redact = createRedactor(inputs.secrets);
    const attempt = github.runAttempt ?? '1';
    const runLabel = `run ${github.runId ?? 'outside GitHub'}${attempt === '1' ? '' : ` (attempt ${attempt})`}`;
    const suites = [...new Set(report.runs.map((r) => r.suiteName))].join(', ');
    try {
      const issue = await withinTimeLimit(
        cancel,
        EXTRA_TIME_LIMIT_MS,
        (signal) =>
          trackFailureIssue({
            token: inputs.githubToken,
            ...repository,
            key: failureIssueKey(github, inputs.commentKey),
            labels: inputs.failureIssueLabels,
            assignees: inputs.failureIssueAssignees,
            reopenDays: inputs.failureIssueReopenDays,
            warn: (message) => sink.warning(redact(message)),
            title: `${inputs.summaryTitle === DEFAULT_TITLE ? `${DEFAULT_TITLE}: ${suites}` : inputs.summaryTitle} failing`,
            run: {
              key: `${github.runId}.${attempt}`,
              link: link(workflowRunUrl(github), escapeInline(runLabel)),
            },
            now: report.finishedAt,
            failures:
              report.verdict === 'failed' ? redact(renderFailures(report, history ?? new Map())) : null,
            ...(github.apiUrl ? { baseUrl: github.apiUrl } : {}),
            signal,
          }),
        clock,
      );
      if (!issue) return;
      sink.info(`Failure issue #${issue.number} (${issue.change}): ${issue.url}`);
      sink.setOutput('failure-issue-url', issue.url);
      sink.setOutput('failure-issue-number', String(issue.number));
    } catch (error) {
      const why = ISSUE_REFUSALS[(error as { status?: number }).status ?? 0];
      throw why ? new Error(`${why}: ${messageOf(error)}`) : error;
    }
  },
};

/** The reports written as soon as the verdict is known, in the order they run. */
export const REPORT_WRITERS: readonly ReportWriter[] = [resultsJson, junit, jobSummary, annotations];

/** Runs the wanted writers in order; one that throws warns `Could not write <what>: <reason>`. Never throws. */
export async function writeReports(
  context: ReportContext,
  writers: readonly ReportWriter[] = REPORT_WRITERS,
): Promise<void> {
  for (const writer of writers) {
    if (!writer.wanted(context)) continue;
    try {
      await writer.write(context);
    } catch (error) {
      context.sink.warning(`Could not write ${writer.what}: ${messageOf(error)}`);
    }
  }
}
