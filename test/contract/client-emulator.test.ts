/**
 * Integration: the project's API client (`createClient`) against the emulator (`startEmulator`), both real,
 * over HTTP on 127.0.0.1. Every method of `TestApi` is called at least once (the last test checks
 * that), and the typed values it returns are held against the service contract
 * (`ghost-inspector-api-v1.md`: "Resources and their fields", "Endpoints", "Paging", "States") and the
 * service facts (suite-result endpoints, error envelopes).
 *
 * One emulator (time scale 0.01) serves the whole file and the tests run in order: later tests read records
 * that earlier ones changed (e.g. the renamed "Receipt link" test), so run the file as a whole.
 */
import { parse as parseCsv } from 'csv-parse/sync';
import { strFromU8, unzipSync } from 'fflate';
import { parse as parseHtml } from 'node-html-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type Emulator } from '../../emulator/index.js';
import { createTestClient, type TestApi } from '../support/api/client.js';
import { ApiError, isNotFound } from '../../src/api/errors.js';
import { refId } from '../../src/api/refs.js';
import { systemClock } from '../../src/common/clock.js';
import type { Suite, SuiteResult, TestResult } from '../../emulator/api-types.js';
import { NEW_SUITE_SETTINGS } from '../support/contract.js';

const KEY = 'demo-api-key';
const ORG = 'org-acme';
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const EPOCH = '1970-01-01T00:00:00.000Z';

// ---- Field checks against the contract's tables ----

type Kind = 'string' | 'number' | 'integer' | 'boolean' | 'null' | 'array' | 'object' | 'iso';

function kindOf(value: unknown, kind: Kind): boolean {
  switch (kind) {
    case 'null':
      return value === null;
    case 'array':
      return Array.isArray(value);
    case 'object':
      return value !== null && typeof value === 'object' && !Array.isArray(value);
    case 'integer':
      return Number.isInteger(value);
    case 'iso':
      return typeof value === 'string' && ISO.test(value);
    default:
      return typeof value === kind;
  }
}

/** Every field of `spec` is present in `record` with one of the kinds given. */
function expectFields(record: unknown, spec: Record<string, Kind | Kind[]>, what: string): void {
  expect(kindOf(record, 'object'), `${what} is an object`).toBe(true);
  const rec = record as Record<string, unknown>;
  for (const [field, kinds] of Object.entries(spec)) {
    const allowed = Array.isArray(kinds) ? kinds : [kinds];
    expect(field in rec, `${what}.${field} is present`).toBe(true);
    expect(
      allowed.some((k) => kindOf(rec[field], k)),
      `${what}.${field} is ${allowed.join(' or ')}, got ${JSON.stringify(rec[field])}`,
    ).toBe(true);
  }
}

/** Contract "Suite" (get/create/update form). */
const SUITE: Record<string, Kind | Kind[]> = {
  _id: 'string',
  name: 'string',
  organization: 'object',
  folder: ['string', 'null'],
  abortOnTestFailure: 'boolean',
  autoRetry: 'boolean',
  browser: 'string',
  dataSource: ['string', 'null'],
  dateCreated: 'iso',
  disableVisuals: 'boolean',
  disallowInsecureCertificates: 'boolean',
  failOnJavaScriptError: 'boolean',
  finalDelay: 'number',
  globalStepDelay: 'number',
  language: ['string', 'null'],
  maxAjaxDelay: 'number',
  maxWaitDelay: 'number',
  maxConcurrentTests: 'number',
  persistVariables: 'boolean',
  publicStatusEnabled: 'boolean',
  region: 'string',
  screenshotCompareEnabled: 'boolean',
  screenshotCompareThreshold: 'number',
  startUrl: 'string',
  testCount: 'integer',
  testFrequency: 'number',
  testFrequencyAdvanced: 'array',
  variables: 'array',
  viewportSize: 'object',
};
const { dataSource: _ds, ...SUITE_LISTED } = SUITE;

/** Contract "Test" (list form: no steps). */
const TEST: Record<string, Kind | Kind[]> = {
  _id: 'string',
  name: 'string',
  details: 'string',
  organization: 'object',
  suite: 'object',
  startUrl: 'string',
  autoRetry: ['boolean', 'null'],
  disableVisuals: ['boolean', 'null'],
  disallowInsecureCertificates: ['boolean', 'null'],
  failOnJavaScriptError: ['boolean', 'null'],
  browser: ['string', 'null'],
  language: ['string', 'null'],
  region: ['string', 'null'],
  finalDelay: ['number', 'null'],
  globalStepDelay: ['number', 'null'],
  maxAjaxDelay: ['number', 'null'],
  maxWaitDelay: ['number', 'null'],
  dataSource: ['string', 'null'],
  screenshotCompareEnabled: ['boolean', 'null'],
  screenshotCompareThreshold: 'number',
  publicStatusEnabled: 'boolean',
  viewportSize: ['object', 'null'],
  filters: 'array',
  links: 'array',
  notifications: 'object',
  passing: ['boolean', 'null'],
  screenshotComparePassing: ['boolean', 'null'],
  dateCreated: 'iso',
  dateUpdated: 'iso',
  dateExecutionStarted: 'iso',
  dateExecutionFinished: 'iso',
  dateExecutionTriggered: 'iso',
  testFrequency: 'number',
  testFrequencyAdvanced: 'array',
};

/** Contract "Step" as stored on a test. */
const STEP: Record<string, Kind | Kind[]> = {
  _id: 'string',
  sequence: 'integer',
  command: 'string',
  target: ['string', 'array'],
  value: 'string',
  variableName: 'string',
  condition: ['null', 'object'],
  optional: 'boolean',
  private: 'boolean',
};

/** Contract "Test result". */
const TEST_RESULT: Record<string, Kind | Kind[]> = {
  _id: 'string',
  uuid: 'string',
  name: 'string',
  test: ['object', 'null'],
  suiteResult: ['string', 'null'],
  organization: 'string',
  user: 'object',
  browser: ['string', 'null'],
  region: ['string', 'null'],
  language: ['string', 'null'],
  startUrl: 'string',
  endUrl: 'string',
  urls: 'array',
  steps: 'array',
  passing: ['boolean', 'null'],
  autoRetry: 'boolean',
  autoRetryTriggered: 'boolean',
  commentCount: 'integer',
  comments: 'array',
  console: 'array',
  dateCreated: 'iso',
  dateExecutionStarted: 'iso',
  executionHost: 'string',
  executionTime: ['number', 'null'],
  disableVisuals: 'boolean',
  disallowInsecureCertificates: 'boolean',
  failOnJavaScriptError: 'boolean',
  finalDelay: 'number',
  globalStepDelay: 'number',
  maxAjaxDelay: 'number',
  maxWaitDelay: 'number',
  filters: 'array',
  extractions: 'object',
  screenshotCompareBaselineResult: ['string', 'null'],
  screenshotCompareDifference: ['number', 'null'],
  screenshotCompareEnabled: ['boolean', 'null'],
  screenshotComparePassing: ['boolean', 'null'],
  screenshotCompareThreshold: 'number',
  variables: 'object',
  viewportSize: 'object',
};

