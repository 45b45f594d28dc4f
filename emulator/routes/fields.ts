/**
 * Request bodies of create, update, import and on-demand requests: the body's fields (never the API key),
 * field checks for suite and test settings (docs/api-contract.md, "Endpoints the action calls" and "Tests" settings), step normalisation and
 * the creation of a stored test from a definition.
 */
import { REGIONS } from '../../src/api/types.js';
import type { Step, StepTarget } from '../api-types.js';
import { BROWSER_PATTERN } from '../params.js';
import type { RequestContext } from '../server.js';
import {
  newSuiteDefaults,
  newTestDefaults,
  type Store,
  type SuiteRecord,
  type TestRecord,
} from '../store.js';
import { fieldText, invalid, iso } from '../util.js';

/** The body fields of a create/update request: the JSON object, else form fields; never the API key. */
export function bodyFields(ctx: RequestContext): Record<string, unknown> {
  if (ctx.json !== undefined) {
    if (ctx.json === null || typeof ctx.json !== 'object' || Array.isArray(ctx.json))
      invalid('The request body must be a JSON object');
    const { apiKey: _k, ...rest } = ctx.json as Record<string, unknown>;
    return rest;
  }
  const out: Record<string, unknown> = {};
  for (const name of ctx.params.names()) {
    if (name !== 'apiKey' && !ctx.url.searchParams.has(name)) out[name] = ctx.params.get(name);
  }
  return out;
}

export function requireString(value: unknown, name: string): string {
  if (typeof value !== 'string' || value.trim() === '')
    invalid(`${name} is required and must be a non-empty string`);
  return value;
}

type FieldCheck = (value: unknown, name: string) => unknown;
const bool: FieldCheck = (v, n) => {
  if (v === 1 || v === '1' || v === 'true') return true;
  if (v === 0 || v === '0' || v === 'false') return false;
  if (typeof v !== 'boolean') invalid(`${n} must be a boolean`);
  return v;
};
const nullableBool: FieldCheck = (v, n) => (v === null ? null : bool(v, n));
const num: FieldCheck = (v, n) => {
  const x = typeof v === 'string' && v.trim() !== '' ? Number(v) : v;
  if (typeof x !== 'number' || !Number.isFinite(x) || x < 0) invalid(`${n} must be a non-negative number`);
  return x;
};
const nullableNum: FieldCheck = (v, n) => (v === null ? null : num(v, n));
const str: FieldCheck = (v, n) => {
  if (typeof v !== 'string') invalid(`${n} must be a string`);
  return v;
};
const nullableStr: FieldCheck = (v, n) => (v === null ? null : str(v, n));
const threshold: FieldCheck = (v, n) => {
  const x = num(v, n) as number;
  if (x > 1) invalid(`${n} must be a number from 0.0 to 1.0`);
  return x;
};
const browser: FieldCheck = (v, n) => {
  if (typeof v !== 'string' || !BROWSER_PATTERN.test(v))
    invalid(`${n} must be chrome, chrome-<version>, firefox or firefox-<version>`);
  return v;
};
const region: FieldCheck = (v, n) => {
  if (typeof v !== 'string' || !(REGIONS as readonly string[]).includes(v))
    invalid(`${n} must be one of ${REGIONS.join(', ')}`);
  return v;
};
const viewport: FieldCheck = (v, n) => {
  const o = v as { width?: unknown; height?: unknown } | null;
  if (!o || typeof o !== 'object' || !(Number(o.width) > 0) || !(Number(o.height) > 0))
    invalid(`${n} must be {width, height} in px`);
  return { height: Number(o.height), width: Number(o.width) };
};
const nullableViewport: FieldCheck = (v, n) => (v === null ? null : viewport(v, n));
const array: FieldCheck = (v, n) => {
  if (!Array.isArray(v)) invalid(`${n} must be an array`);
  return v as unknown[];
};
const object: FieldCheck = (v, n) => {
  if (!v || typeof v !== 'object' || Array.isArray(v)) invalid(`${n} must be an object`);
  return v;
};

export const SUITE_FIELDS: Record<string, FieldCheck> = {
  name: (v, n) => requireString(v, n),
  abortOnTestFailure: bool,
  autoRetry: bool,
  browser,
  dataSource: nullableStr,
  disableVisuals: bool,
  disallowInsecureCertificates: bool,
  failOnJavaScriptError: bool,
  finalDelay: num,
  // "" takes the suite out of its folder.
  folder: (v, n) => (v === '' ? null : nullableStr(v, n)),
  globalStepDelay: num,
  httpAuthUsername: str,
  httpAuthPassword: str,
  language: nullableStr,
  maxAjaxDelay: num,
  maxWaitDelay: num,
  maxConcurrentTests: (v, n) => {
    const x = num(v, n) as number;
    if (!Number.isInteger(x)) invalid(`${n} must be a non-negative integer (0 = unlimited)`);
    return x;
  },
  notifications: object,
  notificationsSuite: object,
  httpHeaders: array,
  persistVariables: bool,
  publicStatusEnabled: bool,
  region,
  screenshotCompareEnabled: bool,
  screenshotCompareThreshold: threshold,
  startUrl: str,
  testFrequency: num,
  testFrequencyAdvanced: array,
  variables: array,
  viewportSize: viewport,
  userAgent: str,
  screenshotTarget: str,
  screenshotExclusions: str,
};

