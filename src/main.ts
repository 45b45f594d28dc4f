/**
 * Entry point of the action: reads inputs, runs, reports, and sets the verdict.
 * The only place that calls `core.setFailed`.
 *
 * Order: mask the API key → read and validate every input (no remote call before) → trigger and wait
 * (`run/engine.ts`) → remove secrets from the run model → verdict (`run/outcome.ts`) → screenshots →
 * reports (results.json, JUnit, job summary, annotations, pull-request comment) → outputs → pass or fail.
 *
 * Workflow cancel: on SIGINT or SIGTERM every active remote run is cancelled at once, the reports that can be
 * written quickly are written (no screenshot download), and the process exits non-zero; 6.5 s after the
 * signal it ends whatever the main flow is doing (a hanging request or file-system call). The deadline is
 * backed the same way: the engine not returned 9.5 s after it ends the process (`run/deadline.ts`).
 *
 * Outside GitHub (`node dist/index.js` with `INPUT_*` variables): when `GITHUB_OUTPUT` or
 * `GITHUB_STEP_SUMMARY` is unset, outputs go to `ghost-inspector-outputs.txt` and the summary to
 * `ghost-inspector-summary.md`, next to results.json; their paths are logged.
 */
import { readFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import * as core from '@actions/core';
import { createClient } from './api/client.js';
import { createRedactor, redactUrl } from './api/redact.js';
import type { PublishReport } from './artifacts/index.js';
import { InputError, readInputs, type ActionInputs } from './inputs/index.js';
import { emitAnnotations, renderAnnotations } from './report/annotations.js';
import { writeJUnit } from './report/junit.js';
import { buildReport, buildStartedReport, type Report, type ReportAttachments } from './report/model.js';
import { writeResultsJson } from './report/results-json.js';
import { renderSummary } from './report/summary.js';
import { RateBudget } from './run/budget.js';
import { runPlan, type RunLog } from './run/engine.js';
import { armHardExit, DEADLINE_BACKSTOP_MS, forceExit, HARD_EXIT_MS } from './run/deadline.js';
import { decideStartedVerdict, decideVerdict, type Verdict } from './run/outcome.js';
import { computeOutputs } from './run/outputs.js';
import { redactSummary } from './run/redact-summary.js';
import type { RunSummary } from './run/types.js';

/** Local files used when the runner's files are not set. */
export const LOCAL_OUTPUTS_FILE = 'ghost-inspector-outputs.txt';
export const LOCAL_SUMMARY_FILE = 'ghost-inspector-summary.md';

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Points `GITHUB_OUTPUT` / `GITHUB_STEP_SUMMARY` at local files when unset (outside GitHub). */
async function ensureRunnerFiles(dir: string): Promise<void> {
  await mkdir(dir, { recursive: true });
  if (!process.env.GITHUB_OUTPUT) {
    const file = path.join(dir, LOCAL_OUTPUTS_FILE);
    await writeFile(file, '');
    process.env.GITHUB_OUTPUT = file;
    core.info(`GITHUB_OUTPUT is not set: outputs go to ${file}`);
  }
  if (!process.env.GITHUB_STEP_SUMMARY) {
    const file = path.join(dir, LOCAL_SUMMARY_FILE);
    await writeFile(file, '');
    process.env.GITHUB_STEP_SUMMARY = file;
    core.info(`GITHUB_STEP_SUMMARY is not set: the job summary goes to ${file}`);
  }
}

/**
 * One line of plain log output (`core.info` writes its text as is). Line breaks and other control characters
 * in service text (test names, step errors) become spaces, so that the service can never start a line of
 * its own, which the runner would read as a workflow command (`::warning::`, `::stop-commands::`, ...).
 * Commands with data (`core.warning`, `core.debug`, group titles) are escaped by `@actions/core` itself.
 */
export function logLine(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/[\u0000-\u0008\u000a-\u001f\u007f\u2028\u2029]+/g, ' ');
}

function runLog(redact: (text: string) => string): RunLog {
  return {
    info: (line) => core.info(logLine(redact(line))),
    warning: (line) => core.warning(redact(line)),
    debug: (line) => core.debug(redact(line)),
    group: (title, lines) => {
      // A title is a state, a test name and a variant: data, never rewritten; only URL credentials go.
      core.startGroup(redactUrl(title));
      for (const line of lines) core.info(logLine(redact(line)));
      core.endGroup();
    },
  };
}

/** Writes a report; a failure warns and never changes the verdict. */
async function attempt(what: string, task: () => Promise<unknown>): Promise<void> {
  try {
    await task();
  } catch (error) {
    core.warning(`Could not write ${what}: ${messageOf(error)}`);
  }
}

/** The pull request of the triggering event, if any. */
function pullRequestNumber(): number | null {
  const eventPath = process.env.GITHUB_EVENT_PATH;
  if (!eventPath) return null;
  try {
    const text = readFileSync(eventPath, 'utf8');
    const event = JSON.parse(text) as { pull_request?: { number?: number }; number?: number };
    return event.pull_request?.number ?? null;
  } catch {
    return null;
  }
}

