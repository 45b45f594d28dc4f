/** Redaction of secrets from free text; service ids, UUIDs and timestamps stay (docs/redaction.md). */

/** What a secret is replaced with. */
export const REDACTED = '***';

/** Secrets shorter than this (characters) stay in free text: removing them would damage ordinary words. */
export const MIN_REDACTED_LENGTH = 4;

/** True when `secret` is long enough to be removed from free text (see `MIN_REDACTED_LENGTH`). */
export function isRedactable(secret: string): boolean {
  return secret.length >= MIN_REDACTED_LENGTH;
}

/** A secret's encoded forms in text: percent-encoded (either hex case), JSON-, HTML- and base64-encoded. */
function encodedForms(secret: string): string[] {
  // The secret as is is its `looseForm`.
  const forms = new Set<string>([
    encodeURIComponent(secret),
    new URLSearchParams({ s: secret }).toString().slice(2),
    JSON.stringify(secret).slice(1, -1),
  ]);
  // Percent-encoding with lower-case hex digits (`%2f`), as some servers and clients write it.
  for (const form of [...forms]) forms.add(form.replace(/%[0-9A-F]{2}/g, (m) => m.toLowerCase()));
  for (const form of htmlForms(secret)) forms.add(form);
  for (const form of base64Forms(secret)) forms.add(form);
  return [...forms].filter(isRedactable);
}

/** The secret with `& < > " '` written as HTML character references, in the spellings escapers use. */
function htmlForms(secret: string): string[] {
  const named: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' };
  return ['&#39;', '&#x27;', '&apos;'].map((apostrophe) =>
    secret.replace(/[&<>"']/g, (c) => named[c] ?? apostrophe),
  );
}

/**
 * The base64 digits that stand for the secret's UTF-8 bytes wherever it starts in the encoded text, as the
 * runner's own masker registers them (actions/runner, `src/Sdk/DTLogging/Logging/ValueEncoders.cs`,
 * `EnumerateBase64Variations`): one form for each of the 3 alignments (the first 0, 1 or 2 bytes skipped),
 * without padding, in the standard and the URL-safe alphabet (RFC 4648 sections 4 and 5). A digit that also
 * holds bits of the byte after the secret is left out, so the form matches whatever follows it.
 */
function base64Forms(secret: string): string[] {
  const bytes = Buffer.from(secret);
  return [0, 1, 2].flatMap((skip) => {
    const part = bytes.subarray(skip);
    const digits = part.toString('base64url');
    const whole = part.length % 3 === 0 ? digits : digits.slice(0, -1);
    return [whole, whole.replace(/-/g, '+').replace(/_/g, '/')];
  });
}

/** What can split a secret in text without being seen as part of it: line breaks and invisible characters. */
const SPLIT = '[\\r\\n\\u00AD\\u200B-\\u200D\\u2060\\uFEFF]*';

/**
 * The secret as is, in any letter case, and with line breaks (CR, LF) or invisible characters (soft hyphen,
 * zero-width space, joiners, word joiner, BOM) anywhere between its characters.
 */
function looseForm(secret: string): RegExp {
  const chars = Array.from(secret, (c) => c.replace(/[\\^$.*+?()[\]{}|/]/g, '\\$&'));
  return new RegExp(chars.join(SPLIT), 'giu');
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

/** Replaces the spans of `text` by `***`, one for spans that overlap or touch. */
function replaceSpans(text: string, hits: Span[]): string {
  const merged: Span[] = [];
  for (const [start, end] of hits.sort((a, b) => a[0] - b[0])) {
    const last = merged.at(-1);
    if (last && start <= last[1]) last[1] = Math.max(last[1], end);
    else merged.push([start, end]);
  }
  let out = '';
  let at = 0;
  for (const [start, end] of merged) {
    out += text.slice(at, start) + REDACTED;
    at = end;
  }
  return out + text.slice(at);
}

/**
 * A pure redactor: `redactUrl`, then each `encodedForms` and the `looseForm` of a secret of
 * `MIN_REDACTED_LENGTH` or more characters, as `***` (docs/redaction.md).
 */
export function createRedactor(secrets: ReadonlyArray<string | undefined | null>): (text: string) => string {
  const redactable = secrets.filter((s): s is string => typeof s === 'string' && isRedactable(s));
  const needles = [...new Set(redactable.flatMap(encodedForms))];
  const loose = redactable.map(looseForm);
  return (text: string): string => {
    const out = redactUrl(String(text));
    let spans: Span[] | null = null;
    const hits: Span[] = [];
    const hit = (start: number, end: number): void => {
      spans ??= dataSpans(out);
      if (!insideData(start, end, spans)) hits.push([start, end]);
    };
    for (const needle of needles) {
      for (let i = out.indexOf(needle); i !== -1; i = out.indexOf(needle, i + 1)) hit(i, i + needle.length);
    }
    for (const form of loose) for (const m of out.matchAll(form)) hit(m.index, m.index + m[0].length);
    return replaceSpans(out, hits);
  };
}

/** `apiKey=<value>` in a query string; the value ends at characters that cannot be raw in one. */
const API_KEY_PARAM = /([?&;]|^)(apiKey=)[^&#\s"'<>:;,)\]]*/gi;

/** The user-info of a URL (`scheme://user:password@host`). */
const URL_USER_INFO = /\b([a-z][a-z0-9+.-]*:\/\/)[^\s/?#@"'<>]+@/gi;

/** `url` (a URL or text holding URLs) with every URL user-info and `apiKey` value replaced by `***`. */
export function redactUrl(url: string): string {
  return String(url)
    .replace(API_KEY_PARAM, (_m, sep: string, name: string) => `${sep}${name}${REDACTED}`)
    .replace(URL_USER_INFO, `$1${REDACTED}@`);
}

/** A URL as the reports write it: without query, fragment (signatures) and user-info. */
export function withoutQuery(url: string): string {
  const text = String(url);
  return redactUrl(/^[a-z][a-z0-9+.-]*:\/\//i.test(text) ? text.replace(/[?#].*/s, '') : text);
}