/** Contract "Suite result". */
const SUITE_RESULT: Record<string, Kind | Kind[]> = {
  _id: 'string',
  name: 'string',
  passing: ['boolean', 'null'],
  screenshotComparePassing: ['boolean', 'null'],
  startUrl: 'string',
  commentCount: 'integer',
  comments: 'array',
  countPassing: 'integer',
  countFailing: 'integer',
  countUnknown: 'integer',
  countScreenshotComparePassing: 'integer',
  countScreenshotCompareFailing: 'integer',
  countScreenshotCompareUnknown: 'integer',
  dateCreated: 'iso',
  dateExecutionStarted: 'iso',
  executionTime: ['number', 'null'],
  suite: 'object',
  user: 'object',
};

const IMAGE: Record<string, Kind | Kind[]> = {
  defaultUrl: 'string',
  dims: 'object',
  path: 'string',
  size: 'number',
};

/** A finished test result (contract "States": passing boolean, executionTime set, finish date set). */
function expectFinishedResult(r: TestResult, what: string): void {
  expectFields(r, TEST_RESULT, what);
  expect(typeof r.passing, `${what}.passing`).toBe('boolean');
  expect(r.executionTime, `${what}.executionTime`).toBeGreaterThanOrEqual(0);
  expect(r.dateExecutionFinished, `${what}.dateExecutionFinished`).toMatch(ISO);
  expect(r.status, `${what}.status`).not.toBe(8);
  expectFields(r.screenshot?.original, IMAGE, `${what}.screenshot.original`);
  expectFields(r.screenshot?.small, IMAGE, `${what}.screenshot.small`);
  for (const [i, step] of r.steps.entries()) {
    expectFields(
      step,
      { ...STEP, notes: 'string', passing: ['boolean', 'null'], extra: 'object' },
      `step ${i}`,
    );
    expect(step.sequence).toBe(i);
  }
}

/** A test result object from a stored test: `test` with organization and suite as identifier strings. */
function expectStoredTestRef(r: TestResult, testId: string): void {
  expect(r.test).not.toBeNull();
  expectFields(
    r.test,
    { _id: 'string', name: 'string', organization: 'string', suite: 'string' },
    'result.test',
  );
  expect(refId(r.test)).toBe(testId);
  expect(Object.keys(r.test!).sort()).toEqual(['_id', 'name', 'organization', 'suite']);
  expect(refId((r.test as { organization: string }).organization)).toBe(ORG);
}

// ---- The emulator and a client that records which methods were called ----

let em: Emulator;
let api: TestApi;
let raw: TestApi;
const called = new Set<string>();

beforeAll(async () => {
  // The client's answers one call at a time: no rate limit, no not-found window (the action's tests run with both).
  em = await startEmulator({ timeScale: 0.01, quiet: true, rateLimit: false, notFoundWindowMs: 0 });
  raw = createTestClient({
    apiKey: KEY,
    baseUrl: em.baseUrl,
    maxRetries: 1,
    clock: { ...systemClock, sleep: async () => {} },
  });
  api = new Proxy(raw, {
    get(target, prop, receiver) {
      const value = Reflect.get(target, prop, receiver) as unknown;
      if (typeof prop === 'string' && typeof value === 'function') called.add(prop);
      return value;
    },
  });
});
afterAll(() => em?.close());

/** Polls a test result until it is no longer running (contract "States"), every 10 ms for at most 10 s. */
async function settled(resultId: string): Promise<TestResult> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const r = await api.getTestResult(resultId);
    if (r.passing !== null || r.status === 8) return r;
    if (Date.now() > deadline) throw new Error(`result ${resultId} still running`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** Polls a suite result until it has a finish date, every 10 ms for at most 10 s. */
async function suiteSettled(suiteResultId: string): Promise<SuiteResult> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const sr = await api.getSuiteResult(suiteResultId);
    if (sr.dateExecutionFinished) return sr;
    if (Date.now() > deadline) throw new Error(`suite result ${suiteResultId} still running`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** Catches the rejection of `promise` (fails the test when it resolves). */
async function rejection(promise: Promise<unknown>): Promise<ApiError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(ApiError);
    return error as ApiError;
  }
  throw new Error('expected the call to be rejected');
}

// ---- Organizations ----

describe('organizations', () => {
  it('lists the organizations of the key and returns one with its plan and counts', async () => {
    const orgs = await api.listOrganizations();
    expect(orgs).toEqual([{ _id: ORG, name: 'Acme Shop' }]);

    const org = await api.getOrganization(ORG);
    expectFields(
      org,
      {
        _id: 'string',
        name: 'string',
        address: 'string',
        city: 'string',
        state: 'string',
        postalCode: 'string',
        country: 'string',
        email: 'string',
        emailBilling: 'string',
        dateCreated: 'iso',
        suiteCount: 'integer',
        testCount: 'integer',
        testRuns: 'object',
        plan: 'object',
      },
      'organization',
    );
    expectFields(
      org.plan,
      {
        advancedScheduling: 'boolean',
        maxCsvUploadRows: 'integer',
        maxViewportSize: 'object',
        memberCount: 'integer',
        name: 'string',
        overagePrice: 'number',
        price: 'number',
        retentionMonths: 'integer',
        screenshotSteps: 'boolean',
        testRuns: 'integer',
        yearly: 'boolean',
      },
      'organization.plan',
    );
    for (const [month, count] of Object.entries(org.testRuns)) {
      expect(month).toMatch(/^\d{4}-\d{2}$/);
      expect(Number.isInteger(count)).toBe(true);
    }
    const suites = await api.listSuites();
    const tests = await api.listTests();
    expect(org.suiteCount).toBe(suites.length);
    expect(org.testCount).toBe(tests.length);
  });
});

// ---- Folders ----