export const TEST_FIELDS: Record<string, FieldCheck> = {
  name: (v, n) => requireString(v, n),
  details: str,
  startUrl: str,
  autoRetry: nullableBool,
  disableVisuals: nullableBool,
  disallowInsecureCertificates: nullableBool,
  failOnJavaScriptError: nullableBool,
  // "" as null: test generators written for the service send `"region": ""` for "the suite's".
  browser: (v, n) => (v === null || v === '' ? null : browser(v, n)),
  language: nullableStr,
  region: (v, n) => (v === null || v === '' ? null : region(v, n)),
  finalDelay: nullableNum,
  globalStepDelay: nullableNum,
  maxAjaxDelay: nullableNum,
  maxWaitDelay: nullableNum,
  dataSource: nullableStr,
  screenshotCompareEnabled: nullableBool,
  screenshotCompareThreshold: threshold,
  publicStatusEnabled: bool,
  viewportSize: nullableViewport,
  filters: array,
  links: array,
  notifications: object,
  httpHeaders: array,
  testFrequency: num,
  testFrequencyAdvanced: array,
  importOnly: bool,
  httpAuthUsername: nullableStr,
  httpAuthPassword: nullableStr,
  userAgent: str,
  screenshotTarget: str,
  screenshotExclusions: str,
};

/** Normalises steps of a body (create, update, import, on-demand) into stored steps with fresh ids. */
export function normaliseSteps(store: Store, value: unknown, withIds: boolean): Step[] {
  if (!Array.isArray(value)) invalid('steps must be an array of steps');
  return value.map((raw, i) => {
    if (!raw || typeof raw !== 'object') invalid(`steps[${i}] must be an object`);
    const s = raw as Record<string, unknown>;
    if (typeof s.command !== 'string' || s.command === '')
      invalid(`steps[${i}].command must be a non-empty string`);
    const target = s.target ?? '';
    if (
      typeof target !== 'string' &&
      !(
        Array.isArray(target) &&
        target.every((t) => t && typeof (t as { selector?: unknown }).selector === 'string')
      )
    ) {
      invalid(`steps[${i}].target must be a string or an array of {selector}`);
    }
    const cond = s.condition ?? null;
    if (
      cond !== null &&
      (typeof cond !== 'object' || typeof (cond as { statement?: unknown }).statement !== 'string')
    ) {
      invalid(`steps[${i}].condition must be null or {statement}`);
    }
    const step: Step = {
      sequence: i,
      command: s.command,
      target: target as StepTarget,
      value: s.value === undefined || s.value === null ? '' : fieldText(s.value),
      variableName: typeof s.variableName === 'string' ? s.variableName : '',
      condition: cond === null ? null : { statement: (cond as { statement: string }).statement },
      optional: s.optional === true,
      private: s.private === true,
      notes: typeof s.notes === 'string' ? s.notes : '',
    };
    return withIds ? { _id: store.newId(), ...step } : step;
  });
}

/** The value each field has when a body sets it to null ("values set to null use Ghost Inspector defaults"). */
const DEFAULTS = new Map<Record<string, FieldCheck>, () => object>([
  [TEST_FIELDS, newTestDefaults],
  [SUITE_FIELDS, newSuiteDefaults],
]);

/**
 * Applies checked fields onto a record. Unknown and read-only fields are ignored, as the service does (an
 * exported or listed record imports back); a known field with a bad value is a VALIDATION_ERROR naming it.
 * `null` sets a field to its default, as in the service's own exports (`"notifications": null`, `"startUrl":
 * null`: "values set to null use Ghost Inspector defaults"; docs/api-contract.md, "Test definitions (repository test files)").
 */
export function applyFields(
  target: Record<string, unknown>,
  body: Record<string, unknown>,
  fields: Record<string, FieldCheck>,
  skip: string[] = [],
) {
  const defaults = (DEFAULTS.get(fields)?.() ?? {}) as Record<string, unknown>;
  for (const [name, value] of Object.entries(body)) {
    if (skip.includes(name) || name.startsWith('variables.')) continue;
    const check = fields[name];
    if (!check) continue;
    target[name] = value === null && name in defaults ? defaults[name] : check(value, name);
  }
}

/**
 * Creates a stored test from a definition (import, duplicate), dated `nowMs` (epoch ms); execution dates
 * epoch, `passing` null.
 */
export function createTest(
  store: Store,
  suite: SuiteRecord,
  user: string,
  def: Record<string, unknown>,
  nowMs: number,
): TestRecord {
  const now = iso(nowMs);
  const test: TestRecord = {
    ...newTestDefaults(),
    _id: store.newId(),
    name: requireString(def.name, 'name'),
    organization: suite.organization,
    suite: suite._id,
    user,
    steps: [],
    dateCreated: now,
    dateUpdated: now,
  };
  applyFields(test as unknown as Record<string, unknown>, def, TEST_FIELDS, [
    'steps',
    'name',
    ...IGNORED_ON_IMPORT,
  ]);
  test.steps = normaliseSteps(store, def.steps ?? [], true);
  store.tests.set(test._id, test);
  return test;
}

/** Fields of an exported or listed test that an import ignores (identifiers, dates, outcomes). */
export const IGNORED_ON_IMPORT = [
  '_id',
  'organization',
  'suite',
  'user',
  'passing',
  'screenshotComparePassing',
  'dateCreated',
  'dateUpdated',
  'dateExecutionStarted',
  'dateExecutionFinished',
  'dateExecutionTriggered',
  'imports',
];