/**
 * The key of the sticky pull-request comment: the job id (`GITHUB_JOB`) and the `comment-key` input (set it
 * to the matrix values, e.g. `${{ toJSON(matrix) }}`, so that each matrix leg keeps its own comment).
 */
function commentKey(inputs: ActionInputs): string {
  return [process.env.GITHUB_JOB ?? '', inputs.commentKey].filter(Boolean).join('-');
}

async function writeReports(
  inputs: ActionInputs,
  summary: RunSummary,
  verdict: Verdict,
  interrupted: boolean,
): Promise<void> {
  let published: PublishReport | null = null;
  if (!interrupted && verdict.waited && inputs.screenshots !== 'none') {
    try {
      // Loaded on demand: the artifact client is large and most of the run does not need it.
      const { publishScreenshots } = await import('./artifacts/index.js');
      published = await publishScreenshots(summary, {
        mode: inputs.screenshots,
        artifactName: inputs.artifactName,
        ...(inputs.artifactRetentionDays !== null ? { retentionDays: inputs.artifactRetentionDays } : {}),
        artifactsDir: inputs.artifactsDir,
        log: { info: (line) => core.info(logLine(line)), warning: core.warning, debug: core.debug },
      });
      if (published.localDir) core.info(`Screenshots: ${published.localDir}`);
      if (published.artifactName) core.info(`Screenshot artifact: ${published.artifactName}`);
      if (published.artifactId !== undefined) core.setOutput('artifact-id', String(published.artifactId));
      if (published.artifactUrl) core.setOutput('artifact-url', published.artifactUrl);
    } catch (error) {
      core.warning(`Could not publish screenshots: ${messageOf(error)}`);
    }
  }
  const attachments: ReportAttachments = new Map();
  for (const [resultId, files] of Object.entries(published?.files ?? {})) {
    const base = published?.localDir;
    attachments.set(resultId, {
      ...(files.screenshot
        ? { screenshot: base ? path.join(base, files.screenshot) : files.screenshot }
        : {}),
      ...(files.comparison
        ? { comparison: base ? path.join(base, files.comparison) : files.comparison }
        : {}),
    });
  }
  const report: Report = verdict.waited
    ? buildReport(summary, verdict.policy, attachments, verdict)
    : buildStartedReport(summary, verdict.policy);

  await attempt('results.json (results-path)', async () => {
    await writeResultsJson(report, inputs.resultsPath);
    core.info(`Results: ${inputs.resultsPath}`);
  });
  if (inputs.junitPath && verdict.waited) {
    const junitPath = inputs.junitPath;
    await attempt('the JUnit report (junit-path)', async () => {
      await writeJUnit(report, junitPath);
      core.info(`JUnit report: ${junitPath}`);
    });
  }
  if (inputs.summary) {
    await attempt('the job summary', async () => {
      const markdown = renderSummary(report, {
        resultsPath: inputs.resultsPath,
        ...(inputs.junitPath && verdict.waited ? { junitPath: inputs.junitPath } : {}),
        ...(published?.artifactUrl ? { artifactUrl: published.artifactUrl } : {}),
      });
      await core.summary.addRaw(markdown).write();
    });
  }
  // A failing verdict adds one error of its own (core.setFailed): keep a slot free for it.
  if (inputs.annotations && verdict.waited) {
    emitAnnotations(renderAnnotations(report, { reservedErrors: verdict.passing ? 0 : 1 }));
  }
  if (inputs.prComment && !interrupted && verdict.waited) {
    const number = pullRequestNumber();
    const [owner, repo] = (process.env.GITHUB_REPOSITORY ?? '').split('/');
    if (number === null || !owner || !repo) core.info('pr-comment: not a pull request event; no comment.');
    else if (!inputs.githubToken) core.warning('pr-comment: no github-token; no comment.');
    else {
      await attempt('the pull-request comment', async () => {
        const { renderPullRequestComment, upsertPullRequestComment } = await import('./report/pr-comment.js');
        const server = process.env.GITHUB_SERVER_URL ?? 'https://github.com';
        const runUrl = process.env.GITHUB_RUN_ID
          ? `${server}/${owner}/${repo}/actions/runs/${process.env.GITHUB_RUN_ID}`
          : undefined;
        const key = commentKey(inputs);
        return upsertPullRequestComment({
          token: inputs.githubToken,
          owner,
          repo,
          issueNumber: number,
          key,
          body: renderPullRequestComment(report, { key, ...(runUrl ? { runUrl } : {}) }),
          ...(process.env.GITHUB_API_URL ? { baseUrl: process.env.GITHUB_API_URL } : {}),
        });
      });
    }
  }
}

/**
 * Runs the action. Sets outputs and the step's result; never throws.
 */