describe('folders', () => {
  it('lists, gets, creates, renames a folder and lists the suites in it', async () => {
    const folders = await api.listFolders();
    expect(folders.map((f) => f._id).sort()).toEqual(['folder-marketing', 'folder-web']);
    for (const f of folders)
      expectFields(f, { _id: 'string', name: 'string', organization: 'string' }, 'folder');

    expect(await api.getFolder('folder-web')).toEqual({
      _id: 'folder-web',
      name: 'Web shop',
      organization: ORG,
    });

    const created = await api.createFolder({ name: 'Integration', organization: ORG });
    expectFields(created, { _id: 'string', name: 'string', organization: 'string' }, 'new folder');
    expect(created).toMatchObject({ name: 'Integration', organization: ORG });
    expect(await api.updateFolder(created._id, { name: 'Integration (renamed)' })).toEqual({
      ...created,
      name: 'Integration (renamed)',
    });
    expect((await api.listFolders()).some((f) => f._id === created._id)).toBe(true);

    const inFolder = await api.listFolderSuites('folder-web');
    expect(inFolder.map((s) => s._id).sort()).toEqual(['suite-checkout', 'suite-smoke']);
    for (const s of inFolder) {
      expectFields(s, { ...SUITE_LISTED, organization: 'string' }, `folder suite ${s._id}`);
      // The folder-suites listing gives the organization as an identifier string.
      expect(s.organization).toBe(ORG);
      expect(s.folder).toBe('folder-web');
    }
    expect(await api.listFolderSuites(created._id)).toEqual([]);
  });
});

// ---- Suites ----

describe('suites', () => {
  it('lists suites (organization with personal, no dataSource) and gets one (with dataSource)', async () => {
    const suites = await api.listSuites();
    expect(suites.map((s) => s._id)).toEqual(
      expect.arrayContaining(['suite-smoke', 'suite-checkout', 'suite-visual', 'suite-data']),
    );
    for (const s of suites) {
      expectFields(s, SUITE_LISTED, `listed suite ${s._id}`);
      expect(s).not.toHaveProperty('dataSource');
      expectFields(
        s.organization,
        { _id: 'string', name: 'string', personal: 'boolean' },
        'listed organization',
      );
      expectFields(s, { notifications: 'object', notificationsSuite: 'object' }, `listed suite ${s._id}`);
    }
    const smoke = await api.getSuite('suite-smoke');
    expectFields(smoke, SUITE, 'suite');
    expect(smoke.organization).toEqual({ _id: ORG, name: 'Acme Shop' });
    expect(smoke).toMatchObject({ name: 'Smoke tests', folder: 'folder-web', testCount: 3 });
  });

  it('creates a suite with the defaults of a new suite, updates it, duplicates and deletes it', async () => {
    const suite = await api.createSuite({ name: 'Integration suite', organization: ORG });
    expectFields(suite, SUITE, 'new suite');
    // Contract "Suite": the settings of a newly created suite.
    expect(suite).toMatchObject({
      name: 'Integration suite',
      organization: { _id: ORG, name: 'Acme Shop' },
      ...NEW_SUITE_SETTINGS,
    });

    const updated = await api.updateSuite(suite._id, {
      name: 'Integration suite v2',
      startUrl: 'https://shop.acme.example/v2',
      'variables.region': { value: 'north' },
    });
    expect(updated).toMatchObject({
      _id: suite._id,
      name: 'Integration suite v2',
      startUrl: 'https://shop.acme.example/v2',
    });
    expect(updated.variables).toEqual([{ name: 'region', value: 'north', private: false }]);
    expect(await api.getSuite(suite._id)).toEqual(updated);

    // An import gives the suite a test, so the duplicate copies one.
    await api.importTestJson(suite._id, {
      name: 'Only test',
      steps: [
        {
          sequence: 0,
          command: 'click',
          target: '#go',
          value: '',
          variableName: '',
          condition: null,
          optional: false,
          private: false,
        },
      ],
    });
    const copy = await api.duplicateSuite(suite._id);
    expectFields(
      copy,
      {
        ...SUITE,
        dateExecutionTriggered: 'iso',
        user: 'object',
        notifications: 'object',
        notificationsSuite: 'object',
      },
      'duplicate',
    );
    expect(copy._id).not.toBe(suite._id);
    // Named like the original with a copy marker appended.
    expect(copy.name.startsWith('Integration suite v2')).toBe(true);
    expect(copy.name.length).toBeGreaterThan('Integration suite v2'.length);
    expect(copy.dateExecutionTriggered).toBe(EPOCH);
    expectFields(copy.user, { _id: 'string', firstName: 'string', lastName: 'string' }, 'duplicate.user');
    expect(copy.testCount).toBe(1);
    expect(copy.variables).toEqual(updated.variables);
    const copiedTests = await api.listSuiteTests(copy._id);
    expect(copiedTests.map((t) => t.name)).toEqual(['Only test']);

    expect(await api.deleteSuite(copy._id)).toBe(true);
    const gone = await rejection(api.getSuite(copy._id));
    expect(isNotFound(gone)).toBe(true);
    expect(isNotFound(gone)).toBe(true);
    // Deleting a suite deletes its tests.
    expect(isNotFound(await rejection(api.getTest(copiedTests[0]._id)))).toBe(true);
  });

  it('lists the tests of a suite without steps', async () => {
    const tests = await api.listSuiteTests('suite-smoke');
    expect(tests.map((t) => t._id).sort()).toEqual(['test-home', 'test-login', 'test-search']);
    for (const t of tests) {
      expectFields(t, TEST, `suite test ${t._id}`);
      expect(t).not.toHaveProperty('steps');
      expect(t.suite).toEqual({ _id: 'suite-smoke', name: 'Smoke tests' });
      expect(t.organization).toEqual({ _id: ORG, name: 'Acme Shop' });
    }
  });
});

// ---- Tests ----

