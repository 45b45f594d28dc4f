/** Reading answers: tolerant JSON, envelopes (docs/api-contract.md, "Conventions", "Errors"), excerpts. */

const CONTROL_ESCAPES: Record<string, string> = {
  '\b': '\\b',
  '\f': '\\f',
  '\n': '\\n',
  '\r': '\\r',
  '\t': '\\t',
};

/** Escape raw control characters (U+0000 to U+001F) inside JSON string literals only. */
export function escapeControlCharsInStrings(text: string): string {
  let out = '';
  let inString = false;
  let escaped = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (inString) {
      if (escaped) {
        escaped = false;
      } else if (ch === '\\') {
        escaped = true;
      } else if (ch === '"') {
        inString = false;
      } else if (ch < ' ') {
        out += CONTROL_ESCAPES[ch] ?? `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`;
        continue;
      }
    } else if (ch === '"') {
      inString = true;
    }
    out += ch;
  }
  return out;
}

/** Parse JSON, again with control characters in strings escaped if need be. @throws SyntaxError */
export function parseJsonTolerant(text: string): unknown {
  const clean = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  try {
    return JSON.parse(clean);
  } catch (first) {
    const escaped = escapeControlCharsInStrings(clean);
    if (escaped === clean) throw first;
    return JSON.parse(escaped);
  }
}

/** A single-line excerpt of at most `max` characters, redacted before cutting (no secret is cut in half). */
export function excerpt(text: string, redact: (t: string) => string, max = 200): string {
  const flat = redact(text)
    // eslint-disable-next-line no-control-regex
    .replace(/[\s\u0000-\u001f\u007f]+/g, ' ')
    .trim();
  return flat.length > max ? `${flat.slice(0, max)}…` : flat;
}

export type Envelope =
  | { kind: 'success'; data: unknown }
  | { kind: 'error'; errorType: string; message: string }
  | { kind: 'other'; value: unknown };

/** Classify a parsed JSON value as a success envelope, an error envelope or something else. */
export function readEnvelope(value: unknown): Envelope {
  if (value && typeof value === 'object' && !Array.isArray(value) && 'code' in value) {
    const v = value as { code: unknown; data?: unknown; errorType?: unknown; message?: unknown };
    if (v.code === 'SUCCESS') return { kind: 'success', data: v.data };
    if (v.code === 'ERROR' || (typeof v.code === 'string' && 'errorType' in v)) {
      return {
        kind: 'error',
        errorType: typeof v.errorType === 'string' && v.errorType !== '' ? v.errorType : 'ERROR',
        message: typeof v.message === 'string' ? v.message : '',
      };
    }
  }
  return { kind: 'other', value };
}
