/**
 * Reading a 2xx answer into the value a call resolves with; an `ERROR` envelope is a failure whatever the
 * status (docs/api-contract.md, "Conventions", "Errors").
 */
import type { HttpResponse } from './http.js';
import { envelopeFailure, invalidBody, type Failure, type Redact } from './failures.js';
import { readListEnvelope } from './list-records.js';
import { parseJsonTolerant, readEnvelope } from './parse.js';

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
  const came = !Array.isArray(value)
    ? describe(value)
    : shape === 'list'
      ? `a list with an item that is not a record (${describe(value.find((v) => !isRecord(v)))})`
      : `a list of ${value.length}`;
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

/** How a 2xx answer becomes the value a call resolves with, or the `Failure` it is. */
export type ReadAnswer = (res: HttpResponse, redact: Redact) => { value: unknown } | Failure;

/** The `data` of a `SUCCESS` envelope; an `ERROR` envelope's failure; else `INVALID_RESPONSE`. */
export function readEnvelopeData(res: HttpResponse, redact: Redact): { value: unknown } | Failure {
  const text = res.body.toString('utf8');
  let parsed: unknown;
  try {
    parsed = parseJsonTolerant(text);
  } catch {
    return invalidBody(res.status, text, 'the answer is not JSON', redact);
  }
  return fromEnvelope(parsed, res.status, text, redact);
}

/** The `data` of a parsed `SUCCESS` envelope; an `ERROR` envelope's failure; else `INVALID_RESPONSE`. */
function fromEnvelope(
  parsed: unknown,
  status: number,
  text: string,
  redact: Redact,
): { value: unknown } | Failure {
  const env = readEnvelope(parsed);
  if (env.kind === 'success') return { value: env.data };
  if (env.kind === 'error') return envelopeFailure(status, env.errorType, env.message, redact);
  return invalidBody(status, text, 'the answer is not a response envelope (no "code")', redact);
}

/** How a 2xx answer read as it arrives (its decompressed chunks) becomes the value or the `Failure` it is. */
export type StreamAnswer = (
  chunks: AsyncIterable<Buffer>,
  status: number,
  redact: Redact,
) => Promise<{ value: unknown } | Failure>;

/**
 * A `StreamAnswer` like `readEnvelopeData` for a list: each record of the envelope's `data` is parsed on
 * its own as it arrives and replaced by what `keep` makes of it (`readListEnvelope`). A text that is not
 * JSON (cut short, broken) is `INVALID_RESPONSE`, its excerpt from the answer's start.
 */
export function readEnvelopeList(keep: (record: unknown) => unknown): StreamAnswer {
  return async (chunks, status, redact) => {
    const read = await readListEnvelope(chunks, keep);
    if ('malformed' in read) return invalidBody(status, read.head, 'the answer is not JSON', redact);
    return fromEnvelope(read.value, status, read.head, redact);
  };
}
