/**
 * An `https` host on 127.0.0.1 for tests: a certificate made for this purpose (`tls/`, self-signed for
 * IP 127.0.0.1, valid until 2126, its key public, trusted by nothing but a process told to with
 * `NODE_EXTRA_CA_CERTS`; made with `openssl req -x509 -newkey ec -subj '/CN=127.0.0.1 test screenshot host'
 * -addext subjectAltName=IP:127.0.0.1 -addext basicConstraints=critical,CA:TRUE`).
 */
import { readFileSync } from 'node:fs';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const HERE = path.dirname(fileURLToPath(import.meta.url));

/** The certificate to trust (`NODE_EXTRA_CA_CERTS`) for the hosts below. */
export const TEST_CA_FILE = path.join(HERE, 'tls', 'loopback-cert.pem');

export interface TlsRedirect {
  /** e.g. `https://127.0.0.1:4011`. */
  url: string;
  /** Requests it answered. */
  hits(): number;
  close(): Promise<void>;
}

/** An `https` host that answers every request with a 302 to `target` + the request's path (no leading /). */
export async function startTlsRedirect(target: string): Promise<TlsRedirect> {
  let hits = 0;
  const server = https.createServer(
    {
      cert: readFileSync(TEST_CA_FILE),
      key: readFileSync(path.join(HERE, 'tls', 'loopback-key.pem')),
    },
    (req, res) => {
      hits++;
      res.writeHead(302, { location: target + (req.url ?? '/').replace(/^\//, '') }).end();
    },
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `https://127.0.0.1:${port}`,
    hits: () => hits,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
