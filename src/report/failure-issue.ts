/**
 * The opt-in failure issue: one issue per key (workflow, job, ref, `comment-key`) for the events that own it,
 * commented on by each failing run, closed by the first passed verdict, reopened by a failure soon after
 * (docs/reports.md, "Failure issue"; docs/api-contract.md, "Failure issues"); pull requests untouched.
 */
import { messageOf } from '../common/log.js';
import { plural } from '../common/words.js';
import type { FailureIssueKey } from '../github.js';
import { issueBody, issueMarker, type IssueState } from './failure-issue-body.js';
import { findOwnIssues, type OwnIssue } from './failure-issue-find.js';
import { githubRest, tokenLogin, type GitHubRest, type GitHubRestOptions } from './github-rest.js';
import { isNewFailure, noHistoryNote, type TestHistory } from './history.js';
import type { Report } from './model-types.js';
import { MAX_COMMENT_CHARS } from './pr-comment.js';
import { groupBlock, groupTests, titleHtml, type Group } from './summary-failures.js';
import { escapeInline, truncate } from './text.js';

const DAY_MS = 86_400_000;

export interface FailureIssueOptions extends GitHubRestOptions {
  owner: string;
  repo: string;
  /** What the issue belongs to: one issue per key. */
  key: FailureIssueKey;
  /** Labels set when the issue is opened; the issue is looked up by them first. */
  labels: string[];
  /** Logins assigned when the issue is opened or reopened (`failure-issue-assignees`). */
  assignees: string[];
  /** An own issue closed less than this many days ago is reopened (`failure-issue-reopen-days`); 0: never. */
  reopenDays: number;
  title: string;
  /** This run: `<run id>.<attempt>` and its link (HTML). */
  run: { key: string; link: string };
  /** This run's date, ISO 8601. */
  now: string;
  /** This run's failures (HTML, {@link renderFailures}); null when the verdict passed. */
  failures: string | null;
  /** Says what went wrong without stopping the issue (labels or assignees refused). */
  warn: (message: string) => void;
}

/** What the run did to the issue (`none`: this run already wrote to it). */
export interface FailureIssueResult {
  number: number;
  url: string;
  change: 'opened' | 'commented' | 'reopened' | 'closed' | 'none';
}

/**
 * The failures of `report` (pure), as in the job summary with history lines, as many as fit a comment; first
 * the tests that failed for the first time and the flaky ones (passed on a re-run), one line each.
 */
export function renderFailures(report: Report, history: TestHistory): string {
  const groups = groupTests(report, (t) => t.failing);
  const lineOf = (group: Group) => history.get(group.matching[0].test.testId ?? '');
  const names = (list: Group[]) => list.map((g) => titleHtml(g.matching[0].test)).join(', ');
  const fresh = groups.filter((g) => isNewFailure(lineOf(g)));
  const flaky = groupTests(report, (t) => !t.failing && t.state === 'flaky');
  const note = noHistoryNote(report);
  let text = [
    fresh.length > 0 ? `<p><b>New failures</b>: ${names(fresh)}.</p>` : '',
    flaky.length > 0 ? `<p><b>Flaky</b> (failed, then passed on a re-run): ${names(flaky)}.</p>` : '',
    note ? `<p>${escapeInline(note)}</p>` : '',
  ].join('');
  if (text) text += '\n\n';
  for (const [i, group] of groups.entries()) {
    const line = lineOf(group);
    const block = groupBlock(report, group) + (line ? `<p>History: ${escapeInline(line)}</p>\n\n` : '');
    if (text.length + block.length > MAX_COMMENT_CHARS - 4_000) {
      return `${text}… and ${plural(groups.length - i, 'more failing test')}.\n`;
    }
    text += block;
  }
  return text;
}

/** One run's view of GitHub: the client, the key's marker, the token's login (null: an app's bot). */
interface Session {
  octokit: GitHubRest;
  marker: string;
  login: string | null;
  options: FailureIssueOptions;
}

/**
 * Opens, comments on, reopens or closes the own issue of `options.key` for this run's verdict.
 * @returns the issue touched (or already written by this run), null when none
 * @throws the Octokit `RequestError` of a failed request, an Error for an answer of the wrong shape, the
 *   abort error on `signal`
 */
