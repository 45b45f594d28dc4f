/**
 * Integration: the official Ghost Inspector Node client (npm `ghost-inspector` 7.0.1, written against the
 * real service) against the emulator on 127.0.0.1, unchanged except for its base URL: only its `host`
 * property is set (it builds every URL as `host + '/v1' + path`). Its own request encodings are used as they
 * are: multipart forms with `true`/`false` strings and repeated fields, JSON bodies with `apiKey` inside,
 * `key[]=` query arrays, its own polling (`pollInterval` option) and its own error handling (it throws on an
 * `ERROR` envelope sent with HTTP 200).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type Emulator } from '../../emulator/index.js';
import type { Folder, Suite, SuiteResult, Test, TestResult } from '../../src/api/types.js';

const KEY = 'demo-api-key';
const ORG = 'org-acme';
/** Poll interval (ms) handed to the official client's own polling (its default is 5000). */
const POLL = { pollInterval: 20 };

/** Execute methods of the official client resolve with `[data, passing, screenshotComparePassing]`. */
type Outcome<T> = [T, boolean | null, boolean | null];
type Callback = (err: unknown, data?: unknown) => void;

/** The methods of the official client this file calls (the package ships no types). */
interface OfficialClient {
  host: string;
  prefix: string;
  buildRequestUrl(path: string): string;
  getSuites(callback?: Callback): Promise<unknown>;
  getSuite(suiteId: string, callback?: Callback): Promise<unknown>;
  getSuiteTests(suiteId: string): Promise<unknown>;
  getSuiteResults(suiteId: string, options?: object): Promise<unknown>;
  createSuite(organizationId: string, name: string): Promise<unknown>;
  updateSuite(suiteId: string, updates: object): Promise<unknown>;
  duplicateSuite(suiteId: string): Promise<unknown>;
  executeSuite(suiteId: string, options?: object): Promise<Outcome<unknown>>;
  getTests(): Promise<unknown>;
  getTest(testId: string): Promise<unknown>;
  updateTest(testId: string, updates: object): Promise<unknown>;
  duplicateTest(testId: string): Promise<unknown>;
  deleteTest(testId: string): Promise<unknown>;
  importTest(suiteId: string, test: object | string): Promise<unknown>;
  executeTest(testId: string, options?: object): Promise<Outcome<unknown>>;
  executeTestOnDemand(organizationId: string, test: object, options?: object): Promise<Outcome<unknown>>;
  waitForTestResult(resultId: string, options?: object): Promise<unknown>;
  waitForSuiteResult(suiteResultId: string, options?: object): Promise<unknown>;
  getTestResults(testId: string, options?: object): Promise<unknown>;
  getTestResultsRunning(testId: string): Promise<unknown>;
  getAllRunningTests(organizationId: string): Promise<unknown>;
  acceptTestScreenshot(testId: string): Promise<unknown>;
  getTestResult(resultId: string): Promise<unknown>;
  getResult(resultId: string): Promise<unknown>;
  cancelTestResult(resultId: string): Promise<unknown>;
  cancelResult(resultId: string): Promise<unknown>;
  getSuiteResult(suiteResultId: string): Promise<unknown>;
  getSuiteResultTestResults(suiteResultId: string): Promise<unknown>;
  getSuiteResultXUnit(suiteResultId: string): Promise<unknown>;
  cancelSuiteResult(suiteResultId: string): Promise<unknown>;
  createFolder(organizationId: string, name: string): Promise<unknown>;
  getFolders(): Promise<unknown>;
  getFolder(folderId: string): Promise<unknown>;
  updateFolder(folderId: string, name: string): Promise<unknown>;
  getFolderSuites(folderId: string): Promise<unknown>;
  downloadTestJson(testId: string, dest: string): Promise<unknown>;
  downloadSuiteJson(suiteId: string, dest: string): Promise<unknown>;
  downloadSuiteSeleniumSide(suiteId: string, dest: string): Promise<unknown>;
  downloadSuiteSeleniumHtml(suiteId: string, dest: string): Promise<unknown>;
  downloadTestSeleniumSide(testId: string, dest: string): Promise<unknown>;
  downloadTestSeleniumHtml(testId: string, dest: string): Promise<unknown>;
}

const require = createRequire(import.meta.url);
const officialClient = require('ghost-inspector') as (apiKey: string) => OfficialClient;

