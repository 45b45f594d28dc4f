/**
 * Reading a 2xx answer into the value a call resolves with; an `ERROR` envelope is a failure whatever the
 * status (docs/api-contract.md, "Conventions", "Errors").
 */
import type { HttpResponse } from './http.js';
import { envelopeFailure, invalidBody, type Failure, type Redact } from './failures.js';
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
  const env = readEnvelope(parsed);
  if (env.kind === 'success') return { value: env.data };
  if (env.kind === 'error') return envelopeFailure(res.status, env.errorType, env.message, redact);
  return invalidBody(res.status, text, 'the answer is not a response envelope (no "code")', redact);
}
