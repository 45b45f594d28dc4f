/**
 * Fault injection: seeded and deterministic, per route or at a rate, on `/v1` requests only.
 *
 * Spec text (CLI `--faults`, admin `POST /_emulator/faults` as `{spec: "..."}`): comma-separated items
 * - `rate=R`            probability 0..1 that a `/v1` request gets a fault (default 0)
 * - `kinds=A+B+...`     kinds picked from at random for rate faults (default 500+502+503+429)
 * - `seed=N`            PRNG seed (default 1): the same seed and request sequence give the same faults
 * - `delay=MS`          how long a `slow` answer waits, on the emulator's clock (default 2000 ms; not time-scaled)
 * - `retry-after=S`     Retry-After seconds of a 429 (default 1)
 * - `route=[METHOD ]PATTERN:KIND[xN]`  the first N requests (every request without xN) whose path matches
 *                       PATTERN get KIND; `*` matches any characters, including `/`; trailing slashes ignored.
 *                       Repeat `route=` for several rules; rules are tried before the rate.
 * Kinds: 500, 502, 503 (that HTTP status, request not handled), 429 (with Retry-After, not handled),
 * server-error (HTTP 200 `SERVER_ERROR` envelope, not handled), reset-before (socket destroyed before the body
 * is read, not handled), reset-after (request handled, side effects happen, then the socket is destroyed
 * instead of answering), slow (answer after `delay` ms), malformed-json (handled, answer cut in the middle),
 * control-chars (handled, raw control characters in the answer's strings), signed-urls (handled, every
 * screenshot and video URL in the answer carries a signature query string, as signed object-storage URLs do).
 *
 * Example: `rate=0.1,kinds=500+429+reset-after,seed=42,route=/v1/results/*:503x2`
 */
import { seededRandom } from './util.js';

export const FAULT_KINDS = [
  '500',
  '502',
  '503',
  '429',
  'server-error',
  'reset-before',
  'reset-after',
  'slow',
  'malformed-json',
  'control-chars',
  'signed-urls',
] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

export interface FaultRule {
  /** Upper-case method, or undefined for any. */
  method?: string;
  /** Path pattern; `*` matches any characters. */
  pattern: string;
  kind: FaultKind;
  /** How many matching requests get the fault; undefined = all. */
  times?: number;
}

export interface FaultSpec {
  rate?: number;
  kinds?: FaultKind[];
  seed?: number;
  delayMs?: number;
  retryAfterS?: number;
  routes?: FaultRule[];
}

function kindOf(text: string): FaultKind {
  if (!(FAULT_KINDS as readonly string[]).includes(text)) {
    throw new Error(`Unknown fault kind "${text}"; expected one of ${FAULT_KINDS.join(', ')}`);
  }
  return text as FaultKind;
}

/** Parses the spec text described above; throws an Error naming the bad item. Empty text = no faults. */
export function parseFaultSpec(text: string): FaultSpec {
  const spec: FaultSpec = { routes: [] };
  for (const item of text
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)) {
    const eq = item.indexOf('=');
    if (eq < 0) throw new Error(`Fault spec item "${item}" is not key=value`);
    const key = item.slice(0, eq).trim();
    const value = item.slice(eq + 1).trim();
    const num = (min: number, max: number) => {
      const n = Number(value);
      if (value === '' || !Number.isFinite(n) || n < min || n > max) {
        throw new Error(`Fault spec ${key} must be a number from ${min} to ${max}, got "${value}"`);
      }
      return n;
    };
    switch (key) {
      case 'rate':
        spec.rate = num(0, 1);
        break;
      case 'kinds':
        spec.kinds = value.split('+').map((k) => kindOf(k.trim()));
        break;
      case 'seed':
        spec.seed = num(0, 2 ** 32);
        break;
      case 'delay':
        spec.delayMs = num(0, 3_600_000);
        break;
      case 'retry-after':
        spec.retryAfterS = num(0, 86_400);
        break;
      case 'route': {
        const colon = value.lastIndexOf(':');
        if (colon < 0) throw new Error(`Fault route "${value}" must be [METHOD ]PATTERN:KIND[xN]`);
        let target = value.slice(0, colon).trim();
        const m = /^([a-z0-9-]+?)(?:x(\d+))?$/i.exec(value.slice(colon + 1).trim());
        if (!m) throw new Error(`Fault route "${value}" must end in :KIND or :KINDxN`);
        let method: string | undefined;
        const space = target.indexOf(' ');
        if (space > 0) {
          method = target.slice(0, space).toUpperCase();
          target = target.slice(space + 1).trim();
        }
        spec.routes!.push({
          method,
          pattern: target,
          kind: kindOf(m[1]),
          times: m[2] ? Number(m[2]) : undefined,
        });
        break;
      }
      default:
        throw new Error(
          `Unknown fault spec key "${key}"; expected rate, kinds, seed, delay, retry-after or route`,
        );
    }
  }
  return spec;
}

