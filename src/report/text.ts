/**
 * Text helpers shared by the renderers in `report/`: cleaning service text, escaping for Markdown/HTML,
 * cutting to a size and formatting durations. All pure.
 */

/**
 * Characters XML 1.0 forbids (C0 controls except tab, line feed and carriage return; U+FFFE; U+FFFF) and
 * lone surrogates. Service text (console output, step notes, errors) sometimes holds them.
 */
const XML_INVALID =
  // eslint-disable-next-line no-control-regex
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** A quick pre-check: most text has none of these, and then needs no replacing. */
// eslint-disable-next-line no-control-regex
const SUSPECT = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uD800-\uDFFF\uFFFE\uFFFF]/;

/** The character that stands in for a removed one. */
export const REPLACEMENT_CHARACTER = '\uFFFD';

/**
 * Makes service text safe for XML 1.0 and for every other renderer: each forbidden control character,
 * U+FFFE/U+FFFF and lone surrogate becomes U+FFFD. Tabs and line breaks stay.
 * @param text any string (null/undefined give '')
 */
export function cleanText(text: string | null | undefined): string {
  if (text === null || text === undefined) return '';
  const s = String(text);
  return SUSPECT.test(s) ? s.replace(XML_INVALID, REPLACEMENT_CHARACTER) : s;
}

/** The one URL redaction (user-info and `apiKey` values), and URLs without their query, for the renderers. */
export { redactUrl, withoutQuery } from '../api/redact.js';

const HTML_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** Escapes `& < > " '` for HTML text and attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]);
}

/**
 * Escapes service text for GitHub-flavoured Markdown and the HTML it allows, on one line. HTML specials and
 * the Markdown characters that act inside a line (`\ ` * _ [ ] | ~ $`) become numeric character
 * references, so text can neither open a link, an image, emphasis, a code span, math or a table cell nor
 * inject HTML. The renderers never start a Markdown line with service text, so line-start markers (`#`,
 * `-`, `+`, `1.`) need no escape. A zero-width space after `@` and `#` before a word keeps the text from
 * mentioning people or referencing issues. Line breaks become spaces (use {@link escapeBlock} in `<pre>`).
 */
export function escapeInline(text: string): string {
  return escapeMarkdownChars(cleanText(text).replace(/\r\n|\r|\n/g, ' '));
}

/**
 * Escapes service text for the inside of a `<pre>` in Markdown: {@link escapeCode} in block mode, line
 * breaks become `&#10;` so the text keeps its lines while the HTML block holds no blank line (a blank line
 * would end the block and let Markdown parse the rest).
 */
export function escapeBlock(text: string): string {
  return escapeCode(text, true);
}

/**
 * Escapes service text for the inside of `<code>` or `<pre>` so that a copy gives exactly the text: like
 * {@link escapeInline} (every special character a character reference) but with no invisible character
 * added (GitHub links no mention or issue reference inside `code` and `pre`).
 * @param text any string
 * @param block true inside `<pre>`: line breaks become `&#10;`; otherwise they become spaces
 */
export function escapeCode(text: string, block = false): string {
  const one = cleanText(text).replace(/\r\n|\r/g, '\n');
  const escaped = escapeSpecials(block ? one : one.replace(/\n/g, ' '));
  return block ? escaped.replace(/\n/g, '&#10;') : escaped;
}

function escapeMarkdownChars(text: string): string {
  return escapeSpecials(text.replace(/([@#])(?=\w)/g, '$1\u200B'));
}

function escapeSpecials(text: string): string {
  return text.replace(/[&<>"'\\`*_[\]|~$]/g, (c) => HTML_ESCAPES[c] ?? `&#${c.charCodeAt(0)};`);
}

/**
 * Cuts text to at most `max` UTF-16 code units, ending with `…` when cut, never splitting a surrogate pair.
 * @param text any string
 * @param max maximum length in UTF-16 code units (>= 1)
 */
export function truncate(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = max - 1;
  const code = text.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end -= 1;
  return text.slice(0, Math.max(0, end)) + '…';
}

/**
 * Formats a duration for people: `850 ms`, `12.3 s`, `2 min 05 s`, `1 h 02 min`.
 * @param ms milliseconds, or null when unknown (gives `–`)
 */
export function formatDuration(ms: number | null | undefined): string {
  if (ms === null || ms === undefined || !Number.isFinite(ms) || ms < 0) return '–';
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(Math.round(ms / 100) / 10).toFixed(1)} s`;
  const totalSeconds = Math.round(ms / 1000);
  const h = Math.floor(totalSeconds / 3600);
  const m = Math.floor((totalSeconds % 3600) / 60);
  const s = totalSeconds % 60;
  if (h > 0) return `${h} h ${String(m).padStart(2, '0')} min`;
  return `${m} min ${String(s).padStart(2, '0')} s`;
}

export { plural } from '../common/words.js';

/**
 * An http(s) URL made safe for an HTML attribute inside a Markdown table: characters that would end the
 * attribute, the tag or the table cell are percent-encoded. Anything else (javascript:, data:) gives ''.
 */
export function safeUrl(url: string): string {
  if (!/^https?:\/\//i.test(url)) return '';
  // eslint-disable-next-line no-control-regex
  const encoded = url.replace(/[\s"'<>`|\\^{}\u0000-\u001f\u007f]/g, (ch) =>
    Array.from(new TextEncoder().encode(ch), (b) => `%${b.toString(16).toUpperCase().padStart(2, '0')}`).join(
      '',
    ),
  );
  return escapeHtml(encoded);
}
