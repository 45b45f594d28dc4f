/**
 * The Ghost Inspector API v1 client: one method per endpoint of the service contract
 * (`ghost-inspector-api-v1.md`, "Endpoints") and the suite-result endpoints of the service facts, with
 * envelope checks, explicit retries (`retry.ts`) and redaction (`redact.ts`) of every text it emits.
 */
import { DEFAULT_BASE_URL } from './api.js';
import type { ClientOptions, GhostInspectorApi, RequestOptions } from './api.js';
import { ApiError, endSentence, type ApiErrorType } from './errors.js';
import { encodeExecuteOptions, ExecuteOptionsError } from './execute-params.js';
import { sendHttp, TransportError, type HttpResponse } from './http.js';
import { excerpt, parseJsonTolerant, readEnvelope } from './parse.js';
import { createRedactor } from './redact.js';
import {
  decideRetry,
  defaultSleep,
  DEFAULT_MAX_RETRIES,
  parseRetryAfter,
  type AttemptFailure,
  type RequestKind,
} from './retry.js';
import type { DataSource, ExecuteOptions, Paging, TestDefinition } from './types.js';

/** Default per-request timeout (ms). */
export const DEFAULT_REQUEST_TIMEOUT_MS = 30_000;
/**
 * Timeouts (ms) of an execute that waits for completion (`immediate` not set): the contract tells clients
 * to tolerate 11 minutes for a test and 20 minutes for a suite (then the service answers a timeout error),
 * so the client waits that long plus a minute of margin, or its own timeout when longer.
 */
export const SYNC_TEST_EXECUTE_TIMEOUT_MS = 11 * 60_000;
export const SYNC_SUITE_EXECUTE_TIMEOUT_MS = 21 * 60_000;

/** How the answer's body is read. */
type Expect =
  | 'envelope' // JSON envelope; resolves with `data`
  | 'document' // a JSON document, enveloped or bare (exports)
  | 'text' // CSV, XML, XHTML
  | 'binary'; // zip archives, badge images

type Body =
  | { type: 'json'; value: unknown }
  | {
      type: 'multipart';
      fields: Array<[string, string]>;
      file: { name: string; content: string | Uint8Array; type: string };
    };

interface Call {
  method: 'GET' | 'POST' | 'DELETE';
  /** Path below the base URL, with its trailing slash as the contract shows it. */
  path: string;
  query?: Array<[string, string]>;
  kind: RequestKind;
  body?: Body;
  expect: Expect;
  /** False for the status badges, which take no key. */
  sendApiKey?: boolean;
  /** Per-attempt timeout (ms) when not the client's default. */
  timeoutMs?: number;
  opts?: RequestOptions;
}

/** A failed attempt: the facts for the retry decision and the error to throw if not retried. */
interface Failure {
  failure: AttemptFailure;
  errorType: ApiErrorType;
  detail: string;
  status?: number;
  serviceMessage?: string;
  excerpt?: string;
  networkCode?: string;
}

const seg = (id: string): string => encodeURIComponent(id);

function pagingQuery(paging?: Paging): Array<[string, string]> {
  const q: Array<[string, string]> = [];
  if (paging?.count !== undefined) q.push(['count', String(paging.count)]);
  if (paging?.offset !== undefined) q.push(['offset', String(paging.offset)]);
  return q;
}

function advice(errorType: string, status?: number): string {
  return errorType === 'AUTHENTICATION_ERROR' || status === 401 || status === 403
    ? ' Check the API key (the account settings show it).'
    : '';
}

