/**
 * The `/v1` endpoints: every row of the contract's "Endpoints" section plus the suite-result endpoints of
 * the service facts. Paths answer with and without a trailing slash. Errors are `ERROR` envelopes with
 * HTTP 200 (thrown as ApiError); unknown ids are VALIDATION_ERRORs naming the id.
 */
import {
  REGIONS,
  type Step,
  type StepTarget,
  type SuiteResult,
  type TestDefinition,
  type TestResult,
} from '../src/api/types.js';
import { badgeSvg, BADGE_CONTENT_TYPE, type BadgeState } from './formats/badge.js';
import { suiteResultsCsv, testResultsCsv } from './formats/csv.js';
import { recorderHtmlToTest, testToRecorderHtml } from './formats/recorder-html.js';
import { sideToTests, testsToSide } from './formats/side.js';
import { zipFiles } from './formats/zip.js';
import type { Engine } from './engine.js';
import { BROWSER_PATTERN, paging, parseExecuteParams, Params } from './params.js';
import type { RequestContext, Route, Handler } from './server.js';
import {
  newSuiteDefaults,
  newTestDefaults,
  type ApiKeyRecord,
  type Store,
  type SuiteRecord,
  type TestRecord,
} from './store.js';
import { clone, EPOCH, invalid, iso } from './util.js';
import { organizationView, suiteView, testExport, testView } from './views.js';
import { suiteResultXunit } from './xunit.js';

/** Web app base used in CSV links, as the real service writes them (service facts "Pages in the web app"). */
export const APP_URL = 'https://app.ghostinspector.com';
/** Appended to the name of a duplicated suite or test. */
export const COPY_MARKER = ' (Copy)';

export interface ApiDeps {
  store: Store;
  engine: Engine;
}

const ok = (data: unknown) => ({ data });

/** The body fields of a create/update request: the JSON object, else form fields; never the API key. */
function bodyFields(ctx: RequestContext): Record<string, unknown> {
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

function requireString(value: unknown, name: string): string {
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
  return v;
};
const object: FieldCheck = (v, n) => {
  if (!v || typeof v !== 'object' || Array.isArray(v)) invalid(`${n} must be an object`);
  return v;
};

const SUITE_FIELDS: Record<string, FieldCheck> = {
  name: (v, n) => requireString(v, n),
  abortOnTestFailure: bool,
  autoRetry: bool,
  browser,
  dataSource: nullableStr,
  disableVisuals: bool,
  disallowInsecureCertificates: bool,
  failOnJavaScriptError: bool,
  finalDelay: num,
  folder: nullableStr,
  globalStepDelay: num,
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
};

const TEST_FIELDS: Record<string, FieldCheck> = {
  name: (v, n) => requireString(v, n),
  details: str,
  startUrl: str,
  autoRetry: nullableBool,
  disableVisuals: nullableBool,
  disallowInsecureCertificates: nullableBool,
  failOnJavaScriptError: nullableBool,
  browser: (v, n) => (v === null ? null : browser(v, n)),
  language: nullableStr,
  region: (v, n) => (v === null ? null : region(v, n)),
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
  testFrequency: num,
  testFrequencyAdvanced: array,
};

/** Normalises steps of a body (create, update, import, on-demand) into stored steps with fresh ids. */
function normaliseSteps(store: Store, value: unknown, withIds: boolean): Step[] {
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
      value: s.value === undefined || s.value === null ? '' : String(s.value),
      variableName: typeof s.variableName === 'string' ? s.variableName : '',
      condition: cond === null ? null : { statement: (cond as { statement: string }).statement },
      optional: s.optional === true,
      private: s.private === true,
      notes: typeof s.notes === 'string' ? s.notes : '',
    };
    return withIds ? { _id: store.newId(), ...step } : step;
  });
}

