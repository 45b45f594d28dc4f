/**
 * A test that imports a module (a test marked `importOnly`, pulled in by an `execute` step) fails at one of
 * the module's steps, end to end through the bundle (`dist/index.js`): the service's result holds the
 * expanded steps with `extra.source` naming the module, and the job summary and the JUnit file name the
 * failing step as the module's (`Step 3 (module ID, step 2) click #go: …`).
 */
import { readFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type Emulator } from '../../emulator/index.js';
import { makeWorkspace } from '../support/action-fixtures.js';
import { counts, runAction } from '../support/harness.js';
import { data } from '../support/emulator.js';

const API_KEY = 'e2e-modules-key';
let emulator: Emulator;
let workspace: string;

beforeAll(async () => {
  emulator = await startEmulator({ timeScale: 0.02, apiKey: API_KEY, quiet: true });
  workspace = await makeWorkspace('gi-e2e-modules-');
});
afterAll(async () => {
  await emulator?.close();
  if (workspace) await rm(workspace, { recursive: true, force: true });
});

describe('a failing step imported from a module', () => {
  it('is named as the module’s step in the summary and the JUnit file', async () => {
    const click = (target: string) => ({ command: 'click', target, value: '' });
    const importTest = async (name: string, steps: object[], importOnly: boolean) =>
      (
        await data(emulator, 'POST', '/suites/suite-smoke/import-test/json', {
          key: API_KEY,
          body: { name, startUrl: 'https://shop.example/', importOnly, steps },
        })
      )._id as string;
    const login = await importTest('Login module', [click('#user'), click('#go')], true);
    const buy = await importTest(
      'Buy a hat',
      [click('#home'), { command: 'execute', target: '', value: login }, click('#buy')],
      false,
    );
    emulator.setScenario(buy, { outcome: 'fail', failingStep: 2, error: 'Element not found: #go' });

    const r = await runAction({
      workspace,
      inputs: {
        'api-key': API_KEY,
        'api-base-url': emulator.baseUrl,
        'test-ids': buy,
        screenshots: 'none',
        'timeout-minutes': '5',
      },
    });
    expect(r.code, r.stdout + r.stderr).toBe(1);
    expect(counts(r)).toMatchObject({ total: 1, failed: 1 });
    const label = `Step 3 (module ${login}, step 2)`;
    expect(r.summary).toContain(`<strong>${label}</strong>`);
    const junit = readFileSync(path.join(workspace, 'ghost-inspector-junit.xml'), 'utf8');
    expect(junit).toContain(`message="${label} click #go: Element not found: #go"`);
  });
});
