/**
 * The opt-in failure issue: one open issue per key while the verdict fails, a comment per failing run,
 * closed on the first passed verdict (docs/github-platform.md, "Failure issues"); pull requests untouched.
 */
import { plural } from '../common/words.js';
import { commentMarker, MAX_COMMENT_CHARS } from './pr-comment.js';
import { findOwn, githubRest, tokenLogin, type GitHubRest, type GitHubRestOptions } from './github-rest.js';
import type { TestHistory } from './history.js';
import type { Report } from './model-types.js';
import { groupBlock, groupTests } from './summary-failures.js';
import { escapeInline, truncate } from './text.js';

/** What the issue's body remembers between runs, in a hidden comment after the marker. */
interface IssueState {
  /** ISO date of the first failing run. */
  since: string;
  /** Links (HTML) of the first and the last failing run. */
  sinceRun: string;
  lastRun: string;
  failedRuns: number;
  /** `<run id>.<attempt>` of the last run that wrote: the same run never writes twice. */
  seen: string;
}

const STATE_PREFIX = '<!-- ghost-inspector-action-state ';

export interface FailureIssueOptions extends GitHubRestOptions {
  owner: string;
  repo: string;
  /** The issue's key (workflow, job, `comment-key`): one issue per key. */
  key: string;
  /** Labels set when the issue is opened; the open issue is looked up by them. */
  labels: string[];
  title: string;
  /** This run: `<run id>.<attempt>` and its link (HTML). */
  run: { key: string; link: string };
  /** This run's date, ISO 8601. */
  now: string;
  /** This run's failures (HTML, {@link renderFailures}); null when the verdict passed. */
  failures: string | null;
}

/** What the run did to the issue (`none`: this run already wrote to it). */
export interface FailureIssueResult {
  number: number;
  url: string;
  change: 'opened' | 'commented' | 'closed' | 'none';
}

/** The failures of `report` (pure), as in the job summary with history lines, as many as fit a comment. */
export function renderFailures(report: Report, history: TestHistory): string {
  const groups = groupTests(report, (t) => t.failing);
  let text = '';
  for (const [i, group] of groups.entries()) {
    const line = history.get(group.matching[0].test.testId ?? '');
    const block = groupBlock(report, group) + (line ? `<p>History: ${escapeInline(line)}</p>\n\n` : '');
    if (text.length + block.length > MAX_COMMENT_CHARS - 4_000) {
      return `${text}… and ${plural(groups.length - i, 'more failing test')}.\n`;
    }
    text += block;
  }
  return text;
}

/**
 * Opens, comments on or closes the own open issue of `options.key` for this run's verdict.
 * @returns the issue touched (or already written by this run), null when none
 * @throws the Octokit `RequestError` of a failed request, an Error for an answer of the wrong shape, the
 *   abort error on `signal`
 */
