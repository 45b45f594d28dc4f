/**
 * How the test client reads the answers the action never asks for: JSON documents that may come bare
 * (exports), text (CSV, XML, XHTML) and bytes (zip archives, badge images). An `ERROR` envelope in their
 * place is still a failure (docs/api-contract.md, "Conventions", "Errors").
 */
import type { RequestOptions } from '../../../src/api/api.js';
import type { ReadAnswer } from '../../../src/api/answer.js';
import { envelopeFailure, invalidBody } from '../../../src/api/failures.js';
import type { HttpResponse } from '../../../src/api/http.js';
import { parseJsonTolerant, readEnvelope } from '../../../src/api/parse.js';
import type { Transport } from '../../../src/api/transport.js';

/** A binary answer: its media type and bytes. */
export interface BinaryAnswer {
  contentType: string;
  body: Buffer;
}

/** A JSON document, enveloped or bare. */
export const readDocument: ReadAnswer = (res, redact) => {
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
  return { value: env.value };
};

/** The body as UTF-8 text (or the string `data` of a `SUCCESS` envelope in its place). */
export const readText: ReadAnswer = (res, redact) => readRaw(res, redact, 'text');

/** The body's bytes and media type, a `BinaryAnswer`. */
export const readBinary: ReadAnswer = (res, redact) => readRaw(res, redact, 'binary');

function readRaw(res: HttpResponse, redact: (text: string) => string, as: 'text' | 'binary') {
  const contentType = String(res.headers['content-type'] ?? '');
  const text = as === 'binary' && !/json/i.test(contentType) ? '' : res.body.toString('utf8');
  if (/json/i.test(contentType) || /^\s*\{\s*"code"\s*:/.test(text)) {
    try {
      const env = readEnvelope(parseJsonTolerant(text));
      if (env.kind === 'error') return envelopeFailure(res.status, env.errorType, env.message, redact);
      if (env.kind === 'success' && as === 'text' && typeof env.data === 'string') return { value: env.data };
    } catch {
      // not JSON after all: the body is the value
    }
  }
  if (as === 'text') return { value: text };
  const binary: BinaryAnswer = { contentType, body: res.body };
  return { value: binary };
}

/** GET a path (a read, retried), its answer read by `read`. */
export function getWith<T>(
  t: Transport,
  path: string,
  read: ReadAnswer,
  opts?: RequestOptions,
  query: Array<[string, string]> = [],
): Promise<T> {
  return t.request<T>({ method: 'GET', path, query, kind: 'read', read, opts });
}
