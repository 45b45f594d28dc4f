/**
 * A fake ngrok agent for the tunnel tests, run as `ngrok` from a folder put first on PATH
 * (`fake-tunnel.ts`). It honours what the action uses of the real agent's CLI:
 * `ngrok http ADDR [--authtoken TOKEN] [--host-header=rewrite|HOST] [--log stdout] [--log-format json]`,
 * the token from `--authtoken` or `NGROK_AUTHTOKEN`, JSON log lines with `lvl`, `msg`, `t` and the
 * `started tunnel` line carrying `url`. Its "public" URL is a reverse proxy on loopback to ADDR that answers
 * 502 with an `ngrok-error-code` header when nothing answers there, as the real edge does.
 *
 * For the tests: `FAKE_NGROK_PIDS` names a file each agent appends its pid to; `FAKE_NGROK_ARGS` a file it
 * writes its arguments to (never the token's value) with the names of its input, runner and token variables.
 */
import { appendFileSync, writeFileSync } from 'node:fs';
import { createServer, request } from 'node:http';

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
const known = new Set(['authtoken', 'host-header', 'log', 'log-format']);
const unknown = [...flags.keys()].find((name) => !known.has(name));
const json = flags.get('log') === 'stdout' && flags.get('log-format') === 'json';

function log(lvl, msg, fields = {}) {
  const t = new Date().toISOString();
  if (json) process.stdout.write(`${JSON.stringify({ ...fields, lvl, msg, t })}\n`);
  else process.stdout.write(`t=${t} lvl=${lvl} msg="${msg}"\n`);
}

if (process.env.FAKE_NGROK_PIDS) appendFileSync(process.env.FAKE_NGROK_PIDS, `${process.pid}\n`);
if (process.env.FAKE_NGROK_ARGS) {
  const shown = args.map((a) =>
    flags.get('authtoken') && a.includes(flags.get('authtoken')) ? '<token>' : a,
  );
  const secretEnv = Object.keys(process.env).filter((name) => /^(INPUT_|ACTIONS_)|TOKEN/i.test(name));
  writeFileSync(process.env.FAKE_NGROK_ARGS, JSON.stringify({ args: shown, secretEnv }));
}
if (unknown || positional[0] !== 'http' || positional.length !== 2) {
  process.stderr.write(`ERROR:  unknown command or flag: ${unknown ?? positional.join(' ')}\n`);
  process.exit(1);
}
const token = flags.get('authtoken') || process.env.NGROK_AUTHTOKEN || '';
if (!token) {
  log('crit', 'command failed', {
    err: 'authentication failed: Usage of ngrok requires a verified account and authtoken. ERR_NGROK_4018',
  });
  process.exit(1);
}

const raw = positional[1];
const addr = new URL(/^\d+$/.test(raw) ? `http://localhost:${raw}` : raw);
const hostHeader = flags.get('host-header') ?? '';

const server = createServer((req, res) => {
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
  upstream.on('error', () => {
    res
      .writeHead(502, { 'content-type': 'text/html', 'ngrok-error-code': 'ERR_NGROK_8012' })
      .end(
        `<h1>Traffic was successfully tunneled to the ngrok agent, but the agent failed to establish a connection to the upstream web service at ${addr.host}.</h1>`,
      );
  });
  req.pipe(upstream);
});

log('info', 'no configuration paths supplied', { obj: 'config' });
server.listen(0, '127.0.0.1', () => {
  const { port } = server.address();
  log('info', 'client session established', { obj: 'tunnels.session' });
  log('info', 'started tunnel', {
    addr: addr.origin,
    name: 'command_line',
    obj: 'tunnels',
    url: `http://127.0.0.1:${port}`,
  });
});

for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    log('info', 'received stop request', { obj: 'app', stopReq: true });
    server.closeAllConnections();
    server.close(() => process.exit(0));
  });
}
