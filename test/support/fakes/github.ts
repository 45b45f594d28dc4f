/**
 * A local fake of the GitHub REST endpoints the pull-request comment and the failure issue call, served on
 * 127.0.0.1 and reached through the client's base URL (`GITHUB_API_URL` for the action). It follows GitHub's
 * REST documentation:
 * - GET /user, "Get the authenticated user" (https://docs.github.com/en/rest/users/users): the endpoint is not
 *   listed for GitHub App installation tokens such as GITHUB_TOKEN, answered here 403 "Resource not accessible
 *   by integration" (the default); the login when `tokenUser` is set (a personal token).
 * - GET /repos/{o}/{r}/issues, "List repository issues" (https://docs.github.com/en/rest/issues/issues):
 *   pull requests are listed too, told apart by their `pull_request` key; `state` (default open) and
 *   `labels` (comma separated, all required) filter.
 * - Lists are paged with a `Link: <…>; rel="next"` header
 *   (https://docs.github.com/en/rest/using-the-rest-api/using-pagination-in-the-rest-api), here at most
 *   PAGE_CAP items per page whatever `per_page` asks, so that a short list spans pages.
 * - POST /repos/{o}/{r}/issues, "Create an issue": 201; 403 when the token may not write issues, 410 when
 *   issues are disabled, 422 for a missing title (the status codes the page lists). "Only users with push
 *   access can set labels for new issues. Labels are silently dropped otherwise" (the page): `noPushAccess`.
 * - POST /repos/{o}/{r}/issues/{n}/labels, "Add labels to an issue"
 *   (https://docs.github.com/en/rest/issues/labels): labels the repository lacks are created on use. The
 *   docs do not say so; https://github.com/github/docs/issues/35718 reports it (and clients report the same for a new issue's
 *   labels), so the fake does it for both.
 * - PATCH /repos/{o}/{r}/issues/{n}, "Update an issue": `body`, `state`, `state_reason` (`completed`).
 * - GET/POST /repos/{o}/{r}/issues/{n}/comments and PATCH /repos/{o}/{r}/issues/comments/{id}
 *   (https://docs.github.com/en/rest/issues/comments).
 * No evidence was found for the exact answer of every error body; they carry `message` as GitHub's do.
 */
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

const PAGE_CAP = 3;
export const TOKEN = 'ghs_faketoken0123456789';

export interface FakeComment {
  id: number;
  issue: number;
  body: string;
  user: { login: string };
}

export interface FakeIssue {
  number: number;
  title: string;
  body: string;
  state: 'open' | 'closed';
  state_reason: string | null;
  labels: Array<{ name: string }>;
  user: { login: string };
  html_url: string;
  /** Set on a pull request (GitHub lists pull requests among issues). */
  pull_request?: { url: string };
}

export class FakeGitHub {
  comments: FakeComment[] = [];
  issues: FakeIssue[] = [];
  /** The repository's labels; a label given to a new issue is created here. */
  labels = new Set<string>();
  /** Issues are disabled in the repository: every issue endpoint answers 410. */
  issuesDisabled = false;
  /** The token has no push access: the labels of a new issue are dropped. */
  noPushAccess = false;
  /** The requests in the order they came, each with its time on {@link now}. */
  requests: Array<{ method: string; url: string; auth?: string; at: number }> = [];
  /** The clock of the requests' times (ms since the epoch); a test on virtual time sets its own. */
  now: () => number = Date.now;
  forbid = false;
  /** The token's user (a personal token); null: an installation token, which writes as github-actions[bot]. */
  tokenUser: string | null = null;
  /** When set, requests whose path matches are never answered. */
  hang: RegExp | null = null;
  /** When set, the list of comments links its next page here. */
  nextPageUrl: string | null = null;
  /** When set, the list of comments is answered with this instead of an array. */
  listAnswer: unknown = undefined;
  private nextId = 1000;
  private server: Server = createServer((req, res) => void this.handle(req, res));
  baseUrl = '';
  /** This process's requests to the fake from their creation to their end (see {@link inFlight}). */
  private readonly onTheirWay = new Set<object>();
  /** Requests `hang` holds, until the client gives up on them. */
  private held = 0;
  private readonly created = ({ request }: { request: { origin?: unknown } }): void => {
    const origin = String(request.origin);
    if (this.baseUrl && (origin === this.baseUrl || origin.startsWith(`${this.baseUrl}/`))) {
      this.onTheirWay.add(request);
    }
  };
  private readonly ended = ({ request }: { request: object }): void => void this.onTheirWay.delete(request);

