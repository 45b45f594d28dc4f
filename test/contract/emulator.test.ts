/* eslint-disable @typescript-eslint/no-explicit-any -- JSON answers of the emulator, checked field by field */
/**
 * Contract tests: every endpoint row of the service contract plus the suite-result endpoints, against the
 * emulator on 127.0.0.1 via plain fetch: status, envelope, field names, types and defaults.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unzipSync, strFromU8 } from 'fflate';
import type { Emulator } from '../../emulator/index.js';
import { call, data, EPOCH, ISO, KEY, start } from '../support/emulator.js';
import { until } from '../support/harness.js';
import { NEW_SUITE_SETTINGS as SUITE_DEFAULTS } from '../support/contract.js';

let em: Emulator;
beforeAll(async () => {
  em = await start({ apiKeys: ['other-key'], seed: undefined });
  // A second organization seen only by "other-key".
  em.store.organizations.set('org-other', {
    ...structuredClone(em.store.organizations.get('org-acme')!),
    _id: 'org-other',
    name: 'Other Org',
  });
  em.store.apiKeys.set('other-key', { key: 'other-key', user: 'user-demo', organizations: ['org-other'] });
});
afterAll(() => em.close());

function expectSuiteShape(s: Record<string, unknown>) {
  expect(typeof s._id).toBe('string');
  expect(typeof s.name).toBe('string');
  for (const k of [
    'abortOnTestFailure',
    'autoRetry',
    'disableVisuals',
    'persistVariables',
    'publicStatusEnabled',
    'screenshotCompareEnabled',
  ]) {
    expect(typeof s[k], k).toBe('boolean');
  }
  for (const k of [
    'finalDelay',
    'globalStepDelay',
    'maxAjaxDelay',
    'maxWaitDelay',
    'maxConcurrentTests',
    'testCount',
    'testFrequency',
  ]) {
    expect(typeof s[k], k).toBe('number');
  }
  expect(s.dateCreated).toMatch(ISO);
  expect(Array.isArray(s.variables)).toBe(true);
}

function expectTestShape(t: Record<string, unknown>) {
  expect(typeof t._id).toBe('string');
  expect(typeof t.name).toBe('string');
  expect(typeof t.details).toBe('string');
  expect(typeof t.startUrl).toBe('string');
  for (const k of [
    'dateCreated',
    'dateUpdated',
    'dateExecutionStarted',
    'dateExecutionFinished',
    'dateExecutionTriggered',
  ]) {
    expect(t[k], k).toMatch(ISO);
  }
  expect(Array.isArray(t.filters)).toBe(true);
  expect(Array.isArray(t.links)).toBe(true);
  expect(typeof t.notifications).toBe('object');
  expect(typeof t.publicStatusEnabled).toBe('boolean');
  expect(typeof t.screenshotCompareThreshold).toBe('number');
  expect([true, false, null]).toContain(t.passing);
}

/** Checks a test result's fields and its condition (contract "States and transitions"). */
export function expectResultShape(r: Record<string, any>, condition: 'running' | 'finished' | 'cancelled') {
  expect(typeof r._id).toBe('string');
  expect(typeof r.uuid).toBe('string');
  expect(typeof r.name).toBe('string');
  expect(typeof r.organization).toBe('string');
  expect(r.user).toEqual({ _id: expect.any(String), name: expect.any(String) });
  expect(typeof r.startUrl).toBe('string');
  expect(typeof r.endUrl).toBe('string');
  expect(Array.isArray(r.urls)).toBe(true);
  expect(Array.isArray(r.console)).toBe(true);
  expect(Array.isArray(r.comments)).toBe(true);
  expect(typeof r.commentCount).toBe('number');
  expect(r.dateCreated).toMatch(ISO);
  expect(r.dateExecutionStarted).toMatch(ISO);
  expect(typeof r.executionHost).toBe('string');
  expect(typeof r.variables).toBe('object');
  expect(r.viewportSize).toEqual({ height: expect.any(Number), width: expect.any(Number) });
  for (const s of r.steps) {
    expect(typeof s._id).toBe('string');
    expect(typeof s.sequence).toBe('number');
    expect(typeof s.command).toBe('string');
    expect(s.extra).toEqual({ source: { sequence: s.sequence, test: expect.any(String) } });
  }
  if (condition === 'running') {
    expect(r.passing).toBeNull();
    expect(r.executionTime).toBeNull();
    expect(r.dateExecutionFinished).toBeUndefined();
    for (const s of r.steps) expect(s.passing).toBeNull();
  } else if (condition === 'finished') {
    expect(typeof r.passing).toBe('boolean');
    expect(typeof r.executionTime).toBe('number');
    expect(r.dateExecutionFinished).toMatch(ISO);
    expect(r.status).toBeUndefined();
  } else {
    expect(r.passing).toBeNull();
    expect(r.status).toBe(8);
    for (const s of r.steps) expect(s.passing).toBeNull();
  }
}

