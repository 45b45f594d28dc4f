/**
 * Every endpoint function of the client, called over HTTP against a recording server on 127.0.0.1: the
 * method, path (trailing slash as in the contract), query, body it sends and the value it returns.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestClient, type TestApi } from '../../support/api/client.js';
import type { Canned, FakeServer } from '../../support/fake-server.js';
import { ok, queryOf, startFakeServer } from '../../support/fake-server.js';

const KEY = 'key-endpoints-123';

const suite = { _id: 's1', name: 'Checkout', organization: { _id: 'o1', name: 'Acme' }, testCount: 2 };
const test = { _id: 't1', name: 'Login', suite: { _id: 's1', name: 'Checkout' }, steps: [] };
const testResult = { _id: 'r1', name: 'Login', passing: true, executionTime: 1234, steps: [] };
const suiteResult = { _id: 'sr1', name: 'Checkout', passing: null, countPassing: 0, countFailing: 0 };
const folder = { _id: 'f1', name: 'Team', organization: 'o1' };
const dataSource = { _id: 'd1', name: 'Users', organization: 'o1', data: [{ user: 'a', n: 1 }] };
const side = {
  id: 'x',
  version: '2.0',
  name: 'P',
  url: 'https://a.test',
  tests: [],
  suites: [],
  plugins: [],
};
const definition = { name: 'Imported', startUrl: 'https://a.test', steps: [] };
const zip = Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x00, 0xff, 0x10, 0x80]);
const svg = '<svg xmlns="http://www.w3.org/2000/svg"><text>passing</text></svg>';

interface Case {
  fn: keyof TestApi;
  method: string;
  path: string;
  answer: Canned;
  call: (api: TestApi) => Promise<unknown>;
  query?: Record<string, string>;
  /** Whether `apiKey=KEY` is in the query (default true). */
  apiKey?: boolean;
  json?: unknown;
  expected: unknown;
}

