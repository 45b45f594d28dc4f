/* eslint-disable @typescript-eslint/no-explicit-any -- JSON answers of the emulator, checked field by field */
/**
 * Runs: running -> finished or cancelled with consistent dates, counts and executionTime; suite settings;
 * run-time and suite-wait limits; execute parameters (sources, validation, variants, data rows); screenshot
 * comparison bookkeeping; observation through the admin API.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Emulator } from '../../emulator/index.js';
import { call, data, ISO, KEY, start } from '../support/emulator.js';
import { until } from '../support/harness.js';

let em: Emulator;
beforeAll(async () => {
  em = await start();
});
afterAll(() => em.close());

const ms = (date: string) => Date.parse(date);

async function finishedResult(id: string) {
  return until(async () => {
    const r = await data(em, 'GET', `/results/${id}/`);
    return r.passing !== null || r.status === 8 ? r : undefined;
  });
}

async function finishedSuiteResult(id: string) {
  return until(async () => {
    const r = await data(em, 'GET', `/suite-results/${id}/`);
    return r.dateExecutionFinished ? r : undefined;
  });
}

describe('test results', () => {
  it('move running -> finished with consistent dates and executionTime; the test follows the latest result', async () => {
    em.setScenario('test-cart', { stepDurationsMs: 5000 });
    const running = await data(em, 'GET', '/tests/test-cart/execute/', { query: { immediate: '1' } });
    expect(running).toMatchObject({ passing: null, executionTime: null });
    expect(running.steps.every((s: any) => s.passing === null)).toBe(true);
    const r = await finishedResult(running._id);
    expect(r.passing).toBe(true);
    expect(ms(r.dateCreated)).toBeLessThanOrEqual(ms(r.dateExecutionStarted));
    expect(ms(r.dateExecutionStarted)).toBeLessThanOrEqual(ms(r.dateExecutionFinished));
    expect(r.executionTime).toBe(ms(r.dateExecutionFinished) - ms(r.dateExecutionStarted));
    for (const s of r.steps) {
      expect(s.passing).toBe(true);
      expect(s.dateExecuted).toMatch(ISO);
      expect(s.url).toBe(r.startUrl);
    }
    const test = await data(em, 'GET', '/tests/test-cart/');
    expect(test.passing).toBe(true);
    expect(test.dateExecutionFinished).toBe(r.dateExecutionFinished);
    em.setScenario('test-cart', { outcome: 'fail', failingStep: 0, error: 'Button missing' });
    const failed = await data(em, 'GET', '/tests/test-cart/execute/');
    expect(failed.passing).toBe(false);
    expect(failed.steps[0]).toMatchObject({ passing: false, error: 'Button missing' });
    expect(failed.steps[1].passing).toBeNull();
    expect((await data(em, 'GET', '/tests/test-cart/')).passing).toBe(false);
    em.setScenario('test-cart', { outcome: 'pass' });
    const finishes = em.runs().filter((f) => f.resultId === running._id);
    expect(finishes).toHaveLength(1);
    expect(finishes[0]).toMatchObject({
      kind: 'test-result',
      condition: 'finished',
      passing: true,
      testId: 'test-cart',
    });
  });

  it('cancel gives passing null, status 8, steps passing null; the test keeps its last completed outcome', async () => {
    await data(em, 'GET', '/tests/test-home/execute/');
    em.setScenario('test-home', { runDurationMs: 600_000 });
    const r = await data(em, 'GET', '/tests/test-home/execute/', { query: { immediate: '1' } });
    const cancelled = await data(em, 'POST', `/results/${r._id}/cancel/`);
    expect(cancelled).toMatchObject({ passing: null, status: 8 });
    expect(cancelled.steps.every((s: any) => s.passing === null)).toBe(true);
    expect(cancelled.dateExecutionFinished).toMatch(ISO);
    expect((await data(em, 'GET', '/tests/test-home/')).passing).toBe(true);
    expect(em.runs().filter((f) => f.resultId === r._id)).toEqual([
      expect.objectContaining({ condition: 'cancelled', passing: null }),
    ]);
    em.setScenario('test-home', { outcome: 'pass' });
  });

  it('console errors fail the run when failOnJavaScriptError is set', async () => {
    em.setScenario('test-receipt', { consoleErrors: ['boom'] });
    const lenient = await data(em, 'GET', '/tests/test-receipt/execute/');
    expect(lenient.passing).toBe(true);
    expect(lenient.console).toEqual([
      expect.objectContaining({ error: true, output: 'boom', _id: expect.any(String) }),
    ]);
    await data(em, 'POST', '/tests/test-receipt/', { body: { failOnJavaScriptError: true } });
    const strict = await data(em, 'GET', '/tests/test-receipt/execute/');
    expect(strict.passing).toBe(false);
    await data(em, 'POST', '/tests/test-receipt/', { body: { failOnJavaScriptError: null } });
    em.setScenario('test-receipt', { outcome: 'pass' });
  });

  it('failFirst: N: the first N runs fail at the failing step, later ones pass; attaching it again restarts', async () => {
    const saved = em.store.scenarios.get('test-login') ?? null;
    try {
      em.setScenario('test-login', { failFirst: 2, failingStep: 0, error: 'Not ready yet' });
      const outcomes: boolean[] = [];
      for (let i = 0; i < 4; i++) {
        const r = await data(em, 'GET', '/tests/test-login/execute/');
        outcomes.push(r.passing);
        if (!r.passing) {
          expect(r.steps[0]).toMatchObject({ passing: false, error: 'Not ready yet' });
          expect(r.steps.slice(1).every((s: any) => s.passing === null)).toBe(true);
        } else {
          expect(r.steps.every((s: any) => s.passing === true)).toBe(true);
        }
      }
      expect(outcomes).toEqual([false, false, true, true]);

      // Attached again: counting starts at zero. A run inside a suite counts like a run alone; without
      // failingStep the last step fails with the default error.
      em.setScenario('test-login', { failFirst: 1 });
      const suite = await data(em, 'GET', '/suites/suite-smoke/execute/');
      const login = suite.find((r: any) => r.test._id === 'test-login');
      expect(login.passing).toBe(false);
      expect(login.steps.at(-1)).toMatchObject({
        passing: false,
        error: expect.stringMatching(/^Element not found/),
      });
      expect(suite.filter((r: any) => r.test._id !== 'test-login').every((r: any) => r.passing)).toBe(true);
      expect((await data(em, 'GET', '/tests/test-login/execute/')).passing).toBe(true);

      // failFirst: 0 never fails; it is checked like the other fields.
      em.setScenario('test-login', { failFirst: 0 });
      expect((await data(em, 'GET', '/tests/test-login/execute/')).passing).toBe(true);
      expect(() => em.setScenario('test-login', { failFirst: -1 })).toThrow(/failFirst/);
      expect(() => em.setScenario('test-login', { failFirst: 1.5 })).toThrow(/failFirst/);
      expect(() => em.setScenario('test-login', { failFirst: 1, outcome: 'fail' })).toThrow(/failFirst/);
    } finally {
      em.setScenario('test-login', saved);
    }
  });
});

describe('suite results', () => {
  it('keep counts, passing and dates consistent as tests finish', async () => {
    em.setScenario('test-receipt', { runDurationMs: 300_000 });
    const sr = await data(em, 'GET', '/suites/suite-checkout/execute/', { query: { immediate: '1' } });
    expect(sr).toMatchObject({
      passing: null,
      screenshotComparePassing: null,
      executionTime: null,
      countUnknown: 3,
      countPassing: 0,
    });
    const partial = await until(async () => {
      const x = await data(em, 'GET', `/suite-results/${sr._id}/`);
      return x.countPassing + x.countFailing === 2 ? x : undefined;
    });
    expect(partial).toMatchObject({ passing: null, countUnknown: 1, countPassing: 1, countFailing: 1 });
    expect(partial.dateExecutionFinished).toBeUndefined();
    const done = await finishedSuiteResult(sr._id);
    expect(done).toMatchObject({
      passing: false,
      countPassing: 2,
      countFailing: 1,
      countUnknown: 0,
      screenshotComparePassing: true,
    });
    expect(done.executionTime).toBe(ms(done.dateExecutionFinished) - ms(done.dateExecutionStarted));
    const results = await data(em, 'GET', `/suite-results/${sr._id}/results/`);
    for (const r of results) {
      expect(r.suiteResult).toBe(sr._id);
      expect(ms(r.dateExecutionFinished)).toBeLessThanOrEqual(ms(done.dateExecutionFinished));
    }
    em.setScenario('test-receipt', { outcome: 'pass' });
  });

  it('cancelled suite result: passing null, dateExecutionFinished set, status 8, its tests cancelled', async () => {
    em.setScenario('test-home', { runDurationMs: 600_000 });
    const sr = await data(em, 'POST', '/suites/suite-smoke/execute/', { query: { immediate: '1' } });
    await until(async () => (await data(em, 'GET', `/suite-results/${sr._id}/`)).countPassing === 2);
    const cancelled = await data(em, 'POST', `/suite-results/${sr._id}/cancel/`);
    expect(cancelled).toMatchObject({ passing: null, status: 8, countPassing: 2, countUnknown: 1 });
    expect(cancelled.dateExecutionFinished).toMatch(ISO);
    const results = await data(em, 'GET', `/suite-results/${sr._id}/results/`);
    const home = results.find((r: any) => r.test._id === 'test-home');
    expect(home).toMatchObject({ passing: null, status: 8 });
    expect(em.runs().filter((f) => f.resultId === sr._id)).toEqual([
      expect.objectContaining({ kind: 'suite-result', condition: 'cancelled' }),
    ]);
    em.setScenario('test-home', { outcome: 'pass' });
  });

  it('respects maxConcurrentTests (2 on the checkout suite; 0 = unlimited)', async () => {
    for (const id of ['test-cart', 'test-payment', 'test-receipt'])
      em.setScenario(id, { runDurationMs: 20_000 });
    const limited = await data(em, 'GET', '/suites/suite-checkout/execute/');
    const [a, b, c] = limited;
    expect(ms(c.dateExecutionStarted)).toBeGreaterThanOrEqual(
      Math.min(ms(a.dateExecutionFinished), ms(b.dateExecutionFinished)),
    );
    await data(em, 'POST', '/suites/suite-checkout/', { body: { maxConcurrentTests: 0 } });
    const unlimited = await data(em, 'GET', '/suites/suite-checkout/execute/');
    const firstFinish = Math.min(...unlimited.map((r: any) => ms(r.dateExecutionFinished)));
    for (const r of unlimited) expect(ms(r.dateExecutionStarted)).toBeLessThan(firstFinish);
    await data(em, 'POST', '/suites/suite-checkout/', { body: { maxConcurrentTests: 2 } });
    em.setScenario('test-cart', { outcome: 'pass' });
    em.setScenario('test-receipt', { outcome: 'pass' });
    em.setScenario('test-payment', {
      outcome: 'fail',
      failingStep: 2,
      error: 'Element not found: .confirmation',
    });
  });

  it('abortOnTestFailure cancels the rest of the suite run after a failure', async () => {
    await data(em, 'POST', '/suites/suite-checkout/', {
      body: { abortOnTestFailure: true, maxConcurrentTests: 1 },
    });
    em.setScenario('test-payment', { outcome: 'fail', failingStep: 0 });
    const results = await data(em, 'GET', '/suites/suite-checkout/execute/');
    expect(results.map((r: any) => r.passing)).toEqual([true, false, null]);
    expect(results[2].status).toBe(8);
    await data(em, 'POST', '/suites/suite-checkout/', {
      body: { abortOnTestFailure: false, maxConcurrentTests: 2 },
    });
    em.setScenario('test-payment', {
      outcome: 'fail',
      failingStep: 2,
      error: 'Element not found: .confirmation',
    });
  });

  it('execute answers: array of test results (waits), one suite result (immediate), arrays for variants', async () => {
    const waited = await data(em, 'GET', '/suites/suite-smoke/execute/');
    expect(waited.map((r: any) => r.test._id)).toEqual(['test-home', 'test-login', 'test-search']);
    expect(waited.every((r: any) => r.passing === true)).toBe(true);
    const many = await data(em, 'GET', '/suites/suite-smoke/execute/', {
      query: { immediate: '1', 'browser[]': ['chrome', 'firefox'] },
    });
    expect(many).toHaveLength(2);
    expect(many[0]).toMatchObject({ passing: null, suite: 'suite-smoke' });
    const manyWaited = await data(em, 'GET', '/suites/suite-smoke/execute/', {
      query: { region: ['eu-west-1', 'ap-south-1'] },
    });
    expect(manyWaited.map((r: any) => r.passing)).toEqual([true, true]);
    const regions = await data(em, 'GET', `/suite-results/${manyWaited[1]._id}/results/`);
    expect(regions.every((r: any) => r.region === 'ap-south-1')).toBe(true);
  });
});

describe('limits (time scale 0.001: run limit 600 ms, suite wait 1.2 s)', () => {
  let fast: Emulator;
  beforeAll(async () => {
    fast = await start({ timeScale: 0.001 });
  });
  afterAll(() => fast.close());

  it('a hanging run is cut at the run-time limit and fails', async () => {
    fast.setScenario('test-home', { hang: true });
    const r = await data(fast, 'GET', '/tests/test-home/execute/');
    expect(r.passing).toBe(false);
    expect(r.error.details).toMatch(/run-time limit/);
    expect(r.executionTime).toBeGreaterThanOrEqual(590);
  });

  it('a suite execute that outlasts the wait limit answers TIMEOUT_ERROR while its tests go on', async () => {
    for (const id of ['test-home', 'test-login', 'test-search']) fast.setScenario(id, { hang: true });
    await data(fast, 'POST', '/suites/suite-smoke/', { body: { maxConcurrentTests: 1 } });
    const res = await call(fast, 'GET', '/suites/suite-smoke/execute/');
    expect(res.status).toBe(200);
    // The service's API docs, "Errors": the text of a TIMEOUT_ERROR.
    expect(res.json).toEqual({
      code: 'ERROR',
      errorType: 'TIMEOUT_ERROR',
      message: 'Your execution is still in progress. Our API reached its timeout.',
    });
    const [sr] = await data(fast, 'GET', '/suites/suite-smoke/results/', { query: { count: '1' } });
    expect(sr.passing).toBeNull();
    expect(sr.dateExecutionFinished).toBeUndefined();
    const done = await until(async () => {
      const x = await data(fast, 'GET', `/suite-results/${sr._id}/`);
      return x.dateExecutionFinished ? x : undefined;
    });
    expect(done).toMatchObject({ passing: false, countFailing: 3 });
  });

  it('delay postpones the start', async () => {
    fast.setScenario('test-cart', { outcome: 'pass' });
    const r = await data(fast, 'GET', '/tests/test-cart/execute/', { query: { delay: '300000' } });
    expect(ms(r.dateExecutionStarted) - ms(r.dateCreated)).toBeGreaterThanOrEqual(295);
  });
});

describe('execute parameters', () => {
  it('are validated with a message naming the parameter', async () => {
    const cases: Array<[Record<string, string>, string]> = [
      [{ delay: '300001' }, 'delay'],
      [{ delay: '-1' }, 'delay'],
      [{ screenshotCompareThreshold: '1.5' }, 'screenshotCompareThreshold'],
      [{ viewport: 'big' }, 'viewport'],
      [{ viewport: '0x100' }, 'viewport'],
      [{ browser: 'safari' }, 'browser'],
      [{ browser: 'chrome-latest' }, 'browser'],
      [{ region: 'mars-1' }, 'region'],
      [{ disableVisuals: 'yes' }, 'disableVisuals'],
      [{ immediate: '2' }, 'immediate'],
      [{ maxConcurrentDataRows: '0' }, 'maxConcurrentDataRows'],
      [{ dataSource: 'nope' }, 'dataSource'],
      [{ screenshotCompareBaselineResult: 'nope' }, 'screenshotCompareBaselineResult'],
    ];
    const before = em.store.results.size;
    for (const [query, name] of cases) {
      const res = await call(em, 'GET', '/tests/test-home/execute/', { query });
      expect(res.json, name).toMatchObject({
        code: 'ERROR',
        errorType: 'VALIDATION_ERROR',
        message: expect.stringContaining(name),
      });
    }
    expect(em.store.results.size).toBe(before);
  });

  it('are recorded on the results; unknown names become variables; browser forms and viewports accepted', async () => {
    const r = await data(em, 'GET', '/tests/test-home/execute/', {
      query: {
        browser: 'firefox-120',
        region: 'eu-central-1',
        viewport: '640x480',
        userAgent: 'UA/1',
        startUrl: 'https://other.example/',
        screenshotExclusions: '.ad,.banner',
        screenshotTarget: '#main',
        httpAuthUsername: 'u',
        httpAuthPassword: 'secret-pass',
        orderId: '42',
        disableVisuals: 'true',
      },
    });
    expect(r).toMatchObject({
      browser: 'firefox-120',
      region: 'eu-central-1',
      viewportSize: { width: 640, height: 480 },
      userAgent: 'UA/1',
      startUrl: 'https://other.example/',
      screenshotExclusions: '.ad,.banner',
      screenshotTarget: '#main',
      disableVisuals: true,
      variables: { orderId: '42' },
    });
    expect(r.screenshot).toBeUndefined();
    expect(JSON.stringify(r)).not.toContain('secret-pass');
    const log = em.requests().filter((q) => q.path === '/v1/tests/test-home/execute/');
    expect(log.at(-1)!.query).toContain('apiKey=***');
    expect(log.at(-1)!.query).toContain('httpAuthPassword=***');
    expect(log.at(-1)!.query).not.toContain(KEY);
  });

  it('the chat channel is taken under both its names, chatChannel and slackChannel, neither a custom variable', async () => {
    const queries: Array<Record<string, string>> = [
      { chatChannel: 'qa' },
      { slackChannel: 'qa' },
      { chatChannel: 'qa', slackChannel: 'qa' },
    ];
    for (const query of queries) {
      const r = await data(em, 'GET', '/tests/test-home/execute/', { query: { ...query, orderId: '7' } });
      expect(r.variables, JSON.stringify(query)).toEqual({ orderId: '7' });
    }
  });

  it("a result's browser names the version: the family asked gets one, a version asked is kept", async () => {
    const asked = await data(em, 'GET', '/tests/test-home/execute/', {
      query: { immediate: '1', browser: ['chrome', 'firefox', 'chrome-79'] },
    });
    const [chrome, firefox, pinned] = asked.map((r: any) => r.browser);
    expect(chrome).toMatch(/^chrome-\d+$/);
    expect(firefox).toMatch(/^firefox-\d+$/);
    expect(pinned).toBe('chrome-79');
    // Not asked at execute: the suite's setting (chrome), then the test's own.
    expect((await data(em, 'GET', '/tests/test-home/execute/')).browser).toBe(chrome);
    const copy = await data(em, 'POST', '/tests/test-home/duplicate/');
    await data(em, 'POST', `/tests/${copy._id}/`, { body: { browser: 'firefox' } });
    expect((await data(em, 'GET', `/tests/${copy._id}/execute/`)).browser).toBe(firefox);
    await data(em, 'DELETE', `/tests/${copy._id}/`);
    // A suite result names no browser; its test results do.
    const sr = await data(em, 'GET', '/suites/suite-smoke/execute/', { query: { immediate: '1' } });
    expect(sr).not.toHaveProperty('browser');
    const tests = await until(async () => {
      const list = await data(em, 'GET', `/suite-results/${sr._id}/results/`);
      return list.length > 0 ? list : undefined;
    });
    expect(tests.every((r: any) => r.browser === chrome)).toBe(true);
  });

  it('come from query, JSON body, form and multipart; the body overrides the query; booleans as 1/0 and true/false', async () => {
    const json = await data(em, 'POST', '/tests/test-home/execute/', {
      query: { region: 'us-west-1', immediate: '0' },
      body: { region: 'eu-west-2', immediate: true, note: 'json' },
    });
    expect(json).toMatchObject({ region: 'eu-west-2', passing: null, variables: { note: 'json' } });
    const form = await data(em, 'POST', '/tests/test-home/execute/', {
      body: new URLSearchParams([
        ['immediate', '1'],
        ['viewport[]', '800x600'],
        ['viewport[]', '400x300'],
      ]),
    });
    expect(form.map((r: any) => r.viewportSize)).toEqual([
      { width: 800, height: 600 },
      { width: 400, height: 300 },
    ]);
    const multipart = new FormData();
    multipart.set('apiKey', KEY);
    multipart.set('immediate', 'false');
    multipart.set('browser', 'chrome-119');
    const waited = await data(em, 'POST', '/tests/test-home/execute/', { key: null, body: multipart });
    expect(waited).toMatchObject({ browser: 'chrome-119', passing: true });
  });

  it('a CSV dataFile gives one run per row, maxConcurrentDataRows at a time', async () => {
    em.setScenario('test-login-data', { runDurationMs: 20_000 });
    const form = new FormData();
    form.set('apiKey', KEY);
    form.set('maxConcurrentDataRows', '1');
    form.set(
      'dataFile',
      new Blob(['username,password\nann,a1\nben,b2\ncid,c3\n'], { type: 'text/csv' }),
      'rows.csv',
    );
    const results = await data(em, 'POST', '/tests/test-login-data/execute/', { key: null, body: form });
    expect(results.map((r: any) => r.variables)).toEqual([
      { username: 'ann', password: 'a1' },
      { username: 'ben', password: 'b2' },
      { username: 'cid', password: 'c3' },
    ]);
    for (let i = 1; i < results.length; i++) {
      expect(ms(results[i].dateExecutionStarted)).toBeGreaterThanOrEqual(
        ms(results[i - 1].dateExecutionFinished),
      );
    }
    const bad = new FormData();
    bad.set('apiKey', KEY);
    bad.set('dataFile', new Blob(['only-a-header\n']), 'x.csv');
    const res = await call(em, 'POST', '/tests/test-login-data/execute/', { key: null, body: bad });
    expect(res.json.message).toContain('dataFile');
    em.setScenario('test-login-data', { outcome: 'pass' });
  });

  it('a dataSource gives one run per data row (suite: one suite result per row)', async () => {
    const results = await data(em, 'GET', '/tests/test-login-data/execute/', {
      query: { dataSource: 'ds-logins', immediate: '1' },
    });
    expect(results.map((r: any) => r.variables.username)).toEqual(['alice', 'bob', 'carol']);
    const suiteResults = await data(em, 'GET', '/suites/suite-data/execute/', {
      query: { dataSource: 'ds-logins' },
    });
    expect(suiteResults).toHaveLength(3);
    expect(suiteResults.every((r: any) => r.passing === true)).toBe(true);
  });
});

describe('screenshot comparison', () => {
  it('compares against the baseline with the forced difference and serves comparison images', async () => {
    const first = await data(em, 'GET', '/suites/suite-visual/execute/');
    const landing = first.find((r: any) => r.test._id === 'test-landing');
    const pricing = first.find((r: any) => r.test._id === 'test-pricing');
    expect(landing).toMatchObject({
      screenshotCompareEnabled: true,
      screenshotCompareDifference: 0.25,
      screenshotComparePassing: false,
    });
    expect(pricing).toMatchObject({ screenshotCompareDifference: 0.01, screenshotComparePassing: true });
    const [sr] = await data(em, 'GET', '/suites/suite-visual/results/', { query: { count: '1' } });
    expect(sr).toMatchObject({
      screenshotComparePassing: false,
      countScreenshotComparePassing: 1,
      countScreenshotCompareFailing: 1,
    });
    // A failed comparison is no baseline until it is accepted.
    await data(em, 'POST', '/tests/test-landing/accept-screenshot/');
    const second = await data(em, 'GET', '/tests/test-landing/execute/');
    expect(second.screenshotCompareBaselineResult).toBe(landing._id);
    const image = await fetch(second.screenshotCompare.compareOriginal.defaultUrl);
    expect(image.headers.get('content-type')).toBe('image/png');
    expect((await fetch(second.screenshotCompare.compareSmall.defaultUrl)).status).toBe(200);
    expect((await data(em, 'GET', '/tests/test-landing/')).screenshotComparePassing).toBe(false);
  });

  it('measures real differences with pixelmatch; accept-screenshot and screenshotCompareBaselineResult pick the baseline', async () => {
    await data(em, 'POST', '/tests/test-home/', { body: { screenshotCompareEnabled: true } });
    em.setScenario('test-home', { screenshotDifference: 0.3 });
    const changed = await data(em, 'GET', '/tests/test-home/execute/', {
      query: { screenshotCompareEnabled: '1' },
    });
    await data(em, 'POST', '/tests/test-home/accept-screenshot/');
    em.setScenario('test-home', { outcome: 'pass' });
    const plain = await data(em, 'GET', '/tests/test-home/execute/', {
      query: { screenshotCompareEnabled: '1', screenshotCompareThreshold: '0.5' },
    });
    expect(plain.screenshotCompareBaselineResult).toBe(changed._id);
    expect(plain.screenshotCompareDifference).toBeGreaterThan(0.2);
    expect(plain.screenshotCompareDifference).toBeLessThan(0.4);
    expect(plain.screenshotComparePassing).toBe(true);
    const same = await data(em, 'GET', '/tests/test-home/execute/', {
      query: { screenshotCompareEnabled: '1', screenshotCompareBaselineResult: plain._id },
    });
    expect(same).toMatchObject({
      screenshotCompareBaselineResult: plain._id,
      screenshotCompareDifference: 0,
      screenshotComparePassing: true,
    });
  });
});

describe('status badges', () => {
  const badge = async (path: string) => (await call(em, 'GET', path, { key: null })).text.toLowerCase();

  it('follow the latest suite result: running, passing, partially failing, failing, unknown after cancel', async () => {
    em.setScenario('test-receipt', { runDurationMs: 600_000 });
    const sr = await data(em, 'GET', '/suites/suite-checkout/execute/', { query: { immediate: '1' } });
    expect(await badge('/suites/suite-checkout/status-badge')).toContain('running');
    await data(em, 'POST', `/suite-results/${sr._id}/cancel/`);
    expect(await badge('/suites/suite-checkout/status-badge')).toContain('unknown');
    em.setScenario('test-receipt', { outcome: 'pass' });
    await data(em, 'GET', '/suites/suite-checkout/execute/');
    expect(await badge('/suites/suite-checkout/status-badge')).toMatch(/partial/);
    await data(em, 'GET', '/suites/suite-smoke/execute/');
    expect(await badge('/suites/suite-smoke/status-badge')).toContain('passing');
    for (const id of ['test-home', 'test-login', 'test-search']) em.setScenario(id, { outcome: 'fail' });
    await data(em, 'GET', '/suites/suite-smoke/execute/');
    const failing = await badge('/suites/suite-smoke/status-badge');
    expect(failing).toContain('failing');
    expect(failing).not.toMatch(/partial/);
    for (const id of ['test-home', 'test-login', 'test-search']) em.setScenario(id, { outcome: 'pass' });
  });

  it('show the screenshot comparison state with `screenshot`', async () => {
    await data(em, 'GET', '/suites/suite-visual/execute/');
    const svg = await badge('/suites/suite-visual/status-badge?screenshot=1');
    expect(svg).toContain('screenshot');
    expect(svg).not.toBe(await badge('/suites/suite-visual/status-badge'));
  });
});

describe('admin API', () => {
  it('serves requests, runs, scenarios, faults and state; reset-log clears the log', async () => {
    const origin = em.origin;
    const requests = await (await fetch(`${origin}/_emulator/requests`)).json();
    expect(requests.length).toBeGreaterThan(0);
    expect(requests[0]).toMatchObject({
      seq: expect.any(Number),
      method: expect.any(String),
      path: expect.any(String),
      time: expect.any(Number),
      status: expect.any(Number),
    });
    expect(JSON.stringify(requests)).not.toContain(KEY);
    const runs = await (await fetch(`${origin}/_emulator/runs`)).json();
    const ids = runs.map((r: any) => r.resultId);
    expect(new Set(ids).size).toBe(ids.length);
    const set = await fetch(`${origin}/_emulator/scenarios`, {
      method: 'POST',
      body: JSON.stringify({ testId: 'test-search', scenario: { outcome: 'fail' } }),
    });
    expect(set.status).toBe(200);
    expect((await data(em, 'GET', '/tests/test-search/execute/')).passing).toBe(false);
    const badScenario = await fetch(`${origin}/_emulator/scenarios`, {
      method: 'POST',
      body: JSON.stringify({ testId: 'test-search', scenario: { outcome: 'maybe' } }),
    });
    expect(badScenario.status).toBe(400);
    expect((await badScenario.json()).message).toContain('outcome');
    expect((await (await fetch(`${origin}/_emulator/scenarios`)).json())['test-search']).toEqual({
      outcome: 'fail',
    });
    await fetch(`${origin}/_emulator/scenarios`, {
      method: 'POST',
      body: JSON.stringify({ testId: 'test-search', scenario: { outcome: 'pass' } }),
    });
    const state = await (await fetch(`${origin}/_emulator/state`)).json();
    expect(state).toMatchObject({ executor: 'simulated', timeScale: 0.01, organizations: ['org-acme'] });
    expect((await fetch(`${origin}/_emulator/reset-log`, { method: 'POST' })).status).toBe(200);
    expect(em.requests()).toEqual([]);
    expect(em.runs()).toEqual([]);
    await data(em, 'GET', '/folders/');
    expect(em.requests().map((r) => r.path)).toEqual(['/v1/folders/']);
  });
});