describe('envelope, authentication and errors', () => {
  it('answers SUCCESS envelopes with and without a trailing slash', async () => {
    for (const path of ['/suites/', '/suites']) {
      const res = await call(em, 'GET', path);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toContain('application/json');
      expect(res.json.code).toBe('SUCCESS');
      expect(Array.isArray(res.json.data)).toBe(true);
    }
  });

  it('compresses answers with gzip when asked', async () => {
    const { gunzipSync } = await import('node:zlib');
    const http = await import('node:http');
    const answer = await new Promise<{ encoding?: string; body: Buffer }>((resolve, reject) => {
      http
        .get(`${em.baseUrl}/tests/?apiKey=${KEY}`, { headers: { 'accept-encoding': 'gzip' } }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () =>
            resolve({ encoding: res.headers['content-encoding'], body: Buffer.concat(chunks) }),
          );
        })
        .on('error', reject);
    });
    expect(answer.encoding).toBe('gzip');
    expect(JSON.parse(gunzipSync(answer.body).toString()).code).toBe('SUCCESS');
  });

  it("rejects a missing or unknown API key with AUTHENTICATION_ERROR (HTTP 200), in the docs' words", async () => {
    for (const key of [null, '', 'wrong']) {
      const res = await call(em, 'GET', '/suites/', { key });
      expect(res.status).toBe(200);
      // The service's API docs, "Errors": the text of an authentication failure.
      expect(res.json).toEqual({
        code: 'ERROR',
        errorType: 'AUTHENTICATION_ERROR',
        message: 'User ID is invalid',
      });
    }
  });

  it('takes the API key from a JSON body and from a form', async () => {
    const json = await call(em, 'POST', '/folders/', { key: null, body: { apiKey: KEY, name: 'JSON key' } });
    expect(json.json.code).toBe('SUCCESS');
    const form = await call(em, 'POST', '/folders/', {
      key: null,
      body: new URLSearchParams({ apiKey: KEY, name: 'Form key' }),
    });
    expect(form.json.code).toBe('SUCCESS');
    expect(form.json.data.name).toBe('Form key');
  });

  it('scopes records to the key organizations', async () => {
    const res = await call(em, 'GET', '/suites/suite-smoke/', { key: 'other-key' });
    expect(res.json).toMatchObject({
      code: 'ERROR',
      errorType: 'VALIDATION_ERROR',
      message: 'Suite not found',
    });
    expect(await data(em, 'GET', '/suites/', { key: 'other-key' })).toEqual([]);
    expect(await data(em, 'GET', '/organizations/', { key: 'other-key' })).toEqual([
      { _id: 'org-other', name: 'Other Org' },
    ]);
  });

  it('gives VALIDATION_ERROR for malformed JSON, unknown ids and bad parameters; 404 for unknown routes', async () => {
    const malformed = await call(em, 'POST', '/suites/suite-smoke/', { body: '{"name": ' });
    expect(malformed.status).toBe(200);
    expect(malformed.json).toMatchObject({
      code: 'ERROR',
      errorType: 'VALIDATION_ERROR',
      message: expect.stringMatching(/JSON/),
    });
    // The service's wording names no id.
    const unknownTest = await call(em, 'GET', '/tests/nope/');
    expect(unknownTest.status).toBe(200);
    expect(unknownTest.json).toEqual({
      code: 'ERROR',
      errorType: 'VALIDATION_ERROR',
      message: 'Test not found',
    });
    expect((await call(em, 'GET', '/results/nope/')).json.message).toBe('Result not found');
    expect((await call(em, 'GET', '/suite-results/nope/')).json.message).toBe('Suite result not found');
    expect((await call(em, 'POST', '/results/nope/cancel/')).json.message).toBe('Result not found');
    const count = await call(em, 'GET', '/tests/test-home/results/', { query: { count: 'ten' } });
    expect(count.json).toMatchObject({
      errorType: 'VALIDATION_ERROR',
      message: expect.stringContaining('count'),
    });
    // Unknown routes, and known paths with another method: HTTP 404 with an HTML page.
    for (const [method, path] of [
      ['GET', '/no-such-thing/'],
      ['DELETE', '/results/nope/cancel/'],
    ]) {
      const res = await fetch(`${em.baseUrl}${path}?apiKey=demo-api-key`, { method });
      expect(res.status, path).toBe(404);
      expect(res.headers.get('content-type'), path).toMatch(/^text\/html/);
      expect(await res.text(), path).toMatch(/<html[\s\S]*Not Found/);
    }
    // The service still answers after failing handlers.
    expect((await call(em, 'GET', '/suites/')).json.code).toBe('SUCCESS');
  });
});

