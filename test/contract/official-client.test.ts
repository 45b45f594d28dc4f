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
import { refId } from '../../src/api/refs.js';
import type { Folder, Suite, SuiteResult, Test, TestResult } from '../../emulator/api-types.js';

const KEY = 'demo-api-key';
const ORG = 'org-acme';
/** Poll interval (ms) handed to the official client's own polling (its default is 5000). */
const POLL = { pollInterval: 150 };

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
  downloadSuiteSeleniumJson(suiteId: string, dest: string): Promise<unknown>;
  downloadTestSeleniumJson(testId: string, dest: string): Promise<unknown>;
}

const require = createRequire(import.meta.url);
const officialClient = require('ghost-inspector') as (apiKey: string) => OfficialClient;

let em: Emulator;
let gi: OfficialClient;
let dir: string;

beforeAll(async () => {
  // The emulator's defaults (rate limit on, a triggered result found at once) but a short time scale.
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
    expect(data.map((r) => refId(r.test)).sort()).toEqual(['test-home', 'test-login', 'test-search']);
    for (const r of data) {
      expect(r.passing).toBe(true);
      // The client sends its options verbatim: its poll interval arrives as a custom variable.
      expect(r.variables).toMatchObject({ pollInterval: String(POLL.pollInterval) });
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
    expect(browsers.sort()).toEqual([
      expect.stringMatching(/^chrome-\d+$/),
      expect.stringMatching(/^firefox-\d+$/),
    ]);
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
    expect(results.map((r) => refId(r.test))).toEqual(['test-cart', 'test-payment', 'test-receipt']);

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
    expect(refId(r.test)).toBe('test-login');
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
    expect(list.map((r) => r.browser)).toEqual([
      expect.stringMatching(/^chrome-\d+$/),
      expect.stringMatching(/^firefox-\d+$/),
    ]);
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
    for (const r of results) expect(refId(r.test)).toBe('test-payment');
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

  it('downloads exports as the documents themselves (JSON, .side, recorder HTML, zips, selenium-json)', async () => {
    // The service answers each export with the document itself, so a downloaded file imports back.
    const testJson = join(dir, 'test.json');
    await gi.downloadTestJson('test-home', testJson);
    const doc = JSON.parse(readFileSync(testJson, 'utf8')) as {
      code?: string;
      name: string;
      steps: unknown[];
    };
    expect(doc.code).toBeUndefined();
    expect(doc.name).toBe('Home page loads');
    const reimported = (await gi.importTest('suite-data', doc)) as Test;
    expect(reimported.name).toBe('Home page loads');

    const seleniumJson = join(dir, 'test-selenium.json');
    await gi.downloadTestSeleniumJson('test-home', seleniumJson);
    expect(JSON.parse(readFileSync(seleniumJson, 'utf8'))).toMatchObject({ name: 'Home page loads' });

    // The client reads every download as text, so only the archive's ASCII signature survives intact.
    for (const [name, download] of [
      ['suite.zip', (dest: string) => gi.downloadSuiteJson('suite-smoke', dest)],
      ['suite-selenium-json.zip', (dest: string) => gi.downloadSuiteSeleniumJson('suite-smoke', dest)],
      ['suite-html.zip', (dest: string) => gi.downloadSuiteSeleniumHtml('suite-smoke', dest)],
    ] as const) {
      await download(join(dir, name));
      expect(readFileSync(join(dir, name)).subarray(0, 2).toString('latin1'), name).toBe('PK');
    }

    const suiteSide = join(dir, 'suite.side');
    await gi.downloadSuiteSeleniumSide('suite-smoke', suiteSide);
    const side = JSON.parse(readFileSync(suiteSide, 'utf8')) as { tests: Array<{ name: string }> };
    expect(side.tests.map((t) => t.name)).toEqual([
      'Home page loads',
      'Login works',
      'Search finds products',
    ]);

    const testSide = join(dir, 'test.side');
    await gi.downloadTestSeleniumSide('test-home', testSide);
    const one = JSON.parse(readFileSync(testSide, 'utf8')) as { tests: Array<{ name: string }> };
    expect(one.tests.map((t) => t.name)).toEqual(['Home page loads']);

    // Recorder HTML: the test's name as title, one row per step.
    const testHtml = join(dir, 'test.html');
    await gi.downloadTestSeleniumHtml('test-home', testHtml);
    const html = readFileSync(testHtml, 'utf8');
    expect(html).toContain('<title>Home page loads</title>');
    const home = (await gi.getTest('test-home')) as Test;
    expect(html.match(/<tr>\s*<td>/g)).toHaveLength(home.steps!.length);

    // An error stays an ERROR envelope, which the client turns into a rejection.
    expect(await failure(gi.downloadTestJson('no-such-test', join(dir, 'missing.json')))).toMatch(
      /not found/i,
    );
  });

  it('the test runner IP addresses, as the client CLI reads them (no API key): data.<region>.ips[]', async () => {
    const res = await fetch(`${em.baseUrl}/test-runner-ip-addresses`);
    const body = (await res.json()) as { code: string; data: Record<string, { ips: string[] }> };
    expect(body.code).toBe('SUCCESS');
    const ips = Object.values(body.data).flatMap((region) => region.ips);
    expect(ips.length).toBeGreaterThan(0);
    for (const ip of ips) expect(ip).toMatch(/^\d+\.\d+\.\d+\.\d+$/);
  });

  it('throws the service message on an unknown id and on an unknown API key', async () => {
    expect(await failure(gi.getResult('no-such-result'))).toMatch(/not found/i);
    expect(await failure(gi.getSuite('no-such-suite'))).toMatch(/not found/i);
    const stranger = officialClient('not-a-real-key');
    stranger.host = em.origin;
    // The service's documented text for an authentication failure (its API docs, "Errors").
    expect(await failure(stranger.getSuites())).toBe('User ID is invalid');
  });
});

/** The shapes the official client's own integration tests (run against the real service) assert. */
describe('official client 7.0.1: what its integration tests against the real service assert', () => {
  it('execute a suite immediate, one browser: one suite result whose suite is the id string; GET populates it', async () => {
    const [sr, passing] = (await gi.executeSuite('suite-smoke', { immediate: true })) as Outcome<SuiteResult>;
    expect(sr.suite).toBe('suite-smoke');
    expect(sr.passing).toBeNull();
    expect(passing).toBeNull();
    const [several] = (await gi.executeSuite('suite-smoke', {
      immediate: true,
      browser: ['chrome', 'firefox'],
    })) as Outcome<SuiteResult[]>;
    expect(several).toHaveLength(2);
    for (const one of several) expect(one).toMatchObject({ passing: null, suite: 'suite-smoke' });
    const done = (await gi.waitForSuiteResult(sr._id, { ...POLL })) as SuiteResult;
    expect(done.suite).toEqual({ _id: 'suite-smoke', name: 'Smoke tests', organization: ORG });
  });

  it('execute a test immediate: test has exactly _id, name, organization, suite; a start URL override shows', async () => {
    const [r] = (await gi.executeTest('test-home', {
      immediate: true,
      startUrl: 'https://staging.acme.example/',
    })) as Outcome<TestResult>;
    expect(Object.keys(r.test!).sort()).toEqual(['_id', 'name', 'organization', 'suite']);
    expect(r.passing).toBeNull();
    expect(r.startUrl).toBe('https://staging.acme.example/');
  });

  it('a one-row data file, waiting: an array of one result with the row substituted into the steps', async () => {
    const csv = join(dir, 'one-row.csv');
    writeFileSync(csv, 'username,password\nfoo,bar\n');
    const [rows, passing] = (await gi.executeTest('test-login-data', { dataFile: csv })) as Outcome<
      TestResult[]
    >;
    expect(Array.isArray(rows)).toBe(true);
    expect(rows).toHaveLength(1);
    expect(passing).toBe(true);
    expect(rows[0].steps.map((s) => s.value)).toContain('foo');
    expect(rows[0].steps.some((s) => s.value.includes('{{username}}'))).toBe(false);
    // A suite variable and a custom variable substitute the same way; a data source row too.
    const [custom] = (await gi.executeTest('test-login-data', {
      ...POLL,
      username: 'dana',
      password: 'x',
    })) as Outcome<TestResult>;
    expect(custom.steps.map((s) => s.value)).toEqual(expect.arrayContaining(['dana', 'Welcome']));
    const [fromSource] = (await gi.executeTest('test-login-data', { dataSource: 'ds-logins' })) as Outcome<
      TestResult[]
    >;
    const users = fromSource.map((r) => r.steps.find((s) => s.target === '#username')!.value).sort();
    expect(users).toEqual(['alice', 'bob', 'carol']);
  });

  it('on-demand execute with immediate false waits for a passing result; body variables substitute', async () => {
    const [r, passing] = (await gi.executeTestOnDemand(
      ORG,
      {
        name: 'On-demand with variables',
        startUrl: 'https://shop.acme.example/',
        steps: [{ command: 'assertTextPresent', target: 'h1', value: '{{brand}}' }],
        variables: { brand: 'Acme' },
        someFieldTheEmulatorDoesNotKnow: true,
      },
      { immediate: false, ...POLL },
    )) as Outcome<TestResult>;
    expect(r.passing).toBe(true);
    expect(passing).toBe(true);
    expect(r.steps[0].value).toBe('Acme');
    // `immediate` in the query or the JSON body answers at once.
    const res = await fetch(`${em.baseUrl}/organizations/${ORG}/on-demand/execute/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ apiKey: KEY, immediate: true, name: 'Now', steps: [] }),
    });
    expect(((await res.json()) as { data: TestResult }).data.passing).toBeNull();
  });

  it('accept screenshot on a test without screenshot comparison: "Unable to accept screenshot"', async () => {
    expect(await failure(gi.acceptTestScreenshot('test-home'))).toContain('Unable to accept screenshot');
  });

  it('suite-result xUnit starts with the XML declaration; cancelling ended results answers them', async () => {
    const [results] = (await gi.executeSuite('suite-smoke', { ...POLL })) as Outcome<TestResult[]>;
    const suiteResultId = results[0].suiteResult!;
    const xml = (await gi.getSuiteResultXUnit(suiteResultId)) as string;
    expect(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>')).toBe(true);
    const sr = (await gi.cancelSuiteResult(suiteResultId)) as SuiteResult;
    expect(sr).toMatchObject({ _id: suiteResultId, name: 'Smoke tests', passing: true });
    const tr = (await gi.cancelTestResult(results[0]._id)) as TestResult;
    expect(tr).toMatchObject({ _id: results[0]._id, passing: true, error: null });
    expect(((await gi.getSuiteResultTestResults(suiteResultId)) as TestResult[]).length).toBe(3);
  });

  it('video is an object when the run records one, else null; passing results carry error null', async () => {
    const [plain] = (await gi.executeTest('test-home', { ...POLL })) as Outcome<TestResult>;
    expect(plain.video).toBeNull();
    expect(plain.error).toBeNull();
    em.setScenario('test-home', { video: true });
    try {
      const [filmed] = (await gi.executeTest('test-home', { ...POLL })) as Outcome<TestResult>;
      expect(filmed.video).toEqual({
        dims: { h: expect.any(Number), w: expect.any(Number) },
        path: expect.any(String),
        url: expect.stringMatching(/^http/),
      });
    } finally {
      em.setScenario('test-home', null);
    }
  });

  it('first screenshot comparison without a baseline: no comparison; step conditions carry their result', async () => {
    const suite = (await gi.createSuite(ORG, 'Evidence suite')) as Suite;
    await gi.updateSuite(suite._id, { screenshotCompareEnabled: true, notAField: 'ignored' });
    const test = (await gi.importTest(suite._id, {
      name: 'Conditional',
      startUrl: 'https://shop.acme.example/',
      steps: [
        { command: 'click', target: '#go', value: '', condition: { statement: 'return true;' } },
        { command: 'assertTextPresent', target: 'h1', value: 'Acme' },
      ],
      unknownImportField: 1,
    })) as Test;
    const [first] = (await gi.executeTest(test._id, { ...POLL })) as Outcome<TestResult>;
    expect(first).toMatchObject({
      screenshotComparePassing: null,
      screenshotCompareDifference: null,
      screenshotCompareBaselineResult: null,
    });
    expect(first.screenshotCompare).toBeUndefined();
    expect(first.steps[0].condition).toEqual({ statement: 'return true;', result: true });
    const [second] = (await gi.executeTest(test._id, { ...POLL })) as Outcome<TestResult>;
    expect(second.screenshotCompareBaselineResult).toBe(first._id);
    expect(typeof second.screenshotComparePassing).toBe('boolean');
    const renamed = (await gi.updateTest(test._id, { name: 'Still conditional', alsoUnknown: [] })) as Test;
    expect(renamed.name).toBe('Still conditional');
  });

  it('a result is found right after its trigger', async () => {
    const [r] = (await gi.executeTest('test-home', { immediate: true })) as Outcome<TestResult>;
    expect(((await gi.getTestResult(r._id)) as TestResult)._id).toBe(r._id);
  });

  it('the rate limit answers HTTP 429 once an account has spent its burst (Retry-After when configured)', async () => {
    const limited = await startEmulator({
      timeScale: 0.01,
      quiet: true,
      rateLimit: { burst: 5, perSecond: 0.001, retryAfterS: 2 },
    });
    try {
      const client = officialClient(KEY);
      client.host = limited.origin;
      for (let i = 0; i < 5; i++) await client.getSuites();
      const error = await client.getSuites().then(
        () => undefined,
        (e: unknown) => e as { statusCode?: number; response?: { headers: Record<string, string> } },
      );
      expect(error?.statusCode).toBe(429);
      expect(error?.response?.headers['retry-after']).toBe('2');
      expect(limited.requests().at(-1)!.status).toBe(429);
    } finally {
      await limited.close();
    }
  });
});

// The emulator's defaults: rate limit on, a triggered result found at once, production run durations.
describe('official Node client 7.0.1 against the emulator with its default options', () => {
  let plain: Emulator;
  beforeAll(async () => {
    plain = await startEmulator({ quiet: true });
  });
  afterAll(async () => {
    await plain?.close();
  });

  it.concurrent.each([250, 500])(
    'executes and polls a test and a suite with pollInterval %i; every call succeeds',
    async (pollInterval) => {
      const client = officialClient(KEY);
      client.host = plain.origin;
      const since = plain.requests().at(-1)?.seq ?? 0;
      const [[test, testPassing], [suite, suitePassing]] = (await Promise.all([
        client.executeTest('test-home', { pollInterval }),
        client.executeSuite('suite-smoke', { pollInterval }),
      ])) as [Outcome<TestResult>, Outcome<TestResult[]>];
      expect(test).toMatchObject({ passing: true, test: { _id: 'test-home' } });
      expect(testPassing).toBe(true);
      expect(suite.map((r) => refId(r.test)).sort()).toEqual(['test-home', 'test-login', 'test-search']);
      expect(suitePassing).toBe(true);
      const calls = plain.requests().filter((r) => r.seq > since);
      // Execute, at least one poll each, the suite's paged test results: every answer a success.
      expect(calls.length).toBeGreaterThanOrEqual(5);
      expect(calls.filter((r) => r.status !== 200 || r.code !== 'SUCCESS')).toEqual([]);
    },
    60_000,
  );
});
