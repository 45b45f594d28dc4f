/**
 * Tests that import a module (a test marked `importOnly`, pulled in by an `execute` step) fail at one of the
 * module's steps, end to end through the bundle (`dist/index.js`): the service's results hold the expanded
 * steps with `extra.source` naming the module by its test id, the action reads the module's name once
 * (`GET /v1/tests/{id}/`), and the job summary and the JUnit file name the failing step as the module's
 * (`Step 3 (Login module, step 2) click #go: …`); when that read fails, by the module's test id. A passing
 * run reads no name.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { counts } from '../support/harness.js';
import { data } from '../support/emulator.js';
import { useWorld } from '../support/world.js';

const API_KEY = 'e2e-modules-key';
const world = useWorld({ clock: 'scaled', fixtures: true, apiKey: API_KEY, timeScale: 0.02 });
/** The module's test id, and two tests that import it after their first step. */
let login: string;
let hat: string;
let scarf: string;

const click = (target: string) => ({ command: 'click', target, value: '' });
const importTest = async (name: string, steps: object[], importOnly: boolean) =>
  (
    await data(world.emulator, 'POST', '/suites/suite-smoke/import-test/json', {
      key: API_KEY,
      body: { name, startUrl: 'https://shop.example/', importOnly, steps },
    })
  )._id as string;

beforeAll(async () => {
  login = await importTest('Login module', [click('#user'), click('#go')], true);
  const buying = (name: string) =>
    importTest(
      name,
      [click('#home'), { command: 'execute', target: '', value: login }, click('#buy')],
      false,
    );
  hat = await buying('Buy a hat');
  scarf = await buying('Buy a scarf');
});
beforeEach(() => world.emulator.setFaults(''));

/** Runs the bundle on `testIds`; the JUnit file it wrote, and the reads of a test by id it sent. */
async function run(testIds: string[]) {
  const r = await world.run({
    bundle: true,
    inputs: {
      'api-key': API_KEY,
      'api-base-url': world.emulator.baseUrl,
      'test-ids': testIds.join(','),
      screenshots: 'none',
      'timeout-minutes': '5',
    },
  });
  const junit = readFileSync(path.join(world.workspace, 'ghost-inspector-junit.xml'), 'utf8');
  const testReads = world.emulator
    .requests()
    .filter((q) => q.method === 'GET' && /^\/v1\/tests\/[^/]+\/?$/.test(q.path));
  return { r, junit, testReads };
}

/** Both tests fail at the module's second step (step 3 of each test: the module's steps replace step 2). */
function failInModule(): void {
  for (const id of [hat, scarf])
    world.emulator.setScenario(id, { outcome: 'fail', failingStep: 2, error: 'Element not found: #go' });
}

describe('a failing step imported from a module', () => {
  it('is named by the module’s name in the summary and the JUnit file, read once for both tests', async () => {
    failInModule();
    const { r, junit, testReads } = await run([hat, scarf]);
    expect(r.code, r.stdout + r.stderr).toBe(1);
    expect(counts(r)).toMatchObject({ total: 2, failed: 2 });
    const label = 'Step 3 (Login module, step 2)';
    expect(r.summary).toContain(`<strong>${label}</strong>`);
    const message = `message="${label} click #go: Element not found: #go"`;
    expect(junit.split(message)).toHaveLength(3);
    expect(testReads.map((q) => q.path.replace(/\/$/, ''))).toEqual([`/v1/tests/${login}`]);
  });

  it('is named by the module’s test id when its name cannot be read, the reports written all the same', async () => {
    failInModule();
    world.emulator.setFaults(`route=GET /v1/tests/${login}:500`);
    const { r, junit, testReads } = await run([hat]);
    expect(r.code, r.stdout + r.stderr).toBe(1);
    expect(counts(r)).toMatchObject({ total: 1, failed: 1 });
    expect(testReads.length).toBeGreaterThan(0);
    expect(testReads.every((q) => q.status === 500)).toBe(true);
    const label = `Step 3 (module ${login}, step 2)`;
    expect(r.summary).toContain(`<strong>${label}</strong>`);
    expect(junit).toContain(`message="${label} click #go: Element not found: #go"`);
    expect(r.stdout).toContain('Names of 1 module not read, the reports show their test ids');
  });

  it('costs no read of a name when the tests pass', async () => {
    for (const id of [hat, scarf]) world.emulator.setScenario(id, { outcome: 'pass' });
    const { r, testReads } = await run([hat, scarf]);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(counts(r)).toMatchObject({ total: 2, passed: 2 });
    expect(testReads).toEqual([]);
  });
});