describe('suite endpoints', () => {
  it('GET /v1/suites/ lists suites with organization.personal and without dataSource', async () => {
    const suites = await data(em, 'GET', '/suites/');
    expect(suites.length).toBeGreaterThanOrEqual(4);
    for (const s of suites) {
      expectSuiteShape(s);
      expect(s.organization).toEqual({ _id: 'org-acme', name: 'Acme Shop', personal: false });
      expect('dataSource' in s).toBe(false);
      expect(s.notifications).toEqual({});
      expect(s.notificationsSuite).toEqual({});
    }
    expect(suites.find((s: any) => s._id === 'suite-smoke').testCount).toBe(3);
  });

  it('GET /v1/suites/{id}/ returns the suite with organization {_id, name} and dataSource', async () => {
    const s = await data(em, 'GET', '/suites/suite-checkout/');
    expectSuiteShape(s);
    expect(s.organization).toEqual({ _id: 'org-acme', name: 'Acme Shop' });
    expect(s.dataSource).toBeNull();
    expect(s.maxConcurrentTests).toBe(2);
  });

  it('POST /v1/suites/ creates a suite with the documented defaults', async () => {
    const s = await data(em, 'POST', '/suites/', { body: { name: 'New suite', organization: 'org-acme' } });
    expect(s).toMatchObject({
      name: 'New suite',
      organization: { _id: 'org-acme', name: 'Acme Shop' },
      ...SUITE_DEFAULTS,
    });
    expect(s.variables).toEqual([]);
    expect(s.dataSource).toBeNull();
    const missing = await call(em, 'POST', '/suites/', { body: { organization: 'org-acme' } });
    expect(missing.json).toMatchObject({
      errorType: 'VALIDATION_ERROR',
      message: expect.stringContaining('name'),
    });
  });

  it('POST /v1/suites/{id}/ updates fields and variables.<name>', async () => {
    const created = await data(em, 'POST', '/suites/', {
      body: { name: 'To update', organization: 'org-acme' },
    });
    const s = await data(em, 'POST', `/suites/${created._id}/`, {
      body: { name: 'Updated', maxConcurrentTests: 3, 'variables.baseUrl': { value: 'https://x.example' } },
    });
    expect(s.name).toBe('Updated');
    expect(s.maxConcurrentTests).toBe(3);
    expect(s.variables).toEqual([{ name: 'baseUrl', value: 'https://x.example', private: false }]);
    const bad = await call(em, 'POST', `/suites/${created._id}/`, {
      body: { screenshotCompareThreshold: 2 },
    });
    expect(bad.json).toMatchObject({
      errorType: 'VALIDATION_ERROR',
      message: expect.stringContaining('screenshotCompareThreshold'),
    });
  });

  it('DELETE /v1/suites/{id}/ answers true and removes the suite', async () => {
    const created = await data(em, 'POST', '/suites/', {
      body: { name: 'To delete', organization: 'org-acme' },
    });
    expect(await data(em, 'DELETE', `/suites/${created._id}/`)).toBe(true);
    expect((await call(em, 'GET', `/suites/${created._id}/`)).json.errorType).toBe('VALIDATION_ERROR');
  });

  it('GET and POST /v1/suites/{id}/duplicate/ copy the suite and its tests with epoch dates', async () => {
    for (const method of ['GET', 'POST']) {
      const s = await data(em, method, '/suites/suite-smoke/duplicate/');
      expect(s.name).toBe('Smoke tests (Copy)');
      expect(s.dateExecutionTriggered).toBe(EPOCH);
      expect(s.user).toEqual({ _id: 'user-demo', firstName: 'Demo', lastName: 'User' });
      expect(s.notifications).toEqual({});
      expect(s.testCount).toBe(3);
      const tests = await data(em, 'GET', `/suites/${s._id}/tests/`);
      for (const t of tests) {
        expect(t.dateExecutionStarted).toBe(EPOCH);
        expect(t.dateExecutionFinished).toBe(EPOCH);
        expect(t.passing).toBeNull();
      }
    }
  });

  it('GET /v1/suites/{id}/tests/ lists tests without steps', async () => {
    const tests = await data(em, 'GET', '/suites/suite-checkout/tests/');
    expect(tests.map((t: any) => t._id)).toEqual(['test-cart', 'test-payment', 'test-receipt']);
    for (const t of tests) {
      expectTestShape(t);
      expect('steps' in t).toBe(false);
      expect(t.suite).toEqual({ _id: 'suite-checkout', name: 'Checkout' });
    }
  });

  it('GET /v1/suites/{id}/results/ and results/csv/ page newest first with the documented columns', async () => {
    const first = await data(em, 'GET', '/suites/suite-smoke/execute/', { query: { immediate: '1' } });
    const second = await data(em, 'GET', '/suites/suite-smoke/execute/', { query: { immediate: '1' } });
    const list = await data(em, 'GET', '/suites/suite-smoke/results/');
    expect(list[0]._id).toBe(second._id);
    expect(list[1]._id).toBe(first._id);
    const one = await data(em, 'GET', '/suites/suite-smoke/results/', { query: { count: '1', offset: '1' } });
    expect(one.map((r: any) => r._id)).toEqual([first._id]);
    const csv = await call(em, 'GET', '/suites/suite-smoke/results/csv/');
    expect(csv.headers.get('content-type')).toContain('text/csv');
    const lines = csv.text.trim().split(/\r?\n/);
    expect(lines[0]).toBe(
      'Suite Result ID,Suite Result URL,Name,Start URL,Tests Passed,Screenshots Passed,Tests Passing,Tests Failing,Test Unknown,Screenshots Passing,Screenshots Failing,Screenshots Unknown,Duration,Date Triggered,Date Started,Date Completed',
    );
    expect(lines[1].startsWith(second._id)).toBe(true);
    expect(lines[2].startsWith(first._id)).toBe(true);
  });

  it('paging: count defaults to 10, is capped at 50, offset skips', async () => {
    const ids: string[] = [];
    const rows = Array.from({ length: 55 }, (_, i) => ({ row: i }));
    const source = await data(em, 'POST', '/organizations/org-acme/data-sources/', {
      body: { name: 'Rows', data: rows },
    });
    const res = await data(em, 'GET', '/tests/test-receipt/execute/', {
      query: { immediate: '1', dataSource: source._id, disableVisuals: '1' },
    });
    expect(res).toHaveLength(55);
    ids.push(...res.map((r: any) => r._id));
    expect((await data(em, 'GET', '/tests/test-receipt/results/')).length).toBe(10);
    expect((await data(em, 'GET', '/tests/test-receipt/results/', { query: { count: '100' } })).length).toBe(
      50,
    );
    const offset = await data(em, 'GET', '/tests/test-receipt/results/', {
      query: { count: '5', offset: '50' },
    });
    expect(offset.length).toBe(5);
    expect(offset[4]._id).toBe(ids[0]);
    await until(async () => (await data(em, 'GET', '/tests/test-receipt/running/')).length === 0);
  });

  it('GET /v1/suites/{id}/status-badge is off until publicStatusEnabled, then an SVG image', async () => {
    const created = await data(em, 'POST', '/suites/', { body: { name: 'Badge', organization: 'org-acme' } });
    const off = await call(em, 'GET', `/suites/${created._id}/status-badge`, { key: null });
    expect(off.json).toMatchObject({ code: 'ERROR', errorType: 'VALIDATION_ERROR' });
    await data(em, 'POST', `/suites/${created._id}/`, { body: { publicStatusEnabled: true } });
    const on = await call(em, 'GET', `/suites/${created._id}/status-badge`, { key: null });
    expect(on.headers.get('content-type')).toBe('image/svg+xml');
    expect(on.text).toContain('<svg');
    expect(on.text.toLowerCase()).toContain('unknown');
  });
});