const cases: Case[] = [
  // Suites
  {
    fn: 'listSuites',
    method: 'GET',
    path: '/v1/suites/',
    answer: ok([suite]),
    call: (a) => a.listSuites(),
    expected: [suite],
  },
  {
    fn: 'getSuite',
    method: 'GET',
    path: '/v1/suites/s1/',
    answer: ok(suite),
    call: (a) => a.getSuite('s1'),
    expected: suite,
  },
  {
    fn: 'createSuite',
    method: 'POST',
    path: '/v1/suites/',
    answer: ok(suite),
    call: (a) => a.createSuite({ name: 'Checkout', organization: 'o1' }),
    json: { name: 'Checkout', organization: 'o1' },
    expected: suite,
  },
  {
    fn: 'updateSuite',
    method: 'POST',
    path: '/v1/suites/s1/',
    answer: ok(suite),
    call: (a) => a.updateSuite('s1', { name: 'New', 'variables.user': { value: 'bob' } }),
    json: { name: 'New', 'variables.user': { value: 'bob' } },
    expected: suite,
  },
  {
    fn: 'deleteSuite',
    method: 'DELETE',
    path: '/v1/suites/s1/',
    answer: ok(true),
    call: (a) => a.deleteSuite('s1'),
    expected: true,
  },
  {
    fn: 'duplicateSuite',
    method: 'POST',
    path: '/v1/suites/s1/duplicate/',
    answer: ok({ ...suite, _id: 's2', name: 'Checkout (copy)' }),
    call: (a) => a.duplicateSuite('s1'),
    json: {},
    expected: { ...suite, _id: 's2', name: 'Checkout (copy)' },
  },
  {
    fn: 'listSuiteTests',
    method: 'GET',
    path: '/v1/suites/s1/tests/',
    answer: ok([test]),
    call: (a) => a.listSuiteTests('s1'),
    expected: [test],
  },
  {
    fn: 'listSuiteResults',
    method: 'GET',
    path: '/v1/suites/s1/results/',
    answer: ok([suiteResult]),
    call: (a) => a.listSuiteResults('s1', { count: 50, offset: 100 }),
    query: { count: '50', offset: '100' },
    expected: [suiteResult],
  },
  {
    fn: 'listSuiteResultsCsv',
    method: 'GET',
    path: '/v1/suites/s1/results/csv/',
    answer: { headers: { 'content-type': 'text/csv' }, body: 'Suite Result ID,Name\nsr1,Checkout\n' },
    call: (a) => a.listSuiteResultsCsv('s1', { count: 5 }),
    query: { count: '5' },
    expected: 'Suite Result ID,Name\nsr1,Checkout\n',
  },
  {
    fn: 'executeSuite',
    method: 'POST',
    path: '/v1/suites/s1/execute/',
    answer: ok(suiteResult),
    call: (a) => a.executeSuite('s1', { immediate: true }),
    json: { apiKey: KEY, immediate: 1 },
    expected: suiteResult,
  },
  {
    fn: 'getSuiteStatusBadge',
    method: 'GET',
    path: '/v1/suites/s1/status-badge',
    answer: { headers: { 'content-type': 'image/svg+xml' }, body: svg },
    call: (a) => a.getSuiteStatusBadge('s1', true),
    query: { screenshot: '1' },
    apiKey: false,
    expected: { contentType: 'image/svg+xml', body: Buffer.from(svg) },
  },
  // Suite import and export
  {
    fn: 'importTestJson',
    method: 'POST',
    path: '/v1/suites/s1/import-test/json',
    answer: ok(test),
    call: (a) => a.importTestJson('s1', definition),
    json: definition,
    expected: test,
  },
  {
    fn: 'importTestRecorderSide',
    method: 'POST',
    path: '/v1/suites/s1/import-test/recorder-side',
    answer: ok([test]),
    call: (a) => a.importTestRecorderSide('s1', side),
    json: side,
    expected: [test],
  },
  {
    fn: 'importTestLegacy',
    method: 'POST',
    path: '/v1/suites/s1/import-test/',
    answer: ok(test),
    call: (a) => a.importTestLegacy('s1', { format: 'x' }),
    json: { format: 'x' },
    expected: test,
  },
  {
    fn: 'exportSuiteJson',
    method: 'GET',
    path: '/v1/suites/s1/export/json/',
    answer: { headers: { 'content-type': 'application/zip' }, body: zip },
    call: (a) => a.exportSuiteJson('s1', true),
    query: { includeImports: '1' },
    expected: zip,
  },
  {
    fn: 'exportSuiteRecorderSide',
    method: 'GET',
    path: '/v1/suites/s1/export/recorder-side/',
    answer: { body: side },
    call: (a) => a.exportSuiteRecorderSide('s1'),
    expected: side,
  },
  {
    fn: 'exportSuiteRecorderHtml',
    method: 'GET',
    path: '/v1/suites/s1/export/recorder-html/',
    answer: { headers: { 'content-type': 'application/zip' }, body: zip },
    call: (a) => a.exportSuiteRecorderHtml('s1'),
    expected: zip,
  },
  // Tests
  {
    fn: 'listTests',
    method: 'GET',
    path: '/v1/tests/',
    answer: ok([test]),
    call: (a) => a.listTests(),
    expected: [test],
  },
  {
    fn: 'getTest',
    method: 'GET',
    path: '/v1/tests/t1/',
    answer: ok(test),
    call: (a) => a.getTest('t1'),
    expected: test,
  },
  {
    fn: 'updateTest',
    method: 'POST',
    path: '/v1/tests/t1/',
    answer: ok(test),
    call: (a) => a.updateTest('t1', { name: 'Login 2' }),
    json: { name: 'Login 2' },
    expected: test,
  },
  {
    fn: 'duplicateTest',
    method: 'POST',
    path: '/v1/tests/t1/duplicate/',
    answer: ok(test),
    call: (a) => a.duplicateTest('t1'),
    json: {},
    expected: test,
  },
  {
    fn: 'deleteTest',
    method: 'DELETE',
    path: '/v1/tests/t1/',
    answer: ok(true),
    call: (a) => a.deleteTest('t1'),
    expected: true,
  },
  {
    fn: 'executeTest',
    method: 'POST',
    path: '/v1/tests/t1/execute/',
    answer: ok(testResult),
    call: (a) => a.executeTest('t1', { immediate: false, startUrl: 'https://b.test' }),
    json: { apiKey: KEY, immediate: 0, startUrl: 'https://b.test' },
    expected: testResult,
  },
  {
    fn: 'executeOnDemand',
    method: 'POST',
    path: '/v1/organizations/o1/on-demand/execute',
    answer: ok({ ...testResult, test: null, suiteResult: null }),
    call: (a) => a.executeOnDemand('o1', definition, { immediate: true }),
    query: { immediate: '1' },
    json: { ...definition, apiKey: KEY },
    expected: { ...testResult, test: null, suiteResult: null },
  },
  {
    fn: 'listTestRunning',
    method: 'GET',
    path: '/v1/tests/t1/running/',
    answer: ok([testResult]),
    call: (a) => a.listTestRunning('t1'),
    expected: [testResult],
  },
  {
    fn: 'acceptScreenshot',
    method: 'POST',
    path: '/v1/tests/t1/accept-screenshot/',
    answer: ok(test),
    call: (a) => a.acceptScreenshot('t1'),
    json: {},
    expected: test,
  },
  {
    fn: 'listTestResults',
    method: 'GET',
    path: '/v1/tests/t1/results/',
    answer: ok([testResult]),
    call: (a) => a.listTestResults('t1', { offset: 10 }),
    query: { offset: '10' },
    expected: [testResult],
  },
  {
    fn: 'listTestResultsCsv',
    method: 'GET',
    path: '/v1/tests/t1/results/csv/',
    answer: { headers: { 'content-type': 'text/csv' }, body: 'Test Result ID\nr1\n' },
    call: (a) => a.listTestResultsCsv('t1'),
    expected: 'Test Result ID\nr1\n',
  },
  {
    fn: 'exportTestJson',
    method: 'GET',
    path: '/v1/tests/t1/export/json/',
    answer: ok(definition),
    call: (a) => a.exportTestJson('t1', true),
    query: { includeImports: '1' },
    expected: definition,
  },
  {
    fn: 'exportTestRecorderSide',
    method: 'GET',
    path: '/v1/tests/t1/export/recorder-side/',
    answer: { body: side },
    call: (a) => a.exportTestRecorderSide('t1'),
    expected: side,
  },
  {
    fn: 'exportTestRecorderHtml',
    method: 'GET',
    path: '/v1/tests/t1/export/recorder-html/',
    answer: {
      headers: { 'content-type': 'application/xhtml+xml' },
      body: '<html><table><tr><td>open</td></tr></table></html>',
    },
    call: (a) => a.exportTestRecorderHtml('t1'),
    expected: '<html><table><tr><td>open</td></tr></table></html>',
  },
  {
    fn: 'getTestStatusBadge',
    method: 'GET',
    path: '/v1/tests/t1/status-badge',
    answer: { headers: { 'content-type': 'image/svg+xml' }, body: svg },
    call: (a) => a.getTestStatusBadge('t1'),
    apiKey: false,
    expected: { contentType: 'image/svg+xml', body: Buffer.from(svg) },
  },
  // Results
  {
    fn: 'getTestResult',
    method: 'GET',
    path: '/v1/results/r1/',
    answer: ok(testResult),
    call: (a) => a.getTestResult('r1'),
    expected: testResult,
  },
  {
    fn: 'cancelTestResult',
    method: 'POST',
    path: '/v1/results/r1/cancel/',
    answer: ok({ ...testResult, passing: null, status: 8 }),
    call: (a) => a.cancelTestResult('r1'),
    json: {},
    expected: { ...testResult, passing: null, status: 8 },
  },
  {
    fn: 'commentOnTestResult',
    method: 'POST',
    path: '/v1/results/r1/comment/',
    answer: ok({ ...testResult, commentCount: 1 }),
    call: (a) => a.commentOnTestResult('r1', 'flaky on CI'),
    json: { message: 'flaky on CI' },
    expected: { ...testResult, commentCount: 1 },
  },
  // Suite results
  {
    fn: 'getSuiteResult',
    method: 'GET',
    path: '/v1/suite-results/sr1/',
    answer: ok(suiteResult),
    call: (a) => a.getSuiteResult('sr1'),
    expected: suiteResult,
  },
  {
    fn: 'listSuiteResultTestResults',
    method: 'GET',
    path: '/v1/suite-results/sr1/results/',
    answer: ok([testResult]),
    call: (a) => a.listSuiteResultTestResults('sr1', { count: 50, offset: 50 }),
    query: { count: '50', offset: '50' },
    expected: [testResult],
  },
  {
    fn: 'cancelSuiteResult',
    method: 'POST',
    path: '/v1/suite-results/sr1/cancel/',
    answer: ok(suiteResult),
    call: (a) => a.cancelSuiteResult('sr1'),
    json: {},
    expected: suiteResult,
  },
  {
    fn: 'getSuiteResultXunit',
    method: 'GET',
    path: '/v1/suite-results/sr1/xunit/',
    answer: {
      headers: { 'content-type': 'application/xml' },
      body: '<assemblies><assembly name="Checkout"/></assemblies>',
    },
    call: (a) => a.getSuiteResultXunit('sr1'),
    expected: '<assemblies><assembly name="Checkout"/></assemblies>',
  },
  // Organizations
  {
    fn: 'listOrganizations',
    method: 'GET',
    path: '/v1/organizations/',
    answer: ok([{ _id: 'o1', name: 'Acme' }]),
    call: (a) => a.listOrganizations(),
    expected: [{ _id: 'o1', name: 'Acme' }],
  },
  {
    fn: 'getOrganization',
    method: 'GET',
    path: '/v1/organizations/o1/',
    answer: ok({ _id: 'o1', name: 'Acme', testRuns: { '2026-01': 3 } }),
    call: (a) => a.getOrganization('o1'),
    expected: { _id: 'o1', name: 'Acme', testRuns: { '2026-01': 3 } },
  },
  {
    fn: 'listOrganizationRunning',
    method: 'GET',
    path: '/v1/organizations/o1/running/',
    answer: ok([testResult]),
    call: (a) => a.listOrganizationRunning('o1'),
    expected: [testResult],
  },
  {
    fn: 'listOrganizationRunningEntries',
    method: 'GET',
    path: '/v1/organizations/o1/running/',
    answer: ok([testResult, { ...testResult, _id: 'r2', suiteResult: { _id: 'sr2', name: 'Checkout' } }]),
    call: (a) => a.listOrganizationRunningEntries('o1'),
    expected: [
      { _id: 'r1', suiteResult: null },
      { _id: 'r2', suiteResult: 'sr2' },
    ],
  },
  // Data sources
  {
    fn: 'listDataSources',
    method: 'GET',
    path: '/v1/organizations/o1/data-sources/',
    answer: ok([dataSource]),
    call: (a) => a.listDataSources('o1'),
    expected: [dataSource],
  },
  {
    fn: 'getDataSource',
    method: 'GET',
    path: '/v1/organizations/o1/data-sources/d1/',
    // The contract shows this answer both as an object and as a one-element array: the array form here.
    answer: ok([dataSource]),
    call: (a) => a.getDataSource('o1', 'd1'),
    expected: dataSource,
  },
  {
    fn: 'createDataSource',
    method: 'POST',
    path: '/v1/organizations/o1/data-sources/',
    answer: ok(dataSource),
    call: (a) => a.createDataSource('o1', { name: 'Users', data: [{ user: 'a', n: 1 }] }),
    json: { name: 'Users', data: [{ user: 'a', n: 1 }] },
    expected: dataSource,
  },
  {
    fn: 'updateDataSource',
    method: 'POST',
    path: '/v1/organizations/o1/data-sources/d1/',
    answer: ok([dataSource]),
    call: (a) => a.updateDataSource('o1', 'd1', { name: 'Users', data: [] }),
    json: { name: 'Users', data: [] },
    expected: dataSource,
  },
  {
    fn: 'deleteDataSource',
    method: 'DELETE',
    path: '/v1/organizations/o1/data-sources/d1/',
    answer: ok(true),
    call: (a) => a.deleteDataSource('o1', 'd1'),
    expected: true,
  },
  // Folders
  {
    fn: 'listFolders',
    method: 'GET',
    path: '/v1/folders/',
    answer: ok([folder]),
    call: (a) => a.listFolders(),
    expected: [folder],
  },
  {
    fn: 'getFolder',
    method: 'GET',
    path: '/v1/folders/f1/',
    answer: ok(folder),
    call: (a) => a.getFolder('f1'),
    expected: folder,
  },
  {
    fn: 'createFolder',
    method: 'POST',
    path: '/v1/folders/',
    answer: ok(folder),
    call: (a) => a.createFolder({ name: 'Team', organization: 'o1' }),
    json: { name: 'Team', organization: 'o1' },
    expected: folder,
  },
  {
    fn: 'updateFolder',
    method: 'POST',
    path: '/v1/folders/f1/',
    answer: ok(folder),
    call: (a) => a.updateFolder('f1', { name: 'Team 2' }),
    json: { name: 'Team 2' },
    expected: folder,
  },
  {
    fn: 'listFolderSuites',
    method: 'GET',
    path: '/v1/folders/f1/suites/',
    answer: ok([{ ...suite, organization: 'o1' }]),
    call: (a) => a.listFolderSuites('f1'),
    expected: [{ ...suite, organization: 'o1' }],
  },
];

