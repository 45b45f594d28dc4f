/* eslint-disable @typescript-eslint/no-explicit-any -- JSON answers of the emulator, checked field by field */
/**
 * Modules with the browser executor: a test whose `execute` step imports a module runs the module's steps in
 * a real page, in place, and its result steps carry `extra.source` (the expansion happens once, before any
 * executor runs: `emulator/modules.ts`).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BrowserExecutor } from '../../../demo/executor/browser.js';
import type { Emulator } from '../../../emulator/index.js';
import { BROWSER_TIMEOUT_MS, hasChromium } from '../../support/browser-request.js';
import { startSite, type TestSite } from '../../support/browser-site.js';
import { data, KEY, start } from '../../support/emulator.js';

const FORM = `<!doctype html><body><input id="user"><button id="go"
  onclick="document.getElementById('out').textContent = 'hello ' + document.getElementById('user').value">Go</button>
  <p id="out"></p></body>`;

describe.skipIf(!hasChromium)('browser executor: modules', { timeout: BROWSER_TIMEOUT_MS }, () => {
  let site: TestSite;
  let em: Emulator;
  beforeAll(async () => {
    site = await startSite({ form: FORM });
    em = await start({
      executor: new BrowserExecutor({ maxConcurrent: 2 }),
      timeScale: 1,
      apiKey: KEY,
      seed: {
        organizations: [{ _id: 'org-b', name: 'Browser org' }],
        suites: [{ _id: 'suite-b', name: 'Browser suite', organization: 'org-b' }],
      },
    });
  }, BROWSER_TIMEOUT_MS);
  afterAll(async () => {
    await em?.close();
    await site?.close();
  }, BROWSER_TIMEOUT_MS);

  const add = async (name: string, steps: object[], importOnly = false) =>
    (
      await data(em, 'POST', '/suites/suite-b/import-test/json', {
        body: { name, startUrl: `${site.url}/t/form`, importOnly, steps },
      })
    )._id as string;

  it("runs the module's steps in the page, each result step with its source; a module step's failure fails there", async () => {
    const signIn = await add(
      'Sign in',
      [
        { command: 'assign', target: '#user', value: 'ada' },
        { command: 'click', target: '#go', value: '' },
      ],
      true,
    );
    const greet = await add('Greets', [
      { command: 'execute', target: '', value: signIn },
      { command: 'assertText', target: '#out', value: 'hello ada' },
    ]);
    const passed = await data(em, 'POST', `/tests/${greet}/execute/`);
    expect(passed.passing).toBe(true);
    expect(passed.steps.map((s: any) => [s.command, s.extra.source])).toEqual([
      ['assign', { test: signIn, sequence: 0 }],
      ['click', { test: signIn, sequence: 1 }],
      ['assertText', { test: greet, sequence: 1 }],
    ]);

    const broken = await add('Broken module', [{ command: 'click', target: '#missing', value: '' }], true);
    const fails = await add('Uses a broken module', [{ command: 'execute', target: '', value: broken }]);
    await data(em, 'POST', `/tests/${fails}/`, { body: { maxWaitDelay: 500 } });
    const failed = await data(em, 'POST', `/tests/${fails}/execute/`);
    expect(failed.passing).toBe(false);
    expect(failed.steps[0]).toMatchObject({
      passing: false,
      extra: { source: { test: broken, sequence: 0 } },
    });
    expect(failed.steps[0].error).toContain('#missing');
  });
});