export async function trackFailureIssue(options: FailureIssueOptions): Promise<FailureIssueResult | null> {
  const octokit = githubRest(options);
  const session: Session = {
    octokit,
    marker: issueMarker(options.key),
    login: await tokenLogin(octokit),
    options,
  };
  const own = await find(session, options.failures === null ? 'open' : 'all');
  const [open, ...newer] = own.filter((i) => i.open);
  // Runs that raced and each kept their own: the newer ones are closed as duplicates of the oldest.
  for (const duplicate of newer) await closeDuplicate(session, duplicate, open);
  if (options.failures === null) return open ? close(session, open) : null;
  if (open) return comment(session, open, options.failures);
  const last = own
    .filter((i) => i.closedAt !== null)
    .sort((a, b) => b.closedAt! - a.closedAt!)
    .at(0);
  const reopenBefore = Date.parse(options.now) - options.reopenDays * DAY_MS;
  if (last && last.closedAt! > reopenBefore) return reopen(session, last, options.failures);
  return create(session, options.failures, last);
}

function find(session: Session, state: 'open' | 'all'): Promise<OwnIssue[]> {
  const { options } = session;
  return findOwnIssues(session.octokit, {
    owner: options.owner,
    repo: options.repo,
    labels: options.labels,
    login: session.login,
    marker: session.marker,
    state,
    now: options.now,
    ...(options.baseUrl ? { baseUrl: options.baseUrl } : {}),
  });
}

function params(session: Session, issue: { number: number }) {
  return { owner: session.options.owner, repo: session.options.repo, issue_number: issue.number };
}

/** Writes the body (and its `seen`) before the comment: a step run again never comments twice. */
async function write(
  session: Session,
  issue: OwnIssue,
  state: IssueState,
  text: string,
  change: FailureIssueResult['change'],
): Promise<FailureIssueResult> {
  const { octokit, marker, options } = session;
  const body = issueBody(marker, options.key, state, text);
  const patch = change === 'closed' ? { state: 'closed' as const, state_reason: 'completed' as const } : {};
  const reopened = change === 'reopened' ? { state: 'open' as const, state_reason: 'reopened' as const } : {};
  await octokit.rest.issues.update({ ...params(session, issue), body, ...patch, ...reopened });
  return { number: issue.number, url: issue.url, change };
}

async function close(session: Session, issue: OwnIssue): Promise<FailureIssueResult> {
  const { run } = session.options;
  if (issue.state.seen === run.key) return { number: issue.number, url: issue.url, change: 'none' };
  const state = { ...issue.state, seen: run.key, passedRun: run.link };
  const result = await write(session, issue, state, `Passing again in ${run.link}.\n`, 'closed');
  await session.octokit.rest.issues.createComment({
    ...params(session, issue),
    body: `${session.marker}\n✅ Passing again in ${run.link}.\n`,
  });
  return result;
}

async function comment(session: Session, issue: OwnIssue, failures: string): Promise<FailureIssueResult> {
  const { run } = session.options;
  if (issue.state.seen === run.key) return { number: issue.number, url: issue.url, change: 'none' };
  const state = { ...issue.state, lastRun: run.link, failedRuns: issue.state.failedRuns + 1, seen: run.key };
  const result = await write(session, issue, state, failures, 'commented');
  await session.octokit.rest.issues.createComment({
    ...params(session, issue),
    body: `${session.marker}\n### ❌ Failed again in ${run.link}\n\n${failures}`,
  });
  return result;
}

/** Reopens an own issue closed within the window; the count starts over when a run passed in between. */
async function reopen(session: Session, issue: OwnIssue, failures: string): Promise<FailureIssueResult> {
  const { run, now } = session.options;
  if (issue.state.seen === run.key) return { number: issue.number, url: issue.url, change: 'none' };
  const passed = issue.state.passedRun;
  const state: IssueState = {
    ...issue.state,
    ...(passed ? { since: now, sinceRun: run.link, failedRuns: 0 } : {}),
    lastRun: run.link,
    failedRuns: (passed ? 0 : issue.state.failedRuns) + 1,
    seen: run.key,
    passedRun: '',
  };
  const result = await write(session, issue, state, failures, 'reopened');
  const why = passed ? `it passed in ${passed}` : 'it was closed while failing';
  await session.octokit.rest.issues.createComment({
    ...params(session, issue),
    body: `${session.marker}\n### ❌ Failing again in ${run.link}: reopened (${why})\n\n${failures}`,
  });
  await assign(session, issue);
  return result;
}

