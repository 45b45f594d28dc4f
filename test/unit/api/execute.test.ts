/**
 * Execute requests (suite, test, on-demand) and the multipart import, over HTTP on 127.0.0.1: every
 * parameter of the contract's execute table, booleans as 1/0, repeated values, custom variables, the
 * JSON body and the multipart body (parsed with busboy), and both response shapes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestClient, type TestApi } from '../../support/api/client.js';
import { ApiError } from '../../../src/api/errors.js';
import type { ExecuteOptions } from '../../../src/api/types.js';
import type { FakeServer } from '../../support/fake-server.js';
import { ok, startFakeServer } from '../../support/fake-server.js';

const KEY = 'key-execute-456';

/** Every parameter of the execute table (test execution: includes the test-only ones). */
const everything: ExecuteOptions = {
  startUrl: 'https://staging.example.test/',
  browser: ['chrome', 'firefox-120'],
  userAgent: 'CI Bot/1.0',
  dataSource: 'ds1',
  delay: 1500,
  region: ['us-east-1', 'eu-west-1'],
  httpAuthUsername: 'admin',
  httpAuthPassword: 'p@ss word',
  webhook: ['https://hooks.example.test/a?x=1', 'https://hooks.example.test/b'],
  disableNotifications: true,
  immediate: true,
  disableVisuals: false,
  maxConcurrentDataRows: 3,
  screenshotCompareEnabled: true,
  screenshotCompareThreshold: 0.25,
  screenshotCompareBaselineResult: 'r0',
  screenshotExclusions: '.ad, #clock',
  screenshotTarget: '//main',
  viewport: '1280x800',
  chatChannel: '#releases',
  variables: { user: 'alice', orderId: '42' },
};

const expectedJson = {
  apiKey: KEY,
  startUrl: 'https://staging.example.test/',
  browser: ['chrome', 'firefox-120'],
  userAgent: 'CI Bot/1.0',
  dataSource: 'ds1',
  delay: 1500,
  region: ['us-east-1', 'eu-west-1'],
  httpAuthUsername: 'admin',
  httpAuthPassword: 'p@ss word',
  webhook: ['https://hooks.example.test/a?x=1', 'https://hooks.example.test/b'],
  disableNotifications: 1,
  immediate: 1,
  disableVisuals: 0,
  maxConcurrentDataRows: 3,
  screenshotCompareEnabled: 1,
  screenshotCompareThreshold: 0.25,
  screenshotCompareBaselineResult: 'r0',
  screenshotExclusions: '.ad, #clock',
  screenshotTarget: '//main',
  viewport: '1280x800',
  chatChannel: 'releases',
  slackChannel: 'releases',
  user: 'alice',
  orderId: '42',
};

/** The same parameters as form fields or query pairs: repeated keys, strings only. */
const expectedPairs: Array<[string, string]> = [
  ['startUrl', 'https://staging.example.test/'],
  ['userAgent', 'CI Bot/1.0'],
  ['dataSource', 'ds1'],
  ['httpAuthUsername', 'admin'],
  ['httpAuthPassword', 'p@ss word'],
  ['screenshotCompareBaselineResult', 'r0'],
  ['screenshotExclusions', '.ad, #clock'],
  ['screenshotTarget', '//main'],
  ['chatChannel', 'releases'],
  ['slackChannel', 'releases'],
  ['delay', '1500'],
  ['maxConcurrentDataRows', '3'],
  ['screenshotCompareThreshold', '0.25'],
  ['disableNotifications', '1'],
  ['immediate', '1'],
  ['disableVisuals', '0'],
  ['screenshotCompareEnabled', '1'],
  ['browser', 'chrome'],
  ['browser', 'firefox-120'],
  ['region', 'us-east-1'],
  ['region', 'eu-west-1'],
  ['viewport', '1280x800'],
  ['webhook', 'https://hooks.example.test/a?x=1'],
  ['webhook', 'https://hooks.example.test/b'],
  ['user', 'alice'],
  ['orderId', '42'],
];

const sortPairs = (p: Array<[string, string]>) =>
  [...p].sort((a, b) => (a[0] + a[1]).localeCompare(b[0] + b[1]));

const testResult = (id: string) => ({ _id: id, name: 'Login', passing: null, executionTime: null });
const suiteResult = (id: string) => ({ _id: id, name: 'Checkout', passing: null });

