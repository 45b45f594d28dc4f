/** GitHub's REST API for the pull-request comment and the failure issue: one client, its identity, "own". */
import { getOctokit } from '@actions/github';

/** The login of comments and issues written with `GITHUB_TOKEN` (the GitHub Actions app's bot). */
const ACTIONS_BOT_LOGIN = 'github-actions[bot]';

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
 * The login of the token's identity; {@link ACTIONS_BOT_LOGIN} when `GET /user` is refused (403).
 * @throws the request error of any other failure, an Error for an answer without a login
 */
export async function tokenLogin(octokit: GitHubRest): Promise<string> {
  try {
    const { data } = await octokit.rest.users.getAuthenticated();
    const login: unknown = (data as { login?: unknown } | null)?.login;
    if (typeof login !== 'string') {
      throw new Error(`the GitHub API answered GET /user with ${describeShape(login)} as the login`);
    }
    return login;
  } catch (error) {
    if ((error as { status?: unknown }).status === 403) return ACTIONS_BOT_LOGIN;
    throw error;
  }
}

/** A listed comment or issue: what the action reads of it. */
export type Listed = Record<string, unknown> & { body?: unknown; user?: { login?: unknown } | null };

/**
 * The first listed comment or issue that is the action's own (written by `login`, its body starting with
 * `marker`) and passes `also`, page by page.
 * @throws an Error naming `what` and `baseUrl` when a page is not a list
 */
export async function findOwn(
  pages: AsyncIterable<{ data: unknown }>,
  own: { login: string; marker: string; what: string; baseUrl?: string; also?: (item: Listed) => boolean },
): Promise<Listed | undefined> {
  for await (const { data } of pages) {
    if (!Array.isArray(data)) {
      throw new Error(
        `the GitHub API answered the list of ${own.what} with ${describeShape(data)} instead of a list; is GITHUB_API_URL (${own.baseUrl ?? 'https://api.github.com'}) the REST API?`,
      );
    }
    const found = (data as Array<Listed | null>).find(
      (c) =>
        c?.user?.login === own.login &&
        typeof c.body === 'string' &&
        c.body.startsWith(own.marker) &&
        (own.also?.(c) ?? true),
    );
    if (found) return found;
  }
  return undefined;
}

/** `an object`, `a string`, `null`: what an unexpected API answer was, for an error message. */
export function describeShape(value: unknown): string {
  if (value === null) return 'null';
  if (value === undefined) return 'nothing';
  if (Array.isArray(value)) return 'a list';
  return `${typeof value === 'object' ? 'an' : 'a'} ${typeof value}`;
}
