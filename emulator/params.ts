/**
 * Request parameters: query string, JSON body, urlencoded form and multipart form merged into one view
 * (body values override query values, docs/api-contract.md, "Conventions" 6), and the execute parameters of the contract
 * ("Execute parameters (suite and test)") parsed and validated.
 */
import { parse as parseCsv } from 'csv-parse/sync';
import { REGIONS } from '../src/api/types.js';
import { invalid } from './util.js';

/** An uploaded file of a multipart request. */
export interface UploadedFile {
  filename: string;
  content: Buffer;
}

/**
 * The parameters of one request. Names are normalised (`key[]` becomes `key`); every name maps to its
 * values in order (repeated parameters); JSON body values keep their JSON types.
 */
export class Params {
  private readonly values = new Map<string, unknown[]>();
  constructor(
    query: URLSearchParams,
    /** JSON body object or form fields; `undefined` when the body was not an object. */
    body: Record<string, unknown> | Array<[string, string]> | undefined,
    readonly files: Map<string, UploadedFile> = new Map(),
  ) {
    for (const [key, value] of query) this.add(this.values, key, value);
    if (body === undefined) return;
    const fromBody = new Map<string, unknown[]>();
    const entries = Array.isArray(body) ? body : Object.entries(body);
    for (const [key, value] of entries) {
      if (Array.isArray(value)) for (const v of value) this.add(fromBody, key, v);
      else this.add(fromBody, key, value);
    }
    for (const [key, list] of fromBody) this.values.set(key, list);
  }

  private add(map: Map<string, unknown[]>, rawKey: string, value: unknown) {
    const key = rawKey.endsWith('[]') ? rawKey.slice(0, -2) : rawKey;
    const list = map.get(key);
    if (list) list.push(value);
    else map.set(key, [value]);
  }

  /** Every parameter name present. */
  names(): string[] {
    return [...this.values.keys()];
  }

  /** All values of `name` (empty when absent). */
  all(name: string): unknown[] {
    return this.values.get(name) ?? [];
  }

  /** The first value of `name`. */
  get(name: string): unknown {
    return this.values.get(name)?.[0];
  }