describe('every endpoint over HTTP', () => {
  let server: FakeServer;
  let api: TestApi;
  const sent: string[] = [];

  beforeAll(async () => {
    server = await startFakeServer();
    api = createTestClient({
      apiKey: KEY,
      baseUrl: server.baseUrl,
      onRequest: (m, u) => sent.push(`${m} ${u}`),
    });
  });
  afterAll(() => server.close());

  it.each(cases)('$fn: $method $path', async (c) => {
    server.route(c.method, c.path, c.answer);
    const before = server.requests.length;
    const value = await c.call(api);
    expect(server.requests.length).toBe(before + 1);
    const rec = server.requests[server.requests.length - 1];
    expect(rec.method).toBe(c.method);
    expect(rec.path).toBe(c.path);
    expect(queryOf(rec)).toEqual(c.query ?? {});
    const keys = rec.query.filter(([k]) => k === 'apiKey').map(([, v]) => v);
    expect(keys).toEqual(c.apiKey === false ? [] : [KEY]);
    expect(rec.headers['accept-encoding']).toContain('gzip');
    if (c.json !== undefined) {
      expect(rec.headers['content-type']).toMatch(/^application\/json/);
      expect(rec.json).toEqual(c.json);
    } else {
      expect(rec.rawBody.length).toBe(0);
    }
    expect(value).toEqual(c.expected);
    // onRequest saw this request, with the key hidden.
    expect(sent[sent.length - 1]).toContain(`${c.method} ${server.baseUrl.replace('/v1', '')}${c.path}`);
    expect(sent[sent.length - 1]).not.toContain(KEY);
  });

  it('covers every function of the client', () => {
    const tested = new Set(cases.map((c) => c.fn));
    // importTestRecorderHtml is multipart: tested in execute.test.ts with busboy.
    tested.add('importTestRecorderHtml');
    expect(Object.keys(api).filter((fn) => !tested.has(fn as keyof TestApi))).toEqual([]);
  });

  it('escapes identifiers in paths', async () => {
    server.route('GET', '/v1/tests/a%2Fb%3F/', ok(test));
    await expect(api.getTest('a/b?')).resolves.toEqual(test);
    expect(server.requests[server.requests.length - 1].path).toBe('/v1/tests/a%2Fb%3F/');
  });
});
