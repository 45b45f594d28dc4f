/** The GitHub context: every `GITHUB_*`, `RUNNER_*` and `ACTIONS_*` variable is read here (docs/architecture.md). */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { withoutQuery } from './api/redact.js';

/** What the action knows about the workflow run it is part of; read with {@link readGitHubContext}. */
export interface GitHubContext {
  /** True on a GitHub runner (`GITHUB_ACTIONS=true`): workflow commands such as `::add-mask::` are read. */
  onRunner: boolean;
  /** The repository the workflow runs for: `GITHUB_REPOSITORY` split in two; null when not `owner/repo`. */
  repository: { owner: string; repo: string } | null;
  /** The pull request of the triggering event (`pull_request.number` in `GITHUB_EVENT_PATH`); else null. */
  pullRequest: number | null;
  /** `GITHUB_JOB`; null outside GitHub. */
  job: string | null;
  /** `GITHUB_WORKFLOW`: the workflow's name (its file path when it has none); null outside GitHub. */
  workflow: string | null;
  /** `GITHUB_EVENT_NAME`: the event that started the workflow run (`schedule`, `pull_request`, ...). */
  eventName: string | null;
  /** `GITHUB_REF`: the ref the run is for (`refs/heads/main`; the default branch for `schedule`). */
  ref: string | null;
  runId: string | null;
  /** The attempt of the workflow run, from 1 (`GITHUB_RUN_ATTEMPT`), as given. */
  runAttempt: string | null;
  /** The step id (`GITHUB_ACTION`): distinct for two uses of the action in one job. */
  step: string | null;
  /** Web server, no trailing slash (`GITHUB_SERVER_URL`, default `https://github.com`). */
  serverUrl: string;
  /** REST API base (`GITHUB_API_URL`); null: the client's default `https://api.github.com`. */
  apiUrl: string | null;
  /** The checked-out repository (`GITHUB_WORKSPACE`); relative input paths point here. Null when unset. */
  workspace: string | null;
  /** `GITHUB_OUTPUT`. */
  outputFile: string | null;
  /** `GITHUB_STEP_SUMMARY`. */
  summaryFile: string | null;
  /** `RUNNER_TEMP`. */
  runnerTemp: string | null;
  /** True when the artifact service can be reached (`ACTIONS_RUNTIME_TOKEN` set). */
  artifactService: boolean;
  /**
   * True on GitHub Enterprise Server: `serverUrl`'s host is not github.com, `*.ghe.com` (GitHub Enterprise
   * Cloud with data residency) or `*.localhost` (the hosts `@actions/artifact` accepts; it refuses the others).
   */
  enterpriseServer: boolean;
  /** 8 hex digits telling matrix legs and steps apart, from non-secret values; null outside GitHub. */
  matrixDigest: string | null;
}

/** Environment variables, besides the inputs, the matrix digest is made of. */
const DIGEST_ENV_KEYS = ['GITHUB_ACTION', 'RUNNER_OS', 'RUNNER_ARCH'];
/** Inputs the matrix digest is made of: never a secret (the start URL counts without its query). */
const DIGEST_INPUTS = [
  'suite-ids',
  'test-ids',
  'folder-ids',
  'test-files',
  'organization-id',
  'browser',
  'region',
  'viewport',
  'data-file',
  'data-source',
  'start-url',
  'results-path',
  'junit-path',
  'artifacts-dir',
  'comment-key',
];

/** Reads the GitHub context from `env` and its event file. Never throws (bad event file: no pull request). */
export function readGitHubContext(env: NodeJS.ProcessEnv = process.env): GitHubContext {
  const [owner, repo] = (env.GITHUB_REPOSITORY ?? '').split('/');
  return {
    onRunner: env.GITHUB_ACTIONS === 'true',
    repository: owner && repo ? { owner, repo } : null,
    pullRequest: pullRequestNumber(env.GITHUB_EVENT_PATH),
    job: env.GITHUB_JOB || null,
    workflow: env.GITHUB_WORKFLOW || null,
    eventName: env.GITHUB_EVENT_NAME || null,
    ref: env.GITHUB_REF || null,
    runId: env.GITHUB_RUN_ID || null,
    runAttempt: env.GITHUB_RUN_ATTEMPT || null,
    step: env.GITHUB_ACTION || null,
    serverUrl: (env.GITHUB_SERVER_URL || 'https://github.com').replace(/\/+$/, ''),
    apiUrl: env.GITHUB_API_URL || null,
    workspace: env.GITHUB_WORKSPACE || null,
    outputFile: env.GITHUB_OUTPUT || null,
    summaryFile: env.GITHUB_STEP_SUMMARY || null,
    runnerTemp: env.RUNNER_TEMP || null,
    artifactService: !!env.ACTIONS_RUNTIME_TOKEN,
    enterpriseServer: isEnterpriseServer(env.GITHUB_SERVER_URL),
    matrixDigest: env.GITHUB_JOB ? matrixDigest(env) : null,
  };
}

/** Whether `serverUrl` (default github.com) is a GitHub Enterprise Server; see {@link GitHubContext}. */
function isEnterpriseServer(serverUrl: string | undefined): boolean {
  let host: string;
  try {
    host = new URL(serverUrl || 'https://github.com').hostname.toLowerCase();
  } catch {
    return false;
  }
  return host !== 'github.com' && !host.endsWith('.ghe.com') && !host.endsWith('.localhost');
}

/** The pull request number in the event file at `eventPath`, or null. */
function pullRequestNumber(eventPath: string | undefined): number | null {
  if (!eventPath) return null;
  try {
    const event = JSON.parse(readFileSync(eventPath, 'utf8')) as { pull_request?: { number?: number } };
    return event.pull_request?.number ?? null;
  } catch {
    return null;
  }
}

function matrixDigest(env: NodeJS.ProcessEnv): string {
  const h = createHash('sha256');
  for (const key of DIGEST_ENV_KEYS) h.update(`${key}=${env[key] ?? ''}\n`);
  for (const input of DIGEST_INPUTS) {
    const value = env[`INPUT_${input.toUpperCase()}`] ?? '';
    h.update(`${input}=${input === 'start-url' ? withoutQuery(value) : value}\n`);
  }
  return h.digest('hex').slice(0, 8);
}

/** The web page of the workflow run (`<server>/<owner>/<repo>/actions/runs/<run id>`), when known. */
export function workflowRunUrl(context: GitHubContext): string | undefined {
  const { repository, runId } = context;
  if (!repository || !runId) return undefined;
  return `${context.serverUrl}/${repository.owner}/${repository.repo}/actions/runs/${runId}`;
}

/** The key of the sticky pull-request comment: the job id and the `comment-key` input (may be empty). */
export function commentKey(context: GitHubContext, commentKeyInput: string): string {
  return [context.job ?? '', commentKeyInput].filter(Boolean).join('-');
}

/** What a failure issue belongs to (docs/reports.md, "Failure issue"): each part as given, '' when unknown. */
export interface FailureIssueKey {
  workflow: string;
  job: string;
  ref: string;
  commentKey: string;
}

/** The key of the failure issue: the workflow, the job, the ref and the `comment-key` input. */
export function failureIssueKey(context: GitHubContext, commentKeyInput: string): FailureIssueKey {
  return {
    workflow: context.workflow ?? '',
    job: context.job ?? '',
    ref: context.ref ?? '',
    commentKey: commentKeyInput,
  };
}
