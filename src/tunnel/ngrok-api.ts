/** ngrok's agent API, "List Tunnels", no authentication (ngrok docs, https://ngrok.com/docs/agent/api/). */
import { withinTimeLimit } from '../common/time-limit.js';

/** One try of the API, ms. */
const API_TIMEOUT_MS = 2_000;

interface ListTunnels {
  tunnels?: Array<{ public_url?: string; proto?: string; config?: { addr?: string } }>;
}

/**
 * The public URL of the tunnel to `address` as the agent at `api` lists it (the https one when there are
 * two), else of its only tunnel; null when the API does not answer or lists none (the caller reads the log).
 */
export async function askNgrokApi(api: string, address: string, bound: AbortSignal): Promise<string | null> {
  try {
    const list = await withinTimeLimit(bound, API_TIMEOUT_MS, async (signal) => {
      const res = await fetch(`${api}/api/tunnels`, { headers: { accept: 'application/json' }, signal });
      return res.ok ? ((await res.json()) as ListTunnels) : {};
    });
    const tunnels = list.tunnels ?? [];
    const urls = tunnels
      .filter((t) => tunnels.length === 1 || t.config?.addr === address)
      .map((t) => t.public_url)
      .filter((url): url is string => typeof url === 'string');
    return urls.find((url) => url.startsWith('https:')) ?? urls[0] ?? null;
  } catch {
    return null;
  }
}