  /** The first value of `name` as a string (numbers and booleans converted); undefined when absent. */
  string(name: string): string | undefined {
    const value = this.get(name);
    if (value === undefined || value === null) return undefined;
    if (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean')
      invalid(`${name} must be a string`);
    return String(value);
  }

  /** `1`/`0`, `true`/`false` (strings, numbers or JSON booleans) as a boolean; undefined when absent. */
  boolean(name: string): boolean | undefined {
    const value = this.get(name);
    if (value === undefined || value === null || value === '') return undefined;
    if (value === true || value === 1 || value === '1' || value === 'true') return true;
    if (value === false || value === 0 || value === '0' || value === 'false') return false;
    invalid(`${name} must be 1 or 0 (or true/false), got ${JSON.stringify(value)}`);
  }

  /** A number parameter within [min, max] (integer when `integer`); undefined when absent. */
  number(name: string, opts: { min?: number; max?: number; integer?: boolean } = {}): number | undefined {
    const value = this.get(name);
    if (value === undefined || value === null || value === '') return undefined;
    const n = typeof value === 'number' ? value : typeof value === 'string' ? Number(value) : NaN;
    const expected = `${opts.integer ? 'an integer' : 'a number'}${
      opts.min !== undefined && opts.max !== undefined
        ? ` from ${opts.min} to ${opts.max}`
        : opts.min !== undefined
          ? ` of at least ${opts.min}`
          : ''
    }`;
    if (!Number.isFinite(n) || (opts.integer && !Number.isInteger(n))) {
      invalid(`${name} must be ${expected}, got ${JSON.stringify(value)}`);
    }
    if ((opts.min !== undefined && n < opts.min) || (opts.max !== undefined && n > opts.max)) {
      invalid(`${name} must be ${expected}, got ${n}`);
    }
    return n;
  }

  /** The API key: from the body or form when given there, else from the query string. */
  apiKey(): string | undefined {
    return this.string('apiKey');
  }
}

/** `count` (default 10, at most 50: larger values are capped) and `offset` (default 0) of result lists. */
export function paging(params: Params): { count: number; offset: number } {
  const count = params.number('count', { min: 1, integer: true }) ?? 10;
  const offset = params.number('offset', { min: 0, integer: true }) ?? 0;
  return { count: Math.min(count, 50), offset };
}

/** Maximum execute `delay` in ms (docs/api-contract.md, "Limits"). */
export const MAX_DELAY_MS = 300_000;

/** Browser forms: chrome, chrome-<version>, firefox, firefox-<version> (docs/api-contract.md, "Execute parameters"). */
export const BROWSER_PATTERN = /^(chrome|firefox)(-\d+(\.\d+)*)?$/;

/** The version a result names for a browser asked without one (guessed: emulator/DEVIATIONS.md). */
export const BROWSER_VERSIONS: Readonly<Record<string, number>> = { chrome: 142, firefox: 145 };

/** The `browser` a result shows: `chrome` → `chrome-142`; a value with a version as asked (`chrome-79`). */
export function resultBrowser(browser: string): string {
  return Object.hasOwn(BROWSER_VERSIONS, browser) ? `${browser}-${BROWSER_VERSIONS[browser]}` : browser;
}

const VIEWPORT = /^(\d{1,5})x(\d{1,5})$/;

/** Execute parameters after validation; settings left undefined fall back to the test's and suite's. */
export interface ExecuteParams {
  immediate: boolean;
  startUrl?: string;
  /** One run per combination of browsers x regions x viewports; empty = the setting. */
  browsers: string[];
  regions: string[];
  viewports: Array<{ width: number; height: number }>;
  userAgent?: string;
  dataSource?: string;
  /** ms before start, 0..300000. */
  delay: number;
  httpAuth?: { username: string; password: string };
  webhooks: string[];
  disableNotifications?: boolean;
  /** Rows of the uploaded CSV data file (one run each). */
  dataFileRows?: Array<Record<string, string>>;
  disableVisuals?: boolean;
  maxConcurrentDataRows?: number;
  screenshotCompareEnabled?: boolean;
  screenshotCompareThreshold?: number;
  screenshotCompareBaselineResult?: string;
  screenshotExclusions?: string;
  screenshotTarget?: string;
  chatChannel?: string;
  /** Custom variables: every parameter name that is not an execute parameter. */
  variables: Record<string, string>;
}

const EXECUTE_NAMES = new Set([
  'apiKey',
  'immediate',
  'startUrl',
  'browser',
  'userAgent',
  'dataSource',
  'delay',
  'region',
  'httpAuthUsername',
  'httpAuthPassword',
  'webhook',
  'disableNotifications',
  'dataFile',
  'disableVisuals',
  'maxConcurrentDataRows',
  'screenshotCompareEnabled',
  'screenshotCompareThreshold',
  'screenshotCompareBaselineResult',
  'screenshotExclusions',
  'screenshotTarget',
  'viewport',
  'chatChannel',
  // The official client 7.0.1's name of the chat channel (docs/api-contract.md, "Execute parameters").
  'slackChannel',
]);

function strings(params: Params, name: string): string[] {
  return params.all(name).flatMap((v) => {
    if (v === undefined || v === null || v === '') return [];
    if (typeof v !== 'string' && typeof v !== 'number' && typeof v !== 'boolean')
      invalid(`${name} must be a string or a list of strings`);
    return [String(v)];
  });
}

/**
 * Parses and validates the execute parameters (docs/api-contract.md, "Execute parameters").
 * Throws a VALIDATION_ERROR naming the parameter and the expected form for: a browser not of the forms
 * chrome|chrome-N|firefox|firefox-N, an unknown region, a viewport not `{width}x{height}`, a delay outside
 * 0..300000 ms, a threshold outside 0..1, a boolean not 1/0/true/false, a data file that is not CSV with a
 * header row and at least one row, or more rows than `maxCsvUploadRows`.
 */
export function parseExecuteParams(params: Params, opts: { maxCsvUploadRows: number }): ExecuteParams {
  const browsers = strings(params, 'browser');
  for (const b of browsers) {
    if (!BROWSER_PATTERN.test(b))
      invalid(`browser must be chrome, chrome-<version>, firefox or firefox-<version>, got "${b}"`);
  }
  const regions = strings(params, 'region');
  for (const r of regions) {
    if (!(REGIONS as readonly string[]).includes(r))
      invalid(`region must be one of ${REGIONS.join(', ')}, got "${r}"`);
  }
  const viewports = strings(params, 'viewport').map((v) => {
    const m = VIEWPORT.exec(v);
    if (!m || Number(m[1]) === 0 || Number(m[2]) === 0)
      invalid(`viewport must be {width}x{height}, e.g. 1024x768, got "${v}"`);
    return { width: Number(m[1]), height: Number(m[2]) };
  });
  const username = params.string('httpAuthUsername');
  const password = params.string('httpAuthPassword');
  const variables: Record<string, string> = {};
  for (const name of params.names()) {
    if (EXECUTE_NAMES.has(name)) continue;
    const value = params.get(name);
    variables[name] = value !== null && typeof value === 'object' ? JSON.stringify(value) : String(value);
  }
  let dataFileRows: Array<Record<string, string>> | undefined;
  const file = params.files.get('dataFile');
  if (params.get('dataFile') !== undefined && !file)
    invalid('dataFile must be sent as a file in a multipart POST');
  if (file) dataFileRows = parseDataFile(file.content, opts.maxCsvUploadRows);
  return {
    immediate: params.boolean('immediate') ?? false,
    startUrl: params.string('startUrl'),
    browsers,
    regions,
    viewports,
    userAgent: params.string('userAgent'),
    dataSource: params.string('dataSource'),
    delay: params.number('delay', { min: 0, max: MAX_DELAY_MS, integer: true }) ?? 0,
    httpAuth:
      username !== undefined || password !== undefined
        ? { username: username ?? '', password: password ?? '' }
        : undefined,
    webhooks: strings(params, 'webhook'),
    disableNotifications: params.boolean('disableNotifications'),
    dataFileRows,
    disableVisuals: params.boolean('disableVisuals'),
    maxConcurrentDataRows: params.number('maxConcurrentDataRows', { min: 1, integer: true }),
    screenshotCompareEnabled: params.boolean('screenshotCompareEnabled'),
    screenshotCompareThreshold: params.number('screenshotCompareThreshold', { min: 0, max: 1 }),
    screenshotCompareBaselineResult: params.string('screenshotCompareBaselineResult'),
    screenshotExclusions: params.string('screenshotExclusions'),
    screenshotTarget: params.string('screenshotTarget'),
    chatChannel: params.string('chatChannel') ?? params.string('slackChannel'),
    variables,
  };
}

/** Parses a CSV data file: a header row of variable names, then one run per row. */
export function parseDataFile(content: Buffer, maxRows: number): Array<Record<string, string>> {
  let rows: Array<Record<string, string>>;
  try {
    rows = parseCsv(content, { columns: true, skip_empty_lines: true, trim: true, bom: true });
  } catch (error) {
    invalid(`dataFile is not valid CSV: ${(error as Error).message}`);
  }
  if (rows.length === 0) invalid('dataFile must have a header row and at least one data row');
  if (rows.length > maxRows) invalid(`dataFile has ${rows.length} rows; the plan allows at most ${maxRows}`);
  return rows;
}