describe('tests', () => {
  it('lists tests without steps and gets one with steps', async () => {
    const tests = await api.listTests();
    expect(tests.length).toBeGreaterThanOrEqual(9);
    for (const t of tests) {
      expectFields(t, TEST, `listed test ${t._id}`);
      expect(t).not.toHaveProperty('steps');
    }
    const search = await api.getTest('test-search');
    expectFields(search, { ...TEST, steps: 'array' }, 'test');
    expect(search.steps).toHaveLength(3);
    search.steps!.forEach((s, i) => {
      expectFields(s, STEP, `step ${i}`);
      expect(s.sequence).toBe(i);
    });
    // A target may be an array of {selector}.
    expect(search.steps![1].target).toEqual([{ selector: '#search-button' }, { selector: 'button.search' }]);
  });

  it('updates, duplicates (same suite, copy marker) and deletes a test', async () => {
    const updated = await api.updateTest('test-receipt', {
      name: 'Receipt link',
      details: 'from the order page',
    });
    expect(updated).toMatchObject({
      _id: 'test-receipt',
      name: 'Receipt link',
      details: 'from the order page',
    });
    expectFields(updated, { ...TEST, steps: 'array' }, 'updated test');

    const copy = await api.duplicateTest('test-receipt');
    expectFields(copy, { ...TEST, steps: 'array', user: 'object' }, 'duplicate test');
    expect(copy._id).not.toBe('test-receipt');
    expect(copy.suite).toEqual({ _id: 'suite-checkout', name: 'Checkout' });
    expect(copy.name.startsWith('Receipt link')).toBe(true);
    expect(copy.name.length).toBeGreaterThan('Receipt link'.length);
    expect(copy.passing).toBeNull();
    expect(copy.dateExecutionFinished).toBe(EPOCH);
    expect(copy.steps!.map((s) => s.command)).toEqual(updated.steps!.map((s) => s.command));
    expect(copy.steps![0]._id).not.toBe(updated.steps![0]._id);

    expect(await api.deleteTest(copy._id)).toBe(true);
    expect(isNotFound(await rejection(api.getTest(copy._id)))).toBe(true);
  });
});

// ---- Import and export ----

describe('import and export', () => {
  let target: Suite;
  beforeAll(async () => {
    target = await api.createSuite({ name: 'Imports', organization: ORG });
  });

  it('imports a native JSON test: empty organization and suite, null settings, epoch dates, steps without _id', async () => {
    const exported = await api.exportTestJson('test-login');
    expect(exported).not.toHaveProperty('_id');
    expect(exported).not.toHaveProperty('organization');
    expect(exported).not.toHaveProperty('suite');
    expect(exported).not.toHaveProperty('passing');
    expect(exported.name).toBe('Login works');
    expect(exported.notifications).toEqual(expect.any(Object));
    expect(exported.steps.map((s) => s.command)).toEqual(['assign', 'assign', 'click', 'assertText']);
    for (const s of exported.steps) expect(s).not.toHaveProperty('_id');

    const imported = await api.importTestJson(target._id, { ...exported, name: 'Login (imported)' });
    expectFields(imported, { ...TEST, steps: 'array' }, 'imported test');
    expect(imported.organization).toEqual({});
    expect(imported.suite).toEqual({});
    expect(imported.passing).toBeNull();
    expect(imported.dateExecutionStarted).toBe(EPOCH);
    expect(imported.dateExecutionFinished).toBe(EPOCH);
    expect(imported.steps!.map((s) => s.value)).toEqual(exported.steps.map((s) => s.value));
    for (const s of imported.steps!) expect(s).not.toHaveProperty('_id');

    // includeImports is accepted; a test without import steps has nothing more.
    const withImports = await api.exportTestJson('test-login', true);
    expect(withImports.steps).toEqual(exported.steps);
  });

  it('round-trips a recorder .html test and a .side document', async () => {
    const html = await api.exportTestRecorderHtml('test-home');
    const table = parseHtml(html);
    const rows = table
      .querySelectorAll('tbody tr')
      .map((r) => r.querySelectorAll('td').map((td) => td.text.trim()));
    // One row per step, as the service writes it (service facts): command, target, value; the start URL is
    // the selenium.base link.
    expect(html).toContain('<link rel="selenium.base" href="https://shop.acme.example/" />');
    expect(rows).toEqual([
      ['assertTextPresent', 'css=h1', 'Acme Shop'],
      ['click', 'css=a.products', ''],
      ['assertTextPresent', 'css=.product-list', 'Products'],
    ]);

    const fromHtml = await api.importTestRecorderHtml(target._id, { name: 'home.html', content: html });
    expectFields(fromHtml, { ...TEST, steps: 'array' }, 'html import');
    expect(fromHtml.steps!.map((s) => [s.command, s.target, s.value])).toEqual([
      ['assertTextPresent', 'h1', 'Acme Shop'],
      ['click', 'a.products', ''],
      ['assertTextPresent', '.product-list', 'Products'],
    ]);

    const side = await api.exportTestRecorderSide('test-home');
    expectFields(
      side,
      {
        id: 'string',
        version: 'string',
        name: 'string',
        url: 'string',
        tests: 'array',
        suites: 'array',
        plugins: 'array',
      },
      '.side',
    );
    expect(side.tests).toHaveLength(1);
    expect(side.tests[0].commands.map((c) => c.command)).toContain('click');

    const fromSide = await api.importTestRecorderSide(target._id, side);
    expect(Array.isArray(fromSide)).toBe(true);
    expect(fromSide).toHaveLength(1);
    expectFields(fromSide[0], { ...TEST, steps: 'array' }, '.side import');
    expect(fromSide[0].steps!.some((s) => s.command === 'click' && s.target === 'a.products')).toBe(true);

    const suiteSide = await api.exportSuiteRecorderSide('suite-smoke');
    expect(suiteSide.tests.map((t) => t.name)).toEqual([
      'Home page loads',
      'Login works',
      'Search finds products',
    ]);
    expect(suiteSide.suites).toHaveLength(1);
    expectFields(
      suiteSide.suites[0],
      {
        id: 'string',
        name: 'string',
        persistSession: 'boolean',
        parallel: 'boolean',
        timeout: 'number',
        tests: 'array',
      },
      '.side suite',
    );
    expect(suiteSide.suites[0].tests).toEqual(suiteSide.tests.map((t) => t.id));

    const legacy = await api.importTestLegacy(target._id, {
      name: 'Legacy JSON',
      startUrl: 'https://a.example/',
      steps: [{ command: 'open', target: '', value: 'https://a.example/' }],
    });
    expect(legacy).toMatchObject({ name: 'Legacy JSON', startUrl: 'https://a.example/' });

    const names = (await api.listSuiteTests(target._id)).map((t) => t.name).sort();
    expect(names).toEqual(['Home page loads', 'Home page loads', 'Legacy JSON', 'Login (imported)'].sort());
  });

  it('exports a suite as zip archives (bytes start with PK) of native JSON and recorder .html tests', async () => {
    const json = await api.exportSuiteJson('suite-checkout');
    expect(Buffer.isBuffer(json)).toBe(true);
    expect(json.subarray(0, 2).toString('latin1')).toBe('PK');
    const files = unzipSync(new Uint8Array(json));
    const docs = Object.values(files).map(
      (bytes) => JSON.parse(strFromU8(bytes)) as { name: string; steps: unknown[] },
    );
    expect(docs.map((d) => d.name).sort()).toEqual(['Add to cart', 'Pay by card', 'Receipt link']);
    for (const d of docs) expect(Array.isArray(d.steps)).toBe(true);

    const withImports = await api.exportSuiteJson('suite-checkout', true);
    expect(withImports.subarray(0, 2).toString('latin1')).toBe('PK');
    expect(Object.keys(unzipSync(new Uint8Array(withImports))).length).toBeGreaterThanOrEqual(3);

    const html = await api.exportSuiteRecorderHtml('suite-checkout');
    expect(html.subarray(0, 2).toString('latin1')).toBe('PK');
    const htmlFiles = unzipSync(new Uint8Array(html));
    expect(Object.keys(htmlFiles)).toHaveLength(3);
    for (const [name, bytes] of Object.entries(htmlFiles)) {
      expect(name).toMatch(/\.html$/);
      expect(strFromU8(bytes)).toContain('<table');
    }
  });
});

