/** The API client's transport: builds, meters, sends, reads, retries and redacts calls (docs/architecture.md). */
import { systemClock, type Clock } from '../common/clock.js';
import { DEFAULT_BASE_URL, type ClientOptions, type RequestOptions } from './api.js';
import { checkShape, readEnvelopeData, type ReadAnswer, type Shape, type StreamAnswer } from './answer.js';
import { encodeBody, type Body, type EncodedBody } from './body.js';
import { ApiError } from './errors.js';
import { failureError, failureFromResponse, failureFromTransport, type Failure } from './failures.js';
import { sendHttp, TransportError } from './http.js';
import { DEFAULT_REQUEST_TIMEOUT_MS } from './limits.js';
import { createRedactor } from './redact.js';
import { decideRetry, DEFAULT_MAX_RETRIES, type RequestKind } from './retry-rules.js';

export interface Call {
  method: 'GET' | 'POST' | 'DELETE';
  /** Path below the base URL, with its trailing slash as the contract shows it. */
  path: string;
  query?: Array<[string, string]>;
  kind: RequestKind;
  body?: Body;
  /** How a 2xx answer is read (default: the envelope's `data`, asked for with `accept: application/json`). */
  read?: ReadAnswer;
  /** Reads a 2xx answer as it arrives instead (`readEnvelopeList`: a list never held whole). */
  stream?: StreamAnswer;
  /** The form the envelope's `data` must take (checked when given). */
  shape?: Shape;
  /** False for the status badges, which take no key. */
  sendApiKey?: boolean;
  /** Per-attempt timeout (ms) when not the client's default. */
  timeoutMs?: number;
  opts?: RequestOptions;
}

/** A call made ready to send: its URL, redacted forms, headers and encoded body. */
interface Prepared {
  call: Call;
  url: string;
  /** `METHOD /path?query`, redacted. */
  endpoint: string;
  redactedUrl: string;
  headers: Record<string, string>;
  body: EncodedBody;
  timeoutMs: number;
}

/**
 * Sends the calls of one client: `apiKey` in the query string, retries per `retry-rules.ts`, one budget token
 * per attempt. A 429 is retried while the call's signal allows; without a signal it counts as a retry.
 */
export class Transport {
  /** The account's API key (also sent in the body of executes and multipart imports). */
  readonly apiKey: string;
  /** Default per-attempt timeout (ms). */
  readonly timeoutMs: number;
  private readonly baseUrl: string;
  private readonly maxRetries: number;
  private readonly clock: Clock;
  private readonly secrets: Set<string>;
  private redactor: (text: string) => string;

  constructor(private readonly options: ClientOptions) {
    this.baseUrl = (options.baseUrl ?? DEFAULT_BASE_URL).replace(/\/+$/, '');
    this.apiKey = options.apiKey;
    this.maxRetries = Math.max(0, options.maxRetries ?? DEFAULT_MAX_RETRIES);
    this.timeoutMs = options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
    this.clock = options.clock ?? systemClock;
    this.secrets = new Set<string>(
      [this.apiKey, ...(options.secrets ?? [])].filter((s) => typeof s === 'string' && s !== ''),
    );
    this.redactor = createRedactor([...this.secrets]);
  }

  /** Hide `text`'s secrets (API key, further secrets, `apiKey` query values). */
  readonly redact = (text: string): string => this.redactor(text);

  /** Add a secret to hide from now on (an execute's HTTP auth password); empty or known ones are ignored. */
  addSecret(secret: string | undefined): void {
    if (!secret || this.secrets.has(secret)) return;
    this.secrets.add(secret);
    this.redactor = createRedactor([...this.secrets]);
  }

  /** `METHOD /path` of an endpoint without its query (redacted), for errors raised before a request is built. */
  endpointOf(method: string, path: string): string {
    return this.redact(`${method} ${new URL(this.baseUrl + path).pathname}`);
  }

  /** An `INVALID_REQUEST` error for a call refused before anything was sent; `reason` is redacted here. */
  notSent(method: string, path: string, reason: string): ApiError {
    const endpoint = this.endpointOf(method, path);
    return new ApiError({
      errorType: 'INVALID_REQUEST',
      endpoint,
      attempts: 0,
      message: this.redact(`${endpoint}: ${reason}. Nothing was sent.`),
    });
  }

  /** GET a path (a read, retried); resolves with the envelope's `data`, of `shape` when given. */
  get<T>(path: string, opts?: RequestOptions, query?: Array<[string, string]>, shape?: Shape) {
    return this.request<T>({ method: 'GET', path, query, kind: 'read', opts, shape });
  }

  /** POST a JSON body (a write unless `kind` says otherwise); resolves with the envelope's `data`. */
  postJson<T>(
    path: string,
    value: unknown,
    opts?: RequestOptions,
    kind: RequestKind = 'write',
    shape?: Shape,
  ) {
    return this.request<T>({
      method: 'POST',
      path,
      kind,
      body: { type: 'json', value },
      opts,
      shape,
    });
  }