export async function run(): Promise<void> {
  const startedAtMs = Date.now();
  const workflowCancel = new AbortController();
  const onSignal = (signal: NodeJS.Signals): void => {
    if (workflowCancel.signal.aborted) return;
    core.warning(`Received ${signal}: cancelling the remote runs.`);
    workflowCancel.abort();
    // The runner kills the process 10 s after SIGINT: whatever the main flow is doing, it ends before.
    armHardExit(() => {
      core.setFailed(
        `Workflow cancelled: the action did not finish within ${HARD_EXIT_MS / 1000} s of ${signal}; stopped.`,
      );
      forceExit();
    });
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  let exitNow = false;
  try {
    // Mask the API key before anything can print it. Outside GitHub nobody consumes the mask command, which
    // would itself print the secret: there, secrets are only redacted.
    const onRunner = process.env.GITHUB_ACTIONS === 'true';
    const rawKey = core.getInput('api-key');
    if (rawKey && onRunner) core.setSecret(rawKey);

    let inputs: ActionInputs;
    try {
      inputs = await readInputs();
    } catch (error) {
      if (error instanceof InputError) {
        core.setFailed(error.message);
        return;
      }
      throw error;
    }
    if (onRunner) for (const secret of inputs.secrets) core.setSecret(secret);
    for (const warning of inputs.warnings) core.warning(warning);
    for (const notice of inputs.notices) core.notice(notice);
    const redact = createRedactor(inputs.secrets);
    const resultsDir = path.dirname(inputs.resultsPath);
    try {
      await ensureRunnerFiles(resultsDir);
    } catch (error) {
      core.setFailed(`Could not create the directory of results-path (${resultsDir}): ${messageOf(error)}`);
      return;
    }

    // One request budget for the engine's calls and the client's own retries; it slows down on 429s.
    const budget = new RateBudget();
    const api = createClient({
      apiKey: inputs.apiKey,
      baseUrl: inputs.apiBaseUrl,
      secrets: inputs.secrets,
      log: (line) => core.debug(redact(line)),
      sleep: budget.clientSleep(),
      onRequest: () => budget.markSent(),
      onRateLimited: (retryAfterMs) => budget.onRateLimited(retryAfterMs),
    });
    // A backstop: the engine returns within the wrap-up time after the deadline (run/deadline.ts).
    const disarmBackstop = armHardExit(
      () => {
        core.setFailed('The run did not stop at the timeout; stopped.');
        forceExit();
      },
      startedAtMs + inputs.timeoutMs + DEADLINE_BACKSTOP_MS - Date.now(),
    );
    const raw = await runPlan(
      {
        suiteIds: inputs.suiteIds,
        folderIds: inputs.folderIds,
        testIds: inputs.testIds,
        repoTests: inputs.repoTests,
        organizationId: inputs.organizationId,
        execute: inputs.execute,
        startUrls: inputs.startUrls,
        wait: inputs.wait,
        timeoutMs: inputs.timeoutMs,
        cancelOnTimeout: inputs.cancelOnTimeout,
        retryFailed: inputs.retryFailed,
      },
      {
        api,
        budget,
        log: runLog(redact),
        signal: workflowCancel.signal,
        startedAtMs,
        ...(process.env.GHOST_INSPECTOR_APP_URL ? { appUrl: process.env.GHOST_INSPECTOR_APP_URL } : {}),
      },
    );
    disarmBackstop();
    const summary = redactSummary(raw, {
      values: inputs.secrets,
      privateVariableNames: inputs.privateVariableNames,
    });
    const interrupted = summary.interrupted === 'signal';
    exitNow = interrupted;
    const policy = {
      failOnScreenshotCompare: inputs.failOnScreenshotCompare,
      failOnTimeout: inputs.failOnTimeout,
      failOnEmpty: inputs.failOnEmpty,
    };
    // The one verdict: every report, output and the step result render it.
    const verdict =
      inputs.wait || interrupted ? decideVerdict(summary, policy) : decideStartedVerdict(summary, policy);
    await writeReports(inputs, summary, verdict, interrupted);
    const outputs = computeOutputs(summary, verdict, inputs.resultsPath);
    for (const [name, value] of Object.entries(outputs)) core.setOutput(name, value);
    if (!verdict.waited) {
      const started = verdict.counts.total - verdict.counts.error;
      core.info(`Started ${started} run${started === 1 ? '' : 's'} without waiting (wait: false).`);
      if (!verdict.passing) core.setFailed(verdict.reasons.join(' '));
      return;
    }

    const c = verdict.counts;
    core.info(
      `Verdict: ${verdict.passing ? 'passed' : 'failed'} — ${c.total} total, ${c.passed} passed, ${c.failed} failed, ` +
        `${c.flaky} flaky, ${c.timedOut} timed out, ${c.cancelled} cancelled, ${c.error} error, ` +
        `${c.screenshotCompareFailed} screenshot comparison(s) failed.`,
    );
    if (!verdict.passing) core.setFailed(verdict.reasons.join(' '));
  } catch (error) {
    core.setFailed(`Unexpected error: ${messageOf(error)}`);
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    if (exitNow || workflowCancel.signal.aborted) process.exit(process.exitCode || 1);
  }
}