/**
 * Create a client for the Ghost Inspector API v1.
 *
 * Requests: the API key goes in the query string as `apiKey` on every endpoint but the status badges
 * (contract "Authentication"), and also in the body of execute requests and the multipart import. Paths keep
 * the contract's trailing slashes. `Accept-Encoding: gzip` is sent and gzip answers are decompressed.
 *
 * Answers: a `SUCCESS` envelope resolves with its `data`; an `ERROR` envelope (even under HTTP 200), a
 * non-2xx status, an unreadable body or a transport failure rejects with an `ApiError` whose message,
 * endpoint and excerpt are redacted. Raw control characters inside JSON strings are tolerated.
 *
 * Retries (see `retry.ts`): reads and cancels on network errors, timeouts, 429 (honouring `Retry-After`),
 * 5xx and `SERVER_ERROR`, up to `maxRetries` (default 4) with jittered exponential backoff (500 ms doubling,
 * capped at 10 s). Execute and other writes are retried only when the request certainly never reached the
 * service (connection refused, DNS failure) or on 429; an execute that may have reached it is never sent
 * again and rejects with `TRIGGER_UNCERTAIN`. An `AbortSignal` in `RequestOptions` stops at once (`ABORTED`).
 *
 * @param options API key, base URL (default `https://api.ghostinspector.com/v1`), secrets to redact,
 *   `maxRetries`, `requestTimeoutMs` (default 30000 ms), injectable `sleep`, `now`, `random`, `log`, `onRequest`,
 *   `onRateLimited` (each 429, with its `Retry-After` in ms).
 * @returns an implementation of `GhostInspectorApi`.
 */
