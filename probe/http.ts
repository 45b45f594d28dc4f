/**
 * One probe call: sends a request to the service (or the emulator), and records what came back as a shape
 * with every value redacted: HTTP status, media type, envelope (`SUCCESS`, `ERROR` or none), error type,
 * body kind, the shape of the JSON (`data` of an envelope, else the document) and CSV column names.
 */
import { shapeOf, type Shape } from './shape.js';

/** What the probe records of one call. Never a value: only names, types, statuses and kinds. */
export interface CallRecord {
  /** Method and path template, e.g. `GET /suites/{suiteId}/`. */
  name: string;
  status?: number;
  /** Content type without parameters, e.g. `application/json`. */
  mediaType?: string;
  envelope?: 'SUCCESS' | 'ERROR' | 'none';
  errorType?: string;
  body?: 'json' | 'zip' | 'xml' | 'csv' | 'svg' | 'html' | 'text' | 'empty';
  shape?: Shape;
  csvColumns?: string[];
  /** Why the call was not made (e.g. no suite result to read). */
  skipped?: string;
}

export interface ProbeContext {
  /** e.g. `https://api.ghostinspector.com/v1` (no trailing slash). */
  baseUrl: string;
  apiKey: string;
  /** Waits between retries of a 429 and between polls, ms. */
  sleep(ms: number): Promise<void>;
  records: CallRecord[];
}

/** A call's request: path template, its values, query parameters, JSON body; `key: false` sends no API key. */
export interface CallSpec {
  method: 'GET' | 'POST' | 'DELETE';
  template: string;
  values?: Record<string, string>;
  query?: Record<string, string>;
  body?: Record<string, unknown>;
  key?: boolean;
  /** Records under this name instead of `METHOD template` (e.g. two calls on one path). */
  as?: string;
}

/** Parses JSON that may hold raw control characters (the service sends some: docs/api-contract.md). */
function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    // eslint-disable-next-line no-control-regex
    return JSON.parse(text.replace(/[\u0000-\u001f]/g, ' '));
  }
}

function bodyKind(mediaType: string, bytes: Buffer): NonNullable<CallRecord['body']> {
  if (bytes.length === 0) return 'empty';
  if (bytes.subarray(0, 2).toString('latin1') === 'PK') return 'zip';
  if (mediaType.includes('json')) return 'json';
  if (mediaType.includes('csv')) return 'csv';
  if (mediaType.includes('svg')) return 'svg';
  if (mediaType.includes('html')) return 'html';
  if (mediaType.includes('xml')) return 'xml';
  return 'text';
}

function buildUrl(ctx: ProbeContext, spec: CallSpec): string {
  const path = spec.template.replace(/\{(\w+)\}/g, (_m, name: string) =>
    encodeURIComponent(spec.values?.[name] ?? ''),
  );
  const url = new URL(ctx.baseUrl + path);
  if (spec.key !== false && spec.body === undefined) url.searchParams.set('apiKey', ctx.apiKey);
  for (const [k, v] of Object.entries(spec.query ?? {})) url.searchParams.set(k, v);
  return url.toString();
}

/**
 * Sends one call (retrying a 429 up to 3 times, honouring `Retry-After` up to 10 s, else 1 s), records its
 * shape in `ctx.records` and returns the JSON answer's `data` (or document) for the next calls; undefined
 * when the call failed or answered something else.
 */
export async function probeCall(ctx: ProbeContext, spec: CallSpec): Promise<unknown> {
  const record: CallRecord = { name: spec.as ?? `${spec.method} ${spec.template}` };
  ctx.records.push(record);
  const init: RequestInit = { method: spec.method, headers: { 'accept-encoding': 'gzip' } };
  if (spec.body !== undefined) {
    init.body = JSON.stringify({ ...spec.body, apiKey: ctx.apiKey });
    init.headers = { ...init.headers, 'content-type': 'application/json' };
  }
  let res: Response | undefined;
  for (let attempt = 0; attempt < 4; attempt++) {
    try {
      res = await fetch(buildUrl(ctx, spec), init);
    } catch (error) {
      record.skipped = `request failed: ${(error as Error).name}`;
      return undefined;
    }
    if (res.status !== 429 || attempt === 3) break;
    const retryAfter = Number(res.headers.get('retry-after'));
    await res.arrayBuffer();
    await ctx.sleep(retryAfter > 0 ? Math.min(retryAfter, 10) * 1000 : 1000);
  }
  const bytes = Buffer.from(await res!.arrayBuffer());
  record.status = res!.status;
  record.mediaType = (res!.headers.get('content-type') ?? '').split(';')[0].trim().toLowerCase();
  record.body = bodyKind(record.mediaType, bytes);
  record.envelope = 'none';
  if (record.body === 'csv') {
    const header = bytes.toString('utf8').split(/\r?\n/)[0] ?? '';
    record.csvColumns = header.split(',').map((c) => c.replace(/^"|"$/g, ''));
  }
  if (record.body !== 'json') return undefined;
  let json: unknown;
  try {
    json = parseJson(bytes.toString('utf8'));
  } catch {
    record.body = 'text';
    return undefined;
  }
  const envelope = json as { code?: unknown; data?: unknown; errorType?: unknown };
  if (
    envelope &&
    typeof envelope === 'object' &&
    (envelope.code === 'SUCCESS' || envelope.code === 'ERROR')
  ) {
    record.envelope = envelope.code;
    if (envelope.code === 'ERROR') {
      record.errorType = typeof envelope.errorType === 'string' ? envelope.errorType : 'none';
      return undefined;
    }
    record.shape = shapeOf(envelope.data);
    return envelope.data;
  }
  record.shape = shapeOf(json);
  return json;
}

/** Records a call that could not be made, and why. */
export function skip(ctx: ProbeContext, name: string, why: string): void {
  ctx.records.push({ name, skipped: why });
}