describe('suite import and export', () => {
  const steps = [
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
  ];

  it('POST import-test/json creates a test with null settings and epoch dates', async () => {
    const t = await data(em, 'POST', '/suites/suite-smoke/import-test/json', {
      body: { name: 'Imported', startUrl: 'https://a.example/', steps },
    });
    expect(t.organization).toEqual({});
    expect(t.suite).toEqual({});
    expect(t.passing).toBeNull();
    expect(t.browser).toBeNull();
    expect(t.autoRetry).toBeNull();
    expect(t.dateExecutionStarted).toBe(EPOCH);
    expect(t.dateExecutionFinished).toBe(EPOCH);
    expect(t.notifications).toEqual({});
    expect(t.steps).toHaveLength(1);
    expect('_id' in t.steps[0]).toBe(false);
    const stored = await data(em, 'GET', `/tests/${t._id}/`);
    expect(stored.suite).toEqual({ _id: 'suite-smoke', name: 'Smoke tests' });
  });

  it('POST import-test/recorder-html takes a multipart dataFile', async () => {
    const html = await call(em, 'GET', '/tests/test-home/export/recorder-html/');
    expect(html.headers.get('content-type')).toContain('xhtml');
    expect(html.text).toContain('<table');
    const form = new FormData();
    form.set('apiKey', KEY);
    form.set('dataFile', new Blob([html.text], { type: 'text/html' }), 'home.html');
    const t = await data(em, 'POST', '/suites/suite-smoke/import-test/recorder-html', {
      key: null,
      body: form,
    });
    expect(t.name).toBe('Home page loads');
    expect(t.steps.length).toBe(3);
    const missing = await call(em, 'POST', '/suites/suite-smoke/import-test/recorder-html', {
      body: new FormData(),
    });
    expect(missing.json.message).toContain('dataFile');
  });

  it('POST import-test/recorder-side and the legacy import-test/ create tests from a .side document', async () => {
    const sideRes = await call(em, 'GET', '/suites/suite-checkout/export/recorder-side/');
    // The document itself, not an envelope (service facts: a downloaded export imports back).
    expect(sideRes.headers.get('content-type')).toContain('application/json');
    const side = sideRes.json as any;
    expect(side).toMatchObject({
      id: expect.any(String),
      version: expect.any(String),
      name: 'Checkout',
      tests: expect.any(Array),
      suites: expect.any(Array),
      plugins: [],
    });
    expect(side.tests).toHaveLength(3);
    const tests = await data(em, 'POST', '/suites/suite-data/import-test/recorder-side', { body: side });
    expect(tests.map((t: any) => t.name)).toEqual(['Add to cart', 'Pay by card', 'Receipt e-mail link']);
    const legacy = await data(em, 'POST', '/suites/suite-data/import-test/', {
      body: { name: 'Legacy', steps },
    });
    expect(legacy.name).toBe('Legacy');
  });

  it('GET export/json/ is a zip of native JSON tests; includeImports bundles imported tests', async () => {
    const res = await fetch(`${em.baseUrl}/suites/suite-checkout/export/json/?apiKey=${KEY}`);
    expect(res.headers.get('content-type')).toBe('application/zip');
    const files = unzipSync(new Uint8Array(await res.arrayBuffer()));
    const names = Object.keys(files);
    expect(names).toHaveLength(3);
    const doc = JSON.parse(strFromU8(files[names[0]]));
    expect(doc).toMatchObject({ name: expect.any(String), steps: expect.any(Array), notifications: {} });
    expect('_id' in doc).toBe(false);
    expect('organization' in doc).toBe(false);
    // A test that imports another one.
    const importer = await data(em, 'POST', '/suites/suite-checkout/import-test/json', {
      body: { name: 'Uses login', steps: [{ command: 'importTest', target: '', value: 'test-login' }] },
    });
    const withImports = unzipSync(
      new Uint8Array(
        await (
          await fetch(`${em.baseUrl}/suites/suite-checkout/export/json/?apiKey=${KEY}&includeImports=1`)
        ).arrayBuffer(),
      ),
    );
    expect(Object.keys(withImports).some((n) => n.startsWith('imports/') && n.includes('Login works'))).toBe(
      true,
    );
    await data(em, 'DELETE', `/tests/${importer._id}/`);
  });

  it('GET export/recorder-html/ is a zip of .html tests', async () => {
    const res = await fetch(`${em.baseUrl}/suites/suite-smoke/export/recorder-html/?apiKey=${KEY}`);
    const files = unzipSync(new Uint8Array(await res.arrayBuffer()));
    expect(Object.keys(files).every((n) => n.endsWith('.html'))).toBe(true);
    expect(strFromU8(files[Object.keys(files)[0]])).toContain('<table');
  });
});

