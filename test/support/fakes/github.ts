/**
 * A local fake of the GitHub REST endpoints the pull-request comment calls, served on 127.0.0.1 and reached
 * through the client's base URL (`GITHUB_API_URL` for the action): GET /user (403 for an installation
 * token such as GITHUB_TOKEN, the default; the login when `tokenUser` is set),
 * GET /repos/{o}/{r}/issues/{n}/comments (paged with Link headers, at most PAGE_CAP per page),
 * POST /repos/{o}/{r}/issues/{n}/comments, PATCH /repos/{o}/{r}/issues/comments/{id}.
 */
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

export class FakeGitHub {
  comments: FakeComment[] = [];
  requests: Array<{ method: string; url: string; auth?: string }> = [];
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

  async start(): Promise<void> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.baseUrl = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
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
    });
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = chunks.length
      ? (JSON.parse(Buffer.concat(chunks).toString('utf8')) as { body?: string })
      : {};
    const send = (status: number, data: unknown, headers: Record<string, string> = {}) => {
      res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers });
      res.end(JSON.stringify(data));
    };
    if (this.hang?.test(url.pathname)) return;
    if (req.headers.authorization !== `token ${TOKEN}`) return send(401, { message: 'Bad credentials' });
    if (url.pathname === '/user' && req.method === 'GET') {
      if (this.tokenUser === null) return send(403, { message: 'Resource not accessible by integration' });
      return send(200, { login: this.tokenUser, id: 1, type: 'User' });
    }
    const list = /^\/repos\/([^/]+)\/([^/]+)\/issues\/(\d+)\/comments$/.exec(url.pathname);
    const one = /^\/repos\/([^/]+)\/([^/]+)\/issues\/comments\/(\d+)$/.exec(url.pathname);
    if (list && req.method === 'GET') {
      if (this.listAnswer !== undefined) return send(200, this.listAnswer);
      const issue = Number(list[3]);
      const perPage = Math.min(PAGE_CAP, Number(url.searchParams.get('per_page') ?? 30));
      const page = Number(url.searchParams.get('page') ?? 1);
      const all = this.comments.filter((c) => c.issue === issue);
      const slice = all.slice((page - 1) * perPage, page * perPage);
      const headers: Record<string, string> = {};
      if (this.nextPageUrl) headers.link = `<${this.nextPageUrl}>; rel="next"`;
      else if (page * perPage < all.length) {
        const next = new URL(url);
        next.searchParams.set('page', String(page + 1));
        next.searchParams.set('per_page', String(perPage));
        headers.link = `<${next.toString()}>; rel="next"`;
      }
      return send(200, slice, headers);
    }
    if (list && req.method === 'POST') {
      if (this.forbid) return send(403, { message: 'Resource not accessible by integration' });
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
