/**
 * The modules' names for the reports (`src/report/module-names.ts`, docs/reports.md "Why a test did not
 * pass"), read from the emulator through the action's client and request budget, on one virtual clock: one
 * read per module of a failing step, none without one; a module whose read fails, or is not answered within
 * the time limit, keeps its test id.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { RateBudget } from '../../../src/api/budget.js';
import { renderJUnit } from '../../../src/report/junit.js';
import {
  MAX_MODULE_NAMES,
  MODULE_NAMES_TIME_LIMIT_MS,
  failingModuleIds,
  readModuleNames,
  withModuleNames,
} from '../../../src/report/module-names.js';
import type { Report } from '../../../src/report/model-types.js';
import { useWorld } from '../../support/world.js';
import { Fixtures, summaryOf, suiteRun, type StepSpec } from './fixtures.js';
import { reportOf } from './scenarios.js';

const world = useWorld();
afterEach(() => world.emulator.setFaults(''));

/** A test that fails at its module's second step (`module` a test id), or passes through it. */
function throughModule(name: string, module: string, outcome: 'failed' | 'passed' = 'failed') {
  const steps: StepSpec[] = [
    { command: 'open', target: '', value: '/' },
    { command: 'click', target: '#user', source: { test: module, sequence: 0 } },
    {
      command: 'click',
      target: '#go',
      ...(outcome === 'failed' ? { passing: false, error: 'Element not found: #go' } : {}),
      source: { test: module, sequence: 1 },
    },
  ];
  return { name, outcome, steps, testId: `own-${name}` };
}

/** The report of one suite run of `tests` (each from {@link throughModule}). */
function reportOfTests(tests: Array<ReturnType<typeof throughModule>>): Report {
  const run = suiteRun(new Fixtures(), {
    key: 'suite-1-0',
    suiteId: 'suite-1',
    suiteName: 'Shop',
    suiteResultId: 'sr-1',
    tests,
  });
  return reportOf(summaryOf([run]), { failOnScreenshotCompare: false, failOnTimeout: true });
}

/** Reads the names of `report`'s modules with a fresh client and budget; what was logged and sent. */
async function read(report: Report, signal = new AbortController().signal) {
  const budget = new RateBudget({ clock: world.clock });
  const lines: string[] = [];
  const startedAt = world.clock.now();
  const names = await readModuleNames(world.client({ budget }), report, {
    signal,
    clock: world.clock,
    redact: (text) => text.replaceAll('Search', '***'),
    log: (line) => lines.push(line),
  });
  const reads = world.emulator
    .requests()
    .filter((r) => r.method === 'GET' && /^\/v1\/tests\/[^/]+\/?$/.test(r.path));
  return { names, lines, reads, budget, tookMs: world.clock.now() - startedAt };
}

describe('readModuleNames', () => {
  it('reads the name of each module of a failing step once, through the request budget', async () => {
    const report = reportOfTests([
      throughModule('Checkout', 'test-login'),
      throughModule('Wishlist', 'test-login'),
      throughModule('Find', 'test-search'),
      throughModule('Browse', 'test-cart', 'passed'),
    ]);
    expect(failingModuleIds(report)).toEqual(['test-login', 'test-search']);
    const { names, lines, reads, budget } = await read(report);
    expect(Object.fromEntries(names)).toEqual({
      'test-login': 'Login works',
      // Redacted as the run model's names are.
      'test-search': '*** finds products',
    });
    expect(reads.map((r) => r.path.replace(/\/$/, '')).sort()).toEqual([
      '/v1/tests/test-login',
      '/v1/tests/test-search',
    ]);
    expect(budget.granted).toBe(reads.length);
    expect(lines).toEqual([]);
    const junit = renderJUnit(withModuleNames(report, names));
    expect(junit).toContain('message="Step 3 (Login works, step 2) click #go: Element not found: #go"');
  });

  it('sends nothing for a report without a failing step from a module, nor after a cancel', async () => {
    const passing = reportOfTests([throughModule('Browse', 'test-cart', 'passed')]);
    expect((await read(passing)).reads).toEqual([]);
    const cancelled = new AbortController();
    cancelled.abort();
    const failing = reportOfTests([throughModule('Checkout', 'test-login')]);
    const { names, reads } = await read(failing, cancelled.signal);
    expect(names.size).toBe(0);
    expect(reads).toEqual([]);
  });

  it('leaves a module whose read fails named by its test id, and says why in the log', async () => {
    world.emulator.setFaults('route=GET /v1/tests/test-login:500');
    const report = reportOfTests([
      throughModule('Checkout', 'test-login'),
      throughModule('Find', 'test-search'),
      throughModule('Gone', 'deleted-module'),
    ]);
    const { names, lines, tookMs } = await read(report);
    expect([...names.keys()]).toEqual(['test-search']);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^Names of 2 modules not read, the reports show their test ids: /);
    expect(lines[0]).toMatch(/test-login: .*(500|time limit)/);
    expect(lines[0]).toMatch(/deleted-module: .*Test not found/);
    expect(tookMs).toBeLessThanOrEqual(MODULE_NAMES_TIME_LIMIT_MS);
    const junit = renderJUnit(withModuleNames(report, names));
    expect(junit).toContain('message="Step 3 (module test-login, step 2) click #go:');
    expect(junit).toContain('message="Step 3 (module deleted-module, step 2) click #go:');
    expect(junit).toContain('message="Step 3 (*** finds products, step 2) click #go:');
  });

  it('gives up on a read not answered within the time limit', async () => {
    world.emulator.setFaults(`delay=${MODULE_NAMES_TIME_LIMIT_MS * 10},route=GET /v1/tests/test-login:slow`);
    const report = reportOfTests([
      throughModule('Checkout', 'test-login'),
      throughModule('Find', 'test-search'),
    ]);
    const { names, lines, tookMs } = await read(report);
    expect([...names.keys()]).toEqual(['test-search']);
    expect(lines[0]).toMatch(/test-login: stopped: time limit of \d+ s reached/);
    expect(tookMs).toBeGreaterThanOrEqual(MODULE_NAMES_TIME_LIMIT_MS);
    expect(tookMs).toBeLessThan(MODULE_NAMES_TIME_LIMIT_MS + 1_000);
  });

  it(`reads at most ${MAX_MODULE_NAMES} modules' names`, async () => {
    const many = Array.from({ length: MAX_MODULE_NAMES + 5 }, (_, i) =>
      throughModule(`T${i}`, `module-${i}`),
    );
    const { reads } = await read(reportOfTests(many));
    expect(reads.length).toBeGreaterThan(0);
    expect(reads.length).toBeLessThanOrEqual(MAX_MODULE_NAMES);
  });
});