/** Applies checked fields onto a record; unknown fields are a VALIDATION_ERROR naming them. */
function applyFields(
  target: Record<string, unknown>,
  body: Record<string, unknown>,
  fields: Record<string, FieldCheck>,
  skip: string[] = [],
) {
  for (const [name, value] of Object.entries(body)) {
    if (skip.includes(name) || name.startsWith('variables.')) continue;
    const check = fields[name];
    if (!check) invalid(`Unknown or read-only field: ${name}`);
    target[name] = check(value, name);
  }
}

/** Creates a stored test from a definition (import, duplicate); execution dates epoch, `passing` null. */
function createTest(
  store: Store,
  suite: SuiteRecord,
  user: string,
  def: Record<string, unknown>,
): TestRecord {
  const now = iso(Date.now());
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
const IGNORED_ON_IMPORT = [
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

/** Tests a test pulls in through `importTest`/`execute` steps (value or target holds a test id). */
function importedTests(store: Store, test: TestRecord, seen = new Set<string>()): TestRecord[] {
  const out: TestRecord[] = [];
  for (const step of test.steps) {
    if (step.command !== 'importTest' && step.command !== 'execute') continue;
    for (const ref of [step.value, typeof step.target === 'string' ? step.target : '']) {
      const other = store.tests.get(ref);
      if (other && other.organization === test.organization && !seen.has(other._id)) {
        seen.add(other._id);
        out.push(other, ...importedTests(store, other, seen));
      }
    }
  }
  return out;
}

function fileName(name: string, ext: string): string {
  return `${name.replace(/[^\w.() -]+/g, '_').trim() || 'test'}.${ext}`;
}

/** The badge state of a test (latest result) or a suite (latest suite result); see contract "States". */
function badgeState(
  latest: TestResult | SuiteResult | undefined,
  screenshot: boolean,
  isSuite: boolean,
): BadgeState {
  if (!latest) return 'unknown';
  if (latest.status === 8) return 'unknown';
  const running = isSuite
    ? !(latest as SuiteResult).dateExecutionFinished
    : (latest as TestResult).executionTime === null;
  if (running) return 'running';
  if (screenshot) {
    if (latest.screenshotComparePassing === true) return 'screenshot-compare-passing';
    if (latest.screenshotComparePassing === false) return 'screenshot-compare-failing';
    return 'unknown';
  }
  if (latest.passing === true) return 'passing';
  if (latest.passing === null) return 'unknown';
  if (isSuite && (latest as SuiteResult).countPassing > 0) return 'partially-failing';
  return 'failing';
}

function badge(state: BadgeState) {
  return { raw: badgeSvg(state), contentType: BADGE_CONTENT_TYPE, headers: { 'cache-control': 'no-cache' } };
}

/** Builds the `/v1` route table. */
export function apiRoutes({ store, engine }: ApiDeps): Route[] {
  const routes: Route[] = [];
  const on = (methods: string | string[], pattern: string, handler: Handler) =>
    routes.push({ methods: Array.isArray(methods) ? methods : [methods], pattern, handler });

  const orgsOf = (key: ApiKeyRecord) => key.organizations;
  const testResultsOf = (testId: string) =>
    [...store.results.values()]
      .filter((r) => store.resultMeta.get(r._id)?.testId === testId)
      .sort((a, b) => store.resultMeta.get(b._id)!.seq - store.resultMeta.get(a._id)!.seq);
  const suiteResultsOf = (suiteId: string) =>
    [...store.suiteResults.values()]
      .filter((r) => r.suite._id === suiteId)
      .sort((a, b) => store.suiteResultMeta.get(b._id)!.seq - store.suiteResultMeta.get(a._id)!.seq);
  const page = <T>(rows: T[], params: Params) => {
    const { count, offset } = paging(params);
    return rows.slice(offset, offset + count);
  };
  const running = (filter: (r: TestResult) => boolean) =>
    [...store.results.values()].filter((r) => !store.resultMeta.get(r._id)!.finished && filter(r));
  const maxCsvRows = (orgId: string) => store.organizations.get(orgId)?.plan.maxCsvUploadRows ?? 1000;

  // ---- Suites ----
  on('GET', '/v1/suites', (ctx) => {
    const key = ctx.auth();
    return ok(
      [...store.suites.values()]
        .filter((s) => orgsOf(key).includes(s.organization))
        .map((s) => suiteView(store, s, 'list')),
    );
  });
  on('POST', '/v1/suites', (ctx) => {
    const key = ctx.auth();
    const body = bodyFields(ctx);
    const name = requireString(body.name, 'name');
    const orgId = body.organization ?? (orgsOf(key).length === 1 ? orgsOf(key)[0] : undefined);
    store.organization(requireString(orgId, 'organization'), key);
    const now = iso(Date.now());
    const suite: SuiteRecord = {
      ...newSuiteDefaults(),
      _id: store.newId(),
      name,
      organization: orgId as string,
      user: key.user,
      dateCreated: now,
      dateExecutionTriggered: EPOCH,
    };
    applyFields(suite as unknown as Record<string, unknown>, body, SUITE_FIELDS, ['name', 'organization']);
    store.suites.set(suite._id, suite);
    return ok(suiteView(store, suite, 'get'));
  });
  on('GET', '/v1/suites/:suiteId', (ctx) =>
    ok(suiteView(store, store.suite(ctx.pathParams.suiteId, ctx.auth()), 'get')),
  );
  on('POST', '/v1/suites/:suiteId', (ctx) => {
    const key = ctx.auth();
    const suite = store.suite(ctx.pathParams.suiteId, key);
    const body = bodyFields(ctx);
    const next = clone(suite);
    applyFields(next as unknown as Record<string, unknown>, body, SUITE_FIELDS);
    for (const [name, value] of Object.entries(body)) {
      if (!name.startsWith('variables.')) continue;
      const varName = name.slice('variables.'.length);
      if (varName === '') invalid('variables.<varName> needs a variable name');
      const v = value as { value?: unknown; private?: unknown } | null;
      if (!v || typeof v !== 'object' || v.value === undefined)
        invalid(`${name} must be an object with value`);
      const existing = next.variables.find((x) => x.name === varName);
      const entry = {
        name: varName,
        value: String(v.value),
        private: v.private === true || (existing?.private ?? false),
      };
      if (existing) Object.assign(existing, entry);
      else next.variables.push(entry);
    }
    if (next.folder !== null) store.folder(next.folder, key);
    if (next.dataSource !== null) store.dataSource(next.organization, next.dataSource, key);
    Object.assign(suite, next);
    return ok(suiteView(store, suite, 'get'));
  });
  on('DELETE', '/v1/suites/:suiteId', (ctx) => {
    const suite = store.suite(ctx.pathParams.suiteId, ctx.auth());
    for (const test of store.testsOf(suite._id)) store.tests.delete(test._id);
    store.suites.delete(suite._id);
    return ok(true);
  });
  on(['GET', 'POST'], '/v1/suites/:suiteId/duplicate', (ctx) => {
    const key = ctx.auth();
    const suite = store.suite(ctx.pathParams.suiteId, key);
    const copy: SuiteRecord = {
      ...clone(suite),
      _id: store.newId(),
      name: suite.name + COPY_MARKER,
      user: key.user,
      dateCreated: iso(Date.now()),
      dateExecutionTriggered: EPOCH,
    };
    store.suites.set(copy._id, copy);
    for (const test of store.testsOf(suite._id)) duplicateTest(test, copy, key, test.name);
    return ok(suiteView(store, copy, 'duplicate'));
  });
  const duplicateTest = (test: TestRecord, suite: SuiteRecord, key: ApiKeyRecord, name: string) => {
    const now = iso(Date.now());
    const copy: TestRecord = {
      ...clone(test),
      ...{ passing: null, screenshotComparePassing: null, baselineResult: null, passingFromSeq: 0 },
      _id: store.newId(),
      name,
      suite: suite._id,
      user: key.user,
      steps: test.steps.map((s) => ({ ...clone(s), _id: store.newId() })),
      dateCreated: now,
      dateUpdated: now,
      dateExecutionStarted: EPOCH,
      dateExecutionFinished: EPOCH,
      dateExecutionTriggered: EPOCH,
    };
    store.tests.set(copy._id, copy);
    return copy;
  };
  on('GET', '/v1/suites/:suiteId/tests', (ctx) => {
    const suite = store.suite(ctx.pathParams.suiteId, ctx.auth());
    return ok(store.testsOf(suite._id).map((t) => testView(store, t, 'list')));
  });
  on('GET', '/v1/suites/:suiteId/results', (ctx) => {
    const suite = store.suite(ctx.pathParams.suiteId, ctx.auth());
    return ok(page(suiteResultsOf(suite._id), ctx.params));
  });
  on('GET', '/v1/suites/:suiteId/results/csv', (ctx) => {
    const suite = store.suite(ctx.pathParams.suiteId, ctx.auth());
    return {
      raw: suiteResultsCsv(page(suiteResultsOf(suite._id), ctx.params), APP_URL),
      contentType: 'text/csv; charset=utf-8',
    };
  });
  on(['GET', 'POST'], '/v1/suites/:suiteId/execute', async (ctx) => {
    const key = ctx.auth();
    const suite = store.suite(ctx.pathParams.suiteId, key);
    const params = parseExecuteParams(ctx.params, { maxCsvUploadRows: maxCsvRows(suite.organization) });
    const { suiteResults, many } = engine.executeSuite(key, suite, params);
    if (params.immediate) return ok(clone(many ? suiteResults : suiteResults[0]));
    await engine.waitSuiteResults(suiteResults.map((r) => r._id));
    if (many) return ok(clone(suiteResults));
    const ids = store.suiteResultMeta.get(suiteResults[0]._id)!.resultIds;
    return ok(ids.map((id) => clone(store.results.get(id)!)));
  });
  on('GET', '/v1/suites/:suiteId/status-badge', (ctx) => {
    const suite = store.suites.get(ctx.pathParams.suiteId);
    if (!suite) invalid(`Suite not found: ${ctx.pathParams.suiteId}`);
    if (!suite.publicStatusEnabled)
      invalid('The status badge is not enabled for this suite (publicStatusEnabled is false)');
    return badge(badgeState(suiteResultsOf(suite._id)[0], ctx.params.get('screenshot') !== undefined, true));
  });

  // ---- Suite import and export ----
  const importJson = (ctx: RequestContext, suite: SuiteRecord, key: ApiKeyRecord) => {
    const body = bodyFields(ctx);
    if (body.steps === undefined) invalid('steps is required: an array of steps');
    return testView(store, createTest(store, suite, key.user, body), 'import');
  };
  const importHtml = (ctx: RequestContext, suite: SuiteRecord, key: ApiKeyRecord) => {
    const file = ctx.params.files.get('dataFile');
    if (!file) invalid('dataFile is required: a recorder .html file sent as multipart form data');
    let parsed;
    try {
      parsed = recorderHtmlToTest(file.content.toString('utf8'));
    } catch (error) {
      invalid(`dataFile is not a valid recorder HTML test: ${(error as Error).message}`);
    }
    return testView(store, createTest(store, suite, key.user, { ...parsed }), 'import');
  };
  const importSide = (ctx: RequestContext, suite: SuiteRecord, key: ApiKeyRecord) => {
    const doc = ctx.json as Record<string, unknown> | undefined;
    if (!doc || typeof doc !== 'object' || !Array.isArray(doc.tests))
      invalid('The body must be a recorder .side document with tests');
    let tests;
    try {
      tests = sideToTests(doc as never);
    } catch (error) {
      invalid(`The .side document is not valid: ${(error as Error).message}`);
    }
    return tests.map((t) => testView(store, createTest(store, suite, key.user, { ...t }), 'import'));
  };
  on('POST', '/v1/suites/:suiteId/import-test/json', (ctx) => {
    const key = ctx.auth();
    return ok(importJson(ctx, store.suite(ctx.pathParams.suiteId, key), key));
  });
  on('POST', '/v1/suites/:suiteId/import-test/recorder-html', (ctx) => {
    const key = ctx.auth();
    return ok(importHtml(ctx, store.suite(ctx.pathParams.suiteId, key), key));
  });
  on('POST', '/v1/suites/:suiteId/import-test/recorder-side', (ctx) => {
    const key = ctx.auth();
    return ok(importSide(ctx, store.suite(ctx.pathParams.suiteId, key), key));
  });
  on('POST', '/v1/suites/:suiteId/import-test', (ctx) => {
    // Legacy combined import: a recorder .html file, a .side document (its first test) or a native JSON test.
    const key = ctx.auth();
    const suite = store.suite(ctx.pathParams.suiteId, key);
    if (ctx.params.files.has('dataFile')) return ok(importHtml(ctx, suite, key));
    const json = ctx.json as Record<string, unknown> | undefined;
    if (json && Array.isArray(json.tests) && Array.isArray(json.suites))
      return ok(importSide(ctx, suite, key)[0]);
    return ok(importJson(ctx, suite, key));
  });
  on('GET', '/v1/suites/:suiteId/export/json', (ctx) => {
    const suite = store.suite(ctx.pathParams.suiteId, ctx.auth());
    const tests = store.testsOf(suite._id);
    const files = tests.map((t) => ({
      name: fileName(t.name, 'json'),
      content: JSON.stringify(testExport(t), null, 2),
    }));
    if (ctx.params.get('includeImports') !== undefined) {
      const seen = new Set(tests.map((t) => t._id));
      for (const t of tests) {
        for (const imported of importedTests(store, t, seen)) {
          files.push({
            name: `imports/${fileName(imported.name, 'json')}`,
            content: JSON.stringify(testExport(imported), null, 2),
          });
        }
      }
    }
    return zipReply(files, `${suite.name}.zip`);
  });
  on('GET', '/v1/suites/:suiteId/export/recorder-side', (ctx) => {
    const suite = store.suite(ctx.pathParams.suiteId, ctx.auth());
    const tests = store.testsOf(suite._id);
    return ok(testsToSide(suite.name, suite.startUrl || tests[0]?.startUrl || '', tests.map(sideTest)));
  });
  on('GET', '/v1/suites/:suiteId/export/recorder-html', (ctx) => {
    const suite = store.suite(ctx.pathParams.suiteId, ctx.auth());
    const files = store
      .testsOf(suite._id)
      .map((t) => ({ name: fileName(t.name, 'html'), content: testToRecorderHtml(t) }));
    return zipReply(files, `${suite.name}.zip`);
  });
  const sideTest = (t: TestRecord) => ({ _id: t._id, name: t.name, startUrl: t.startUrl, steps: t.steps });
  const zipReply = (files: Array<{ name: string; content: string }>, name: string) => ({
    raw: zipFiles(files),
    contentType: 'application/zip',
    headers: {
      'content-disposition': `attachment; filename="${fileName(name.replace(/\.zip$/, ''), 'zip')}"`,
    },
  });

  // ---- Tests ----
  on('GET', '/v1/tests', (ctx) => {
    const key = ctx.auth();
    return ok(
      [...store.tests.values()]
        .filter((t) => orgsOf(key).includes(t.organization))
        .map((t) => testView(store, t, 'list')),
    );
  });
  on('GET', '/v1/tests/:testId', (ctx) =>
    ok(testView(store, store.test(ctx.pathParams.testId, ctx.auth()), 'get')),
  );
  on('POST', '/v1/tests/:testId', (ctx) => {
    const key = ctx.auth();
    const test = store.test(ctx.pathParams.testId, key);
    const body = bodyFields(ctx);
    const next = clone(test);
    applyFields(next as unknown as Record<string, unknown>, body, TEST_FIELDS, ['steps']);
    if (body.steps !== undefined) next.steps = normaliseSteps(store, body.steps, true);
    next.dateUpdated = iso(Date.now());
    Object.assign(test, next);
    return ok(testView(store, test, 'get'));
  });
  on('DELETE', '/v1/tests/:testId', (ctx) => {
    const test = store.test(ctx.pathParams.testId, ctx.auth());
    store.tests.delete(test._id);
    return ok(true);
  });
  on(['GET', 'POST'], '/v1/tests/:testId/duplicate', (ctx) => {
    const key = ctx.auth();
    const test = store.test(ctx.pathParams.testId, key);
    const suite = store.suites.get(test.suite)!;
    return ok(testView(store, duplicateTest(test, suite, key, test.name + COPY_MARKER), 'duplicate'));
  });
  on(['GET', 'POST'], '/v1/tests/:testId/execute', async (ctx) => {
    const key = ctx.auth();
    const test = store.test(ctx.pathParams.testId, key);
    const params = parseExecuteParams(ctx.params, { maxCsvUploadRows: maxCsvRows(test.organization) });
    const { results, many } = engine.executeTest(key, test, params);
    if (!params.immediate) await engine.waitResults(results.map((r) => r._id));
    return ok(clone(many ? results : results[0]));
  });
  on('POST', '/v1/organizations/:organizationId/on-demand/execute', async (ctx) => {
    const key = ctx.auth();
    const org = store.organization(ctx.pathParams.organizationId, key);
    const body = bodyFields(ctx);
    if (body.steps === undefined) invalid('steps is required: an array of steps');
    const now = iso(Date.now());
    const test: TestRecord = {
      ...newTestDefaults(),
      _id: store.newId(),
      name: typeof body.name === 'string' && body.name !== '' ? body.name : 'On-demand test',
      organization: org._id,
      suite: '',
      user: key.user,
      steps: [],
      dateCreated: now,
      dateUpdated: now,
    };
    applyFields(test as unknown as Record<string, unknown>, body, TEST_FIELDS, [
      'steps',
      'name',
      ...IGNORED_ON_IMPORT,
    ]);
    test.steps = normaliseSteps(store, body.steps, false);
    // Execute parameters come from the query string (the body is the test definition).
    const params = parseExecuteParams(new Params(ctx.url.searchParams, undefined), {
      maxCsvUploadRows: org.plan.maxCsvUploadRows,
    });
    if (ctx.json && (ctx.json as Record<string, unknown>).immediate !== undefined) {
      params.immediate = ['1', 'true', 1, true].includes(
        (ctx.json as Record<string, unknown>).immediate as never,
      );
    }
    const { results, many } = engine.executeOnDemand(key, test, params);
    if (!params.immediate) await engine.waitResults(results.map((r) => r._id));
    return ok(clone(many ? results : results[0]));
  });
  on(['GET', 'POST'], '/v1/tests/:testId/running', (ctx) => {
    const test = store.test(ctx.pathParams.testId, ctx.auth());
    return ok(running((r) => r.test?._id === test._id));
  });
  on(['GET', 'POST'], '/v1/tests/:testId/accept-screenshot', (ctx) => {
    const test = store.test(ctx.pathParams.testId, ctx.auth());
    engine.acceptScreenshot(test);
    return ok(testView(store, test, 'get'));
  });
  on('GET', '/v1/tests/:testId/results', (ctx) => {
    const test = store.test(ctx.pathParams.testId, ctx.auth());
    return ok(page(testResultsOf(test._id), ctx.params));
  });
  on('GET', '/v1/tests/:testId/results/csv', (ctx) => {
    const test = store.test(ctx.pathParams.testId, ctx.auth());
    return {
      raw: testResultsCsv(page(testResultsOf(test._id), ctx.params), APP_URL),
      contentType: 'text/csv; charset=utf-8',
    };
  });
  on('GET', '/v1/tests/:testId/export/json', (ctx) => {
    const test = store.test(ctx.pathParams.testId, ctx.auth());
    const doc: TestDefinition & { imports?: TestDefinition[] } = testExport(test);
    if (ctx.params.get('includeImports') !== undefined)
      doc.imports = importedTests(store, test).map(testExport);
    return ok(doc);
  });
  on('GET', '/v1/tests/:testId/export/recorder-side', (ctx) => {
    const test = store.test(ctx.pathParams.testId, ctx.auth());
    return ok(testsToSide(test.name, test.startUrl, [sideTest(test)]));
  });
  on('GET', '/v1/tests/:testId/export/recorder-html', (ctx) => {
    const test = store.test(ctx.pathParams.testId, ctx.auth());
    return { raw: testToRecorderHtml(test), contentType: 'application/xhtml+xml; charset=utf-8' };
  });
  on('GET', '/v1/tests/:testId/status-badge', (ctx) => {
    const test = store.tests.get(ctx.pathParams.testId);
    if (!test) invalid(`Test not found: ${ctx.pathParams.testId}`);
    if (!test.publicStatusEnabled)
      invalid('The status badge is not enabled for this test (publicStatusEnabled is false)');
    return badge(badgeState(testResultsOf(test._id)[0], ctx.params.get('screenshot') !== undefined, false));
  });

  // ---- Results ----
  on('GET', '/v1/results/:resultId', (ctx) => ok(store.result(ctx.pathParams.resultId, ctx.auth())));
  on('POST', '/v1/results/:resultId/cancel', (ctx) => {
    const result = store.result(ctx.pathParams.resultId, ctx.auth());
    if (!engine.cancelResult(result._id))
      invalid(`Test result ${result._id} is not active: only running results can be cancelled`);
    return ok(result);
  });
  on('POST', '/v1/results/:resultId/comment', (ctx) => {
    const key = ctx.auth();
    const result = store.result(ctx.pathParams.resultId, key);
    const message = requireString(bodyFields(ctx).message ?? ctx.params.get('message'), 'message');
    result.comments.push(store.newComment(key, message, iso(Date.now())));
    result.commentCount = result.comments.length;
    return ok(result);
  });

  // ---- Suite results (service facts) ----
  on('GET', '/v1/suite-results/:suiteResultId', (ctx) =>
    ok(store.suiteResult(ctx.pathParams.suiteResultId, ctx.auth())),
  );
  on('GET', '/v1/suite-results/:suiteResultId/results', (ctx) => {
    const sr = store.suiteResult(ctx.pathParams.suiteResultId, ctx.auth());
    const ids = store.suiteResultMeta.get(sr._id)?.resultIds ?? [];
    return ok(
      page(
        ids.map((id) => store.results.get(id)!),
        ctx.params,
      ),
    );
  });
  on('POST', '/v1/suite-results/:suiteResultId/cancel', (ctx) => {
    const sr = store.suiteResult(ctx.pathParams.suiteResultId, ctx.auth());
    if (!engine.cancelSuiteResult(sr._id))
      invalid(`Suite result ${sr._id} is not active: only running suite results can be cancelled`);
    return ok(sr);
  });
  on('GET', '/v1/suite-results/:suiteResultId/xunit', (ctx) => {
    const sr = store.suiteResult(ctx.pathParams.suiteResultId, ctx.auth());
    const results = (store.suiteResultMeta.get(sr._id)?.resultIds ?? []).map((id) => store.results.get(id)!);
    return { raw: suiteResultXunit(sr, results), contentType: 'application/xml; charset=utf-8' };
  });

  // ---- Organizations ----
  on('GET', '/v1/organizations', (ctx) => {
    const key = ctx.auth();
    return ok(
      orgsOf(key).flatMap((id) => {
        const o = store.organizations.get(id);
        return o ? [{ _id: o._id, name: o.name }] : [];
      }),
    );
  });
  on('GET', '/v1/organizations/:organizationId', (ctx) =>
    ok(organizationView(store, store.organization(ctx.pathParams.organizationId, ctx.auth()))),
  );
  on(['GET', 'POST'], '/v1/organizations/:organizationId/running', (ctx) => {
    const org = store.organization(ctx.pathParams.organizationId, ctx.auth());
    return ok(running((r) => r.organization === org._id));
  });

  // ---- Data sources ----
  const checkRows = (value: unknown): Array<Record<string, string | number>> => {
    if (!Array.isArray(value)) invalid('data must be an array of row objects');
    value.forEach((row, i) => {
      if (!row || typeof row !== 'object' || Array.isArray(row))
        invalid(`data[${i}] must be an object mapping variable names to values`);
      for (const [k, v] of Object.entries(row)) {
        if (typeof v !== 'string' && typeof v !== 'number')
          invalid(`data[${i}].${k} must be a string or a number`);
      }
    });
    return value;
  };
  on('GET', '/v1/organizations/:organizationId/data-sources', (ctx) => {
    const org = store.organization(ctx.pathParams.organizationId, ctx.auth());
    return ok([...store.dataSources.values()].filter((d) => d.organization === org._id));
  });
  on('POST', '/v1/organizations/:organizationId/data-sources', (ctx) => {
    const org = store.organization(ctx.pathParams.organizationId, ctx.auth());
    const body = bodyFields(ctx);
    const source = {
      _id: store.newId(),
      name: requireString(body.name, 'name'),
      organization: org._id,
      data: checkRows(body.data ?? []),
    };
    store.dataSources.set(source._id, source);
    return ok(source);
  });
  on('GET', '/v1/organizations/:organizationId/data-sources/:dataSourceId', (ctx) =>
    ok(store.dataSource(ctx.pathParams.organizationId, ctx.pathParams.dataSourceId, ctx.auth())),
  );
  on('POST', '/v1/organizations/:organizationId/data-sources/:dataSourceId', (ctx) => {
    const key = ctx.auth();
    store.organization(ctx.pathParams.organizationId, key);
    const source = store.dataSource(ctx.pathParams.organizationId, ctx.pathParams.dataSourceId, key);
    const body = bodyFields(ctx);
    const name = requireString(body.name ?? source.name, 'name');
    const data = checkRows(body.data ?? []);
    Object.assign(source, { name, data });
    return ok(source);
  });
  on('DELETE', '/v1/organizations/:organizationId/data-sources/:dataSourceId', (ctx) => {
    const source = store.dataSource(ctx.pathParams.organizationId, ctx.pathParams.dataSourceId, ctx.auth());
    store.dataSources.delete(source._id);
    return ok(true);
  });

  // ---- Folders ----
  on('GET', '/v1/folders', (ctx) => {
    const key = ctx.auth();
    return ok([...store.folders.values()].filter((f) => orgsOf(key).includes(f.organization)));
  });
  on('POST', '/v1/folders', (ctx) => {
    const key = ctx.auth();
    const body = bodyFields(ctx);
    const name = requireString(body.name, 'name');
    const orgId = body.organization ?? (orgsOf(key).length === 1 ? orgsOf(key)[0] : undefined);
    store.organization(requireString(orgId, 'organization'), key);
    const folder = { _id: store.newId(), name, organization: orgId as string };
    store.folders.set(folder._id, folder);
    return ok(folder);
  });
  on('GET', '/v1/folders/:folderId', (ctx) => ok(store.folder(ctx.pathParams.folderId, ctx.auth())));
  on('POST', '/v1/folders/:folderId', (ctx) => {
    const folder = store.folder(ctx.pathParams.folderId, ctx.auth());
    folder.name = requireString(bodyFields(ctx).name, 'name');
    return ok(folder);
  });
  on('GET', '/v1/folders/:folderId/suites', (ctx) => {
    const folder = store.folder(ctx.pathParams.folderId, ctx.auth());
    return ok(
      [...store.suites.values()]
        .filter((s) => s.folder === folder._id)
        .map((s) => suiteView(store, s, 'folder')),
    );
  });

  // The official Node client (npm `ghost-inspector` 7.0.1) calls the recorder exports by their former names,
  // `export/selenium-side/` and `export/selenium-html/`: those paths answer like the recorder ones.
  for (const route of [...routes]) {
    const alias = route.pattern.replace(/\/export\/recorder-(side|html)$/, '/export/selenium-$1');
    if (alias !== route.pattern) routes.push({ ...route, pattern: alias });
  }

  return routes;
}
