/** The execute requests (docs/api-contract.md: Execute parameters): a `trigger`, never sent twice. */
import type { RequestOptions } from '../api.js';
import type { Body } from '../body.js';
import { encodeExecuteOptions, ExecuteOptionsError, type EncodedExecuteOptions } from '../execute-params.js';
import { SYNC_SUITE_EXECUTE_TIMEOUT_MS, SYNC_TEST_EXECUTE_TIMEOUT_MS } from '../limits.js';
import type { Transport } from '../transport.js';
import type { ExecuteOptions } from '../types.js';

/** The timeout (ms) of an execute that waits for completion (docs/api-contract.md: Limits); none if immediate. */
export function syncTimeout(
  t: Transport,
  target: 'suite' | 'test',
  execOptions: ExecuteOptions,
): number | undefined {
  if (execOptions.immediate) return undefined;
  return Math.max(
    t.timeoutMs,
    target === 'suite' ? SYNC_SUITE_EXECUTE_TIMEOUT_MS : SYNC_TEST_EXECUTE_TIMEOUT_MS,
  );
}

/** Encode execute options for `target`. @throws ApiError `INVALID_REQUEST` (nothing sent) */
export function encodeForExecute(
  t: Transport,
  path: string,
  target: 'suite' | 'test' | 'on-demand',
  execOptions: ExecuteOptions,
): EncodedExecuteOptions {
  t.addSecret(execOptions.httpAuthPassword);
  try {
    return encodeExecuteOptions(execOptions, target);
  } catch (err) {
    if (err instanceof ExecuteOptionsError) throw t.notSent('POST', path, t.redact(err.message));
    throw err;
  }
}

/**
 * Execute a stored suite or test (docs/api-contract.md: "Encodings", Execute answers).
 * @returns one result or an array; @throws ApiError, `INVALID_REQUEST` for invalid options
 */
export async function execute<T>(
  t: Transport,
  path: string,
  target: 'suite' | 'test',
  execOptions: ExecuteOptions,
  opts?: RequestOptions,
): Promise<T> {
  const encoded = encodeForExecute(t, path, target, execOptions);
  const body: Body = execOptions.dataFile
    ? {
        type: 'multipart',
        fields: [['apiKey', t.apiKey], ...encoded.pairs],
        file: { name: execOptions.dataFile.name, content: execOptions.dataFile.content, type: 'text/csv' },
      }
    : { type: 'json', value: { apiKey: t.apiKey, ...encoded.json } };
  return t.request<T>({
    method: 'POST',
    path,
    kind: 'trigger',
    body,
    expect: 'envelope',
    opts,
    timeoutMs: syncTimeout(t, target, execOptions),
  });
}
