/**
 * GitHub's REST API for the pull-request comment and the failure issue: one client, its identity, "own",
 * bounded paging (docs/api-contract.md).
 */
import { getOctokit } from '@actions/github';

/** Pages of one list read at most (issues, comments): a list longer than that is read no further. */
const MAX_PAGES = 10;

export type GitHubRest = ReturnType<typeof getOctokit>;

export interface GitHubRestOptions {
  /** A token allowed to write issues / pull requests (`github-token`). */
  token: string;
  /** REST API base, default `GITHUB_API_URL` or `https://api.github.com`. */
  baseUrl?: string;
  /** Stops every request (the time limit, the workflow cancel). */
  signal?: AbortSignal;
}

/** A REST client whose every request carries `signal` and is refused when it would leave the API's origin. */
export function githubRest(options: GitHubRestOptions): GitHubRest {
  const octokit = getOctokit(options.token, options.baseUrl ? { baseUrl: options.baseUrl } : {});
  const origin = new URL(options.baseUrl ?? 'https://api.github.com').origin;
  octokit.hook.before('request', (request) => {
    const url = new URL(request.url, `${request.baseUrl}/`);
    if (url.origin !== origin) throw new Error(`the GitHub API pointed the action to ${url.origin}; refused`);
    request.request = { ...request.request, ...(options.signal ? { signal: options.signal } : {}) };
  });
  return octokit;
}

/**
 * The login of the token's identity; null when `GET /user` is refused (403): a GitHub App installation token
 * (`GITHUB_TOKEN` or another app's), which writes as its app's bot, `<app slug>[bot]`.
 * @throws the request error of any other failure, an Error for an answer without a login
 */
export async function tokenLogin(octokit: GitHubRest): Promise<string | null> {
  try {
    const { data } = await octokit.rest.users.getAuthenticated();
    const login: unknown = (data as { login?: unknown } | null)?.login;
    if (typeof login !== 'string') {
      throw new Error(`the GitHub API answered GET /user with ${describeShape(login)} as the login`);
    }
    return login;
  } catch (error) {
    if ((error as { status?: unknown }).status === 403) return null;
    throw error;
  }
}

/**
 * True when `user` is the token's identity: `login` when known, else any app's bot (a login ending in
 * `[bot]`, which GitHub keeps for apps: no person can take it).
 */
function isWriter(user: { login?: unknown } | null | undefined, login: string | null): boolean {
  const name = user?.login;
  return typeof name === 'string' && (login === null ? name.endsWith('[bot]') : name === login);
}

/** A listed comment or issue: what the action reads of it. */
export type Listed = Record<string, unknown> & { body?: unknown; user?: { login?: unknown } | null };

/** What makes a listed item the action's own: written by `login` ({@link isWriter}), its body starting with `marker`. */
export interface OwnFilter {
  login: string | null;
  marker: string;
  /** The list's name for errors (`issues`, `comments of pull request #7`). */
  what: string;
  baseUrl?: string;
  also?: (item: Listed) => boolean;
}

/**
 * The listed comments or issues that are the action's own and pass `also`, page by page, in list order,
 * over at most {@link MAX_PAGES} pages ({@link boundedPages}); with `first`, the first one alone.
 * @throws an Error naming `what` and `baseUrl` when a page is not a list
 */
export async function listOwn(
  pages: AsyncIterable<{ data: unknown; url?: string; headers?: { link?: string } }>,
  own: OwnFilter,
  first = false,
): Promise<Listed[]> {
  const found: Listed[] = [];
  for await (const { data } of boundedPages(pages)) {
    if (!Array.isArray(data)) {
      throw new Error(
        `the GitHub API answered the list of ${own.what} with ${describeShape(data)} instead of a list; is GITHUB_API_URL (${own.baseUrl ?? 'https://api.github.com'}) the REST API?`,
      );
    }
    for (const c of data as Array<Listed | null>) {
      if (!c || !isWriter(c.user, own.login) || typeof c.body !== 'string') continue;
      if (!c.body.startsWith(own.marker) || !(own.also?.(c) ?? true)) continue;
      found.push(c);
      if (first) return found;
    }
  }
  return found;
}

/** The first own listed comment or issue ({@link listOwn}). */
export async function findOwn(
  pages: AsyncIterable<{ data: unknown; url?: string; headers?: { link?: string } }>,
  own: OwnFilter,
): Promise<Listed | undefined> {
  return (await listOwn(pages, own, true))[0];
}

/**
 * The pages of `pages`, at most {@link MAX_PAGES}, ending early where a page's `rel="next"` link names a page
 * already read or linked (a server whose links go round). Pagination:
 * https://docs.github.com/en/rest/using-the-rest-api/using-pagination-in-the-rest-api
 */
async function* boundedPages<T extends { url?: string; headers?: { link?: string } }>(
  pages: AsyncIterable<T>,
): AsyncGenerator<T> {
  const seen = new Set<string>();
  let read = 0;
  for await (const page of pages) {
    yield page;
    read += 1;
    if (page.url) seen.add(page.url);
    const next = /<([^>]+)>;\s*rel="next"/.exec(page.headers?.link ?? '')?.[1];
    if (!next || read >= MAX_PAGES || seen.has(next)) return;
    seen.add(next);
  }
}

/** `an object`, `a string`, `null`: what an unexpected API answer was, for an error message. */
export function describeShape(value: unknown): string {
  if (value === null) return 'null';
  if (value === undefined) return 'nothing';
  if (Array.isArray(value)) return 'a list';
  return `${typeof value === 'object' ? 'an' : 'a'} ${typeof value}`;
}
