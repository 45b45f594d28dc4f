/**
 * A local fake of the GitHub REST endpoints the pull-request comment and the failure issue call, served on
 * 127.0.0.1 and reached through the client's base URL (`GITHUB_API_URL` for the action). It follows GitHub's
 * REST documentation:
 * - GET /user, "Get the authenticated user" (https://docs.github.com/en/rest/users/users): the endpoint is not
 *   listed for GitHub App installation tokens such as GITHUB_TOKEN, answered here 403 "Resource not accessible
 *   by integration" (the default); the login when `tokenUser` is set (a personal token). An installation
 *   token writes as its app's bot, `<app slug>[bot]` of type `Bot` (`appLogin`: `github-actions[bot]` for
 *   GITHUB_TOKEN, e.g. `my-app[bot]` for another app's token): "About authentication with a GitHub App"
 *   (https://docs.github.com/en/apps/creating-github-apps/authenticating-with-a-github-app/about-authentication-with-a-github-app).
 *   Users carry `login` and `type` (`User` or `Bot`), as the "simple user" of the REST answers.
 * - GET /repos/{o}/{r}/issues, "List repository issues" (https://docs.github.com/en/rest/issues/issues):
 *   pull requests are listed too, told apart by their `pull_request` key; `state` (open, closed or all;
 *   default open), `labels` (comma separated, all required) and `creator` filter; `sort` (created or
 *   updated, default created) and `direction` (default desc) order. Issues carry `created_at`, `updated_at`
 *   and `closed_at` (null while open).
 * - Lists are paged with a `Link: <…>; rel="next"` header
 *   (https://docs.github.com/en/rest/using-the-rest-api/using-pagination-in-the-rest-api), here at most
 *   PAGE_CAP items per page whatever `per_page` asks, so that a short list spans pages. `linkLoop` makes a
 *   server whose next links go round (page 2 links back to page 1) or never end: the docs promise neither,
 *   a client has to bound its paging.
 * - POST /repos/{o}/{r}/issues, "Create an issue": 201; 403 when the token may not write issues, 410 when
 *   issues are disabled, 422 for a missing title (the status codes the page lists). "Only users with push
 *   access can set labels for new issues. Labels are silently dropped otherwise" (the page): `noPushAccess`.
 *   `createBarrier` holds creates until that many arrived, then makes them all: runs that race.
 * - POST /repos/{o}/{r}/issues/{n}/assignees, "Add assignees to an issue"
 *   (https://docs.github.com/en/rest/issues/assignees): 201 with the issue; "Assignees are silently ignored"
 *   when they cannot be assigned (here: logins not in `assignable`).
 * - POST /repos/{o}/{r}/issues/{n}/labels, "Add labels to an issue"
 *   (https://docs.github.com/en/rest/issues/labels): labels the repository lacks are created on use. The
 *   docs do not say so; https://github.com/github/docs/issues/35718 reports it (and clients report the same for a new issue's
 *   labels), so the fake does it for both.
 * - PATCH /repos/{o}/{r}/issues/{n}, "Update an issue": `body`, `state`, `state_reason` (`completed`,
 *   `not_planned`, `reopened`); closing sets `closed_at`, reopening clears it. `labelsRefused`: "Add labels
 *   to an issue" answers 403 (a token that may not label), so a new issue's dropped labels stay dropped.
 * - GET/POST /repos/{o}/{r}/issues/{n}/comments and PATCH /repos/{o}/{r}/issues/comments/{id}
 *   (https://docs.github.com/en/rest/issues/comments).
 * No evidence was found for the exact answer of every error body; they carry `message` as GitHub's do.
 */
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { listen } from '../fake-server.js';

const PAGE_CAP = 3;
export const TOKEN = 'ghs_faketoken0123456789';

/** A user as the REST answers show one: an app's bot is `<slug>[bot]` of type `Bot`. */
export interface FakeUser {
  login: string;
  type: 'User' | 'Bot';
}

function userOf(login: string): FakeUser {
  return { login, type: login.endsWith('[bot]') ? 'Bot' : 'User' };
}

export interface FakeComment {
  id: number;
  issue: number;
  body: string;
  user: FakeUser;
}

