/**
 * A stand-in for the ngrok agent (v3), run as `ngrok` (`fake-tunnel.ts`). It follows ngrok's docs:
 * - CLI: `ngrok http ADDR [--authtoken TOKEN] [--host-header=rewrite|HOST] [--log stdout] [--log-format json]`,
 *   the token from `--authtoken` or `NGROK_AUTHTOKEN` (ngrok docs, "Agent CLI", ngrok.com/docs/agent/cli/).
 * - Without a token it fails with ERR_NGROK_4018 "authentication failed: Usage of ngrok requires a verified
 *   account and authtoken" and exits 1 (ngrok docs, errors reference, ngrok.com/docs/errors/err_ngrok_4018/).
 *   The JSON log line shape (`lvl`, `msg`, `err`, `t`) and `lvl: crit` for it: no documented source; it is
 *   how ngrok v3 prints it with `--log-format json`.
 * - Its local agent API: `GET /api/tunnels` → `{ tunnels: [{ name, public_url, proto, config: { addr } }] }`
 *   (ngrok docs, "ngrok Agent API", ngrok.com/docs/agent/api/). It listens on a free loopback port, not
 *   4040, and names it in a `starting web service` log line with `addr` (no documented source for the line).
 * - Free plan (`plan: 'free'`): requests from browsers (a `Mozilla/` User-Agent) without the
 *   `ngrok-skip-browser-warning` header get the browser warning page instead of the app (ngrok.com/abuse,
 *   "Browser Warning"). Its status (200 here) and the `ngrok-error-code: ERR_NGROK_6024` header are not
 *   documented; the page names ERR_NGROK_6024 as the one users report.
 * - When nothing answers at ADDR: 502 with `ngrok-error-code: ERR_NGROK_8012` (ngrok docs, errors reference,
 *   ngrok.com/docs/errors/err_ngrok_8012/); `tunnelNotFound`: 404 ERR_NGROK_3200 "Tunnel not found"
 *   (ngrok.com/docs/errors).
 * - For the tests of the action's reading: `staleLogUrl` logs a dead URL in `started tunnel` (only the API
 *   names the tunnel); `noApi` names no API address (the action then asks 127.0.0.1:4040 and falls back
 *   to the log line).
 * - `unreachable`: it cannot reach ngrok's service, so it never starts the tunnel: it logs `lvl=eror msg="failed
 *   to reconnect session" obj=tunnels.session err="failed to dial ngrok server with address
 *   \"connect.ngrok-agent.com:443\": …"` and tries again, without end (github.com/ngrok/ngrok/issues/54 shows the line
 *   from ngrok v3; github.com/inconshreveable/ngrok/issues/822 and /842 show the retries). The retry pause (1 s here)
 *   is not documented.
 * - SIGINT/SIGTERM stop it; `ignoreSigterm` makes it ignore SIGTERM (a hung agent); `exitAfterRequests` makes it
 *   exit 1 once it has answered that many requests. Its "public" URL is plain http on loopback.
 */
import { createServer } from 'node:http';
import { fakeConfig, recordStart, startProxy, stopOnSignals } from './agent-common.mjs';

const config = fakeConfig();
const args = process.argv.slice(2);
const flags = new Map();
const positional = [];
for (let i = 0; i < args.length; i++) {
  const arg = args[i];
  if (!arg.startsWith('--')) {
    positional.push(arg);
    continue;
  }
  const eq = arg.indexOf('=');
  if (eq > 0) flags.set(arg.slice(2, eq), arg.slice(eq + 1));
  else flags.set(arg.slice(2), args[++i] ?? '');
}
const token = flags.get('authtoken') || process.env.NGROK_AUTHTOKEN || '';
recordStart(args, flags.get('authtoken'));
const known = new Set(['authtoken', 'host-header', 'log', 'log-format']);
const unknown = [...flags.keys()].find((name) => !known.has(name));
const json = flags.get('log') === 'stdout' && flags.get('log-format') === 'json';

function log(lvl, msg, fields = {}) {
  const t = new Date().toISOString();
  if (json) process.stdout.write(`${JSON.stringify({ ...fields, lvl, msg, t })}\n`);
  else process.stdout.write(`t=${t} lvl=${lvl} msg="${msg}"\n`);
}