let em: Emulator;
let gi: OfficialClient;
let dir: string;

beforeAll(async () => {
  em = await startEmulator({ timeScale: 0.01, quiet: true });
  gi = officialClient(KEY);
  gi.host = em.origin;
  dir = mkdtempSync(join(tmpdir(), 'gi-official-'));
});
afterAll(async () => {
  await em?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** Requests the emulator logged since `seq`, as `METHOD /path`. */
function requestsSince(seq: number): string[] {
  return em
    .requests()
    .filter((r) => r.seq > seq)
    .map((r) => `${r.method} ${r.path}`);
}
const lastSeq = () => em.requests().at(-1)?.seq ?? 0;

/** Awaits a rejection of the official client (a plain Error) and returns its message. */
async function failure(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(Error);
    return (error as Error).message;
  }
  throw new Error('expected the call to be rejected');
}

describe('official Node client 7.0.1 against the emulator', () => {
  it('forms URLs as host + /v1 + path, so the emulator origin is its only change', () => {
    expect(gi.prefix).toBe('/v1');
    expect(gi.buildRequestUrl('/suites/')).toBe(`${em.baseUrl}/suites/`);
  });

  it('reads suites, a suite (also by callback), its tests, all tests and one test', async () => {
    const suites = (await gi.getSuites()) as Suite[];
    expect(suites.map((s) => s._id)).toEqual(
      expect.arrayContaining(['suite-smoke', 'suite-checkout', 'suite-visual', 'suite-data']),
    );
    const smoke = (await gi.getSuite('suite-smoke')) as Suite;
    expect(smoke).toMatchObject({ _id: 'suite-smoke', name: 'Smoke tests', testCount: 3 });
    const viaCallback = await new Promise((resolve, reject) => {
      void gi.getSuite('suite-smoke', (err, data) => (err ? reject(err) : resolve(data)));
    });
    expect(viaCallback).toEqual(smoke);

    const tests = (await gi.getSuiteTests('suite-smoke')) as Test[];
    expect(tests.map((t) => t._id).sort()).toEqual(['test-home', 'test-login', 'test-search']);
    expect(((await gi.getTests()) as Test[]).length).toBeGreaterThanOrEqual(9);
    const home = (await gi.getTest('test-home')) as Test;
    expect(home.steps?.map((s) => s.command)).toEqual(['assertTextPresent', 'click', 'assertTextPresent']);
  });

  it('executeSuite with its own polling: immediate execute, suite-result polls, then the paged test results', async () => {
    const seq = lastSeq();
    const [data, passing, screenshotPassing] = (await gi.executeSuite('suite-smoke', { ...POLL })) as Outcome<
      TestResult[]
    >;
    expect(data.map((r) => r.test?._id).sort()).toEqual(['test-home', 'test-login', 'test-search']);
    for (const r of data) {
      expect(r.passing).toBe(true);
      // The client sends its options verbatim: its poll interval arrives as a custom variable.
      expect(r.variables).toMatchObject({ pollInterval: '20' });
    }
    expect(passing).toBe(true);
    expect(screenshotPassing).not.toBe(false);

    const suiteResultId = data[0].suiteResult!;
    const seen = requestsSince(seq);
    expect(seen[0]).toBe('POST /v1/suites/suite-smoke/execute/');
    const polls = seen.filter((line) => line === `GET /v1/suite-results/${suiteResultId}/`);
    expect(polls.length).toBeGreaterThanOrEqual(1);
    expect(seen.at(-1)).toBe(`GET /v1/suite-results/${suiteResultId}/results/`);
    const paged = em.requests().filter((r) => r.path === `/v1/suite-results/${suiteResultId}/results/`);
    expect(paged.at(-1)!.query).toContain('count=50');
    expect(paged.at(-1)!.query).toContain('offset=0');
  });

  it('executeSuite reports a failing suite as passing false', async () => {
    const [data, passing] = (await gi.executeSuite('suite-checkout', { ...POLL })) as Outcome<TestResult[]>;
    expect(data).toHaveLength(3);
    expect(data.find((r) => r.name === 'Pay by card')?.passing).toBe(false);
    expect(passing).toBe(false);
  });

  it('executeSuite with several browsers (repeated form fields): one suite result per browser, polled', async () => {
    const [data, passing] = (await gi.executeSuite('suite-smoke', {
      ...POLL,
      browser: ['chrome', 'firefox'],
    })) as Outcome<SuiteResult[]>;
    expect(data).toHaveLength(2);
    for (const sr of data) expect(sr).toMatchObject({ passing: true, countPassing: 3, countFailing: 0 });
    expect(passing).toBe(true);
    const browsers = await Promise.all(
      data.map(async (sr) => ((await gi.getSuiteResultTestResults(sr._id)) as TestResult[])[0].browser),
    );
    expect(browsers.sort()).toEqual(['chrome', 'firefox']);
  });

  it('executeSuite immediate, then waitForSuiteResult, suite result test results, xUnit and the results list', async () => {
    const [sr, passing] = (await gi.executeSuite('suite-checkout', {
      immediate: true,
    })) as Outcome<SuiteResult>;
    expect(Array.isArray(sr)).toBe(false);
    expect(sr.passing).toBeNull();
    expect(passing).toBeNull();

    const done = (await gi.waitForSuiteResult(sr._id, { ...POLL })) as SuiteResult;
    expect(done).toMatchObject({ _id: sr._id, passing: false, countPassing: 2, countFailing: 1 });
    expect((await gi.getSuiteResult(sr._id)) as SuiteResult).toEqual(done);

    const results = (await gi.getSuiteResultTestResults(sr._id)) as TestResult[];
    expect(results.map((r) => r.test?._id)).toEqual(['test-cart', 'test-payment', 'test-receipt']);

    const xml = (await gi.getSuiteResultXUnit(sr._id)) as string;
    expect(typeof xml).toBe('string');
    expect(xml).toContain('<assemblies>');
    expect(xml.match(/<test /g)).toHaveLength(3);
    expect(xml).toContain('result="Fail"');

    const listed = (await gi.getSuiteResults('suite-checkout', { count: 2 })) as SuiteResult[];
    expect(listed).toHaveLength(2);
    expect(listed[0]._id).toBe(sr._id);
  });

  it('executeSuite with a data file path (multipart file): one suite result per CSV row', async () => {
    const csv = join(dir, 'rows.csv');
    writeFileSync(csv, 'username,password\nalice,a\nbob,b\n');
    const [data, passing] = (await gi.executeSuite('suite-data', { dataFile: csv })) as Outcome<
      SuiteResult[]
    >;
    expect(Array.isArray(data)).toBe(true);
    expect(data).toHaveLength(2);
    for (const sr of data) expect(sr.passing).toBe(true);
    expect(passing).toBe(true);
    const users = await Promise.all(
      data.map(
        async (sr) => ((await gi.getSuiteResultTestResults(sr._id)) as TestResult[])[0].variables.username,
      ),
    );
    expect(users.sort()).toEqual(['alice', 'bob']);
  });

  it('executeTest with its own polling, custom variables, getResult and getTestResult', async () => {
    const seq = lastSeq();
    const [r, passing] = (await gi.executeTest('test-login', {
      ...POLL,
      shopper: 'dana',
    })) as Outcome<TestResult>;
    expect(Array.isArray(r)).toBe(false);
    expect(r).toMatchObject({ passing: true, suiteResult: null });
    expect(r.test?._id).toBe('test-login');
    expect(r.variables).toMatchObject({ shopper: 'dana' });
    expect(passing).toBe(true);
    const seen = requestsSince(seq);
    expect(seen[0]).toBe('POST /v1/tests/test-login/execute/');
    expect(seen.slice(1).every((line) => line === `GET /v1/results/${r._id}/`)).toBe(true);

    expect((await gi.getResult(r._id)) as TestResult).toEqual(r);
    expect((await gi.getTestResult(r._id)) as TestResult).toEqual(r);

    const [failed, failing] = (await gi.executeTest('test-payment', { ...POLL })) as Outcome<TestResult>;
    expect(failed.passing).toBe(false);
    expect(failing).toBe(false);
  });

  it('executeTest immediate with several browsers, a data file, and waitForTestResult', async () => {
    const [list, passing] = (await gi.executeTest('test-home', {
      immediate: true,
      browser: ['chrome', 'firefox'],
    })) as Outcome<TestResult[]>;
    expect(list.map((r) => r.browser)).toEqual(['chrome', 'firefox']);
    expect(passing).toBeNull();
    for (const r of list) {
      expect(((await gi.waitForTestResult(r._id, { ...POLL })) as TestResult).passing).toBe(true);
    }

    const csv = join(dir, 'logins.csv');
    writeFileSync(csv, 'username,password\nalice,alice-pass\nbob,bob-pass\ncarol,carol-pass\n');
    const [rows, rowsPassing] = (await gi.executeTest('test-login-data', { dataFile: csv })) as Outcome<
      TestResult[]
    >;
    expect(rows.map((r) => r.variables.username).sort()).toEqual(['alice', 'bob', 'carol']);
    expect(rowsPassing).toBe(true);
  });

  it('executeTestOnDemand: a result with test null and suiteResult null', async () => {
    const [r, passing] = (await gi.executeTestOnDemand(
      ORG,
      {
        name: 'Official on-demand',
        startUrl: 'https://shop.acme.example/',
        steps: [{ command: 'assertTextPresent', target: 'h1', value: 'Acme' }],
      },
      { wait: true, ...POLL },
    )) as Outcome<TestResult>;
    expect(r).toMatchObject({ name: 'Official on-demand', test: null, suiteResult: null, passing: true });
    expect(passing).toBe(true);
    expect(((await gi.getTestResult(r._id)) as TestResult).test).toBeNull();
  });

  it('lists running results and cancels them (cancelTestResult, cancelResult, cancelSuiteResult)', async () => {
    em.setScenario('test-cart', { hang: true });
    try {
      const [a] = (await gi.executeTest('test-cart', { immediate: true })) as Outcome<TestResult>;
      const [b] = (await gi.executeTest('test-cart', { immediate: true })) as Outcome<TestResult>;
      const running = (await gi.getTestResultsRunning('test-cart')) as TestResult[];
      expect(running.map((r) => r._id).sort()).toEqual([a._id, b._id].sort());
      const all = (await gi.getAllRunningTests(ORG)) as TestResult[];
      expect(all.map((r) => r._id)).toEqual(expect.arrayContaining([a._id, b._id]));

      expect((await gi.cancelTestResult(a._id)) as TestResult).toMatchObject({ status: 8, passing: null });
      expect((await gi.cancelResult(b._id)) as TestResult).toMatchObject({ status: 8, passing: null });
      expect((await gi.getTestResultsRunning('test-cart')) as TestResult[]).toEqual([]);

      const [sr] = (await gi.executeSuite('suite-checkout', { immediate: true })) as Outcome<SuiteResult>;
      const cancelled = (await gi.cancelSuiteResult(sr._id)) as SuiteResult;
      expect(cancelled).toMatchObject({ _id: sr._id, passing: null, status: 8 });
      expect(typeof cancelled.dateExecutionFinished).toBe('string');
    } finally {
      em.setScenario('test-cart', null);
    }
  });

  it('lists test results with count and accepts a screenshot', async () => {
    const results = (await gi.getTestResults('test-payment', { count: 2 })) as TestResult[];
    expect(results).toHaveLength(2);
    for (const r of results) expect(r.test?._id).toBe('test-payment');
    expect(Date.parse(results[0].dateCreated)).toBeGreaterThanOrEqual(Date.parse(results[1].dateCreated));

    await gi.executeTest('test-landing', { ...POLL });
    const accepted = (await gi.acceptTestScreenshot('test-landing')) as Test;
    expect(accepted._id).toBe('test-landing');
  });

  it('creates, updates and duplicates suites; updates, duplicates, imports and deletes tests', async () => {
    const suite = (await gi.createSuite(ORG, 'Official client suite')) as Suite;
    expect(suite).toMatchObject({ name: 'Official client suite', testCount: 0, globalStepDelay: 250 });
    const updated = (await gi.updateSuite(suite._id, { startUrl: 'https://shop.acme.example/' })) as Suite;
    expect(updated.startUrl).toBe('https://shop.acme.example/');

    const imported = (await gi.importTest(suite._id, {
      name: 'Imported by the official client',
      startUrl: 'https://shop.acme.example/',
      steps: [{ command: 'click', target: '#go', value: '' }],
    })) as Test;
    expect(imported).toMatchObject({ name: 'Imported by the official client', passing: null });

    // An HTML test file given by path goes up as a multipart dataFile.
    const html = join(dir, 'home.html');
    await gi.downloadTestSeleniumHtml('test-home', html);
    const fromHtml = (await gi.importTest(suite._id, html)) as Test;
    expect(fromHtml.steps?.map((s) => s.command)).toEqual([
      'assertTextPresent',
      'click',
      'assertTextPresent',
    ]);

    const copy = (await gi.duplicateSuite(suite._id)) as Suite;
    expect(copy._id).not.toBe(suite._id);
    expect(copy.name.startsWith('Official client suite')).toBe(true);
    expect(copy.testCount).toBe(2);

    const renamed = (await gi.updateTest(imported._id, { name: 'Renamed by the official client' })) as Test;
    expect(renamed.name).toBe('Renamed by the official client');
    const dup = (await gi.duplicateTest(imported._id)) as Test;
    expect(dup._id).not.toBe(imported._id);
    expect(dup.name.startsWith('Renamed by the official client')).toBe(true);
    expect(await gi.deleteTest(dup._id)).toBe(true);
    expect(await failure(gi.getTest(dup._id))).toMatch(/not found/i);
  });

  it('creates, lists, gets and renames folders and lists the suites of a folder', async () => {
    const folder = (await gi.createFolder(ORG, 'Official client folder')) as Folder;
    expect(folder).toMatchObject({ name: 'Official client folder', organization: ORG });
    expect(((await gi.getFolders()) as Folder[]).map((f) => f._id)).toContain(folder._id);
    expect((await gi.getFolder(folder._id)) as Folder).toEqual(folder);
    expect((await gi.updateFolder(folder._id, 'Renamed folder')) as Folder).toEqual({
      ...folder,
      name: 'Renamed folder',
    });
    const inWeb = (await gi.getFolderSuites('folder-web')) as Suite[];
    expect(inWeb.map((s) => s._id).sort()).toEqual(['suite-checkout', 'suite-smoke']);
  });

  it('downloads exports: test JSON, suite zip, and the .side and .html exports under their selenium-* paths', async () => {
    const testJson = join(dir, 'test.json');
    await gi.downloadTestJson('test-home', testJson);
    const doc = JSON.parse(readFileSync(testJson, 'utf8')) as { code: string; data: { name: string } };
    expect(doc.code).toBe('SUCCESS');
    expect(doc.data.name).toBe('Home page loads');

    // The client reads every download as text, so only the archive's ASCII signature survives intact.
    const zip = join(dir, 'suite.zip');
    await gi.downloadSuiteJson('suite-smoke', zip);
    expect(readFileSync(zip).subarray(0, 4)).toEqual(Buffer.from('PK\x03\x04', 'latin1'));

    const suiteSide = join(dir, 'suite.side');
    await gi.downloadSuiteSeleniumSide('suite-smoke', suiteSide);
    const side = JSON.parse(readFileSync(suiteSide, 'utf8')) as { data: { tests: Array<{ name: string }> } };
    expect(side.data.tests.map((t) => t.name)).toEqual([
      'Home page loads',
      'Login works',
      'Search finds products',
    ]);

    const suiteHtml = join(dir, 'suite-html.zip');
    await gi.downloadSuiteSeleniumHtml('suite-smoke', suiteHtml);
    expect(readFileSync(suiteHtml).subarray(0, 2).toString('latin1')).toBe('PK');

    const testSide = join(dir, 'test.side');
    await gi.downloadTestSeleniumSide('test-home', testSide);
    const one = JSON.parse(readFileSync(testSide, 'utf8')) as { data: { tests: Array<{ name: string }> } };
    expect(one.data.tests.map((t) => t.name)).toEqual(['Home page loads']);

    const testHtml = join(dir, 'test.html');
    await gi.downloadTestSeleniumHtml('test-home', testHtml);
    expect(readFileSync(testHtml, 'utf8')).toMatch(/<table[\s\S]*<td>click<\/td>/);
  });

  it('throws the service message on an unknown id and on an unknown API key', async () => {
    expect(await failure(gi.getResult('no-such-result'))).toMatch(/not found/i);
    expect(await failure(gi.getSuite('no-such-suite'))).toMatch(/not found/i);
    const stranger = officialClient('not-a-real-key');
    stranger.host = em.origin;
    expect(await failure(stranger.getSuites())).toMatch(/API key/i);
  });
});
