/**
 * ngrok's agent API (ngrok docs, "ngrok Agent API", https://ngrok.com/docs/agent/api/): no authentication,
 * "List Tunnels" `GET /api/tunnels` → `{ tunnels: [{ public_url, config: { addr } }] }`.
 */
import { systemClock, timeoutSignal } from '../common/clock.js';

/** One try of the API, ms. */
const API_TIMEOUT_MS = 2_000;

interface ListTunnels {
  tunnels?: Array<{ public_url?: string; proto?: string; config?: { addr?: string } }>;
}

/**
 * The public URL of the tunnel to `address` as the agent at `api` lists it (the https one when there are
 * two), else of its only tunnel.
 * @returns null when the API does not answer or lists no tunnel: the caller falls back to the log line
 */
export async function askNgrokApi(api: string, address: string, bound: AbortSignal): Promise<string | null> {
  const done = new AbortController();
  try {
    const res = await fetch(`${api}/api/tunnels`, {
      headers: { accept: 'application/json' },
      signal: AbortSignal.any([bound, timeoutSignal(systemClock, API_TIMEOUT_MS, done.signal)]),
    });
    if (!res.ok) return null;
    const tunnels = ((await res.json()) as ListTunnels).tunnels ?? [];
    const urls = tunnels
      .filter((t) => tunnels.length === 1 || t.config?.addr === address)
      .map((t) => t.public_url)
      .filter((url): url is string => typeof url === 'string');
    return urls.find((url) => url.startsWith('https:')) ?? urls[0] ?? null;
  } catch {
    return null;
  } finally {
    done.abort();
  }
}
