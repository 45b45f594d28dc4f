/**
 * A loopback web server for the browser executor tests: inline pages under `/t/<name>`, the demo site under
 * `/demo/`, a slow endpoint, a user-agent echo and a page behind HTTP basic auth.
 */
import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { DEMO_SITE_FILES, demoSiteDir } from '../../demo/site/index.js';
import { listen } from './fake-server.js';

export const AUTH = { username: 'tester', password: 's3cret-pass' };

export interface TestSite {
  url: string;
  close(): Promise<void>;
}

export async function startSite(pages: Record<string, string>): Promise<TestSite> {
  const server: Server = createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', 'http://localhost');
      const path = url.pathname;
      if (path.startsWith('/t/')) {
        const page = pages[path.slice(3)];
        if (page === undefined) {
          res.writeHead(404).end('not found');
          return;
        }
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page);
        return;
      }
      if (path === '/slow') {
        const ms = Number(url.searchParams.get('ms') ?? '300');
        setTimeout(() => res.writeHead(200, { 'content-type': 'text/plain' }).end('slow done'), ms).unref();
        return;
      }
      if (path === '/ua') {
        const ua = req.headers['user-agent'] ?? '';
        res
          .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
          .end(
            `<!doctype html><p id="ua">${ua.replace(/</g, '&lt;')}</p><p id="w"></p><script>document.getElementById('w').textContent = innerWidth + 'x' + innerHeight;</script>`,
          );
        return;
      }
      if (path === '/private') {
        const expected = 'Basic ' + Buffer.from(`${AUTH.username}:${AUTH.password}`).toString('base64');
        if (req.headers.authorization !== expected) {
          res.writeHead(401, { 'www-authenticate': 'Basic realm="test"' }).end('denied');
          return;
        }
        res
          .writeHead(200, { 'content-type': 'text/html' })
          .end('<!doctype html><h1 id="secret">Members only</h1>');
        return;
      }
      if (path.startsWith('/demo/')) {
        const name = path.slice('/demo/'.length) || 'index.html';
        const type = DEMO_SITE_FILES[name];
        if (!type) {
          res.writeHead(404).end('not found');
          return;
        }
        res.writeHead(200, { 'content-type': type }).end(await readFile(join(demoSiteDir, name)));
        return;
      }
      res.writeHead(404).end('not found');
    })();
  });
  return listen(server);
}
