/** What Ghost Inspector's browsers will see at the tunnel's public URL (docs/tunnel.md, "What the browsers see"). */
import { openHttp, type OpenAnswer } from '../api/http.js';
import { withinTimeLimit } from '../common/time-limit.js';

/** A desktop Chrome User-Agent: what ngrok tells browsers from other clients by (ngrok.com/abuse). */
const BROWSER_USER_AGENT =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

/** ngrok's browser warning for free accounts (ngrok.com/abuse, "Browser Warning"); browsers cannot skip it. */
const NGROK_BROWSER_WARNING = 'ERR_NGROK_6024';
/** Answers of a tunnel whose agent cannot reach the app (ngrok 502 ERR_NGROK_8012, Cloudflare 502/530). */
const TUNNEL_GATEWAY_STATUSES = [502, 503, 504, 530];
/** One try, ms. */
const TRY_TIMEOUT_MS = 5_000;
/** How much of an answer's body is read to recognise the agent's page, bytes. */
const BODY_BYTES = 64 * 1024;

export type BrowserView =
  { kind: 'app' } | { kind: 'not-yet'; why: string } | { kind: 'agent-page'; what: string };

/**
 * One GET of `url` as a browser sends it, redirects not followed: `agent-page` for ngrok's browser warning;
 * `not-yet` for a gateway error, another `ngrok-error-code` (e.g. ERR_NGROK_3200) or no answer; else `app`.
 */
export async function seeAsBrowser(url: string, bound: AbortSignal): Promise<BrowserView> {
  try {
    const [res, body] = await withinTimeLimit(bound, TRY_TIMEOUT_MS, async (signal) => {
      const headers = { 'user-agent': BROWSER_USER_AGENT, accept: 'text/html,*/*' };
      const answer = await openHttp({ method: 'GET', url, headers, signal, socketTimeoutMs: TRY_TIMEOUT_MS });
      return [answer, await bodyStart(answer)] as const;
    });
    const ngrokError = String(res.headers['ngrok-error-code'] ?? '');
    if (ngrokError === NGROK_BROWSER_WARNING || body.includes(NGROK_BROWSER_WARNING)) {
      return {
        kind: 'agent-page',
        what: `ngrok's browser warning page (${NGROK_BROWSER_WARNING}, shown to browsers on ngrok's free plan)`,
      };
    }
    if (ngrokError || TUNNEL_GATEWAY_STATUSES.includes(res.status)) {
      return { kind: 'not-yet', why: `HTTP ${res.status}${ngrokError ? ` ${ngrokError}` : ''}` };
    }
    return { kind: 'app' };
  } catch (error) {
    return { kind: 'not-yet', why: (error as { code?: string }).code ?? (error as Error).message };
  }
}

/** The first {@link BODY_BYTES} of the answer as text; the rest is not read. */
async function bodyStart(res: OpenAnswer): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  // Leaving the loop destroys the stream: the rest is not read.
  for await (const chunk of res.body as AsyncIterable<Buffer>) {
    chunks.push(chunk);
    size += chunk.byteLength;
    if (size >= BODY_BYTES) break;
  }
  return Buffer.concat(chunks).toString('latin1');
}