describe('test endpoints', () => {
  it('GET /v1/tests/ lists tests without steps; GET /v1/tests/{id}/ has steps', async () => {
    const tests = await data(em, 'GET', '/tests/');
    expect(tests.length).toBeGreaterThanOrEqual(9);
    for (const t of tests) {
      expectTestShape(t);
      expect('steps' in t).toBe(false);
    }
    const t = await data(em, 'GET', '/tests/test-search/');
    expectTestShape(t);
    expect(t.organization).toEqual({ _id: 'org-acme', name: 'Acme Shop' });
    expect(t.steps[1].target).toEqual([{ selector: '#search-button' }, { selector: 'button.search' }]);
    expect(t.steps[0]).toMatchObject({
      _id: expect.any(String),
      sequence: 0,
      command: 'assign',
      condition: null,
      optional: false,
      private: false,
    });
  });

  it('POST /v1/tests/{id}/ updates; duplicate copies with a marker; DELETE answers true', async () => {
    const copy = await data(em, 'POST', '/tests/test-home/duplicate/');
    expect(copy.name).toBe('Home page loads (Copy)');
    expect(copy.suite).toEqual({ _id: 'suite-smoke', name: 'Smoke tests' });
    expect(copy.dateExecutionTriggered).toBe(EPOCH);
    expect(copy.user).toEqual({ _id: 'user-demo', firstName: 'Demo', lastName: 'User' });
    const getCopy = await data(em, 'GET', `/tests/${copy._id}/duplicate/`);
    expect(getCopy.name).toBe('Home page loads (Copy) (Copy)');
    const updated = await data(em, 'POST', `/tests/${copy._id}/`, {
      body: { name: 'Renamed', browser: 'firefox' },
    });
    expect(updated).toMatchObject({ name: 'Renamed', browser: 'firefox' });
    expect(await data(em, 'DELETE', `/tests/${copy._id}/`)).toBe(true);
    expect(await data(em, 'DELETE', `/tests/${getCopy._id}/`)).toBe(true);
  });

  it('execute (GET, waits) returns one finished test result; immediate=1 returns a running one', async () => {
    const done = await data(em, 'GET', '/tests/test-home/execute/');
    expectResultShape(done, 'finished');
    expect(done.test).toEqual({
      _id: 'test-home',
      name: 'Home page loads',
      organization: 'org-acme',
      suite: 'suite-smoke',
    });
    expect(done.suiteResult).toBeNull();
    expect(done.passing).toBe(true);
    expect(done.screenshot.original).toEqual({
      defaultUrl: expect.any(String),
      dims: { h: 768, w: 1024 },
      path: expect.any(String),
      size: expect.any(Number),
    });
    const png = await fetch(done.screenshot.original.defaultUrl);
    expect(png.headers.get('content-type')).toBe('image/png');
    expect(
      Buffer.from(await png.arrayBuffer())
        .subarray(1, 4)
        .toString(),
    ).toBe('PNG');
    const small = await fetch(done.screenshot.small.defaultUrl);
    expect(small.status).toBe(200);
    const running = await data(em, 'POST', '/tests/test-home/execute/', { query: { immediate: '1' } });
    expectResultShape(running, 'running');
    await until(async () => (await data(em, 'GET', `/results/${running._id}/`)).passing !== null);
  });

  it('on-demand execute answers at once with the running result (test null, suiteResult null); GET follows it', async () => {
    const r = await data(em, 'POST', '/organizations/org-acme/on-demand/execute', {
      body: {
        name: 'From a file',
        startUrl: 'https://a.example/',
        steps: [{ command: 'click', target: '#x' }],
      },
    });
    expectResultShape(r, 'running');
    expect(r.dateExecutionStarted).toMatch(ISO);
    expect(r.test).toBeNull();
    expect(r.suiteResult).toBeNull();
    const done = await until(async () => {
      const read = await data(em, 'GET', `/results/${r._id}/`);
      return read.passing !== null ? read : undefined;
    });
    expectResultShape(done, 'finished');
    expect(done.test).toBeNull();
  });

  it('running/ lists the test results still executing', async () => {
    em.setScenario('test-receipt', { runDurationMs: 600_000 });
    const r = await data(em, 'GET', '/tests/test-receipt/execute/', { query: { immediate: '1' } });
    for (const method of ['GET', 'POST']) {
      const running = await data(em, method, '/tests/test-receipt/running/');
      expect(running.map((x: any) => x._id)).toContain(r._id);
    }
    const org = await data(em, 'GET', '/organizations/org-acme/running/');
    expect(org.map((x: any) => x._id)).toContain(r._id);
    await data(em, 'POST', `/results/${r._id}/cancel/`);
    expect(await data(em, 'GET', '/tests/test-receipt/running/')).toEqual([]);
    em.setScenario('test-receipt', { outcome: 'pass' });
  });

  it('results/ and results/csv/ list newest first with the documented columns', async () => {
    const a = await data(em, 'GET', '/tests/test-cart/execute/');
    const b = await data(em, 'GET', '/tests/test-cart/execute/');
    const list = await data(em, 'GET', '/tests/test-cart/results/');
    expect(list.slice(0, 2).map((r: any) => r._id)).toEqual([b._id, a._id]);
    const csv = await call(em, 'GET', '/tests/test-cart/results/csv/', { query: { count: '2' } });
    const lines = csv.text.trim().split(/\r?\n/);
    expect(lines[0]).toBe(
      'Test Result ID,Test Result URL,Name,Browser,Screen Size,Geolocation,Start URL,End URL,Status,Passed,Screenshot Passed,Screenshot Difference,Error,Duration,Video URL,Screenshot URL,Screenshot Comparison URL,Date Triggered,Date Started,Date Completed',
    );
    expect(lines).toHaveLength(3);
    expect(lines[1].startsWith(b._id)).toBe(true);
  });

  it('export/json/, export/recorder-side/ and export/recorder-html/ of a test', async () => {
    const doc = (await call(em, 'GET', '/tests/test-login/export/json/')).json as any;
    expect(doc).toMatchObject({
      name: 'Login works',
      startUrl: 'https://shop.acme.example/login',
      notifications: {},
    });
    expect(doc.steps).toHaveLength(4);
    for (const k of ['_id', 'organization', 'suite', 'user', 'passing', 'dateCreated'])
      expect(k in doc, k).toBe(false);
    const side = (await call(em, 'GET', '/tests/test-login/export/recorder-side/')).json as any;
    expect(side.tests[0].name).toBe('Login works');
    for (const path of ['export/json/', 'export/selenium-json/', 'export/recorder-side/']) {
      const res = await call(em, 'GET', `/tests/test-login/${path}`);
      expect(res.json.code, path).toBeUndefined();
      expect(res.headers.get('content-type'), path).toContain('application/json');
    }
    const unknown = await call(em, 'GET', '/tests/no-such-test/export/json/');
    expect(unknown.json).toMatchObject({ code: 'ERROR', errorType: 'VALIDATION_ERROR' });
    const suiteZip = await call(em, 'GET', '/suites/suite-smoke/export/selenium-json/');
    expect(suiteZip.headers.get('content-type')).toBe('application/zip');
    const html = await call(em, 'GET', '/tests/test-login/export/recorder-html/');
    expect(html.text).toMatch(/<html[^>]*xmlns/);
  });

  it('accept-screenshot makes the latest screenshot the baseline; "Unable to accept screenshot" otherwise', async () => {
    await data(em, 'GET', '/tests/test-landing/execute/');
    const t = await data(em, 'GET', '/tests/test-landing/accept-screenshot/');
    expectTestShape(t);
    expect(t).toMatchObject({ _id: 'test-landing', screenshotComparePassing: true });
    // Already passing, and a test without screenshot comparison: the service's error (official client's tests).
    for (const [method, id] of [
      ['POST', 'test-landing'],
      ['POST', 'test-home'],
    ]) {
      const refused = await call(em, method, `/tests/${id}/accept-screenshot/`);
      expect(refused.json).toMatchObject({
        code: 'ERROR',
        errorType: 'VALIDATION_ERROR',
        message: expect.stringContaining('Unable to accept screenshot'),
      });
    }
  });

  it('status-badge of a test follows its latest result', async () => {
    await data(em, 'POST', '/tests/test-payment/', { body: { publicStatusEnabled: true } });
    await data(em, 'GET', '/tests/test-payment/execute/');
    const res = await call(em, 'GET', '/tests/test-payment/status-badge', { key: null });
    expect(res.headers.get('content-type')).toBe('image/svg+xml');
    expect(res.text.toLowerCase()).toContain('failing');
  });
});