if (unknown || positional[0] !== 'http' || positional.length !== 2) {
  process.stderr.write(`ERROR:  unknown command or flag: ${unknown ?? positional.join(' ')}\n`);
  process.exit(1);
}
if (!token) {
  log('crit', 'command failed', {
    err: 'authentication failed: Usage of ngrok requires a verified account and authtoken.\n\nSign up for an account: https://dashboard.ngrok.com/signup\n\nERR_NGROK_4018',
  });
  process.stderr.write(
    'ERROR:  authentication failed: Usage of ngrok requires a verified account and authtoken.\n',
  );
  process.exit(1);
}

const raw = positional[1];
const addr = new URL(/^\d+$/.test(raw) ? `http://localhost:${raw}` : raw);

function browserWarning(req, res) {
  const browser = /^Mozilla\//.test(req.headers['user-agent'] ?? '');
  if (config.plan !== 'free' || !browser || req.headers['ngrok-skip-browser-warning'] !== undefined)
    return false;
  res
    .writeHead(200, { 'content-type': 'text/html', 'ngrok-error-code': 'ERR_NGROK_6024' })
    .end(
      '<html><body><h1>You are about to visit this site served by ngrok</h1><p>ERR_NGROK_6024</p></body></html>',
    );
  return true;
}

function tunnelNotFound(_req, res) {
  if (!config.tunnelNotFound) return false;
  res
    .writeHead(404, { 'content-type': 'text/html', 'ngrok-error-code': 'ERR_NGROK_3200' })
    .end('Tunnel not found');
  return true;
}

log('info', 'no configuration paths supplied', { obj: 'config' });
if (config.unreachable) {
  const reconnect = () =>
    log('eror', 'failed to reconnect session', {
      obj: 'tunnels.session',
      err: 'failed to dial ngrok server with address "connect.ngrok-agent.com:443": dial tcp: lookup connect.ngrok-agent.com: no such host',
    });
  reconnect();
  setInterval(reconnect, 1000);
  stopOnSignals(config, () => {});
  await new Promise(() => {}); // runs until a signal stops it
}
const proxy = await startProxy(addr, flags.get('host-header') ?? '', {
  intercept: (req, res) => tunnelNotFound(req, res) || browserWarning(req, res),
  onUpstreamError: (res) =>
    res
      .writeHead(502, { 'content-type': 'text/html', 'ngrok-error-code': 'ERR_NGROK_8012' })
      .end(
        `Traffic was successfully tunneled to the ngrok agent, but the agent failed to establish a connection to the upstream web service at ${addr.host}.`,
      ),
});
// `urlWithPath`: the URL it announces carries a path (not a documented behaviour of ngrok: a lie, for the
// action's refusal of a public URL that could carry a secret).
const publicUrl = `http://127.0.0.1:${proxy.address().port}${config.urlWithPath ? '/t0k3n' : ''}`;
const api = createServer((req, res) => {
  if (req.method === 'GET' && req.url === '/api/tunnels') {
    const tunnel = {
      name: 'command_line',
      public_url: publicUrl,
      proto: 'http',
      config: { addr: addr.origin, inspect: true },
    };
    res
      .writeHead(200, { 'content-type': 'application/json' })
      .end(JSON.stringify({ tunnels: [tunnel], uri: '/api/tunnels' }));
  } else res.writeHead(404).end();
});
await new Promise((resolve) => api.listen(0, '127.0.0.1', resolve));
if (!config.noApi)
  log('info', 'starting web service', { obj: 'web', addr: `127.0.0.1:${api.address().port}` });
log('info', 'client session established', { obj: 'tunnels.session' });
// `staleLogUrl`: the log line names a URL where nothing answers, so only the API leads to the tunnel.
const logUrl = config.staleLogUrl ? 'http://127.0.0.1:9' : publicUrl;
log('info', 'started tunnel', { addr: addr.origin, name: 'command_line', obj: 'tunnels', url: logUrl });

stopOnSignals(config, () => {
  log('info', 'received stop request', { obj: 'app', stopReq: true });
  proxy.closeAllConnections();
});
