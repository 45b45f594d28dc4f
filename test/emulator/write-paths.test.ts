/**
 * Write paths and fields clients rely on: duplicate a test into another suite (`{"suiteId"}`), take a suite
 * out of its folder (`"folder": ""`), test `importOnly`, `httpAuthUsername`/`httpAuthPassword` on tests and
 * suites.
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
});
