/**
 * Write paths and fields clients rely on: duplicate a test into another suite (`{"suiteId"}`), take a suite
 * out of its folder (`"folder": ""`), move a test by updating its `suite`, test `importOnly`,
 * `httpAuthUsername`/`httpAuthPassword` and `httpHeaders` on tests and suites, `null` meaning the default.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Emulator } from '../../emulator/index.js';
import { call, data, start } from '../support/emulator.js';

let em: Emulator;
beforeAll(async () => {
  em = await start();
});
afterAll(() => em.close());

describe('write paths', () => {
  it('POST /tests/{id}/duplicate with {"suiteId"} copies the test into that suite', async () => {
    const copy = await data(em, 'POST', '/tests/test-home/duplicate/', { body: { suiteId: 'suite-data' } });
    expect(copy).toMatchObject({ name: 'Home page loads (Copy)', suite: { _id: 'suite-data' } });
    const same = await data(em, 'POST', '/tests/test-home/duplicate/');
    expect(same.suite._id).toBe('suite-smoke');
    const unknown = await call(em, 'POST', '/tests/test-home/duplicate/', { body: { suiteId: 'nope' } });
    expect(unknown.json).toMatchObject({ code: 'ERROR', message: 'Suite not found' });
  });

  it('updating a suite with "folder": "" takes it out of its folder', async () => {
    const out = await data(em, 'POST', '/suites/suite-data/', { body: { folder: '' } });
    expect(out.folder).toBeNull();
    expect(await data(em, 'GET', '/folders/folder-web/suites/')).not.toContainEqual(
      expect.objectContaining({ _id: 'suite-data' }),
    );
  });

  it('tests carry importOnly and HTTP authentication; suites carry HTTP authentication', async () => {
    const test = await data(em, 'GET', '/tests/test-login/');
    expect(test).toMatchObject({ importOnly: false, httpAuthUsername: null, httpAuthPassword: null });
    const suite = await data(em, 'GET', '/suites/suite-smoke/');
    expect(suite).toMatchObject({ httpAuthUsername: '', httpAuthPassword: '' });
    const updated = await data(em, 'POST', '/tests/test-login/', {
      body: { importOnly: true, httpAuthUsername: 'ada', httpAuthPassword: 'secret' },
    });
    expect(updated).toMatchObject({ importOnly: true, httpAuthUsername: 'ada', httpAuthPassword: 'secret' });
    expect(
      (await call(em, 'POST', '/tests/test-login/', { body: { importOnly: 'x' } })).json.message,
    ).toMatch(/importOnly/);
    await data(em, 'POST', '/tests/test-login/', { body: { importOnly: false } });
  });

  it("updating a test's suite moves it there (an id or the {_id, name} a GET answers)", async () => {
    const moved = await data(em, 'POST', '/tests/test-search/', { body: { suite: 'suite-data' } });
    expect(moved.suite).toEqual({ _id: 'suite-data', name: expect.any(String) });
    const ids = async (suite: string) =>
      (await data(em, 'GET', `/suites/${suite}/tests/`)).map((t: { _id: string }) => t._id);
    expect(await ids('suite-data')).toContain('test-search');
    expect(await ids('suite-smoke')).not.toContain('test-search');
    const back = await data(em, 'POST', '/tests/test-search/', { body: { suite: { _id: 'suite-smoke' } } });
    expect(back.suite._id).toBe('suite-smoke');
    const unknown = await call(em, 'POST', '/tests/test-search/', { body: { suite: 'nope' } });
    expect(unknown.json).toMatchObject({ code: 'ERROR', message: 'Suite not found' });
    expect(await ids('suite-smoke')).toContain('test-search');
  });

  it('tests and suites keep httpHeaders ([] when none)', async () => {
    expect((await data(em, 'GET', '/tests/test-cart/')).httpHeaders).toEqual([]);
    expect((await data(em, 'GET', '/suites/suite-checkout/')).httpHeaders).toEqual([]);
    const headers = [{ name: 'X-Env', value: 'preview' }];
    expect(
      (await data(em, 'POST', '/tests/test-cart/', { body: { httpHeaders: headers } })).httpHeaders,
    ).toEqual(headers);
    expect((await data(em, 'GET', '/tests/test-cart/')).httpHeaders).toEqual(headers);
    const suite = await data(em, 'POST', '/suites/suite-checkout/', { body: { httpHeaders: headers } });
    expect(suite.httpHeaders).toEqual(headers);
    expect(
      (await data(em, 'GET', '/suites/')).find((s: { _id: string }) => s._id === 'suite-checkout')
        .httpHeaders,
    ).toEqual(headers);
    const bad = await call(em, 'POST', '/tests/test-cart/', { body: { httpHeaders: 'X-Env: preview' } });
    expect(bad.json.message).toMatch(/httpHeaders/);
  });

  it("null sets a field to its default on update (tests and suites), as the service's exports use it", async () => {
    await data(em, 'POST', '/tests/test-cart/', {
      body: {
        notifications: { webhooks: { enabled: false } },
        details: 'x',
        screenshotCompareThreshold: 0.3,
      },
    });
    const test = await data(em, 'POST', '/tests/test-cart/', {
      body: {
        notifications: null,
        details: null,
        startUrl: null,
        screenshotCompareThreshold: null,
        httpHeaders: null,
        importOnly: null,
        region: '',
      },
    });
    expect(test).toMatchObject({
      notifications: {},
      details: '',
      startUrl: '',
      screenshotCompareThreshold: 0.1,
      httpHeaders: [],
      importOnly: false,
      region: null,
    });
    const suite = await data(em, 'POST', '/suites/suite-checkout/', {
      body: { notifications: null, globalStepDelay: null, browser: null, viewportSize: null },
    });
    expect(suite).toMatchObject({
      globalStepDelay: 250,
      browser: 'chrome',
      viewportSize: { height: 768, width: 1024 },
    });
    expect(
      (await data(em, 'GET', '/suites/')).find((s: { _id: string }) => s._id === 'suite-checkout')
        .notifications,
    ).toEqual({});
  });
});