describe('result endpoints', () => {
  it('GET /v1/results/{id}/, cancel/ and comment/', async () => {
    em.setScenario('test-search', { runDurationMs: 600_000 });
    const r = await data(em, 'GET', '/tests/test-search/execute/', { query: { immediate: '1' } });
    const got = await data(em, 'GET', `/results/${r._id}/`);
    expectResultShape(got, 'running');
    const cancelled = await data(em, 'POST', `/results/${r._id}/cancel/`);
    expectResultShape(cancelled, 'cancelled');
    expectResultShape(await data(em, 'GET', `/results/${r._id}/`), 'cancelled');
    // Cancelling an ended result answers the result (service facts, official client's tests).
    const again = await data(em, 'POST', `/results/${r._id}/cancel/`);
    expect(again).toEqual(cancelled);
    const commented = await data(em, 'POST', `/results/${r._id}/comment/`, {
      body: { message: 'Looked at it' },
    });
    expect(commented.commentCount).toBe(1);
    expect(commented.comments[0]).toEqual({
      _id: expect.any(String),
      author: { _id: 'user-demo', name: 'Demo User' },
      message: 'Looked at it',
      dateCreated: expect.stringMatching(ISO),
    });
    const empty = await call(em, 'POST', `/results/${r._id}/comment/`, { body: {} });
    expect(empty.json.message).toContain('message');
    em.setScenario('test-search', { outcome: 'pass' });
  });
});

