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
import { describe, expect, it } from 'vitest';
import { counts } from '../support/harness.js';
import { data } from '../support/emulator.js';
import { useWorlds, type ScaledWorld } from '../support/world.js';

const API_KEY = 'e2e-modules-key';
const { open } = useWorlds();

const click = (target: string) => ({ command: 'click', target, value: '' });

/**
 * A world of its own (each case runs at once with the others): the module's test id, and two tests that
 * import it after their first step.
 */
async function moduleWorld(): Promise<{ world: ScaledWorld; login: string; hat: string; scarf: string }> {
  const world = await open({ clock: 'scaled', fixtures: true, apiKey: API_KEY, timeScale: 0.02 });
  const importTest = async (name: string, steps: object[], importOnly: boolean) =>
    (
      await data(world.emulator, 'POST', '/suites/suite-smoke/import-test/json', {
        key: API_KEY,
        body: { name, startUrl: 'https://shop.example/', importOnly, steps },
      })
    )._id as string;
  const login = await importTest('Login module', [click('#user'), click('#go')], true);
  const buying = (name: string) =>
    importTest(
      name,
      [click('#home'), { command: 'execute', target: '', value: login }, click('#buy')],
      false,
    );
  return { world, login, hat: await buying('Buy a hat'), scarf: await buying('Buy a scarf') };
}

/** Runs the bundle on `testIds`; the JUnit file it wrote, and the reads of a test by id it sent. */
async function run(world: ScaledWorld, testIds: string[]) {
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

/** The tests fail at the module's second step (step 3 of each test: the module's steps replace step 2). */
function failInModule(world: ScaledWorld, testIds: string[]): void {
  for (const id of testIds)
    world.emulator.setScenario(id, { outcome: 'fail', failingStep: 2, error: 'Element not found: #go' });
}

describe.concurrent('a failing step imported from a module', () => {
  it('is named by the module’s name in the summary and the JUnit file, read once for both tests', async () => {
    const { world, login, hat, scarf } = await moduleWorld();
    failInModule(world, [hat, scarf]);
    const { r, junit, testReads } = await run(world, [hat, scarf]);
    expect(r.code, r.stdout + r.stderr).toBe(1);
    expect(counts(r)).toMatchObject({ total: 2, failed: 2 });
    const label = 'Step 3 (Login module, step 2)';
    expect(r.summary).toContain(`<strong>${label}</strong>`);
    const message = `message="${label} click #go: Element not found: #go"`;
    expect(junit.split(message)).toHaveLength(3);
    expect(testReads.map((q) => q.path.replace(/\/$/, ''))).toEqual([`/v1/tests/${login}`]);
  });

  it('is named by the module’s test id when its name cannot be read, the reports written all the same', async () => {
    const { world, login, hat, scarf } = await moduleWorld();
    failInModule(world, [hat, scarf]);
    world.emulator.setFaults(`route=GET /v1/tests/${login}:500`);
    const { r, junit, testReads } = await run(world, [hat]);
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
    const { world, hat, scarf } = await moduleWorld();
    for (const id of [hat, scarf]) world.emulator.setScenario(id, { outcome: 'pass' });
    const { r, testReads } = await run(world, [hat, scarf]);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(counts(r)).toMatchObject({ total: 2, passed: 2 });
    expect(testReads).toEqual([]);
  });
});