  /** Send a call, retrying per its kind. @throws ApiError: the last failure, or `TRIGGER_UNCERTAIN`. */
  async request<T>(call: Call): Promise<T> {
    const p = await this.prepare(call);
    const signal = call.opts?.signal;
    const retrySignal = call.opts?.retrySignal;
    const waitSignal =
      retrySignal && signal ? AbortSignal.any([signal, retrySignal]) : (retrySignal ?? signal);
    for (let attempt = 0; ; attempt++) {
      if (signal?.aborted || (attempt > 0 && retrySignal?.aborted)) throw this.aborted(p, attempt, false);
      const attempts = attempt + 1;
      await this.takeToken(p, attempt, waitSignal);
      const outcome = await this.attempt(p, attempts);
      if ('value' in outcome) return outcome.value as T;
      // A 429 never started anything, so with a signal to end the wait it is retried until it fires.
      const { failure } = outcome;
      const untilAborted = signal !== undefined && failure.kind === 'status' && failure.status === 429;
      const maxRetries = untilAborted ? Infinity : this.maxRetries;
      const decision = decideRetry(call.kind, failure, attempt, maxRetries, () => this.clock.random());
      if (!decision.retry) {
        const error = failureError(
          call.kind,
          p.endpoint,
          outcome,
          attempts,
          decision.uncertainTrigger,
          this.redact,
        );
        if (outcome.errorType === 'UNEXPECTED_SHAPE') this.options.onUnexpectedShape?.(error.message);
        throw error;
      }
      const of = untilAborted ? 'rate limited, until the deadline' : `of ${this.maxRetries}`;
      this.log(`${p.endpoint}: ${outcome.detail}; retry ${attempt + 1} (${of}) in ${decision.delayMs} ms`);
      // A refused size is no passing fault: the reason is shown even when the next attempt gets through.
      if (outcome.tooLarge) {
        this.options.onUnexpectedShape?.(this.redact(`${p.endpoint}: ${outcome.detail}; asked again.`));
      }
      await this.clock.sleep(decision.delayMs, waitSignal);
      if (waitSignal?.aborted) throw this.aborted(p, attempts, false);
    }
  }

  /** Takes the attempt's budget token: at once for a `neverWait` call, else after the budget's wait. */
  private async takeToken(p: Prepared, attempt: number, waitSignal: AbortSignal | undefined): Promise<void> {
    const budget = this.options.budget;
    if (!budget) return;
    if (p.call.opts?.neverWait) return budget.takeNow();
    try {
      await budget.acquire(waitSignal, (ms, s) => this.clock.sleep(ms, s), p.call.opts?.lowPriority);
    } catch (err) {
      if (waitSignal?.aborted) throw this.aborted(p, attempt, false);
      throw err;
    }
  }

  private log(line: string): void {
    this.options.log?.(this.redact(line));
  }

  private async prepare(call: Call): Promise<Prepared> {
    const url = new URL(this.baseUrl + call.path);
    const query = new URLSearchParams();
    if (call.sendApiKey !== false) query.append('apiKey', this.apiKey);
    for (const [k, v] of call.query ?? []) query.append(k, v);
    url.search = query.toString();
    const endpoint = this.redact(`${call.method} ${url.pathname}${url.search}`);
    let body: EncodedBody;
    try {
      body = await encodeBody(call.body);
    } catch (err) {
      throw this.notSent(
        call.method,
        call.path,
        `could not build the request body: ${(err as Error).message}`,
      );
    }
    const headers: Record<string, string> = {};
    if (!call.read) headers.accept = 'application/json';
    if (body.contentType) headers['content-type'] = body.contentType;
    const timeoutMs = call.timeoutMs ?? this.timeoutMs;
    return {
      call,
      url: url.toString(),
      endpoint,
      redactedUrl: this.redact(url.toString()),
      headers,
      body,
      timeoutMs,
    };
  }

  /** One HTTP exchange: the value, or the failure to decide on. */
  private async attempt(p: Prepared, attempts: number): Promise<{ value: unknown } | Failure> {
    const { call } = p;
    const { stream } = call;
    this.options.onRequest?.(call.method, p.redactedUrl);
    const started = this.clock.now();
    try {
      const res = await sendHttp({
        method: call.method,
        url: p.url,
        headers: p.headers,
        body: p.body.data,
        timeoutMs: p.timeoutMs,
        signal: call.opts?.signal,
        ...(stream ? { readOk: (chunks, status) => stream(chunks, status, this.redact) } : {}),
      });
      this.log(`${p.endpoint} -> HTTP ${res.status} in ${Math.max(0, this.clock.now() - started)} ms`);
      if (res.status >= 200 && res.status < 300) {
        const read = stream
          ? (res.read as Awaited<ReturnType<StreamAnswer>>)
          : (call.read ?? readEnvelopeData)(res, this.redact);
        const wrong = call.shape && 'value' in read ? checkShape(read.value, call.shape, res.status) : null;
        return wrong ?? read;
      }
      return failureFromResponse(res, this.clock.now(), this.redact, (ms) =>
        this.options.budget?.onRateLimited(ms),
      );
    } catch (err) {
      if (!(err instanceof TransportError)) throw err;
      if (err.kind === 'aborted') throw this.aborted(p, attempts, true);
      const code = err.code ? ` ${err.code}` : '';
      this.log(
        `${p.endpoint} -> ${err.kind} error${code} after ${Math.max(0, this.clock.now() - started)} ms`,
      );
      return failureFromTransport(err, p.timeoutMs, this.redact);
    }
  }

  private aborted(p: Prepared, attempts: number, inFlight: boolean): ApiError {
    return new ApiError({
      errorType: 'ABORTED',
      endpoint: p.endpoint,
      attempts,
      inFlight,
      message: this.redact(
        `${p.endpoint}: aborted.` +
          (p.call.kind === 'trigger' && inFlight
            ? " The run may have started: check the organization's running list before re-running."
            : ''),
      ),
    });
  }
}
