/**
 * Finds the own issues of a failure issue's key (docs/reports.md, "Failure issue"): by the marker and the
 * writer, among the issues carrying the labels, else among all issues (GitHub may have dropped the labels).
 */
import { listOwn, type GitHubRest, type Listed } from './github-rest.js';
import { readState, type IssueState } from './failure-issue-body.js';

/** An own issue of the key as listed. */
export interface OwnIssue {
  number: number;
  url: string;
  open: boolean;
  /** Milliseconds since the epoch it was closed; null while open or when GitHub gave no date. */
  closedAt: number | null;
  state: IssueState;
}

/** Where and how to look. */
export interface FindOptions {
  owner: string;
  repo: string;
  labels: string[];
  /** The token's login; null: any app's bot (an installation token). */
  login: string | null;
  marker: string;
  /** `open`: the open issues alone; `all`: closed ones too. */
  state: 'open' | 'all';
  now: string;
  baseUrl?: string;
}

/**
 * The own issues of `marker`, oldest first (by number): those carrying the labels, else, when none does, any
 * (a person's token: created by its user). Pull requests skipped. At most 10 pages per list.
 * @throws the request error of a failed list, an Error for an answer of the wrong shape
 */
export async function findOwnIssues(octokit: GitHubRest, options: FindOptions): Promise<OwnIssue[]> {
  const base = {
    owner: options.owner,
    repo: options.repo,
    state: options.state,
    per_page: 100,
  };
  const queries =
    options.labels.length > 0
      ? [
          { ...base, labels: options.labels.join(',') },
          { ...base, ...creator(options.login) },
        ]
      : [{ ...base, ...creator(options.login) }];
  for (const query of queries) {
    const listed = await listOwn(octokit.paginate.iterator(octokit.rest.issues.listForRepo, query), {
      login: options.login,
      marker: options.marker,
      what: 'issues',
      ...(options.baseUrl ? { baseUrl: options.baseUrl } : {}),
      also: (item) => !('pull_request' in item) || item.pull_request == null,
    });
    if (listed.length > 0) {
      return listed.map((issue) => ownIssue(issue, options.now)).sort((a, b) => a.number - b.number);
    }
  }
  return [];
}

/** The `creator` filter for a person's login; none for an app's bot, which the docs do not name as a creator. */
function creator(login: string | null): { creator?: string } {
  return login === null || login.endsWith('[bot]') ? {} : { creator: login };
}

function ownIssue(issue: Listed, now: string): OwnIssue {
  const { number, html_url: url, body, state, closed_at: closedAt } = issue;
  if (typeof number !== 'number' || typeof url !== 'string') {
    throw new Error(`the GitHub API answered an issue without a number or link`);
  }
  const closed = typeof closedAt === 'string' ? Date.parse(closedAt) : NaN;
  return {
    number,
    url,
    open: state !== 'closed',
    closedAt: Number.isNaN(closed) ? null : closed,
    state: readState(body as string, now),
  };
}
