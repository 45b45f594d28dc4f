/* eslint-disable @typescript-eslint/no-explicit-any -- JSON answers of the emulator, checked field by field */
/**
 * Modules as the service treats them, against the emulator on 127.0.0.1. Evidence (the service facts,
 * "Evidence from independent clients", Modules): a 2026 client that measured the live service says a test
 * marked `importOnly` "prevents the test from running directly or as part of a suite", shows the status
 * "Import Only" and keeps no results for it; results hold the imported steps expanded, each result step with
 * `extra.source {test, sequence}` (the contract lists `extra.source` on result steps); a test made only of
 * imports of empty modules runs zero steps and passes. Guessed (no public evidence): the refusal's text, the
 * depth limit, and refusing an unknown import or a cycle before anything runs.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Emulator } from '../../emulator/index.js';
import { IMPORT_DEPTH_LIMIT } from '../../emulator/modules.js';
import { call, data, start } from '../support/emulator.js';

let em: Emulator;
let suiteId: string;
beforeAll(async () => {
  em = await start();
  suiteId = (await data(em, 'POST', '/suites/', { body: { name: 'Modules', organization: 'org-acme' } }))._id;
});
afterAll(() => em.close());

const click = (target: string) => ({ command: 'click', target, value: '' });
const imports = (testId: string) => ({ command: 'execute', target: '', value: testId });

/** Imports a test into the modules suite and answers its id. */
async function newTest(name: string, steps: object[], importOnly = false): Promise<string> {
  const t = await data(em, 'POST', `/suites/${suiteId}/import-test/json`, {
    body: { name, startUrl: 'https://shop.example/', importOnly, steps },
  });
  return t._id;
}

describe('a module (importOnly)', () => {
  it('refuses a direct execute with a VALIDATION_ERROR naming the test, and keeps no result', async () => {
    const login = await newTest('Login', [click('#user'), click('#go')], true);
    const res = await call(em, 'POST', `/tests/${login}/execute/`, { query: { immediate: '1' } });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ code: 'ERROR', errorType: 'VALIDATION_ERROR' });
    expect(res.json.message).toContain('Login');
    expect(res.json.message).toMatch(/import only/i);
    expect(await data(em, 'GET', `/tests/${login}/results/`)).toEqual([]);
  });

  it("is left out of its suite's runs and counts", async () => {
    const suite = (await data(em, 'POST', '/suites/', { body: { name: 'Mixed', organization: 'org-acme' } }))
      ._id;
    const add = (name: string, importOnly: boolean) =>
      data(em, 'POST', `/suites/${suite}/import-test/json`, {
        body: { name, startUrl: 'https://shop.example/', importOnly, steps: [click('#a')] },
      });
    const module = await add('Shared login', true);
    await add('Checkout', false);
    await add('Search', false);
    const results = await data(em, 'GET', `/suites/${suite}/execute/`);
    expect(results.map((r: any) => r.name).sort()).toEqual(['Checkout', 'Search']);
    const suiteResultId = results[0].suiteResult;
    const suiteResult = await data(em, 'GET', `/suite-results/${suiteResultId}/`);
    expect(suiteResult.countPassing + suiteResult.countFailing + suiteResult.countUnknown).toBe(2);
    expect(await data(em, 'GET', `/tests/${module._id}/results/`)).toEqual([]);
  });

  it('answers "Import Only" where the service shows a status: its badge and its page', async () => {
    const id = await newTest('Badge module', [click('#x')], true);
    await data(em, 'POST', `/tests/${id}/`, { body: { publicStatusEnabled: true } });
    const badge = await call(em, 'GET', `/tests/${id}/status-badge`, { key: null });
    expect(badge.headers.get('content-type')).toBe('image/svg+xml');
    expect(badge.text).toContain('Import Only');
    const page = await fetch(`${em.origin}/tests/${id}`);
    expect(await page.text()).toContain('Import Only');
  });
});

