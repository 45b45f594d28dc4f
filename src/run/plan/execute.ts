/** What to trigger and with which execute parameters (docs/api-contract.md, "Execute parameters"). Pure. */
import { EXECUTE_PARAMETER_NAMES } from '../../api/execute-params.js';
import type { ExecuteOptions, TestResult } from '../../api/types.js';
import { STEP_MARKER } from '../../inputs/schema.js';
import type { Answer } from '../kinds.js';
import type { TriggerJob, UserExecuteOptions, Variant } from '../types.js';

export type { TriggerJob, UserExecuteOptions } from '../types.js';

/** The user's options with {@link STEP_MARKER} set to `value` among the custom variables. */
export function withStepMarker(user: UserExecuteOptions, value: string): UserExecuteOptions {
  return { ...user, variables: { ...user.variables, [STEP_MARKER]: value } };
}

/** Parameters the contract allows on test execution only. */
const TEST_ONLY: ReadonlyArray<keyof ExecuteOptions> = ['webhook', 'screenshotCompareBaselineResult'];

/** The options of one execute: the user's, the job's start URL, `immediate`; no test-only ones for suites. */
export function optionsFor(job: TriggerJob, user: UserExecuteOptions): ExecuteOptions {
  const options: ExecuteOptions = { ...user, immediate: true };
  // A repository test's definition is rebased onto its start URL (`definitionFor`); the bare URL undoes it.
  if (job.startUrl !== undefined) {
    options.startUrl = job.kind === 'file' ? job.definition.startUrl || job.startUrl : job.startUrl;
  }
  if (job.kind === 'suite') for (const name of TEST_ONLY) delete options[name];
  return options;
}

function asList(value: string | string[] | undefined): Array<string | undefined> {
  if (value === undefined) return [undefined];
  const list = Array.isArray(value) ? value : [value];
  return list.length > 0 ? list : [undefined];
}

/** The variants one execute stands for, in the service's answer order: browser, region, viewport (inner). */
export function variantCombinations(
  options: Pick<ExecuteOptions, 'browser' | 'region' | 'viewport'>,
): Variant[] {
  const combos: Variant[] = [];
  for (const browser of asList(options.browser)) {
    for (const region of asList(options.region)) {
      for (const viewport of asList(options.viewport)) {
        const v: Variant = {};
        if (browser !== undefined) v.browser = browser;
        if (region !== undefined) v.region = region;
        if (viewport !== undefined) v.viewport = viewport;
        combos.push(v);
      }
    }
  }
  return combos;
}

/** The variant of the `index`-th answer element: data rows (outer, if `hasRows`) × combinations. */
export function variantAt(index: number, combos: Variant[], hasRows: boolean, startUrl?: string): Variant {
  const n = Math.max(1, combos.length);
  const v: Variant = { ...(combos[index % n] ?? {}) };
  if (startUrl !== undefined) v.startUrl = startUrl;
  if (hasRows) v.dataRow = Math.floor(index / n);
  return v;
}

/**
 * Whether a result's `browser` (`chrome-142`) is the browser asked for: `chrome` fits every Chrome version,
 * `chrome-79` only 79 (`chrome-79.0.3945` too); case-insensitive (docs/api-contract.md, "Resources").
 */
export function browserFits(asked: string, shown: string): boolean {
  const a = asked.toLowerCase();
  const s = shown.toLowerCase();
  return s === a || s.startsWith(a.includes('-') ? `${a}.` : `${a}-`);
}

/**
 * A variant's varied dimensions as a test result ran them; the browser stays as asked when the result's fits
 * it (names survive browser updates), else the asked one of `browsers` it fits, else the result's own.
 */
export function variantFromResult(
  variant: Variant,
  result: Pick<TestResult, 'browser' | 'region' | 'viewportSize'>,
  browsers?: string | string[],
): Variant {
  const v = { ...variant };
  const shown = result.browser;
  if (v.browser !== undefined && shown && !browserFits(v.browser, shown)) {
    v.browser = [browsers ?? []].flat().find((b) => browserFits(b, shown)) ?? shown;
  }
  if (v.region !== undefined && result.region) v.region = result.region;
  if (v.viewport !== undefined && result.viewportSize?.width && result.viewportSize?.height) {
    v.viewport = `${result.viewportSize.width}x${result.viewportSize.height}`;
  }
  return v;
}

