/**
 * A stand-in for cloudflared's quick tunnel, run as `cloudflared` (`fake-tunnel.ts`). It follows
 * cloudflared's own code and reports:
 * - CLI: `cloudflared tunnel --no-autoupdate --url ADDR [--http-host-header HOST]` (the flags of
 *   cloudflare/cloudflared `cmd/cloudflared/tunnel/cmd.go`; `tunnel --url` starts a quick tunnel, as in
 *   https://github.com/cloudflare/cloudflared/issues/555).
 * - Its log goes to stderr as `<time> INF <message>` lines; a quick tunnel logs the disclaimer, "Requesting
 *   new quick Tunnel on trycloudflare.com...", then the announcement box "Your quick Tunnel has been
 *   created! Visit it at (it may take some time to be reachable):" with the URL on the next line
 *   (cloudflare/cloudflared, cmd/cloudflared/tunnel/quick_tunnel.go).
 * - `failQuickTunnel`: it cannot reach api.trycloudflare.com, prints the bare error it exits with,
 *   `failed to request quick Tunnel: Post "https://api.trycloudflare.com/tunnel": dial tcp: lookup
 *   api.trycloudflare.com: no such host`, and exits 1 (cloudflare/cloudflared issues 555, 547, 1593 show the
 *   line; quick_tunnel.go wraps the error as "failed to request quick Tunnel").
 * - When nothing answers at ADDR: 502 (Cloudflare's "Bad gateway" error page; the exact status for a quick
 *   tunnel whose origin is down is not documented in what was found).
 * - SIGINT/SIGTERM stop it (cloudflared waits up to `--grace-period` for requests in flight, 30 s by default per
 *   a downstream report, not found in Cloudflare's pages; none are in flight here); `ignoreSigterm` makes it ignore SIGTERM; `exitAfterRequests` makes it exit 1 once it
 *   has answered that many requests. Its "public" URL is plain http on loopback.
 */
import { fakeConfig, recordStart, startProxy, stopOnSignals } from './agent-common.mjs';

const config = fakeConfig();
const args = process.argv.slice(2);
recordStart(args);
const log = (level, message) =>
  process.stderr.write(`${new Date().toISOString().replace(/\.\d+Z$/, 'Z')} ${level} ${message}\n`);
const urlAt = args.indexOf('--url');
const hostAt = args.indexOf('--http-host-header');
if (args[0] !== 'tunnel' || urlAt < 0 || !args[urlAt + 1]) {
  process.stderr.write('Incorrect Usage: flag provided but not defined\n');
  process.exit(1);
}
const addr = new URL(args[urlAt + 1]);

log(
  'INF',
  'Thank you for trying Cloudflare Tunnel. Doing so, without a Cloudflare account, is a quick way to experiment and try it out. However, be aware that these account-less Tunnels have no uptime guarantee, are subject to the Cloudflare Online Services Terms of Use (https://www.cloudflare.com/website-terms/), and Cloudflare reserves the right to investigate your use of Tunnels for violations of such terms. If you intend to use Tunnels in production you should use a pre-created named tunnel by following: https://developers.cloudflare.com/cloudflare-one/connections/connect-apps',
);
log('INF', 'Requesting new quick Tunnel on trycloudflare.com...');
if (config.failQuickTunnel) {
  process.stderr.write(
    'failed to request quick Tunnel: Post "https://api.trycloudflare.com/tunnel": dial tcp: lookup api.trycloudflare.com: no such host\n',
  );
  process.exit(1);
}
const proxy = await startProxy(addr, hostAt > 0 ? args[hostAt + 1] : '', {
  onUpstreamError: (res) => res.writeHead(502, { 'content-type': 'text/html' }).end('Bad gateway'),
});
const url = `http://127.0.0.1:${proxy.address().port}`;
const lines = [
  'Your quick Tunnel has been created! Visit it at (it may take some time to be reachable):',
  url,
];
const width = Math.max(...lines.map((l) => l.length));
log('INF', `+${'-'.repeat(width + 4)}+`);
for (const line of lines) log('INF', `|  ${line.padEnd(width)}  |`);
log('INF', `+${'-'.repeat(width + 4)}+`);
log('INF', 'Registered tunnel connection connIndex=0 protocol=quic');

stopOnSignals(config, () => {
  log('INF', 'Initiating graceful shutdown due to signal terminated ...');
  proxy.closeAllConnections();
});
