/**
 * Redaction of secrets from free text: the API key, URL user-info, the HTTP auth password and private
 * variable values, wherever the client, the engine or the log handle text (error messages, endpoints, log
 * lines, response excerpts, `onRequest` URLs).
 *
 * Design principle 7: secrets never reach a log line, a file or an output. The API key rides in query
 * strings (docs/api-contract.md, "Authentication" 1), so every text is passed through `redactUrl()` as well.
 *
 * What is never rewritten: the action's own data that sits in free text, i.e. service ids (24 hexadecimal
 * characters), UUIDs and ISO 8601 timestamps. A secret found only inside one of those is left alone, so that a
 * private value `1` cannot turn an id into `0000***e3`. Secrets shorter than `MIN_REDACTED_LENGTH` are not
 * searched for at all: they cannot be told apart from ordinary text (see `isRedactable`). Structured data
 * (the run model) is redacted by field instead: see `run/redact-summary.ts`.
 */

/** What a secret is replaced with. */
export const REDACTED = '***';

/**
 * Secrets shorter than this (in characters) are not removed from free text: a value like `1` or `on` occurs
 * in ordinary words, numbers and ids, and hiding it would damage them. Such values are still hidden where
 * they are found by name (a private variable's value in a result's variables), and GitHub masks every
 * registered secret in the log.
 */
export const MIN_REDACTED_LENGTH = 4;

/** True when `secret` is long enough to be removed from free text (see `MIN_REDACTED_LENGTH`). */
export function isRedactable(secret: string): boolean {
  return secret.length >= MIN_REDACTED_LENGTH;
}

/** The forms in which a secret can show up in text the client handles. */
function encodedForms(secret: string): string[] {
  const forms = new Set<string>([secret]);
  // Query strings and multipart-free forms: percent-encoding, and `+` for spaces (URLSearchParams).
  forms.add(encodeURIComponent(secret));
  forms.add(new URLSearchParams({ s: secret }).toString().slice(2));
  // Inside a JSON document (a response excerpt or a request body echoed back).
  forms.add(JSON.stringify(secret).slice(1, -1));
  // Percent-encoding with lower-case hex digits (`%2f`), as some servers and clients write it.
  for (const form of [...forms]) forms.add(form.replace(/%[0-9A-F]{2}/g, (m) => m.toLowerCase()));
  return [...forms].filter((f) => f.length > 0);
}

/** Data inside free text that is never rewritten: service ids, UUIDs, ISO 8601 timestamps. */
const DATA_TOKEN =
  /\b[0-9a-f]{24}\b|\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b|\b\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?/gi;

type Span = [start: number, end: number];

function dataSpans(text: string): Span[] {
  return [...text.matchAll(DATA_TOKEN)].map((m) => [m.index, m.index + m[0].length] as Span);
}

/** True when [start, end) lies inside a data token without being the whole token. */
function insideData(start: number, end: number, spans: Span[]): boolean {
  return spans.some(([s, e]) => s <= start && end <= e && !(s === start && e === end));
}

/** Replaces the (merged) spans of `text` by `***`. */
function replaceSpans(text: string, hits: Span[]): string {
  hits.sort((a, b) => a[0] - b[0] || b[1] - a[1]);
  let out = '';
  let at = 0;
  let open: Span | null = null;
  for (const hit of hits) {
    if (open && hit[0] <= open[1]) {
      open[1] = Math.max(open[1], hit[1]);
      continue;
    }
    if (open) out += text.slice(at, open[0]) + REDACTED;
    at = open ? open[1] : at;
    open = [hit[0], hit[1]];
  }
  if (open) out += text.slice(at, open[0]) + REDACTED + text.slice(open[1]);
  return out;
}

/**
 * Build a redactor for free text: URL credentials and `apiKey` values go (`redactUrl`), then every occurrence
 * of each secret, in raw, URL-encoded (`encodeURIComponent`, and `+` for spaces; upper- or lower-case hex)
 * and JSON-escaped forms, becomes `***`. Overlapping occurrences are hidden as one.
 *
 * Never rewritten: secrets shorter than `MIN_REDACTED_LENGTH`, and occurrences that lie inside a service id,
 * UUID or timestamp without being all of it (see the module comment).
 *
 * @param secrets values to hide; empty strings, `undefined`, too short values and duplicates are ignored.
 * @returns a pure function `text => redacted text`.
 */
export function createRedactor(secrets: ReadonlyArray<string | undefined | null>): (text: string) => string {
  const needles = new Set<string>();
  for (const secret of secrets) {
    if (typeof secret !== 'string' || !isRedactable(secret)) continue;
    for (const form of encodedForms(secret)) needles.add(form);
  }
  const ordered = [...needles];
  return (text: string): string => {
    const out = redactUrl(String(text));
    if (ordered.length === 0) return out;
    let spans: Span[] | null = null;
    const hits: Span[] = [];
    for (const needle of ordered) {
      for (let i = out.indexOf(needle); i !== -1; i = out.indexOf(needle, i + 1)) {
        spans ??= dataSpans(out);
        if (!insideData(i, i + needle.length, spans)) hits.push([i, i + needle.length]);
      }
    }
    return hits.length === 0 ? out : replaceSpans(out, hits);
  };
}

/**
 * `apiKey=<value>` in a query string or form-encoded text, case-insensitive on the name. The value ends at
 * the characters that cannot be raw in an encoded query value (`&`, `#`, space, quotes, `<>`, and `:`, `;`,
 * `,`, `)` that punctuate text around a URL). A raw key holding one of those is still hidden by the
 * redactor built from the key itself.
 */
const API_KEY_PARAM = /([?&;]|^)(apiKey=)[^&#\s"'<>:;,)\]]*/gi;

/**
 * The user-info of a URL with an authority (`scheme://user:password@host`): everything between `//` and
 * the first `@` before the path, query or fragment starts.
 */
const URL_USER_INFO = /\b([a-z][a-z0-9+.-]*:\/\/)[^\s/?#@"'<>]+@/gi;

/**
 * The one URL redaction: replaces the user-info of every URL (`https://user:pass@host/` becomes
 * `https://***@host/`) and the value of every `apiKey` query parameter with `***`. Works on absolute URLs,
 * path-plus-query strings (`/v1/suites/?apiKey=...`) and free text holding URLs; everything else (host,
 * path, other parameters) is left as is.
 *
 * @param url a URL or a text containing URLs.
 * @returns the same text without credentials.
 */
export function redactUrl(url: string): string {
  return String(url)
    .replace(API_KEY_PARAM, (_m, sep: string, name: string) => `${sep}${name}${REDACTED}`)
    .replace(URL_USER_INFO, `$1${REDACTED}@`);
}

/**
 * A URL as the reports write it: without its query string and fragment (a signed URL's signature, or an
 * `apiKey`, never reaches a file), and without user-info. Text that is not an absolute URL is only
 * passed through `redactUrl`.
 */
export function withoutQuery(url: string): string {
  const text = String(url);
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(text)) return redactUrl(text);
  return redactUrl(text.replace(/[?#].*$/s, ''));
}