/** Checks a FaultSpec given as an object (admin API, in-process options); throws on a bad field. */
export function checkFaultSpec(spec: FaultSpec): FaultSpec {
  if (spec.rate !== undefined && !(spec.rate >= 0 && spec.rate <= 1))
    throw new Error('faults.rate must be 0..1');
  for (const k of spec.kinds ?? []) kindOf(k);
  for (const r of spec.routes ?? []) {
    kindOf(r.kind);
    if (typeof r.pattern !== 'string') throw new Error('faults.routes[].pattern must be a string');
  }
  return spec;
}

function strip(path: string): string {
  return path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
}

function globToRegExp(pattern: string): RegExp {
  const body = strip(pattern)
    .split('*')
    .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
    .join('.*');
  return new RegExp(`^${body}$`);
}

/** The live fault state: rules with remaining counts and the seeded PRNG. */
export class Faults {
  private readonly random: () => number;
  private readonly rules: Array<FaultRule & { regex: RegExp; left: number }>;
  readonly delayMs: number;
  readonly retryAfterS: number;
  constructor(readonly spec: FaultSpec = {}) {
    this.random = seededRandom(spec.seed ?? 1);
    this.rules = (spec.routes ?? []).map((r) => ({
      ...r,
      regex: globToRegExp(r.pattern),
      left: r.times ?? Infinity,
    }));
    this.delayMs = spec.delayMs ?? 2000;
    this.retryAfterS = spec.retryAfterS ?? 1;
  }

  /** The fault for this request, if any (route rules first, then the rate). Consumes rule counts. */
  pick(method: string, path: string): FaultKind | undefined {
    const p = strip(path);
    for (const rule of this.rules) {
      if (rule.left <= 0 || (rule.method && rule.method !== method) || !rule.regex.test(p)) continue;
      rule.left--;
      return rule.kind;
    }
    const rate = this.spec.rate ?? 0;
    if (rate <= 0) return undefined;
    if (this.random() >= rate) return undefined;
    const kinds = this.spec.kinds?.length ? this.spec.kinds : (['500', '502', '503', '429'] as FaultKind[]);
    return kinds[Math.floor(this.random() * kinds.length)];
  }
}

/**
 * Serialises a JSON envelope with raw control characters in its strings: `notes`, `output` and `details`
 * strings get `\u0001\u0007\t` appended (or every `name` when there are none), and the escaped control
 * characters JSON.stringify wrote are turned back into raw ones (which strict parsers reject).
 */
export function jsonWithControlChars(value: unknown): string {
  let touched = false;
  const walk = (v: unknown, keys: string[]): unknown => {
    if (Array.isArray(v)) return v.map((x) => walk(x, keys));
    if (v && typeof v === 'object') {
      return Object.fromEntries(
        Object.entries(v).map(([k, x]) => {
          if (typeof x === 'string' && keys.includes(k)) {
            touched = true;
            return [k, `${x}\u0001\u0007\t`];
          }
          return [k, walk(x, keys)];
        }),
      );
    }
    return v;
  };
  let data = walk(value, ['notes', 'output', 'details']);
  if (!touched) data = walk(value, ['name', 'message']);
  return JSON.stringify(data).replace(
    /(?<!\\)((?:\\\\)*)\\(n|t|r|u00[01][0-9a-fA-F])/g,
    (_m, slashes: string, esc: string) =>
      slashes +
      (esc === 'n'
        ? '\n'
        : esc === 't'
          ? '\t'
          : esc === 'r'
            ? '\r'
            : String.fromCharCode(parseInt(esc.slice(1), 16))),
  );
}

/** The query string the `signed-urls` fault appends to screenshot and video URLs. */
export const SIGNED_URL_QUERY = 'X-Amz-Signature=0f1e2d3c4b5a69788796a5b4c3d2e1f0&X-Amz-Expires=300';

/** Serialises a JSON envelope whose screenshot (`defaultUrl`) and video (`video.url`) URLs are signed. */
export function jsonWithSignedUrls(value: unknown): string {
  const sign = (url: unknown) => (typeof url === 'string' && url ? `${url}?${SIGNED_URL_QUERY}` : url);
  const walk = (v: unknown, key: string): unknown => {
    if (Array.isArray(v)) return v.map((x) => walk(x, key));
    if (!v || typeof v !== 'object') return v;
    return Object.fromEntries(
      Object.entries(v).map(([k, x]) => {
        if (k === 'defaultUrl' || (key === 'video' && k === 'url')) return [k, sign(x)];
        return [k, walk(x, k)];
      }),
    );
  };
  return JSON.stringify(walk(value, ''));
}