describe('suite-result endpoints (service facts)', () => {
  it('GET suite-results/{id}/, results/ in creation order, xunit/, cancel/', async () => {
    const sr = await data(em, 'GET', '/suites/suite-checkout/execute/', { query: { immediate: '1' } });
    // The immediate answer names the suite by id; GET answers it populated (service facts).
    expect(sr).toMatchObject({ passing: null, executionTime: null, suite: 'suite-checkout' });
    const done = await until(async () => {
      const x = await data(em, 'GET', `/suite-results/${sr._id}/`);
      return x.passing !== null ? x : undefined;
    });
    expect(done).toMatchObject({
      passing: false,
      countPassing: 2,
      countFailing: 1,
      countUnknown: 0,
      commentCount: 0,
      comments: [],
    });
    expect(done.dateExecutionFinished).toMatch(ISO);
    expect(typeof done.executionTime).toBe('number');
    const results = await data(em, 'GET', `/suite-results/${sr._id}/results/`);
    expect(results.map((r: any) => r.test._id)).toEqual(['test-cart', 'test-payment', 'test-receipt']);
    const page = await data(em, 'GET', `/suite-results/${sr._id}/results/`, {
      query: { count: '1', offset: '1' },
    });
    expect(page.map((r: any) => r.test._id)).toEqual(['test-payment']);
    const failing = results[1];
    expect(failing.steps[2]).toMatchObject({ passing: false, error: 'Element not found: .confirmation' });
    expect(failing.console.some((c: any) => c.error === true)).toBe(true);
    const xunit = await call(em, 'GET', `/suite-results/${sr._id}/xunit/`);
    expect(xunit.headers.get('content-type')).toContain('xml');
    expect(xunit.text).toContain('<assemblies>');
    expect(xunit.text).toContain('result="Fail"');
    expect(done.suite).toEqual({ _id: 'suite-checkout', name: 'Checkout', organization: 'org-acme' });
    const late = await data(em, 'POST', `/suite-results/${sr._id}/cancel/`);
    expect(late).toEqual(done);
  });
});