describe('an execute step', () => {
  it("runs the imported test's steps in place, each result step naming the test and sequence it came from", async () => {
    const inner = await newTest('Accept cookies', [click('#cookies')], true);
    const login = await newTest('Login', [click('#user'), imports(inner), click('#go')], true);
    const parent = await newTest('Buy', [imports(login), click('#buy')]);
    const result = await data(em, 'POST', `/tests/${parent}/execute/`);
    expect(result.passing).toBe(true);
    expect(
      result.steps.map((s: any) => [
        s.sequence,
        s.command,
        s.target,
        s.extra.source.test,
        s.extra.source.sequence,
      ]),
    ).toEqual([
      [0, 'click', '#user', login, 0],
      [1, 'click', '#cookies', inner, 0],
      [2, 'click', '#go', login, 2],
      [3, 'click', '#buy', parent, 1],
    ]);
    expect(result.steps.every((s: any) => s.passing === true)).toBe(true);
  });

  it("fails at the module's step when that step fails; later steps are not run", async () => {
    const login = await newTest('Login to fail', [click('#user'), click('#go')], true);
    const parent = await newTest('Buy after login', [click('#home'), imports(login), click('#buy')]);
    em.setScenario(parent, { outcome: 'fail', failingStep: 2, error: 'Element not found: #go' });
    const result = await data(em, 'POST', `/tests/${parent}/execute/`);
    expect(result.passing).toBe(false);
    const failing = result.steps.find((s: any) => s.passing === false);
    expect(failing).toMatchObject({ sequence: 2, target: '#go', error: 'Element not found: #go' });
    expect(failing.extra.source).toEqual({ test: login, sequence: 1 });
    expect(result.steps[3].passing).toBeNull();
  });

  it('a test made only of imports of empty modules runs zero steps and passes', async () => {
    const empty = await newTest('Empty module', [], true);
    const parent = await newTest('Only imports', [imports(empty), imports(empty)]);
    const result = await data(em, 'POST', `/tests/${parent}/execute/`);
    expect(result.steps).toEqual([]);
    expect(result.passing).toBe(true);
  });

  it('expands in on-demand runs too (the definition imports a stored module)', async () => {
    const module = await newTest('On-demand module', [click('#a'), click('#b')], true);
    const r = await data(em, 'POST', '/organizations/org-acme/on-demand/execute', {
      body: { name: 'From a file', startUrl: 'https://shop.example/', steps: [imports(module)] },
    });
    expect(r.steps.map((s: any) => s.extra.source)).toEqual([
      { test: module, sequence: 0 },
      { test: module, sequence: 1 },
    ]);
  });

  it('an import that names no test, a cycle and nesting past the limit are refused before any run', async () => {
    const refused = async (id: string, pattern: RegExp) => {
      const res = await call(em, 'POST', `/tests/${id}/execute/`, { query: { immediate: '1' } });
      expect(res.json).toMatchObject({ code: 'ERROR', errorType: 'VALIDATION_ERROR' });
      expect(res.json.message).toMatch(pattern);
      expect(await data(em, 'GET', `/tests/${id}/results/`)).toEqual([]);
    };
    await refused(await newTest('Unknown import', [imports('no-such-test')]), /unknown test: no-such-test/);
    const a = await newTest('Cycle A', [click('#a')], true);
    const b = await newTest('Cycle B', [imports(a)], true);
    // A imports B back (an update's steps): root → B → A → B.
    await data(em, 'POST', `/tests/${a}/`, { body: { steps: [click('#a'), imports(b)] } });
    await refused(await newTest('Cycle root', [imports(b)]), /imports it back/);
    // levels[n] nests n imports below it.
    const levels = [await newTest('Level 0', [click('#deep')], true)];
    for (let n = 1; n <= IMPORT_DEPTH_LIMIT; n++)
      levels.push(await newTest(`Level ${n}`, [imports(levels[n - 1]!)], true));
    await refused(await newTest('Past the limit', [imports(levels[IMPORT_DEPTH_LIMIT]!)]), /deeper than/);
    const atLimit = await newTest('At the limit', [imports(levels[IMPORT_DEPTH_LIMIT - 1]!)]);
    const deep = await data(em, 'POST', `/tests/${atLimit}/execute/`);
    expect(deep.steps.map((s: any) => s.target)).toEqual(['#deep']);
    expect(deep.passing).toBe(true);
  });
});