/** An execute response as a list (the service answers one object or an array). */
export function asArray<T extends Answer>(data: unknown): T[] {
  if (Array.isArray(data)) return data as T[];
  return data && typeof data === 'object' ? [data as T] : [];
}

/**
 * The options to re-run one failed test alone: the user's minus data rows, with the failed run's variant and
 * its data row's values as variables (never the names of execute parameters).
 */
export function retryOptions(
  user: UserExecuteOptions,
  variant: Variant,
  failed: Pick<TestResult, 'variables'> | null,
): ExecuteOptions {
  const { dataFile: _dataFile, dataSource: _dataSource, maxConcurrentDataRows: _rows, ...rest } = user;
  const options: ExecuteOptions = { ...rest, immediate: true };
  if (user.browser !== undefined && variant.browser) options.browser = variant.browser;
  if (user.region !== undefined && variant.region) options.region = variant.region;
  if (user.viewport !== undefined && variant.viewport) options.viewport = variant.viewport;
  if (variant.startUrl !== undefined) options.startUrl = variant.startUrl;
  if (variant.dataRow !== undefined && failed?.variables) {
    const rowVariables: Record<string, string> = {};
    for (const [name, value] of Object.entries(failed.variables)) {
      if (!EXECUTE_PARAMETER_NAMES.has(name) && /^[A-Za-z_][A-Za-z0-9_]*$/.test(name))
        rowVariables[name] = String(value);
    }
    options.variables = { ...rowVariables, ...(user.variables ?? {}) };
  }
  return options;
}

/** The records of a CSV file, each a list of fields: quoted fields kept whole (`""` a quote), blank lines skipped. */
function csvRecords(content: Uint8Array | string): string[][] {
  const text = typeof content === 'string' ? content : Buffer.from(content).toString('utf8');
  const records: string[][] = [];
  let fields: string[] = [];
  let field = '';
  let quoted = false;
  let filled = false;
  const endRecord = (): void => {
    if (filled) records.push([...fields, field]);
    fields = [];
    field = '';
    filled = false;
  };
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (quoted && ch === '"' && text[i + 1] === '"') field += text[++i];
    else if (ch === '"') quoted = !quoted;
    else if (quoted) field += ch;
    else if (ch === ',') {
      fields.push(field);
      field = '';
    } else if (ch === '\n' || ch === '\r') endRecord();
    else field += ch;
    if (!/\s/.test(ch)) filled = true;
  }
  endRecord();
  return records;
}

/** The data rows of a CSV file: records after the header, quoted fields kept whole, blank lines skipped. */
export function csvDataRows(content: Uint8Array | string): number {
  return Math.max(0, csvRecords(content).length - 1);
}

/**
 * The values of each data row of the execute's data file by column name, as a result of that row shows them
 * in its `variables` (columns the execute's own variables override are left out); none without a data file.
 */
export function dataRowVariables(options: ExecuteOptions): Array<Record<string, string>> {
  if (!options.dataFile) return [];
  const [header = [], ...rows] = csvRecords(options.dataFile.content);
  return rows.map((row) => {
    const values: Record<string, string> = {};
    header.forEach((name, i) => {
      if (!Object.hasOwn(options.variables ?? {}, name)) values[name] = row[i] ?? '';
    });
    return values;
  });
}

/** The variants an execute would start (a data source's rows are unknown: one per combination then). */
export function expectedVariants(options: ExecuteOptions, startUrl?: string): Variant[] {
  const combos = variantCombinations(options);
  const rows = options.dataFile ? Math.max(1, csvDataRows(options.dataFile.content)) : 1;
  const hasRows = options.dataFile !== undefined && rows > 1;
  const count = Math.max(1, combos.length) * rows;
  return Array.from({ length: count }, (_, i) => variantAt(i, combos, hasRows, startUrl));
}

/** The id a job names: the suite id, the test id or the file's path. */
export function jobId(job: TriggerJob): string {
  return job.kind === 'suite' ? job.suiteId : job.kind === 'test' ? job.testId : job.file;
}

/** How the log names a job: `suite <id>`, `test <id>`, `<file> "<name>"`. */
export function jobLabel(job: TriggerJob): string {
  if (job.kind === 'suite') return `suite ${job.suiteId}`;
  if (job.kind === 'test') return `test ${job.testId}`;
  return `${job.file} "${job.name}"`;
}