export async function trackFailureIssue(options: FailureIssueOptions): Promise<FailureIssueResult | null> {
  const octokit = githubRest(options);
  const marker = commentMarker(`failure-issue:${options.key}`);
  const login = await tokenLogin(octokit);
  const found = await findOwnIssue(octokit, options, login, marker);
  const { owner, repo, run } = options;
  if (!found) {
    if (options.failures === null) return null;
    const state: IssueState = {
      since: options.now,
      sinceRun: run.link,
      lastRun: run.link,
      failedRuns: 1,
      seen: run.key,
    };
    const { data } = await octokit.rest.issues.create({
      owner,
      repo,
      title: truncate(options.title, 200),
      body: issueBody(marker, state, options.failures),
      labels: options.labels,
    });
    // GitHub drops the labels of a new issue silently when the token has no push access; the next run finds
    // the issue by them, so they are added on their own ("Add labels to an issue" needs only issues: write).
    const set = new Set(data.labels.map((l) => (typeof l === 'string' ? l : l.name)));
    if (options.labels.some((l) => !set.has(l))) {
      await octokit.rest.issues.addLabels({ owner, repo, issue_number: data.number, labels: options.labels });
    }
    return { number: data.number, url: data.html_url, change: 'opened' };
  }
  const result = { number: found.number, url: found.url };
  if (found.state.seen === run.key) return { ...result, change: 'none' };
  const params = { owner, repo, issue_number: found.number };
  // The body (and its `seen`) is written before the comment: a step run again never comments twice.
  if (options.failures === null) {
    const state = { ...found.state, seen: run.key };
    const body = issueBody(marker, state, `Passing again in ${run.link}.\n`);
    await octokit.rest.issues.update({ ...params, body, state: 'closed', state_reason: 'completed' });
    await octokit.rest.issues.createComment({
      ...params,
      body: `${marker}\n✅ Passing again in ${run.link}.\n`,
    });
    return { ...result, change: 'closed' };
  }
  const state = { ...found.state, lastRun: run.link, failedRuns: found.state.failedRuns + 1, seen: run.key };
  await octokit.rest.issues.update({ ...params, body: issueBody(marker, state, options.failures) });
  await octokit.rest.issues.createComment({
    ...params,
    body: `${marker}\n### ❌ Failed again in ${run.link}\n\n${options.failures}`,
  });
  return { ...result, change: 'commented' };
}

/** The oldest-listed open own issue of `marker` among the issues carrying the labels; pull requests skipped. */
async function findOwnIssue(
  octokit: GitHubRest,
  options: FailureIssueOptions,
  login: string,
  marker: string,
): Promise<{ number: number; url: string; state: IssueState } | undefined> {
  const query = {
    owner: options.owner,
    repo: options.repo,
    state: 'open' as const,
    per_page: 100,
    ...(options.labels.length > 0 ? { labels: options.labels.join(',') } : {}),
  };
  const issue = await findOwn(octokit.paginate.iterator(octokit.rest.issues.listForRepo, query), {
    login,
    marker,
    what: 'issues',
    baseUrl: options.baseUrl,
    also: (item) => !('pull_request' in item),
  });
  if (!issue) return undefined;
  const { number, html_url: url, body } = issue;
  if (typeof number !== 'number' || typeof url !== 'string') {
    throw new Error(`the GitHub API answered an issue without a number or link`);
  }
  return { number, url, state: readState(body as string, options.now) };
}

function issueBody(marker: string, state: IssueState, failures: string): string {
  // JSON inside an HTML comment: `-`, `<` and `>` escaped so that no `-->` can end it early.
  const json = JSON.stringify(state).replace(/[-<>]/g, (c) => `\\u00${c.charCodeAt(0).toString(16)}`);
  const date = state.since.slice(0, 10);
  return truncate(
    [
      marker,
      `${STATE_PREFIX}${json} -->`,
      `Failing since ${date}, ${state.sinceRun}; last failed ${state.lastRun}; ${plural(state.failedRuns, 'failed run')}.`,
      '',
      failures,
    ].join('\n'),
    MAX_COMMENT_CHARS,
  );
}

/** The state in an own issue's body; what is missing (a body edited by hand) starts over at `now`. */
function readState(body: string, now: string): IssueState {
  const state: IssueState = { since: now, sinceRun: '', lastRun: '', failedRuns: 0, seen: '' };
  const start = body.indexOf(STATE_PREFIX);
  let saved: Record<string, unknown> = {};
  try {
    const parsed: unknown =
      start >= 0 ? JSON.parse(body.slice(start + STATE_PREFIX.length, body.indexOf(' -->', start))) : null;
    if (parsed !== null && typeof parsed === 'object') saved = parsed as Record<string, unknown>;
  } catch {
    // Not JSON any more: start over.
  }
  for (const key of Object.keys(state) as Array<keyof IssueState>) {
    if (typeof saved[key] === typeof state[key]) Object.assign(state, { [key]: saved[key] });
  }
  return state;
}
