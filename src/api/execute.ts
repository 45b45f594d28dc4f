/**
 * The execute requests (docs/api-contract.md, "Execute parameters", "Encodings"): each a `trigger`, never sent
 * twice; without `immediate` the service holds the answer until the run ends.
 */
import type { RequestOptions } from './api.js';
import type { Body } from './body.js';
import { encodeExecuteOptions, ExecuteOptionsError, type EncodedExecuteOptions } from './execute-params.js';
import { SYNC_SUITE_EXECUTE_TIMEOUT_MS, SYNC_TEST_EXECUTE_TIMEOUT_MS } from './limits.js';
import type { Transport } from './transport.js';
import type { ExecuteOptions, TestDefinition } from './types.js';

/** The timeout (ms) of an execute that waits for completion (docs/api-contract.md, "Limits"); none if immediate. */
function syncTimeout(
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
function encodeForExecute(
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
 * Execute a stored suite or test at `path`: a JSON body, or a multipart form with a data file.
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
    opts,
    timeoutMs: syncTimeout(t, target, execOptions),
  });
}

/**
 * Execute a test definition on demand at `path` (a repository test file, not stored): the definition is the
 * body, the options go in the query. @throws ApiError `INVALID_REQUEST` for a data file or invalid options
 */
export async function executeOnDemand<T>(
  t: Transport,
  path: string,
  test: TestDefinition,
  execOptions: ExecuteOptions,
  opts?: RequestOptions,
): Promise<T> {
  if (execOptions.dataFile) {
    throw t.notSent(
      'POST',
      path,
      'a data file cannot be sent with an on-demand execution (its body is the test)',
    );
  }
  const encoded = encodeForExecute(t, path, 'on-demand', execOptions);
  return t.request<T>({
    method: 'POST',
    path,
    query: encoded.pairs,
    kind: 'trigger',
    body: { type: 'json', value: { ...test, apiKey: t.apiKey } },
    opts,
    timeoutMs: syncTimeout(t, 'test', execOptions),
  });
}
