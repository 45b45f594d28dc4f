/**
 * What the fake tunnel agents (`ngrok-agent.mjs`, `cloudflared-agent.mjs`) share: their configuration and
 * trace files in the folder of the executable that started them (`fake-tunnel.ts` writes it there: the
 * action gives its agent an allow-listed environment, so nothing can come through the environment), and the
 * loopback reverse proxy that stands in for the agent's public URL.
 */
import { appendFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, request } from 'node:http';
import path from 'node:path';

const dir = path.dirname(process.argv[1]);

/** The behaviour the test asked for (`fake-config.json`), {} when none. */
export function fakeConfig() {
  const file = path.join(dir, 'fake-config.json');
  return existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : {};
}

/** Appends this agent's pid to `pids.txt`; writes its arguments (`secret` masked) and env names. */
export function recordStart(args, secret) {
  appendFileSync(path.join(dir, 'pids.txt'), `${process.pid}\n`);
  const shown = args.map((a) => (secret && a.includes(secret) ? '<token>' : a));
  writeFileSync(path.join(dir, 'args.json'), JSON.stringify({ args: shown, env: Object.keys(process.env) }));
}

/**
 * A reverse proxy on loopback to `addr` (a URL), rewriting Host per `hostHeader` (`rewrite`, a host, or ''
 * for the public host). `intercept(req, res)` may answer first (returns true). When nothing answers at
 * `addr`, `onUpstreamError(res)` answers. Each request through it is traced as `METHOD path status` in
 * `requests.txt` once answered (a test's view of what crossed the tunnel; no agent behaviour).
 * @returns the server, listening on a free port
 */
export async function startProxy(addr, hostHeader, { intercept, onUpstreamError }) {
  const { exitAfterRequests } = fakeConfig();
  let answered = 0;
  const server = createServer((req, res) => {
    // `exitAfterRequests`: the agent dies (exit 1) once it has answered that many requests.
    res.on('finish', () => {
      appendFileSync(path.join(dir, 'requests.txt'), `${req.method} ${req.url} ${res.statusCode}\n`);
      if (++answered === exitAfterRequests) setTimeout(() => process.exit(1), 20);
    });
    if (intercept?.(req, res)) return;
    const headers = { ...req.headers };
    if (hostHeader === 'rewrite') headers.host = addr.host;
    else if (hostHeader) headers.host = hostHeader;
    const upstream = request(
      { host: addr.hostname, port: addr.port, method: req.method, path: req.url, headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => onUpstreamError(res));
    req.pipe(upstream);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return server;
}

/**
 * On SIGINT/SIGTERM: `onStop()` then exit 0, unless the test asked the agent to ignore SIGTERM
 * (`ignoreSigterm`), when only SIGKILL ends it.
 */
export function stopOnSignals(config, onStop) {
  for (const signal of ['SIGINT', 'SIGTERM']) {
    process.on(signal, () => {
      if (config.ignoreSigterm) return;
      onStop();
      process.exit(0);
    });
  }
}
