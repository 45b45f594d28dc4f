/**
 * Redaction of secrets (API key, HTTP auth password, private variable values) from any text the client
 * produces: error messages, endpoints, log lines, response excerpts and `onRequest` URLs.
 *
 * Design principle 7: secrets never reach a log line, a file or an output. The API key rides in query
 * strings (contract "Authentication" 1), so every URL is passed through `redactUrl()` as well.
 */

/** What a secret is replaced with. */
export const REDACTED = '***';

/** The forms in which a secret can show up in text the client handles. */
function encodedForms(secret: string): string[] {
  const forms = new Set<string>([secret]);
  // Query strings and multipart-free forms: percent-encoding, and `+` for spaces (URLSearchParams).
  forms.add(encodeURIComponent(secret));
  forms.add(new URLSearchParams({ s: secret }).toString().slice(2));
  // Inside a JSON document (a response excerpt or a request body echoed back).
  forms.add(JSON.stringify(secret).slice(1, -1));
  return [...forms].filter((f) => f.length > 0);
}

/**
 * Build a redactor that replaces every occurrence of each secret in a text with `***`.
 *
 * Every non-empty secret is redacted, however short: a short value may over-redact unrelated text (a
 * private variable `ab` also hides the `ab` of other words), which is the safe side of the trade. Each
 * secret is also matched in its URL-encoded forms (`encodeURIComponent`, and `+` for spaces) and its
 * JSON-escaped form. Longer secrets are replaced first, so a secret that contains another is hidden whole.
 *
 * @param secrets values to hide; empty strings, `undefined` and duplicates are ignored.
 * @returns a pure function `text => redacted text`.
 */
export function createRedactor(secrets: ReadonlyArray<string | undefined | null>): (text: string) => string {
  const needles = new Set<string>();
  for (const secret of secrets) {
    if (typeof secret !== 'string' || secret.length === 0) continue;
    for (const form of encodedForms(secret)) needles.add(form);
  }
  const ordered = [...needles].sort((a, b) => b.length - a.length);
  if (ordered.length === 0) return (text) => text;
  return (text: string): string => {
    let out = String(text);
    for (const needle of ordered) {
      if (out.includes(needle)) out = out.split(needle).join(REDACTED);
    }
    return out;
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
 * Replace the value of every `apiKey` query parameter in a URL (or in any text holding URLs or query
 * strings) with `***`. Works on absolute URLs, path-plus-query strings (`/v1/suites/?apiKey=...`) and
 * free text such as an error message quoting a URL; everything else is left as is.
 *
 * @param url a URL or a text containing URLs.
 * @returns the same text with every `apiKey` value replaced.
 */
export function redactUrl(url: string): string {
  return String(url).replace(API_KEY_PARAM, (_m, sep: string, name: string) => `${sep}${name}${REDACTED}`);
}