export function createClient(options: ClientOptions): GhostInspectorApi {
  const baseUrl = (options.baseUrl ?? DEFAULT_BASE_URL).replace(/\/+$/, '');
  const apiKey = options.apiKey;
  const maxRetries = Math.max(0, options.maxRetries ?? DEFAULT_MAX_RETRIES);
  const timeoutMs = options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
  const sleep = options.sleep ?? defaultSleep;
  const now = options.now ?? Date.now;
  const random = options.random ?? Math.random;
  const secrets = new Set<string>(
    [apiKey, ...(options.secrets ?? [])].filter((s) => typeof s === 'string' && s !== ''),
  );
  let redactor = createRedactor([...secrets]);
  const addSecret = (secret: string | undefined): void => {
    if (!secret || secrets.has(secret)) return;
    secrets.add(secret);
    redactor = createRedactor([...secrets]);
  };
  const redact = (text: string): string => redactor(text);
  const log = (line: string): void => options.log?.(redact(line));
  /** `METHOD /path` of an endpoint without its query, for errors raised before a request is built. */
  const endpointOf = (method: string, path: string): string =>
    redact(`${method} ${new URL(baseUrl + path).pathname}`);

  function failureFromResponse(res: HttpResponse, endpoint: string, nowMs: number): Failure {
    const text = res.body.toString('utf8');
    let env: ReturnType<typeof readEnvelope> | undefined;
    try {
      env = readEnvelope(parseJsonTolerant(text));
    } catch {
      env = undefined;
    }
    const retryAfterMs = res.status === 429 ? parseRetryAfter(res.headers['retry-after'], nowMs) : undefined;
    if (res.status === 429) options.onRateLimited?.(retryAfterMs);
    if (env?.kind === 'error') {
      return {
        failure: { kind: 'status', status: res.status, retryAfterMs },
        errorType: env.errorType,
        status: res.status,
        serviceMessage: redact(env.message),
        detail: `${env.errorType} (HTTP ${res.status}): ${excerpt(env.message, redact, 500)}`,
      };
    }
    const ex = excerpt(text, redact);
    return {
      failure: { kind: 'status', status: res.status, retryAfterMs },
      errorType: 'HTTP_ERROR',
      status: res.status,
      excerpt: ex,
      detail: `HTTP ${res.status}${ex ? `: ${ex}` : ' with an empty body'}`,
    };
  }

  function envelopeFailure(status: number, errorType: string, message: string): Failure {
    return {
      failure: { kind: 'envelope', errorType },
      errorType,
      status,
      serviceMessage: redact(message),
      detail: `${errorType}: ${excerpt(message, redact, 500)}`,
    };
  }

  function invalidBody(status: number, text: string, why: string): Failure {
    const ex = excerpt(text, redact);
    return {
      failure: { kind: 'status', status },
      errorType: 'INVALID_RESPONSE',
      status,
      excerpt: ex,
      detail: `${why} (HTTP ${status})${ex ? `: ${ex}` : ''}`,
    };
  }

  /** Read a 2xx answer per `expect`; returns the value or a Failure. */
  function readSuccess(res: HttpResponse, expect: Expect): { value: unknown } | Failure {
    const contentType = String(res.headers['content-type'] ?? '');
    const text = expect === 'binary' && !/json/i.test(contentType) ? '' : res.body.toString('utf8');
    if (expect === 'envelope' || expect === 'document') {
      let parsed: unknown;
      try {
        parsed = parseJsonTolerant(text);
      } catch {
        return invalidBody(res.status, text, 'the answer is not JSON');
      }
      const env = readEnvelope(parsed);
      if (env.kind === 'success') return { value: env.data };
      if (env.kind === 'error') return envelopeFailure(res.status, env.errorType, env.message);
      if (expect === 'document') return { value: env.value };
      return invalidBody(res.status, text, 'the answer is not a response envelope (no "code")');
    }
    // Text and binary answers: an error envelope in their place is still an error.
    if (/json/i.test(contentType) || /^\s*\{\s*"code"\s*:/.test(text)) {
      try {
        const env = readEnvelope(parseJsonTolerant(text));
        if (env.kind === 'error') return envelopeFailure(res.status, env.errorType, env.message);
        if (env.kind === 'success' && expect === 'text' && typeof env.data === 'string')
          return { value: env.data };
      } catch {
        // not JSON after all: the body is the value
      }
    }
    if (expect === 'text') return { value: text };
    return { value: { contentType, body: res.body } };
  }

  async function buildBody(
    body: Body | undefined,
  ): Promise<{ data?: string | Buffer; contentType?: string }> {
    if (!body) return {};
    if (body.type === 'json') return { data: JSON.stringify(body.value), contentType: 'application/json' };
    const form = new FormData();
    for (const [k, v] of body.fields) form.append(k, v);
    // A copy into a fresh ArrayBuffer-backed view (a Blob part may not be a SharedArrayBuffer view).
    const bytes = Uint8Array.from(
      typeof body.file.content === 'string' ? Buffer.from(body.file.content, 'utf8') : body.file.content,
    );
    form.append('dataFile', new Blob([bytes], { type: body.file.type }), body.file.name);
    const request = new Request('http://multipart.invalid/', { method: 'POST', body: form });
    return {
      data: Buffer.from(await request.arrayBuffer()),
      contentType: request.headers.get('content-type') ?? 'multipart/form-data',
    };
  }

  function makeError(
    call: Call,
    endpoint: string,
    f: Failure,
    attempts: number,
    uncertain: boolean,
  ): ApiError {
    const tries = attempts > 1 ? ` (after ${attempts} attempts)` : '';
    if (uncertain) {
      return new ApiError({
        errorType: 'TRIGGER_UNCERTAIN',
        causeType: f.errorType,
        status: f.status,
        endpoint,
        serviceMessage: f.serviceMessage,
        excerpt: f.excerpt,
        networkCode: f.networkCode,
        attempts,
        message: redact(
          `${endpoint}: the request that starts the run failed after it may have reached the service ` +
            `(${f.detail})${tries}. The run may have started, so it was not sent again (no run is ever ` +
            `triggered twice). Check the organization's running list (GET /v1/organizations/{organizationId}/running/ ` +
            `or the Ghost Inspector app) before re-running.`,
        ),
      });
    }
    let hint = advice(f.errorType, f.status);
    if (call.kind === 'trigger' && f.errorType === 'TIMEOUT_ERROR') {
      hint =
        " The service gave up waiting, but the tests stay triggered: check the organization's running list " +
        '(GET /v1/organizations/{organizationId}/running/) before re-running.';
    }
    if (f.networkCode && call.kind !== 'read' && call.kind !== 'cancel') {
      hint += ' The request never reached the service.';
    }
    return new ApiError({
      errorType: f.errorType,
      status: f.status,
      endpoint,
      serviceMessage: f.serviceMessage,
      excerpt: f.excerpt,
      networkCode: f.networkCode,
      attempts,
      message: redact(`${endpoint}: ${endSentence(`${f.detail}${tries}`)}${hint}`),
    });
  }

  async function request<T>(call: Call): Promise<T> {
    const url = new URL(baseUrl + call.path);
    const query = new URLSearchParams();
    if (call.sendApiKey !== false) query.append('apiKey', apiKey);
    for (const [k, v] of call.query ?? []) query.append(k, v);
    url.search = query.toString();
    const endpoint = redact(`${call.method} ${url.pathname}${url.search}`);
    const redactedUrl = redact(url.toString());
    const signal = call.opts?.signal;
    const aborted = (attempts: number, inFlight: boolean): ApiError =>
      new ApiError({
        errorType: 'ABORTED',
        endpoint,
        attempts,
        message: redact(
          `${endpoint}: aborted.` +
            (call.kind === 'trigger' && inFlight
              ? " The run may have started: check the organization's running list before re-running."
              : ''),
        ),
      });

    let built: Awaited<ReturnType<typeof buildBody>>;
    try {
      built = await buildBody(call.body);
    } catch (err) {
      throw new ApiError({
        errorType: 'INVALID_REQUEST',
        endpoint,
        attempts: 0,
        message: redact(`${endpoint}: could not build the request body: ${(err as Error).message}`),
      });
    }
    const headers: Record<string, string> = {};
    if (call.expect === 'envelope' || call.expect === 'document') headers.accept = 'application/json';
    if (built.contentType) headers['content-type'] = built.contentType;

    for (let attempt = 0; ; attempt++) {
      if (signal?.aborted) throw aborted(attempt, false);
      const attempts = attempt + 1;
      options.onRequest?.(call.method, redactedUrl);
      const started = now();
      let failure: Failure;
      try {
        const res = await sendHttp({
          method: call.method,
          url: url.toString(),
          headers,
          body: built.data,
          timeoutMs: call.timeoutMs ?? timeoutMs,
          signal,
        });
        log(`${endpoint} -> HTTP ${res.status} in ${Math.max(0, now() - started)} ms`);
        if (res.status >= 200 && res.status < 300) {
          const read = readSuccess(res, call.expect);
          if ('value' in read) return read.value as T;
          failure = read;
        } else {
          failure = failureFromResponse(res, endpoint, now());
        }
      } catch (err) {
        if (!(err instanceof TransportError)) throw err;
        if (err.kind === 'aborted') throw aborted(attempts, true);
        log(
          `${endpoint} -> ${err.kind} error${err.code ? ` ${err.code}` : ''} after ${Math.max(0, now() - started)} ms`,
        );
        if (err.kind === 'timeout') {
          failure = {
            failure: { kind: 'timeout' },
            errorType: 'REQUEST_TIMEOUT',
            detail: `no complete answer within ${call.timeoutMs ?? timeoutMs} ms`,
          };
        } else if (err.kind === 'decode') {
          failure = {
            failure: { kind: 'network', code: 'EDECODE' },
            errorType: 'INVALID_RESPONSE',
            detail: redact(err.message),
          };
        } else {
          failure = {
            failure: { kind: 'network', code: err.code },
            errorType: 'NETWORK_ERROR',
            networkCode: err.code,
            detail: `could not reach the service${err.code ? ` (${err.code})` : ''}: ${redact(err.message)}`,
          };
        }
      }
      const decision = decideRetry(call.kind, failure.failure, attempt, maxRetries, random);
      if (!decision.retry) throw makeError(call, endpoint, failure, attempts, decision.uncertainTrigger);
      log(`${endpoint}: ${failure.detail}; retry ${attempt + 1} of ${maxRetries} in ${decision.delayMs} ms`);
      try {
        await sleep(decision.delayMs, signal);
      } catch (err) {
        if (signal?.aborted) throw aborted(attempts, false);
        throw err;
      }
      if (signal?.aborted) throw aborted(attempts, false);
    }
  }

  const get = <T>(
    path: string,
    opts?: RequestOptions,
    query?: Array<[string, string]>,
    expect: Expect = 'envelope',
  ) => request<T>({ method: 'GET', path, query, kind: 'read', expect, opts });
  const postJson = <T>(path: string, value: unknown, opts?: RequestOptions, kind: RequestKind = 'write') =>
    request<T>({ method: 'POST', path, kind, body: { type: 'json', value }, expect: 'envelope', opts });
  const del = (path: string, opts?: RequestOptions) =>
    request<true>({ method: 'DELETE', path, kind: 'write', expect: 'envelope', opts });

  /** Execute a suite or test: JSON body normally, multipart with a data file. */
  async function execute<T>(
    path: string,
    target: 'suite' | 'test',
    execOptions: ExecuteOptions,
    opts?: RequestOptions,
  ): Promise<T> {
    addSecret(execOptions.httpAuthPassword);
    let encoded;
    try {
      encoded = encodeExecuteOptions(execOptions, target);
    } catch (err) {
      if (err instanceof ExecuteOptionsError) {
        throw new ApiError({
          errorType: 'INVALID_REQUEST',
          endpoint: endpointOf('POST', path),
          attempts: 0,
          message: `${endpointOf('POST', path)}: ${redact(err.message)}. Nothing was sent.`,
        });
      }
      throw err;
    }
    const body: Body = execOptions.dataFile
      ? {
          type: 'multipart',
          fields: [['apiKey', apiKey], ...encoded.pairs],
          file: { name: execOptions.dataFile.name, content: execOptions.dataFile.content, type: 'text/csv' },
        }
      : { type: 'json', value: { apiKey, ...encoded.json } };
    return request<T>({
      method: 'POST',
      path,
      kind: 'trigger',
      body,
      expect: 'envelope',
      opts,
      timeoutMs: syncTimeout(target, execOptions),
    });
  }

  /** The timeout of an execute that waits for completion; undefined (the default) with `immediate`. */
  function syncTimeout(target: 'suite' | 'test', execOptions: ExecuteOptions): number | undefined {
    if (execOptions.immediate) return undefined;
    return Math.max(
      timeoutMs,
      target === 'suite' ? SYNC_SUITE_EXECUTE_TIMEOUT_MS : SYNC_TEST_EXECUTE_TIMEOUT_MS,
    );
  }

  const single = (value: DataSource | DataSource[], endpoint: string): DataSource => {
    if (!Array.isArray(value)) return value;
    if (value.length > 0) return value[0];
    throw new ApiError({
      errorType: 'INVALID_RESPONSE',
      endpoint: redact(endpoint),
      attempts: 1,
      message: redact(`${endpoint}: the service answered an empty list where one data source was expected.`),
    });
  };

  const badge = (path: string, screenshot: boolean | undefined, opts?: RequestOptions) =>
    request<{ contentType: string; body: Buffer }>({
      method: 'GET',
      path,
      query: screenshot ? [['screenshot', '1']] : [],
      kind: 'read',
      expect: 'binary',
      sendApiKey: false,
      opts,
    });

  return {
    // Suites
    listSuites: (opts) => get('/suites/', opts),
    getSuite: (suiteId, opts) => get(`/suites/${seg(suiteId)}/`, opts),
    createSuite: (body, opts) => postJson('/suites/', body, opts),
    updateSuite: (suiteId, body, opts) => postJson(`/suites/${seg(suiteId)}/`, body, opts),
    deleteSuite: (suiteId, opts) => del(`/suites/${seg(suiteId)}/`, opts),
    duplicateSuite: (suiteId, opts) => postJson(`/suites/${seg(suiteId)}/duplicate/`, {}, opts),
    listSuiteTests: (suiteId, opts) => get(`/suites/${seg(suiteId)}/tests/`, opts),
    listSuiteResults: (suiteId, paging, opts) =>
      get(`/suites/${seg(suiteId)}/results/`, opts, pagingQuery(paging)),
    listSuiteResultsCsv: (suiteId, paging, opts) =>
      get(`/suites/${seg(suiteId)}/results/csv/`, opts, pagingQuery(paging), 'text'),
    executeSuite: (suiteId, execOptions, opts) =>
      execute(`/suites/${seg(suiteId)}/execute/`, 'suite', execOptions, opts),
    getSuiteStatusBadge: (suiteId, screenshot, opts) =>
      badge(`/suites/${seg(suiteId)}/status-badge`, screenshot, opts),

    // Suite import and export
    importTestJson: (suiteId, test, opts) => postJson(`/suites/${seg(suiteId)}/import-test/json`, test, opts),
    importTestRecorderHtml: (suiteId, file, opts) =>
      request({
        method: 'POST',
        path: `/suites/${seg(suiteId)}/import-test/recorder-html`,
        kind: 'write',
        body: {
          type: 'multipart',
          fields: [['apiKey', apiKey]],
          file: { name: file.name, content: file.content, type: 'text/html' },
        },
        expect: 'envelope',
        opts,
      }),
    importTestRecorderSide: (suiteId, side, opts) =>
      postJson(`/suites/${seg(suiteId)}/import-test/recorder-side`, side, opts),
    importTestLegacy: (suiteId, body, opts) => postJson(`/suites/${seg(suiteId)}/import-test/`, body, opts),
    exportSuiteJson: async (suiteId, includeImports, opts) =>
      (
        await get<{ body: Buffer }>(
          `/suites/${seg(suiteId)}/export/json/`,
          opts,
          includeImports ? [['includeImports', '1']] : [],
          'binary',
        )
      ).body,
    exportSuiteRecorderSide: (suiteId, opts) =>
      get(`/suites/${seg(suiteId)}/export/recorder-side/`, opts, [], 'document'),
    exportSuiteRecorderHtml: async (suiteId, opts) =>
      (await get<{ body: Buffer }>(`/suites/${seg(suiteId)}/export/recorder-html/`, opts, [], 'binary')).body,

    // Tests
    listTests: (opts) => get('/tests/', opts),
    getTest: (testId, opts) => get(`/tests/${seg(testId)}/`, opts),
    updateTest: (testId, body, opts) => postJson(`/tests/${seg(testId)}/`, body, opts),
    duplicateTest: (testId, opts) => postJson(`/tests/${seg(testId)}/duplicate/`, {}, opts),
    deleteTest: (testId, opts) => del(`/tests/${seg(testId)}/`, opts),
    executeTest: (testId, execOptions, opts) =>
      execute(`/tests/${seg(testId)}/execute/`, 'test', execOptions, opts),
    executeOnDemand: async (organizationId, test: TestDefinition, execOptions, opts) => {
      const path = `/organizations/${seg(organizationId)}/on-demand/execute`;
      if (execOptions.dataFile) {
        throw new ApiError({
          errorType: 'INVALID_REQUEST',
          endpoint: endpointOf('POST', path),
          attempts: 0,
          message: redact(
            `${endpointOf('POST', path)}: a data file cannot be sent with an on-demand execution (its body is the test). Nothing was sent.`,
          ),
        });
      }
      addSecret(execOptions.httpAuthPassword);
      let encoded;
      try {
        encoded = encodeExecuteOptions(execOptions, 'on-demand');
      } catch (err) {
        if (!(err instanceof ExecuteOptionsError)) throw err;
        throw new ApiError({
          errorType: 'INVALID_REQUEST',
          endpoint: endpointOf('POST', path),
          attempts: 0,
          message: `${endpointOf('POST', path)}: ${redact(err.message)}. Nothing was sent.`,
        });
      }
      return request({
        method: 'POST',
        path,
        query: encoded.pairs,
        kind: 'trigger',
        body: { type: 'json', value: { ...test, apiKey } },
        expect: 'envelope',
        opts,
        timeoutMs: syncTimeout('test', execOptions),
      });
    },
    listTestRunning: (testId, opts) => get(`/tests/${seg(testId)}/running/`, opts),
    acceptScreenshot: (testId, opts) => postJson(`/tests/${seg(testId)}/accept-screenshot/`, {}, opts),
    listTestResults: (testId, paging, opts) =>
      get(`/tests/${seg(testId)}/results/`, opts, pagingQuery(paging)),
    listTestResultsCsv: (testId, paging, opts) =>
      get(`/tests/${seg(testId)}/results/csv/`, opts, pagingQuery(paging), 'text'),
    exportTestJson: (testId, includeImports, opts) =>
      get(
        `/tests/${seg(testId)}/export/json/`,
        opts,
        includeImports ? [['includeImports', '1']] : [],
        'document',
      ),
    exportTestRecorderSide: (testId, opts) =>
      get(`/tests/${seg(testId)}/export/recorder-side/`, opts, [], 'document'),
    exportTestRecorderHtml: (testId, opts) =>
      get(`/tests/${seg(testId)}/export/recorder-html/`, opts, [], 'text'),
    getTestStatusBadge: (testId, screenshot, opts) =>
      badge(`/tests/${seg(testId)}/status-badge`, screenshot, opts),

    // Results
    getTestResult: (resultId, opts) => get(`/results/${seg(resultId)}/`, opts),
    cancelTestResult: (resultId, opts) => postJson(`/results/${seg(resultId)}/cancel/`, {}, opts, 'cancel'),
    commentOnTestResult: (resultId, message, opts) =>
      postJson(`/results/${seg(resultId)}/comment/`, { message }, opts),

    // Suite results
    getSuiteResult: (suiteResultId, opts) => get(`/suite-results/${seg(suiteResultId)}/`, opts),
    listSuiteResultTestResults: (suiteResultId, paging, opts) =>
      get(`/suite-results/${seg(suiteResultId)}/results/`, opts, pagingQuery(paging)),
    cancelSuiteResult: (suiteResultId, opts) =>
      postJson(`/suite-results/${seg(suiteResultId)}/cancel/`, {}, opts, 'cancel'),
    getSuiteResultXunit: (suiteResultId, opts) =>
      get(`/suite-results/${seg(suiteResultId)}/xunit/`, opts, [], 'text'),

    // Organizations
    listOrganizations: (opts) => get('/organizations/', opts),
    getOrganization: (organizationId, opts) => get(`/organizations/${seg(organizationId)}/`, opts),
    listOrganizationRunning: (organizationId, opts) =>
      get(`/organizations/${seg(organizationId)}/running/`, opts),

    // Data sources
    listDataSources: (organizationId, opts) =>
      get(`/organizations/${seg(organizationId)}/data-sources/`, opts),
    getDataSource: async (organizationId, dataSourceId, opts) => {
      const path = `/organizations/${seg(organizationId)}/data-sources/${seg(dataSourceId)}/`;
      return single(await get<DataSource | DataSource[]>(path, opts), endpointOf('GET', path));
    },
    createDataSource: async (organizationId, body, opts) => {
      const path = `/organizations/${seg(organizationId)}/data-sources/`;
      return single(await postJson<DataSource | DataSource[]>(path, body, opts), endpointOf('POST', path));
    },
    updateDataSource: async (organizationId, dataSourceId, body, opts) => {
      const path = `/organizations/${seg(organizationId)}/data-sources/${seg(dataSourceId)}/`;
      return single(await postJson<DataSource | DataSource[]>(path, body, opts), endpointOf('POST', path));
    },
    deleteDataSource: (organizationId, dataSourceId, opts) =>
      del(`/organizations/${seg(organizationId)}/data-sources/${seg(dataSourceId)}/`, opts),

    // Folders
    listFolders: (opts) => get('/folders/', opts),
    getFolder: (folderId, opts) => get(`/folders/${seg(folderId)}/`, opts),
    createFolder: (body, opts) => postJson('/folders/', body, opts),
    updateFolder: (folderId, body, opts) => postJson(`/folders/${seg(folderId)}/`, body, opts),
    listFolderSuites: (folderId, opts) => get(`/folders/${seg(folderId)}/suites/`, opts),
  };
}