// ---- Execute and results ----

describe('execute', () => {
  it('executes a test and waits: one finished result of the stored test, no suite result', async () => {
    const r = (await api.executeTest('test-home', {})) as TestResult;
    expect(Array.isArray(r)).toBe(false);
    expectFinishedResult(r, 'result');
    expectStoredTestRef(r, 'test-home');
    expect(r.suiteResult).toBeNull();
    expect(r.passing).toBe(true);
    expect(r.organization).toBe(ORG);
    expect(r.steps.every((s) => s.passing === true)).toBe(true);
    expect(await api.getTestResult(r._id)).toEqual(r);
  });

  it('executes a failing test: passing false and the failing step carries an error', async () => {
    const r = (await api.executeTest('test-payment', {})) as TestResult;
    expectFinishedResult(r, 'failing result');
    expect(r.passing).toBe(false);
    expect(r.steps[2].passing).toBe(false);
    expect(r.steps[2].error).toBe('Element not found: .confirmation');
    expect(r.console.some((c) => c.error)).toBe(true);
  });

  it('executes a test immediately: one object while running; an array for several browsers', async () => {
    const one = (await api.executeTest('test-login', {
      immediate: true,
      variables: { who: 'integration' },
    })) as TestResult;
    expect(Array.isArray(one)).toBe(false);
    expectFields(one, TEST_RESULT, 'immediate result');
    expect(one.passing).toBeNull();
    expect(one.executionTime).toBeNull();
    const done = await settled(one._id);
    expectFinishedResult(done, 'settled result');
    expect(done.variables).toMatchObject({ who: 'integration' });

    const many = await api.executeTest('test-login', { immediate: true, browser: ['chrome', 'firefox'] });
    expect(Array.isArray(many)).toBe(true);
    const list = many as TestResult[];
    expect(list.map((r) => r.browser)).toEqual([
      expect.stringMatching(/^chrome-\d+$/),
      expect.stringMatching(/^firefox-\d+$/),
    ]);
    for (const r of list) expect(r.passing).toBeNull();
    for (const r of list) expectFinishedResult(await settled(r._id), `variant ${r.browser}`);
  });

  it('executes a test with a data file (multipart): one result per row, with the row as variables', async () => {
    const csv = 'username,password\nalice,alice-pass\nbob,bob-pass\ncarol,carol-pass\n';
    const results = await api.executeTest('test-login-data', {
      dataFile: { name: 'logins.csv', content: csv },
    });
    expect(Array.isArray(results)).toBe(true);
    const list = results as TestResult[];
    expect(list).toHaveLength(3);
    for (const r of list) expectFinishedResult(r, 'data row result');
    expect(list.map((r) => r.variables.username).sort()).toEqual(['alice', 'bob', 'carol']);
  });

  it('executes an on-demand test: test null, suiteResult null, retrievable by its _id', async () => {
    const r = (await api.executeOnDemand(
      ORG,
      {
        name: 'On-demand check',
        startUrl: 'https://shop.acme.example/',
        steps: [
          {
            sequence: 0,
            command: 'assertTextPresent',
            target: 'h1',
            value: 'Acme',
            variableName: '',
            condition: null,
            optional: false,
            private: false,
          },
        ],
      },
      {},
    )) as TestResult;
    // The service answers at once, running (its docs: "immediately return a result ID"), with or without
    // `immediate`; the result is then read by its _id.
    expect(Array.isArray(r)).toBe(false);
    expect(r.passing).toBeNull();
    expect(r.executionTime).toBeNull();
    expectFinishedResult(await settled(r._id), 'on-demand result');
    expect(r.test).toBeNull();
    expect(r.suiteResult).toBeNull();
    expect(r.name).toBe('On-demand check');
    expect(r.organization).toBe(ORG);
    const fetched = await api.getTestResult(r._id);
    expect(fetched.test).toBeNull();
    expect(fetched.suiteResult).toBeNull();

    const immediate = (await api.executeOnDemand(
      ORG,
      { name: 'On-demand immediate', startUrl: 'https://shop.acme.example/', steps: [] },
      { immediate: true },
    )) as TestResult;
    expect(immediate.test).toBeNull();
    expectFinishedResult(await settled(immediate._id), 'on-demand immediate');
  });

  it('executes a suite and waits: an array of test results, one per test of the suite', async () => {
    const results = await api.executeSuite('suite-smoke', {});
    expect(Array.isArray(results)).toBe(true);
    const list = results as TestResult[];
    expect(list.map((r) => refId(r.test)).sort()).toEqual(['test-home', 'test-login', 'test-search']);
    const suiteResultId = list[0].suiteResult;
    expect(typeof suiteResultId).toBe('string');
    for (const r of list) {
      expectFinishedResult(r, `suite test ${r.name}`);
      expect(r.suiteResult).toBe(suiteResultId);
    }
    const sr = await api.getSuiteResult(suiteResultId!);
    expectFields(sr, { ...SUITE_RESULT, dateExecutionFinished: 'iso' }, 'suite result');
    expect(sr).toMatchObject({ passing: true, countPassing: 3, countFailing: 0, countUnknown: 0 });
    expect(sr.suite).toEqual({ _id: 'suite-smoke', name: 'Smoke tests', organization: ORG });
  });

  it('executes a suite immediately: one suite result; an array for several viewports', async () => {
    const one = (await api.executeSuite('suite-checkout', { immediate: true })) as SuiteResult;
    expect(Array.isArray(one)).toBe(false);
    // The immediate answer names the suite by id (service facts); the typed client reads either form.
    expectFields(one, { ...SUITE_RESULT, suite: 'string' }, 'immediate suite result');
    expect(refId(one.suite)).toBe('suite-checkout');
    expect(one.passing).toBeNull();
    const done = await suiteSettled(one._id);
    // test-payment fails: the suite fails with 2 of 3 passing.
    expect(done).toMatchObject({ passing: false, countPassing: 2, countFailing: 1, countUnknown: 0 });
    expect(done.executionTime).toBeGreaterThan(0);

    const many = await api.executeSuite('suite-smoke', {
      immediate: true,
      viewport: ['1024x768', '375x667'],
    });
    expect(Array.isArray(many)).toBe(true);
    const list = many as SuiteResult[];
    expect(list).toHaveLength(2);
    for (const sr of list) expectFields(sr, { ...SUITE_RESULT, suite: 'string' }, 'variant suite result');
    for (const sr of list) expect((await suiteSettled(sr._id)).passing).toBe(true);
    const viewports = await Promise.all(
      list.map(async (sr) => (await api.listSuiteResultTestResults(sr._id))[0].viewportSize),
    );
    expect(viewports).toEqual([
      { width: 1024, height: 768 },
      { width: 375, height: 667 },
    ]);
  });

  it('executes a suite with a data file: an array of suite results, one per row', async () => {
    const csv = 'username,password\nalice,a\nbob,b\n';
    const results = await api.executeSuite('suite-data', { dataFile: { name: 'rows.csv', content: csv } });
    expect(Array.isArray(results)).toBe(true);
    const list = results as SuiteResult[];
    expect(list).toHaveLength(2);
    for (const sr of list) {
      expectFields(sr, { ...SUITE_RESULT, dateExecutionFinished: 'iso' }, 'data row suite result');
      expect(sr.passing).toBe(true);
    }
    const users = await Promise.all(
      list.map(async (sr) => (await api.listSuiteResultTestResults(sr._id))[0].variables.username),
    );
    expect(users.sort()).toEqual(['alice', 'bob']);
  });
});