  async start(): Promise<void> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.baseUrl = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    subscribe('undici:request:create', this.created as (message: unknown) => void);
    for (const end of ['undici:request:trailers', 'undici:request:error']) {
      subscribe(end, this.ended as (message: unknown) => void);
    }
  }

  async stop(): Promise<void> {
    unsubscribe('undici:request:create', this.created as (message: unknown) => void);
    for (const end of ['undici:request:trailers', 'undici:request:error']) {
      unsubscribe(end, this.ended as (message: unknown) => void);
    }
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  /**
   * Requests of this process's fetch (undici, which `@actions/github` uses) to this fake on their way: from
   * their creation to the end of their answer, as undici's diagnostics channels `undici:request:create`,
   * `:trailers` and `:error` tell (undici's docs/api/DiagnosticsChannel.md), less those `hang` holds. A
   * virtual clock counts them as busy, so that its time does not move while a request is on its way.
   */
  inFlight(): number {
    return Math.max(0, this.onTheirWay.size - this.held);
  }

  /** Adds an issue (or, with `pullRequest`, a pull request) written by `login`. */
  addIssue(fields: Partial<FakeIssue> & { body: string }, login = 'someone', pullRequest = false): FakeIssue {
    const number = this.issues.length + 1;
    const issue: FakeIssue = {
      number,
      title: 'an issue',
      state: 'open',
      state_reason: null,
      labels: [],
      html_url: `https://github.com/acme/shop/${pullRequest ? 'pull' : 'issues'}/${number}`,
      ...fields,
      user: { login },
      ...(pullRequest
        ? { pull_request: { url: `https://api.github.com/repos/acme/shop/pulls/${number}` } }
        : {}),
    };
    this.issues.push(issue);
    return issue;
  }

  add(issue: number, body: string, login = 'someone'): FakeComment {
    const c = { id: this.nextId++, issue, body, user: { login } };
    this.comments.push(c);
    return c;
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', this.baseUrl);
    this.requests.push({
      method: req.method ?? '',
      url: url.pathname + url.search,
      auth: req.headers.authorization,
      at: this.now(),
    });
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = chunks.length
      ? (JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
          body?: string;
          title?: string;
          labels?: string[];
          state?: 'open' | 'closed';
          state_reason?: string;
        })
      : {};
    const send = (status: number, data: unknown, headers: Record<string, string> = {}) => {
      res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers });
      res.end(JSON.stringify(data));
    };
    const sendPage = (all: unknown[]) => {
      const perPage = Math.min(PAGE_CAP, Number(url.searchParams.get('per_page') ?? 30));
      const page = Number(url.searchParams.get('page') ?? 1);
      const headers: Record<string, string> = {};
      if (this.nextPageUrl) headers.link = `<${this.nextPageUrl}>; rel="next"`;
      else if (page * perPage < all.length) {
        const next = new URL(url);
        next.searchParams.set('page', String(page + 1));
        next.searchParams.set('per_page', String(perPage));
        headers.link = `<${next.toString()}>; rel="next"`;
      }
      send(200, all.slice((page - 1) * perPage, page * perPage), headers);
    };
    if (this.hang?.test(url.pathname)) {
      this.held += 1;
      res.once('close', () => (this.held -= 1));
      return;
    }
    if (req.headers.authorization !== `token ${TOKEN}`) return send(401, { message: 'Bad credentials' });
    if (url.pathname === '/user' && req.method === 'GET') {
      if (this.tokenUser === null) return send(403, { message: 'Resource not accessible by integration' });
      return send(200, { login: this.tokenUser, id: 1, type: 'User' });
    }
    const write = req.method === 'POST' || req.method === 'PATCH';
    if (url.pathname.includes('/issues')) {
      if (this.issuesDisabled) return send(410, { message: 'Issues are disabled for this repo' });
      if (this.forbid && write) return send(403, { message: 'Resource not accessible by integration' });
    }
    const issues = /^\/repos\/[^/]+\/[^/]+\/issues$/.exec(url.pathname);
    const issue = /^\/repos\/[^/]+\/[^/]+\/issues\/(\d+)$/.exec(url.pathname);
    if (issues && req.method === 'GET') {
      const state = url.searchParams.get('state') ?? 'open';
      const wanted = (url.searchParams.get('labels') ?? '').split(',').filter(Boolean);
      const all = this.issues.filter(
        (i) =>
          (state === 'all' || i.state === state) && wanted.every((w) => i.labels.some((l) => l.name === w)),
      );
      return sendPage(all);
    }
    if (issues && req.method === 'POST') {
      if (!body.title) return send(422, { message: 'Validation Failed', errors: [{ field: 'title' }] });
      const labels = this.noPushAccess ? [] : (body.labels ?? []);
      for (const label of labels) this.labels.add(label);
      const created = this.addIssue(
        { title: body.title, body: body.body ?? '', labels: labels.map((name) => ({ name })) },
        this.tokenUser ?? 'github-actions[bot]',
      );
      return send(201, created);
    }
    const labelsOf = /^\/repos\/[^/]+\/[^/]+\/issues\/(\d+)\/labels$/.exec(url.pathname);
    if (labelsOf && req.method === 'POST') {
      const found = this.issues.find((i) => i.number === Number(labelsOf[1]));
      if (!found) return send(404, { message: 'Not Found' });
      for (const name of body.labels ?? []) {
        this.labels.add(name);
        if (!found.labels.some((l) => l.name === name)) found.labels.push({ name });
      }
      return send(200, found.labels);
    }
    if (issue && req.method === 'PATCH') {
      const found = this.issues.find((i) => i.number === Number(issue[1]));
      if (!found) return send(404, { message: 'Not Found' });
      if (body.body !== undefined) found.body = body.body;
      if (body.state) found.state = body.state;
      if (body.state_reason !== undefined) found.state_reason = body.state_reason;
      return send(200, found);
    }
    const list = /^\/repos\/([^/]+)\/([^/]+)\/issues\/(\d+)\/comments$/.exec(url.pathname);
    const one = /^\/repos\/([^/]+)\/([^/]+)\/issues\/comments\/(\d+)$/.exec(url.pathname);
    if (list && req.method === 'GET') {
      if (this.listAnswer !== undefined) return send(200, this.listAnswer);
      return sendPage(this.comments.filter((c) => c.issue === Number(list[3])));
    }
    if (list && req.method === 'POST') {
      const c = this.add(Number(list[3]), body.body ?? '', this.tokenUser ?? 'github-actions[bot]');
      return send(201, c);
    }
    if (one && req.method === 'PATCH') {
      const c = this.comments.find((x) => x.id === Number(one[3]));
      if (!c) return send(404, { message: 'Not Found' });
      c.body = body.body ?? '';
      return send(200, c);
    }
    send(404, { message: 'Not Found' });
  }
}
