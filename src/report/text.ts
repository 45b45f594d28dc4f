/** Pure text helpers shared by the renderers: cleaning, escaping, cutting. */

/** Characters XML 1.0 forbids, and lone surrogates; service text sometimes holds them. */
const XML_INVALID =
  // eslint-disable-next-line no-control-regex
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** A quick pre-check: most text has none of these, and then needs no replacing. */
// eslint-disable-next-line no-control-regex
const SUSPECT = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uD800-\uDFFF\uFFFE\uFFFF]/;

/** Makes service text safe for XML 1.0 and every renderer (forbidden characters become U+FFFD). */
export function cleanText(text: string | null | undefined): string {
  if (text === null || text === undefined) return '';
  const s = String(text);
  return SUSPECT.test(s) ? s.replace(XML_INVALID, '\uFFFD') : s;
}

const HTML_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/**
 * Escapes service text for Markdown on one line; `@`, `#` and `GH-` before a word get a zero-width space (no
 * mention or reference: GitHub's "Autolinked references and URLs").
 */
export function escapeInline(text: string): string {
  return escapeSpecials(
    cleanText(text)
      .replace(/\r\n|\r|\n/g, ' ')
      .replace(/([@#]|\bGH-)(?=\w)/gi, '$1\u200B'),
  );
}

/** Escapes text inside `<code>` (or `<pre>` when `block`) without invisible characters (copies exactly). */
export function escapeCode(text: string, block = false): string {
  const one = cleanText(text).replace(/\r\n|\r/g, '\n');
  const escaped = escapeSpecials(block ? one : one.replace(/\n/g, ' '));
  return block ? escaped.replace(/\n/g, '&#10;') : escaped;
}

function escapeSpecials(text: string): string {
  return text.replace(/[&<>"'\\`*_[\]|~$]/g, (c) => HTML_ESCAPES[c] ?? `&#${c.charCodeAt(0)};`);
}

/** Cuts text to at most `max` (>= 1) UTF-16 code units, ending with `…` when cut. */
export function truncate(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = max - 1;
  const code = text.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end -= 1;
  return text.slice(0, Math.max(0, end)) + '…';
}

/** An http(s) URL made safe for an HTML attribute in a Markdown table (percent-encoded, `&` escaped); else ''. */
export function safeUrl(url: string): string {
  if (!/^https?:\/\//i.test(url)) return '';
  // eslint-disable-next-line no-control-regex
  const encoded = url.replace(/[\s"'<>`|\\^{}\u0000-\u001f\u007f]/g, (ch) =>
    ch === "'" ? '%27' : encodeURIComponent(ch),
  );
  return encoded.replaceAll('&', '&amp;');
}
