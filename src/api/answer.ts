/**
 * Reading a 2xx answer into the value an endpoint resolves with; an `ERROR` envelope is a failure whatever
 * the status (docs/api-contract.md: Conventions, Errors).
 */
import type { HttpResponse } from './http.js';
import { envelopeFailure, invalidBody, type Failure, type Redact } from './failures.js';
import { parseJsonTolerant, readEnvelope } from './parse.js';

export type Expect =
  | 'envelope' // JSON envelope; resolves with `data`
  | 'document' // a JSON document, enveloped or bare (exports)
  | 'text' // CSV, XML, XHTML
  | 'binary'; // zip archives, badge images

/** The form an answer's `data` must take: one record (an object with an `_id`), or a list of records. */
export type Shape = 'record' | 'list';

const EXPECTED_SHAPE: Record<Shape, string> = {
  record: 'one record (an object with an "_id")',
  list: 'a list of records (objects with an "_id")',
};

/** Null when `value` has `shape`, else an `UNEXPECTED_SHAPE` failure saying what was expected and came. */
export function checkShape(value: unknown, shape: Shape, status: number): Failure | null {
  const isRecord = (v: unknown): boolean =>
    !!v && typeof v === 'object' && !Array.isArray(v) && typeof (v as { _id?: unknown })._id === 'string';
  const ok = shape === 'record' ? isRecord(value) : Array.isArray(value) && value.every(isRecord);
  if (ok) return null;
  const came =
    value === null || value === undefined
      ? String(value)
      : Array.isArray(value)
        ? shape === 'list'
          ? `a list with an item that is not a record (${describe(value.find((v) => !isRecord(v)))})`
          : `a list of ${value.length}`
        : describe(value);
  return {
    failure: { kind: 'status', status },
    errorType: 'UNEXPECTED_SHAPE',
    status,
    detail: `the answer's data is ${came} where ${EXPECTED_SHAPE[shape]} was expected (HTTP ${status})`,
  };
}

function describe(value: unknown): string {
  if (value === null || value === undefined) return String(value);
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'an object without an "_id"';
  return `a ${typeof value}`;
}

/** A binary answer: its media type and bytes. */
export interface BinaryAnswer {
  contentType: string;
  body: Buffer;
}

/**
 * Read a 2xx answer per `expect`: `envelope` gives a `SUCCESS` envelope's `data` (else `INVALID_RESPONSE`);
 * `document` also takes a bare JSON document; `text` the body as UTF-8; `binary` a `BinaryAnswer`.
 * @returns `{value}`, or the `Failure` (`ERROR` envelope, unreadable body)
 */
export function readSuccess(res: HttpResponse, expect: Expect, redact: Redact): { value: unknown } | Failure {
  const contentType = String(res.headers['content-type'] ?? '');
  const text = expect === 'binary' && !/json/i.test(contentType) ? '' : res.body.toString('utf8');
  if (expect === 'envelope' || expect === 'document') {
    let parsed: unknown;
    try {
      parsed = parseJsonTolerant(text);
    } catch {
      return invalidBody(res.status, text, 'the answer is not JSON', redact);
    }
    const env = readEnvelope(parsed);
    if (env.kind === 'success') return { value: env.data };
    if (env.kind === 'error') return envelopeFailure(res.status, env.errorType, env.message, redact);
    if (expect === 'document') return { value: env.value };
    return invalidBody(res.status, text, 'the answer is not a response envelope (no "code")', redact);
  }
  // Text and binary answers: an error envelope in their place is still an error.
  if (/json/i.test(contentType) || /^\s*\{\s*"code"\s*:/.test(text)) {
    try {
      const env = readEnvelope(parseJsonTolerant(text));
      if (env.kind === 'error') return envelopeFailure(res.status, env.errorType, env.message, redact);
      if (env.kind === 'success' && expect === 'text' && typeof env.data === 'string')
        return { value: env.data };
    } catch {
      // not JSON after all: the body is the value
    }
  }
  if (expect === 'text') return { value: text };
  const binary: BinaryAnswer = { contentType, body: res.body };
  return { value: binary };
}
