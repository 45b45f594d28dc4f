/**
 * The app's front door on loopback (docs/tunnel.md, "Push through the tunnel"): when the step's webhooks ride
 * the tunnel, the agent forwards to the step's listener, which answers its secret path itself and hands every
 * other request here, to go on to the app unchanged (method, path, headers, body; upgrades such as WebSocket
 * piped both ways). A transparent hop: the Host header the agent set stays, nothing is added.
 */
import { request, type IncomingMessage, type ServerResponse } from 'node:http';
import { connect } from 'node:net';
import type { Duplex } from 'node:stream';

/** Hop-by-hop headers (RFC 9110, section 7.6.1): they concern one connection, never forwarded. */
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
]);

/** Forwards requests and upgrades to one app. */
export interface Forwarder {
  /** Sends the request on to the app and its answer back; 502 when the app does not answer. */
  request(req: IncomingMessage, res: ServerResponse): void;
  /** Pipes an upgrade (`Connection: upgrade`) to the app and back, its head and first bytes first. */
  upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void;
}

/** A forwarder to the app at `appUrl` (`http://host:port`; a path there is not used, as the agents do not). */
export function forwardTo(appUrl: string): Forwarder {
  const app = new URL(appUrl);
  const host = app.hostname.replace(/^\[(.*)\]$/, '$1');
  const port = Number(app.port || 80);
  return {
    request(req, res) {
      const out = request({
        host,
        port,
        method: req.method,
        path: req.url,
        headers: endToEnd(req.rawHeaders),
      });
      out.on('response', (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.statusMessage, endToEnd(answer.rawHeaders));
        answer.pipe(res);
        answer.on('error', () => res.destroy());
      });
      out.on('error', () => {
        if (res.headersSent) res.destroy();
        else res.writeHead(502, { 'content-type': 'text/plain' }).end('Bad gateway: the app did not answer');
      });
      req.on('error', () => out.destroy());
      res.on('close', () => out.destroy());
      req.pipe(out);
    },
    upgrade(req, socket, head) {
      const upstream = connect(port, host, () => {
        const lines = [`${req.method} ${req.url} HTTP/${req.httpVersion}`];
        for (let i = 0; i < req.rawHeaders.length; i += 2)
          lines.push(`${req.rawHeaders[i]}: ${req.rawHeaders[i + 1]}`);
        upstream.write(`${lines.join('\r\n')}\r\n\r\n`);
        if (head.length > 0) upstream.write(head);
        upstream.pipe(socket).pipe(upstream);
      });
      upstream.on('error', () => socket.destroy());
      upstream.on('close', () => socket.destroy());
      socket.on('error', () => upstream.destroy());
      socket.on('close', () => upstream.destroy());
    },
  };
}

/** `raw` (name, value, name, value, …) without the hop-by-hop headers, in the same form. */
function endToEnd(raw: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < raw.length; i += 2)
    if (!HOP_BY_HOP.has(raw[i].toLowerCase())) out.push(raw[i], raw[i + 1]);
  return out;
}