/**
 * Opens the issue, then looks again: when another run opened one for the key first, this one is closed as
 * its duplicate and the run comments on the older.
 */
async function create(session: Session, failures: string, last?: OwnIssue): Promise<FailureIssueResult> {
  const { octokit, marker, options } = session;
  const { owner, repo, run } = options;
  const state: IssueState = {
    since: options.now,
    sinceRun: run.link,
    lastRun: run.link,
    failedRuns: 1,
    seen: run.key,
    passedRun: '',
    earlier: last ? `<a href="${last.url}">#${last.number}</a>` : '',
  };
  const { data } = await octokit.rest.issues.create({
    owner,
    repo,
    title: truncate(options.title, 200),
    body: issueBody(marker, options.key, state, failures),
    labels: options.labels,
  });
  const created: OwnIssue = { number: data.number, url: data.html_url, open: true, closedAt: null, state };
  await label(session, created, data.labels);
  // The writer, as GitHub named it, is the one to look for from now on.
  const writer = data.user?.login;
  const again = await find({ ...session, login: writer ?? session.login }, 'open');
  const older = again.find((i) => i.number < created.number);
  if (older) {
    await closeDuplicate(session, created, older);
    return comment(session, older, failures);
  }
  await assign(session, created);
  return { number: created.number, url: created.url, change: 'opened' };
}

/** Closes `duplicate` (as not planned) with a link to the issue of its key kept open. */
async function closeDuplicate(session: Session, duplicate: OwnIssue, kept: OwnIssue): Promise<void> {
  const { octokit, marker } = session;
  await octokit.rest.issues.update({
    ...params(session, duplicate),
    state: 'closed',
    state_reason: 'not_planned',
  });
  await octokit.rest.issues.createComment({
    ...params(session, duplicate),
    body: `${marker}\nDuplicate of <a href="${kept.url}">#${kept.number}</a>, opened for the same key by another run.\n`,
  });
}

/**
 * GitHub drops the labels of a new issue silently when the token has no push access; they are added on their
 * own ("Add labels to an issue" needs only issues: write). A refusal warns: the issue is found without them.
 */
async function label(session: Session, issue: OwnIssue, given: unknown[]): Promise<void> {
  const { labels } = session.options;
  const set = new Set(given.map((l) => (typeof l === 'string' ? l : (l as { name?: string }).name)));
  if (labels.every((l) => set.has(l))) return;
  try {
    await session.octokit.rest.issues.addLabels({ ...params(session, issue), labels });
  } catch (error) {
    if (session.options.signal?.aborted) throw error;
    session.options.warn(
      `failure-issue: GitHub did not add the labels ${labels.join(', ')}: ${messageOf(error)}`,
    );
  }
}

/** Assigns `failure-issue-assignees`; GitHub ignores logins it cannot assign: those are named in a warning. */
async function assign(session: Session, issue: OwnIssue): Promise<void> {
  const { assignees } = session.options;
  if (assignees.length === 0) return;
  try {
    const { data } = await session.octokit.rest.issues.addAssignees({ ...params(session, issue), assignees });
    const got = new Set((data.assignees ?? []).map((a) => a?.login));
    const missing = assignees.filter((a) => !got.has(a));
    if (missing.length > 0) {
      session.options.warn(
        `failure-issue-assignees: GitHub did not assign ${missing.join(', ')} to issue #${issue.number} (a login that cannot be assigned in this repository, or a token without push access)`,
      );
    }
  } catch (error) {
    if (session.options.signal?.aborted) throw error;
    session.options.warn(
      `failure-issue-assignees: could not assign issue #${issue.number}: ${messageOf(error)}`,
    );
  }
}