export interface FakeIssue {
  number: number;
  title: string;
  body: string;
  state: 'open' | 'closed';
  state_reason: string | null;
  labels: Array<{ name: string }>;
  assignees: FakeUser[];
  user: FakeUser;
  html_url: string;
  created_at: string;
  updated_at: string;
  closed_at: string | null;
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
  /** "Add labels to an issue" answers 403. */
  labelsRefused = false;
  /** Logins that can be assigned; others are ignored by "Add assignees to an issue". */
  assignable = new Set<string>();
  /** Creates held until this many arrived (runs that race); 0: none held. */
  createBarrier = 0;
  /** The issue list's next links go round (`loop`: page 2 links to page 1) or never end (`endless`). */
  linkLoop: 'loop' | 'endless' | null = null;
  /** The requests in the order they came, each with its time on {@link now}. */
  requests: Array<{ method: string; url: string; auth?: string; at: number }> = [];
  /** The clock of the requests' times (ms since the epoch); a test on virtual time sets its own. */
  now: () => number = Date.now;
  forbid = false;
  /** The token's user (a personal token); null: an installation token, which writes as {@link appLogin}. */
  tokenUser: string | null = null;
  /** The bot an installation token writes as (GITHUB_TOKEN's app, or another GitHub App). */
  appLogin = 'github-actions[bot]';
  /** When set, requests whose path matches are never answered. */
  hang: RegExp | null = null;
  /** When set, the list of comments links its next page here. */
  nextPageUrl: string | null = null;
  /** When set, the list of comments is answered with this instead of an array. */
  listAnswer: unknown = undefined;
  private readonly heldCreates: Array<() => void> = [];
  private nextId = 1000;
  private server: Server = createServer((req, res) => void this.handle(req, res));
  private close = (): Promise<void> => Promise.resolve();
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
    ({ url: this.baseUrl, close: this.close } = await listen(this.server));
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
    await this.close();
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
    const at = new Date(this.now()).toISOString();
    const issue: FakeIssue = {
      number,
      title: 'an issue',
      state: 'open',
      state_reason: null,
      labels: [],
      assignees: [],
      html_url: `https://github.com/acme/shop/${pullRequest ? 'pull' : 'issues'}/${number}`,
      created_at: at,
      updated_at: at,
      closed_at: null,
      ...fields,
      user: userOf(login),
      ...(pullRequest
        ? { pull_request: { url: `https://api.github.com/repos/acme/shop/pulls/${number}` } }
        : {}),
    };
    this.issues.push(issue);
    return issue;
  }

  add(issue: number, body: string, login = 'someone'): FakeComment {
    const c = { id: this.nextId++, issue, body, user: userOf(login) };
    this.comments.push(c);
    return c;
  }

  /** The login the token writes as. */
  private get writer(): string {
    return this.tokenUser ?? this.appLogin;
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
    const body = chunks.length ? (JSON.parse(Buffer.concat(chunks).toString('utf8')) as RequestBody) : {};
    const send = (status: number, data: unknown, headers: Record<string, string> = {}) => {
      res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers });
      res.end(JSON.stringify(data));
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
    if (/^\/repos\/[^/]+\/[^/]+\/issues$/.test(url.pathname)) {
      if (req.method === 'GET') return this.listIssues(url, send);
      if (req.method === 'POST') return this.createIssue(body, send);
    }
    const one = /^\/repos\/[^/]+\/[^/]+\/issues\/(\d+)(\/labels|\/assignees|\/comments)?$/.exec(url.pathname);
    const found = one ? this.issues.find((i) => i.number === Number(one[1])) : undefined;
    // Comments are kept by number alone: a pull request of a test need not be among the issues.
    if (one?.[2] === '/comments') return this.onComments(Number(one[1]), found, req.method, url, body, send);
    if (one && !found) return send(404, { message: 'Not Found' });
    if (found && one?.[2] === '/labels' && req.method === 'POST') {
      if (this.labelsRefused) return send(403, { message: 'Resource not accessible by integration' });
      for (const name of body.labels ?? []) {
        this.labels.add(name);
        if (!found.labels.some((l) => l.name === name)) found.labels.push({ name });
      }
      return send(200, found.labels);
    }
    if (found && one?.[2] === '/assignees' && req.method === 'POST') {
      for (const login of body.assignees ?? []) {
        if (this.assignable.has(login) && !found.assignees.some((a) => a.login === login)) {
          found.assignees.push(userOf(login));
        }
      }
      return send(201, found);
    }
    if (found && one?.[2] === undefined && req.method === 'PATCH') return send(200, this.update(found, body));
    const comment = /^\/repos\/[^/]+\/[^/]+\/issues\/comments\/(\d+)$/.exec(url.pathname);
    if (comment && req.method === 'PATCH') {
      const c = this.comments.find((x) => x.id === Number(comment[1]));
      if (!c) return send(404, { message: 'Not Found' });
      c.body = body.body ?? '';
      return send(200, c);
    }
    send(404, { message: 'Not Found' });
  }

  /** "List issue comments" and "Create an issue comment" of issue (or pull request) `number`. */
  private onComments(
    number: number,
    issue: FakeIssue | undefined,
    method: string | undefined,
    url: URL,
    body: RequestBody,
    send: Send,
  ): void {
    if (method === 'GET') {
      if (this.listAnswer !== undefined) return send(200, this.listAnswer);
      return this.sendPage(
        url,
        this.comments.filter((c) => c.issue === number),
        send,
      );
    }
    if (method !== 'POST') return send(404, { message: 'Not Found' });
    if (issue) issue.updated_at = new Date(this.now()).toISOString();
    send(201, this.add(number, body.body ?? '', this.writer));
  }

  /** "List repository issues": filtered by state, labels and creator, in the order asked, paged. */
  private listIssues(url: URL, send: Send): void {
    const q = url.searchParams;
    const state = q.get('state') ?? 'open';
    const wanted = (q.get('labels') ?? '').split(',').filter(Boolean);
    const creator = q.get('creator');
    const by = q.get('sort') === 'updated' ? 'updated_at' : 'created_at';
    const sign = q.get('direction') === 'asc' ? 1 : -1;
    const all = this.issues
      .filter(
        (i) =>
          (state === 'all' || i.state === state) &&
          (creator === null || i.user.login === creator) &&
          wanted.every((w) => i.labels.some((l) => l.name === w)),
      )
      .sort((a, b) => sign * (a[by].localeCompare(b[by]) || a.number - b.number));
    this.sendPage(url, all, send, this.linkLoop);
  }

  private createIssue(body: RequestBody, send: Send): void {
    if (!body.title) return send(422, { message: 'Validation Failed', errors: [{ field: 'title' }] });
    const make = () => {
      const labels = this.noPushAccess ? [] : (body.labels ?? []);
      for (const label of labels) this.labels.add(label);
      const fields = { title: body.title!, body: body.body ?? '', labels: labels.map((name) => ({ name })) };
      send(201, this.addIssue(fields, this.writer));
    };
    if (this.createBarrier <= 0) return make();
    this.heldCreates.push(make);
    if (this.heldCreates.length < this.createBarrier) return;
    this.createBarrier = 0;
    for (const release of this.heldCreates.splice(0)) release();
  }

  /** "Update an issue": body, state and its reason; closing dates the issue, reopening clears the date. */
  private update(issue: FakeIssue, body: RequestBody): FakeIssue {
    const at = new Date(this.now()).toISOString();
    if (body.body !== undefined) issue.body = body.body;
    if (body.state && body.state !== issue.state) {
      issue.state = body.state;
      issue.closed_at = body.state === 'closed' ? at : null;
      issue.state_reason = body.state_reason ?? (body.state === 'open' ? 'reopened' : 'completed');
    }
    issue.updated_at = at;
    return issue;
  }

  /** One page of `all` with its `Link` header (or the loop asked). */
  private sendPage(url: URL, all: unknown[], send: Send, loop: FakeGitHub['linkLoop'] = null): void {
    const perPage = Math.min(PAGE_CAP, Number(url.searchParams.get('per_page') ?? 30));
    const page = Number(url.searchParams.get('page') ?? 1);
    const headers: Record<string, string> = {};
    const linkTo = (n: number) => {
      const next = new URL(url);
      next.searchParams.set('page', String(n));
      next.searchParams.set('per_page', String(perPage));
      headers.link = `<${next.toString()}>; rel="next"`;
    };
    if (this.nextPageUrl) headers.link = `<${this.nextPageUrl}>; rel="next"`;
    else if (loop === 'loop') linkTo(page === 1 ? 2 : 1);
    else if (loop === 'endless') linkTo(page + 1);
    else if (page * perPage < all.length) linkTo(page + 1);
    send(200, all.slice((page - 1) * perPage, page * perPage), headers);
  }
}

type Send = (status: number, data: unknown, headers?: Record<string, string>) => void;

interface RequestBody {
  body?: string;
  title?: string;
  labels?: string[];
  assignees?: string[];
  state?: 'open' | 'closed';
  state_reason?: string;
}