describe('organization, data source and folder endpoints', () => {
  it('organizations: list, single with plan and testRuns by month, running', async () => {
    expect(await data(em, 'GET', '/organizations/')).toEqual([{ _id: 'org-acme', name: 'Acme Shop' }]);
    const o = await data(em, 'GET', '/organizations/org-acme/');
    for (const k of ['address', 'city', 'state', 'postalCode', 'country', 'email', 'emailBilling'])
      expect(typeof o[k], k).toBe('string');
    expect(o.dateCreated).toMatch(ISO);
    expect(o.suiteCount).toBeGreaterThanOrEqual(4);
    expect(o.testCount).toBeGreaterThanOrEqual(9);
    const month = new Date().toISOString().slice(0, 7);
    expect(o.testRuns[month]).toBeGreaterThan(0);
    expect(o.testRuns['2026-09']).toBe(412);
    expect(o.plan).toEqual({
      advancedScheduling: expect.any(Boolean),
      maxCsvUploadRows: expect.any(Number),
      maxViewportSize: { width: expect.any(Number), height: expect.any(Number) },
      memberCount: expect.any(Number),
      name: expect.any(String),
      overagePrice: expect.any(Number),
      price: expect.any(Number),
      retentionMonths: expect.any(Number),
      screenshotSteps: expect.any(Boolean),
      testRuns: expect.any(Number),
      yearly: expect.any(Boolean),
    });
    expect(Array.isArray(await data(em, 'GET', '/organizations/org-acme/running/'))).toBe(true);
  });

  it('data sources: list, get, create, replace, delete', async () => {
    const list = await data(em, 'GET', '/organizations/org-acme/data-sources/');
    expect(list.find((d: any) => d._id === 'ds-logins').data).toHaveLength(3);
    const created = await data(em, 'POST', '/organizations/org-acme/data-sources', {
      body: { name: 'Cities', data: [{ city: 'Paris', n: 1 }] },
    });
    expect(created).toEqual({
      _id: expect.any(String),
      name: 'Cities',
      organization: 'org-acme',
      data: [{ city: 'Paris', n: 1 }],
    });
    const replaced = await data(em, 'POST', `/organizations/org-acme/data-sources/${created._id}/`, {
      body: { name: 'Towns', data: [{ city: 'Lyon' }] },
    });
    expect(replaced).toEqual({
      _id: created._id,
      name: 'Towns',
      organization: 'org-acme',
      data: [{ city: 'Lyon' }],
    });
    expect(await data(em, 'GET', `/organizations/org-acme/data-sources/${created._id}`)).toEqual(replaced);
    const bad = await call(em, 'POST', '/organizations/org-acme/data-sources/', {
      body: { name: 'Bad', data: [{ a: { b: 1 } }] },
    });
    expect(bad.json.message).toContain('data[0].a');
    expect(await data(em, 'DELETE', `/organizations/org-acme/data-sources/${created._id}/`)).toBe(true);
    expect(
      (await call(em, 'GET', `/organizations/org-acme/data-sources/${created._id}/`)).json.errorType,
    ).toBe('VALIDATION_ERROR');
  });

  it('folders: list, get, create, update, suites with organization as an identifier', async () => {
    const folders = await data(em, 'GET', '/folders/');
    expect(folders).toContainEqual({ _id: 'folder-web', name: 'Web shop', organization: 'org-acme' });
    expect(await data(em, 'GET', '/folders/folder-web/')).toEqual({
      _id: 'folder-web',
      name: 'Web shop',
      organization: 'org-acme',
    });
    const f = await data(em, 'POST', '/folders/', { body: { name: 'QA', organization: 'org-acme' } });
    expect(f).toEqual({ _id: expect.any(String), name: 'QA', organization: 'org-acme' });
    expect((await data(em, 'POST', `/folders/${f._id}/`, { body: { name: 'QA 2' } })).name).toBe('QA 2');
    const suites = await data(em, 'GET', '/folders/folder-web/suites/');
    expect(suites.map((s: any) => s._id)).toEqual(expect.arrayContaining(['suite-checkout', 'suite-smoke']));
    expect(suites.some((s: any) => s._id === 'suite-visual')).toBe(false);
    for (const s of suites) expect(s.organization).toBe('org-acme');
  });
});
