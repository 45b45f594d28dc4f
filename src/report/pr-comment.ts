/** The opt-in sticky pull-request comment (docs/api-contract.md, "Pull-request comments"). */
import { createHash } from 'node:crypto';

import type { TestHistory } from './history.js';
import type { Report } from './model-types.js';
import { allTests } from './model.js';
import { failureMessage, withVariant } from './phrases.js';
import { headline } from './summary.js';
import { describeShape, findOwn, githubRest, tokenLogin, type GitHubRestOptions } from './github-rest.js';
import { link } from './summary-failures.js';
import { escapeInline, safeUrl, truncate } from './text.js';

/** The marker's base; a key (e.g. the job name) gives one comment per key. */
const COMMENT_MARKER_BASE = 'ghost-inspector-action';

/** GitHub rejects comment bodies above 65536 characters; stay under with a margin. */
export const MAX_COMMENT_CHARS = 60_000;

/** Failures listed in the comment before "N more". */
const MAX_LISTED_FAILURES = 20;

/** The hidden marker of the sticky comment: `<!-- ghost-inspector-action[:KEY] -->`, the key cleaned. */
export function commentMarker(key?: string): string {
  let clean = key ? key.replace(/[^A-Za-z0-9._-]/g, '_') : '';
  // A long key (e.g. every matrix value) keeps its start and a digest of the whole, so keys stay distinct.
  if (clean.length > 100)
    clean = `${clean.slice(0, 80)}-${createHash('sha256').update(key!).digest('hex').slice(0, 16)}`;
  return clean ? `<!-- ${COMMENT_MARKER_BASE}:${clean} -->` : `<!-- ${COMMENT_MARKER_BASE} -->`;
}

export interface PullRequestCommentOptions {
  /** Per-job key of the sticky comment (see {@link commentMarker}). */
  key?: string;
  runUrl?: string;
  /** The heading's title before the verdict; default `Ghost Inspector`. */
  title?: string;
  /** History lines of failed tests, by test id. */
  history?: TestHistory;
}

/** Renders the pull-request comment (pure), at most {@link MAX_COMMENT_CHARS} characters, marker first. */
export function renderPullRequestComment(report: Report, options: PullRequestCommentOptions = {}): string {
  const lines: string[] = [];
  const failing = [...allTests(report)].filter(({ test }) => test.failing);
  for (const { run, test } of failing.slice(0, MAX_LISTED_FAILURES)) {
    const name = escapeInline(truncate(withVariant(test.title, run.variantLabel), 400));
    const history = test.testId ? options.history?.get(test.testId) : undefined;
    lines.push(
      `- ${link(test.resultUrl, name)}: ${escapeInline(truncate(failureMessage(test), 500))}${history ? ` (${history})` : ''}`,
    );
  }
  if (failing.length > MAX_LISTED_FAILURES)
    lines.push(`- … and ${failing.length - MAX_LISTED_FAILURES} more`);
  const runHref = options.runUrl ? safeUrl(options.runUrl) : '';
  if (runHref) lines.push('', `<a href="${runHref}">Details in the job summary</a>`);
  const head = `${commentMarker(options.key)}\n${headline(report, { title: options.title })}`;
  return truncate(`${(head + lines.join('\n')).trimEnd()}\n`, MAX_COMMENT_CHARS);
}

export interface UpsertCommentOptions extends GitHubRestOptions {
  owner: string;
  repo: string;
  issueNumber: number;
  /** The comment's Markdown; the marker is prepended when it does not start with it. */
  body: string;
  key?: string;
}

/**
 * Creates the sticky comment on a pull request, or updates the oldest own one; requests stay on the API's
 * origin.
 * @returns the comment id and whether it was created
 * @throws the Octokit `RequestError` of a failed request, an Error for a wrong answer, the abort error
 */
export async function upsertPullRequestComment(
  options: UpsertCommentOptions,
): Promise<{ id: number; created: boolean }> {
  const marker = commentMarker(options.key);
  const body = options.body.startsWith(marker) ? options.body : `${marker}\n${options.body}`;
  const octokit = githubRest(options);
  const login = await tokenLogin(octokit);
  const params = { owner: options.owner, repo: options.repo, issue_number: options.issueNumber };
  const found = await findOwn(
    octokit.paginate.iterator(octokit.rest.issues.listComments, { ...params, per_page: 100 }),
    { login, marker, what: `comments of pull request #${options.issueNumber}`, baseUrl: options.baseUrl },
  );
  if (found) {
    if (typeof found.id !== 'number') {
      throw new Error(`the GitHub API answered a comment without a numeric id (${describeShape(found.id)})`);
    }
    const { owner, repo } = options;
    await octokit.rest.issues.updateComment({ owner, repo, comment_id: found.id, body });
    return { id: found.id, created: false };
  }
  const created = await octokit.rest.issues.createComment({ ...params, body });
  return { id: created.data.id, created: true };
}
