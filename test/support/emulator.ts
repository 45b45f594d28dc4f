/**
 * Helpers for the emulator's tests: plain fetch against an emulator on 127.0.0.1 (no project client).
 */
import { startEmulator, type Emulator, type EmulatorOptions } from '../../emulator/index.js';

export const KEY = 'demo-api-key';

/**
 * Starts an emulator on a free loopback port (quiet, scaled time). The rate limit and the not-found window are
 * off unless a test asks for them: these tests check one behaviour at a time.
 */
export function start(options: EmulatorOptions = {}): Promise<Emulator> {
  return startEmulator({ timeScale: 0.01, quiet: true, rateLimit: false, notFoundWindowMs: 0, ...options });
}

export interface Call {
  status: number;
  headers: Headers;
  text: string;
  /** Parsed JSON body (undefined when not JSON). */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON answers, checked field by field
  json: any;
}

/**
 * Calls `path` (relative to the base URL, e.g. `/suites/`) with the API key in the query unless `key` is
 * null. `body` objects are sent as JSON; FormData and URLSearchParams as they are.
 */
export async function call(
  em: Emulator,
  method: string,
  path: string,
  opts: { key?: string | null; query?: Record<string, string | string[]>; body?: unknown } = {},
): Promise<Call> {
  const url = new URL(em.baseUrl + path);
  const key = opts.key === undefined ? KEY : opts.key;
  if (key !== null) url.searchParams.set('apiKey', key);
  for (const [k, v] of Object.entries(opts.query ?? {})) {
    for (const one of Array.isArray(v) ? v : [v]) url.searchParams.append(k, one);
  }
  let body: BodyInit | undefined;
  const headers: Record<string, string> = {};
  if (
    opts.body instanceof FormData ||
    opts.body instanceof URLSearchParams ||
    typeof opts.body === 'string'
  ) {
    body = opts.body;
  } else if (opts.body !== undefined) {
    body = JSON.stringify(opts.body);
    headers['content-type'] = 'application/json';
  }
  const res = await fetch(url, { method, body, headers });
  const text = await res.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.status, headers: res.headers, text, json };
}

/** GET/POST returning `data` of a SUCCESS envelope; throws with the envelope otherwise. */
export async function data(
  em: Emulator,
  method: string,
  path: string,
  opts: Parameters<typeof call>[3] = {},
) {
  const res = await call(em, method, path, opts);
  if (res.status !== 200 || res.json?.code !== 'SUCCESS') {
    throw new Error(`${method} ${path}: HTTP ${res.status} ${res.text.slice(0, 300)}`);
  }
  return res.json.data;
}

export const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
export const EPOCH = '1970-01-01T00:00:00.000Z';