describe('execute', () => {
  let server: FakeServer;
  let api: TestApi;

  beforeAll(async () => {
    server = await startFakeServer();
    api = createTestClient({ apiKey: KEY, baseUrl: server.baseUrl });
  });
  afterAll(() => server.close());
  const last = () => server.requests[server.requests.length - 1];

  it('sends every execute parameter of a test as a JSON body, repeated values as arrays', async () => {
    server.route('POST', '/v1/tests/t1/execute/', ok([testResult('r1'), testResult('r2')]));
    const value = await api.executeTest('t1', everything);
    expect(value).toEqual([testResult('r1'), testResult('r2')]);
    const rec = last();
    expect(rec.method).toBe('POST');
    expect(rec.query).toEqual([['apiKey', KEY]]);
    expect(rec.headers['content-type']).toMatch(/^application\/json/);
    expect(rec.json).toEqual(expectedJson);
  });

  it('sends a single repeatable value as a plain string and omits unset parameters', async () => {
    server.route('POST', '/v1/suites/s1/execute/', ok(suiteResult('sr1')));
    const value = await api.executeSuite('s1', { browser: ['chrome'], region: 'eu-west-2', immediate: true });
    expect(value).toEqual(suiteResult('sr1'));
    expect(last().json).toEqual({ apiKey: KEY, browser: 'chrome', region: 'eu-west-2', immediate: 1 });
  });

  it('sends a data file as multipart/form-data: apiKey and every option as fields, the file as dataFile', async () => {
    server.route('POST', '/v1/tests/t1/execute/', ok([testResult('r1'), testResult('r2')]));
    const csv = 'user,orderId\nalice,1\nbob,2\n';
    const value = await api.executeTest('t1', {
      ...everything,
      dataFile: { name: 'rows.csv', content: csv },
    });
    expect(value).toEqual([testResult('r1'), testResult('r2')]);
    const rec = last();
    expect(rec.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
    expect(rec.query).toEqual([['apiKey', KEY]]);
    const form = rec.multipart!;
    expect(sortPairs(form.fields)).toEqual(sortPairs([['apiKey', KEY], ...expectedPairs]));
    expect(form.files).toHaveLength(1);
    expect(form.files[0].field).toBe('dataFile');
    expect(form.files[0].filename).toBe('rows.csv');
    expect(form.files[0].mimeType).toBe('text/csv');
    expect(form.files[0].content.toString('utf8')).toBe(csv);
  });

  it('sends binary data file content byte for byte', async () => {
    server.route('POST', '/v1/suites/s1/execute/', ok([suiteResult('sr1'), suiteResult('sr2')]));
    const bytes = new Uint8Array([0xef, 0xbb, 0xbf, 0x61, 0x0a, 0x00, 0xff, 0x0d, 0x0a]);
    const value = await api.executeSuite('s1', {
      immediate: true,
      dataFile: { name: 'd.csv', content: bytes },
    });
    expect(value).toEqual([suiteResult('sr1'), suiteResult('sr2')]);
    expect(last().multipart!.fields).toEqual([
      ['apiKey', KEY],
      ['immediate', '1'],
    ]);
    expect([...last().multipart!.files[0].content]).toEqual([...bytes]);
  });

  it('on-demand: the test definition (with apiKey) as JSON body, options in the query with repeated keys', async () => {
    server.route('POST', '/v1/organizations/o1/on-demand/execute', ok(testResult('r9')));
    const definition = {
      name: 'Smoke',
      startUrl: 'https://a.test',
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
    };
    const value = await api.executeOnDemand('o1', definition, {
      immediate: true,
      viewport: ['1024x768', '375x667'],
      variables: { env: 'qa' },
    });
    expect(value).toEqual(testResult('r9'));
    const rec = last();
    expect(rec.query).toEqual([
      ['apiKey', KEY],
      ['immediate', '1'],
      ['viewport', '1024x768'],
      ['viewport', '375x667'],
      ['env', 'qa'],
    ]);
    expect(rec.json).toEqual({ ...definition, apiKey: KEY });
  });

  it('rejects test-only parameters on a suite and variables named like parameters, sending nothing', async () => {
    const before = server.requests.length;
    const a = await api.executeSuite('s1', { webhook: 'https://h.test' }).catch((e: unknown) => e);
    expect(a).toBeInstanceOf(ApiError);
    expect((a as ApiError).errorType).toBe('INVALID_REQUEST');
    expect((a as ApiError).message).toMatch(/webhook.*test execution only/);
    const b = await api.executeTest('t1', { variables: { browser: 'x' } }).catch((e: unknown) => e);
    expect((b as ApiError).errorType).toBe('INVALID_REQUEST');
    expect((b as ApiError).message).toMatch(/custom variable "browser"/);
    const c = await api
      .executeOnDemand('o1', { name: 'x', steps: [] }, { dataFile: { name: 'a.csv', content: 'a\n1\n' } })
      .catch((e: unknown) => e);
    expect((c as ApiError).errorType).toBe('INVALID_REQUEST');
    expect(server.requests.length).toBe(before);
  });

  it('imports a recorder .html file as multipart with apiKey and dataFile', async () => {
    const test = { _id: 't7', name: 'Recorded', steps: [] };
    server.route('POST', '/v1/suites/s1/import-test/recorder-html', ok(test));
    const html = '<html><body><table><tr><td>open</td><td>/</td><td></td></tr></table></body></html>';
    const value = await api.importTestRecorderHtml('s1', { name: 'rec.html', content: html });
    expect(value).toEqual(test);
    const rec = last();
    expect(rec.path).toBe('/v1/suites/s1/import-test/recorder-html');
    expect(rec.query).toEqual([['apiKey', KEY]]);
    expect(rec.multipart!.fields).toEqual([['apiKey', KEY]]);
    expect(rec.multipart!.files.map((f) => [f.field, f.filename, f.mimeType, f.content.toString()])).toEqual([
      ['dataFile', 'rec.html', 'text/html', html],
    ]);
  });
});