describe('results, running lists, cancel and comments', () => {
  it('lists a hanging run as running, then cancels it: status 8, passing null, steps passing null', async () => {
    em.setScenario('test-cart', { hang: true });
    try {
      const r = (await api.executeTest('test-cart', { immediate: true })) as TestResult;
      const running = await api.listTestRunning('test-cart');
      expect(running.map((x) => x._id)).toContain(r._id);
      for (const x of running) {
        expectFields(x, TEST_RESULT, 'running result');
        expect(x.passing).toBeNull();
        expect(x.executionTime).toBeNull();
      }
      const orgRunning = await api.listOrganizationRunning(ORG);
      expect(orgRunning.map((x) => x._id)).toContain(r._id);
      // The same list read record by record keeps each record's id and suite result, in the same order.
      const entries = await api.listOrganizationRunningEntries(ORG);
      expect(entries).toEqual(orgRunning.map((x) => ({ _id: x._id, suiteResult: x.suiteResult })));

      const cancelled = await api.cancelTestResult(r._id);
      expectFields(cancelled, TEST_RESULT, 'cancelled result');
      expect(cancelled.status).toBe(8);
      expect(cancelled.passing).toBeNull();
      expect(cancelled.steps.every((s) => s.passing === null)).toBe(true);
      expect(await api.getTestResult(r._id)).toMatchObject({ status: 8, passing: null });
      expect((await api.listTestRunning('test-cart')).map((x) => x._id)).not.toContain(r._id);
      expect((await api.listOrganizationRunning(ORG)).map((x) => x._id)).not.toContain(r._id);
      expect((await api.listOrganizationRunningEntries(ORG)).map((x) => x._id)).not.toContain(r._id);
      // Cancelling an ended result answers the result (service facts, official client's tests).
      expect(await api.cancelTestResult(r._id)).toEqual(cancelled);
    } finally {
      em.setScenario('test-cart', null);
    }
  });

  it('comments on a test result: the result comes back with the new comment', async () => {
    const [latest] = await api.listTestResults('test-home', { count: 1 });
    const before = latest.commentCount;
    const commented = await api.commentOnTestResult(latest._id, 'Checked by the integration test');
    expect(commented._id).toBe(latest._id);
    expect(commented.commentCount).toBe(before + 1);
    const comment = commented.comments[commented.comments.length - 1];
    expectFields(
      comment,
      { _id: 'string', author: 'object', message: 'string', dateCreated: 'iso' },
      'comment',
    );
    expectFields(comment.author, { _id: 'string', name: 'string' }, 'comment.author');
    expect(comment.message).toBe('Checked by the integration test');
    expect((await api.getTestResult(latest._id)).comments).toEqual(commented.comments);
  });

  it('cancels a running suite result: passing null with a finish date and status 8; its tests cancelled', async () => {
    em.setScenario('test-receipt', { hang: true });
    try {
      const sr = (await api.executeSuite('suite-checkout', { immediate: true })) as SuiteResult;
      // Let the two other tests finish so that only the hanging one is running.
      const deadline = Date.now() + 10_000;
      for (;;) {
        const results = await api.listSuiteResultTestResults(sr._id);
        if (results.filter((r) => r.passing !== null).length === 2) break;
        if (Date.now() > deadline) throw new Error('the two finite tests did not finish');
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      const cancelled = await api.cancelSuiteResult(sr._id);
      expectFields(cancelled, { ...SUITE_RESULT, dateExecutionFinished: 'iso' }, 'cancelled suite result');
      expect(cancelled.passing).toBeNull();
      expect(cancelled.status).toBe(8);
      const results = await api.listSuiteResultTestResults(sr._id);
      const hanging = results.find((r) => refId(r.test) === 'test-receipt')!;
      expect(hanging).toMatchObject({ status: 8, passing: null });
      expect(results.filter((r) => r.passing !== null)).toHaveLength(2);

      // xUnit of the cancelled run: the cancelled test is skipped.
      const xml = parseHtml(await api.getSuiteResultXunit(sr._id));
      const tests = xml.querySelectorAll('test');
      expect(tests).toHaveLength(3);
      expect(tests.find((t) => t.getAttribute('name') === 'Receipt link')?.getAttribute('result')).toBe(
        'Skip',
      );
    } finally {
      em.setScenario('test-receipt', null);
    }
  });
});

describe('suite-result endpoints, paging and CSV', () => {
  let suiteResultIds: string[] = [];
  beforeAll(async () => {
    // Three finished suite runs of the checkout suite (newest last here).
    suiteResultIds = [];
    for (let i = 0; i < 3; i++) {
      const sr = (await api.executeSuite('suite-checkout', { immediate: true })) as SuiteResult;
      await suiteSettled(sr._id);
      suiteResultIds.push(sr._id);
    }
  });

  it('pages the test results of a suite result in creation order (count, offset)', async () => {
    const id = suiteResultIds[2];
    const all = await api.listSuiteResultTestResults(id);
    expect(all.map((r) => refId(r.test))).toEqual(['test-cart', 'test-payment', 'test-receipt']);
    for (const r of all) expect(r.suiteResult).toBe(id);
    expect((await api.listSuiteResultTestResults(id, { count: 1, offset: 1 })).map((r) => r._id)).toEqual([
      all[1]._id,
    ]);
    expect(await api.listSuiteResultTestResults(id, { count: 2, offset: 2 })).toEqual([all[2]]);
    expect(await api.listSuiteResultTestResults(id, { offset: 3 })).toEqual([]);
  });

  it('renders a suite result as xUnit.net v2 XML with one test per test result', async () => {
    const xml = await api.getSuiteResultXunit(suiteResultIds[2]);
    expect(xml.startsWith('<?xml')).toBe(true);
    const doc = parseHtml(xml);
    const assembly = doc.querySelector('assemblies > assembly');
    expect(assembly).not.toBeNull();
    expect(assembly!.getAttribute('total')).toBe('3');
    expect(assembly!.getAttribute('failed')).toBe('1');
    const results = doc
      .querySelectorAll('test')
      .map((t) => [t.getAttribute('name'), t.getAttribute('result')]);
    expect(results).toEqual([
      ['Add to cart', 'Pass'],
      ['Pay by card', 'Fail'],
      ['Receipt link', 'Pass'],
    ]);
  });

  it('lists suite results newest first with count and offset (JSON and CSV)', async () => {
    const newest = [...suiteResultIds].reverse();
    const firstTwo = await api.listSuiteResults('suite-checkout', { count: 2 });
    expect(firstTwo.map((r) => r._id)).toEqual(newest.slice(0, 2));
    for (const sr of firstTwo) expectFields(sr, SUITE_RESULT, 'listed suite result');
    expect((await api.listSuiteResults('suite-checkout', { count: 1, offset: 1 })).map((r) => r._id)).toEqual(
      [newest[1]],
    );
    // Default count 10; more than 50 is capped.
    const all = await api.listSuiteResults('suite-checkout');
    expect(all.length).toBeLessThanOrEqual(10);
    expect(all.slice(0, 3).map((r) => r._id)).toEqual(newest);

    const csv = await api.listSuiteResultsCsv('suite-checkout', { count: 2, offset: 1 });
    const rows = parseCsv(csv) as string[][];
    expect(rows[0]).toEqual([
      'Suite Result ID',
      'Suite Result URL',
      'Name',
      'Start URL',
      'Tests Passed',
      'Screenshots Passed',
      'Tests Passing',
      'Tests Failing',
      'Test Unknown',
      'Screenshots Passing',
      'Screenshots Failing',
      'Screenshots Unknown',
      'Duration',
      'Date Triggered',
      'Date Started',
      'Date Completed',
    ]);
    expect(rows.slice(1).map((r) => r[0])).toEqual(newest.slice(1, 3));
    for (const r of rows.slice(1)) {
      expect(r[2]).toBe('Checkout');
      expect(r[7]).toBe('1'); // Tests Failing: Pay by card
      expect(Number(r[12])).toBeGreaterThanOrEqual(0); // Duration in seconds
      expect(r[14]).toMatch(ISO);
    }
  });

  it('lists test results newest first with count and offset (JSON and CSV)', async () => {
    const all = await api.listTestResults('test-payment', { count: 50 });
    expect(all.length).toBeGreaterThanOrEqual(4);
    for (const r of all) {
      expectFields(r, TEST_RESULT, 'listed test result');
      expectStoredTestRef(r, 'test-payment');
    }
    const created = all.map((r) => Date.parse(r.dateCreated));
    expect([...created].sort((a, b) => b - a)).toEqual(created);
    expect((await api.listTestResults('test-payment', { count: 2, offset: 1 })).map((r) => r._id)).toEqual(
      all.slice(1, 3).map((r) => r._id),
    );
    expect(await api.listTestResults('test-payment', { offset: all.length })).toEqual([]);

    const rows = parseCsv(await api.listTestResultsCsv('test-payment', { count: 3 })) as string[][];
    expect(rows[0]).toEqual([
      'Test Result ID',
      'Test Result URL',
      'Name',
      'Browser',
      'Screen Size',
      'Geolocation',
      'Start URL',
      'End URL',
      'Status',
      'Passed',
      'Screenshot Passed',
      'Screenshot Difference',
      'Error',
      'Duration',
      'Video URL',
      'Screenshot URL',
      'Screenshot Comparison URL',
      'Date Triggered',
      'Date Started',
      'Date Completed',
    ]);
    expect(rows.slice(1).map((r) => r[0])).toEqual(all.slice(0, 3).map((r) => r._id));
    for (const r of rows.slice(1)) expect(r[2]).toBe('Pay by card');
  });
});

describe('screenshots and badges', () => {
  it('accepts the latest screenshot of a test as the baseline of the next comparison', async () => {
    const first = (await api.executeTest('test-landing', {})) as TestResult;
    expectFinishedResult(first, 'visual result');
    expect(first.screenshotCompareEnabled).toBe(true);
    const accepted = await api.acceptScreenshot('test-landing');
    expectFields(accepted, { ...TEST, steps: 'array' }, 'accepted test');
    expect(accepted._id).toBe('test-landing');

    const second = (await api.executeTest('test-landing', {})) as TestResult;
    expect(second.screenshotCompareBaselineResult).toBe(first._id);
    const difference = second.screenshotCompareDifference!;
    expect(difference).toBeGreaterThanOrEqual(0);
    expect(difference).toBeLessThanOrEqual(1);
    expect(second.screenshotComparePassing).toBe(difference <= second.screenshotCompareThreshold);
    expectFields(
      second.screenshotCompare,
      { compareOriginal: 'object', compareSmall: 'object' },
      'screenshotCompare',
    );
    expectFields(second.screenshotCompare!.compareOriginal, IMAGE, 'compareOriginal');
  });

  it('serves SVG status badges only after publicStatusEnabled, without an API key', async () => {
    const suite = await api.createSuite({ name: 'Badge suite', organization: ORG });
    const off = await rejection(api.getSuiteStatusBadge(suite._id));
    expect(off.errorType).toBe('VALIDATION_ERROR');
    await api.updateSuite(suite._id, { publicStatusEnabled: true });
    const badge = await api.getSuiteStatusBadge(suite._id);
    expect(badge.contentType).toMatch(/^image\/svg\+xml/);
    expect(badge.body.toString('utf8')).toMatch(/<svg[\s>]/);
    expect(badge.body.toString('utf8')).toMatch(/unknown/i);
    const shot = await api.getSuiteStatusBadge('suite-visual', true);
    expect(shot.body.toString('utf8')).toMatch(/<svg[\s>]/);

    await api.updateTest('test-home', { publicStatusEnabled: true });
    const testBadge = await api.getTestStatusBadge('test-home');
    expect(testBadge.contentType).toMatch(/^image\/svg\+xml/);
    expect(testBadge.body.toString('utf8')).toMatch(/passing/i);
    expect((await api.getTestStatusBadge('test-home', true)).body.toString('utf8')).toMatch(/<svg[\s>]/);
    // The badge requests carry no key.
    const badgeRequests = em.requests().filter((r) => r.path.includes('status-badge'));
    expect(badgeRequests.length).toBeGreaterThanOrEqual(4);
    for (const r of badgeRequests) expect(r.query).not.toContain('apiKey');
  });
});

describe('data sources', () => {
  it('lists, gets, creates, replaces and deletes a data source', async () => {
    const list = await api.listDataSources(ORG);
    expect(list.map((d) => d._id)).toContain('ds-logins');
    for (const d of list)
      expectFields(
        d,
        { _id: 'string', name: 'string', organization: 'string', data: 'array' },
        'data source',
      );

    const logins = await api.getDataSource(ORG, 'ds-logins');
    expect(logins.name).toBe('Login accounts');
    expect(logins.data).toHaveLength(3);
    expect(logins.data[0]).toEqual({ username: 'alice', password: 'alice-pass', plan: 'free' });

    const created = await api.createDataSource(ORG, {
      name: 'Sizes',
      data: [
        { size: 'S', qty: 1 },
        { size: 'M', qty: 2 },
      ],
    });
    expectFields(
      created,
      { _id: 'string', name: 'string', organization: 'string', data: 'array' },
      'new data source',
    );
    expect(created).toMatchObject({
      name: 'Sizes',
      organization: ORG,
      data: [
        { size: 'S', qty: 1 },
        { size: 'M', qty: 2 },
      ],
    });
    expect(await api.getDataSource(ORG, created._id)).toEqual(created);

    const replaced = await api.updateDataSource(ORG, created._id, {
      name: 'Sizes v2',
      data: [{ size: 'L', qty: 3 }],
    });
    expect(replaced).toEqual({ ...created, name: 'Sizes v2', data: [{ size: 'L', qty: 3 }] });

    expect(await api.deleteDataSource(ORG, created._id)).toBe(true);
    expect(isNotFound(await rejection(api.getDataSource(ORG, created._id)))).toBe(true);
    expect((await api.listDataSources(ORG)).map((d) => d._id)).not.toContain(created._id);
  });
});

describe('errors', () => {
  it('rejects an unknown API key with AUTHENTICATION_ERROR, without the key in the message', async () => {
    const stranger = createTestClient({ apiKey: 'not-a-real-key-42', baseUrl: em.baseUrl, maxRetries: 0 });
    const err = await rejection(stranger.listSuites());
    expect(err.errorType).toBe('AUTHENTICATION_ERROR');
    expect(isNotFound(err)).toBe(false);
    expect(err.message).not.toContain('not-a-real-key-42');
    expect(err.endpoint).not.toContain('not-a-real-key-42');
  });

  it('marks unknown identifiers as not found on every kind of record', async () => {
    const unknown: Array<Promise<unknown>> = [
      api.getSuite('no-such-suite'),
      api.getTest('no-such-test'),
      api.getTestResult('no-such-result'),
      api.getSuiteResult('no-such-suite-result'),
      api.getFolder('no-such-folder'),
      api.getOrganization('no-such-org'),
      api.getDataSource(ORG, 'no-such-data-source'),
    ];
    for (const call of unknown) {
      const err = await rejection(call);
      expect(isNotFound(err), err.message).toBe(true);
    }
  });
});

describe('coverage', () => {
  /** Every method of the interface: adding one to `TestApi` breaks the type check here. */
  const METHODS: Record<keyof TestApi, true> = {
    listSuites: true,
    getSuite: true,
    createSuite: true,
    updateSuite: true,
    deleteSuite: true,
    duplicateSuite: true,
    listSuiteTests: true,
    listSuiteResults: true,
    listSuiteResultsCsv: true,
    executeSuite: true,
    getSuiteStatusBadge: true,
    importTestJson: true,
    importTestRecorderHtml: true,
    importTestRecorderSide: true,
    importTestLegacy: true,
    exportSuiteJson: true,
    exportSuiteRecorderSide: true,
    exportSuiteRecorderHtml: true,
    listTests: true,
    getTest: true,
    updateTest: true,
    duplicateTest: true,
    deleteTest: true,
    executeTest: true,
    executeOnDemand: true,
    listTestRunning: true,
    acceptScreenshot: true,
    listTestResults: true,
    listTestResultsCsv: true,
    exportTestJson: true,
    exportTestRecorderSide: true,
    exportTestRecorderHtml: true,
    getTestStatusBadge: true,
    getTestResult: true,
    cancelTestResult: true,
    commentOnTestResult: true,
    getSuiteResult: true,
    listSuiteResultTestResults: true,
    cancelSuiteResult: true,
    getSuiteResultXunit: true,
    listOrganizations: true,
    getOrganization: true,
    listOrganizationRunning: true,
    listOrganizationRunningEntries: true,
    listDataSources: true,
    getDataSource: true,
    createDataSource: true,
    updateDataSource: true,
    deleteDataSource: true,
    listFolders: true,
    getFolder: true,
    createFolder: true,
    updateFolder: true,
    listFolderSuites: true,
  };

  it('called every method of TestApi against the emulator', () => {
    expect(Object.keys(raw).sort()).toEqual(Object.keys(METHODS).sort());
    expect(Object.keys(METHODS).filter((m) => !called.has(m))).toEqual([]);
  });
});
