import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_SITE_FILES, demoSiteDir } from '../../../demo/site/index.js';
import {
  DEMO_BUG_ERROR,
  demoSuites,
  type DemoSuiteDefinition,
  type DemoTestDefinition,
} from '../../../demo/site/suites.js';
import { BrowserExecutor } from '../../../demo/executor/browser.js';
import { comparePngs } from '../../../emulator/formats/png.js';
import type { Step } from '../../../src/api/types.js';
import { hasChromium, request } from '../../support/browser-request.js';
import { startSite, type TestSite } from '../../support/browser-site.js';

describe('demo site files', () => {
  it('are all present next to the module and use no external resources', async () => {
    const { readFileSync } = await import('node:fs');
    for (const name of Object.keys(DEMO_SITE_FILES)) {
      const path = join(demoSiteDir, name);
      expect(existsSync(path), path).toBe(true);
      expect(readFileSync(path, 'utf8')).not.toMatch(/(src|href)="(https?:)?\/\//);
    }
  });

  it('defines suites with numbered steps and a known failing step', () => {
    const [suite] = demoSuites('http://127.0.0.1:9/demo/');
    expect(suite?.tests.length).toBeGreaterThanOrEqual(5);
    for (const test of suite!.tests) {
      expect(test.startUrl.startsWith('http://127.0.0.1:9/demo/')).toBe(true);
      expect(test.steps.map((s) => s.sequence)).toEqual(test.steps.map((_, i) => i));
    }
    const failing = suite!.tests.filter((t) => !t.expected.passing);
    expect(failing).toHaveLength(1);
    expect(failing[0]?.expected.error).toBe(DEMO_BUG_ERROR);
    expect(suite!.tests.filter((t) => t.visualChange)).toHaveLength(1);
  });
});

describe.skipIf(!hasChromium)('demo suites in Chromium', () => {
  let site: TestSite;
  let executor: BrowserExecutor;
  let suite: DemoSuiteDefinition;
  beforeAll(async () => {
    site = await startSite({});
    executor = new BrowserExecutor({ maxConcurrent: 2 });
    suite = demoSuites(`${site.url}/demo`)[0]!;
  });
  afterAll(async () => {
    await executor?.close();
    await site?.close();
  });

  function run(test: DemoTestDefinition, extraVariables: Record<string, string> = {}) {
    const variables = Object.fromEntries(suite.variables.map((v) => [v.name, v.value]));
    return executor.run(
      request(test.startUrl, test.steps as Step[], {
        testName: test.name,
        viewport: suite.viewportSize,
        variables: { ...variables, ...extraVariables },
        globalStepDelay: 0,
        maxWaitDelay: suite.maxWaitDelay,
        maxAjaxDelay: suite.maxAjaxDelay,
        disableVisuals: false,
      }),
    );
  }

  it('every test does what its expectation says', async () => {
    const outcomes = await Promise.all(suite.tests.map((test) => run(test)));
    suite.tests.forEach((test, i) => {
      const outcome = outcomes[i]!;
      const errors = outcome.steps.filter((s) => s.passing === false && !s.step.optional).map((s) => s.error);
      expect({ name: test.name, passing: outcome.passing }).toEqual({
        name: test.name,
        passing: test.expected.passing,
      });
      if (test.expected.passing) {
        expect(errors, test.name).toEqual([]);
      } else {
        const failing = outcome.steps.findIndex((s) => s.passing === false);
        expect(failing).toBe(test.expected.failingStep);
        expect(outcome.steps[failing]?.error).toBe(test.expected.error);
        expect(outcome.steps.slice(failing + 1).every((s) => s.passing === null)).toBe(true);
      }
      expect(outcome.screenshot).toBeInstanceOf(Buffer);
    });
    const bug = outcomes[suite.tests.findIndex((t) => !t.expected.passing)]!;
    expect(
      bug.console.some((c) => c.output.startsWith('cart: [{"id":"hat","qty":1},{"id":"socks","qty":2}]')),
    ).toBe(true);
    expect(bug.endUrl).toBe(`${site.url}/demo/cart.html`);
    const signIn = outcomes[0]!;
    expect(signIn.extractions).toEqual({ scarfPrice: '$12' });
    expect(signIn.steps[0]).toMatchObject({ passing: false, error: 'Element not found: #accept-cookies' });
  });

  it('the visual change is caught by a screenshot comparison against the baseline', async () => {
    const test = suite.tests.find((t) => t.visualChange)!;
    const baseline = await run(test, test.visualChange!.baseline);
    const same = await run(test, test.visualChange!.baseline);
    const changed = await run(test, test.visualChange!.changed);
    expect([baseline.passing, same.passing, changed.passing]).toEqual([true, true, true]);
    expect(
      comparePngs(baseline.screenshot!, same.screenshot!, suite.screenshotCompareThreshold),
    ).toMatchObject({
      difference: 0,
      passing: true,
    });
    const diff = comparePngs(baseline.screenshot!, changed.screenshot!, suite.screenshotCompareThreshold);
    expect(diff.difference).toBeGreaterThan(0.05);
    expect(diff.passing).toBe(false);
  });
});
