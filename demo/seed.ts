/**
 * The demo seed: the demo shop site's suites (`demo/site/suites.ts`) as emulator records, for the
 * browser executor. The emulator serves the site itself under `/demo/`, so the seed is built from the
 * emulator's origin once it listens. Same API key as the default seed (`demo-api-key`).
 */
import { demoSuites, type DemoTestDefinition } from './site/suites.js';
import type { SeedFile } from '../emulator/seed.js';

/** Organization, folder and suite ids of the demo seed. */
export const DEMO_ORGANIZATION_ID = 'org-demo';
export const DEMO_FOLDER_ID = 'folder-demo';
export const DEMO_SUITE_ID = 'suite-demo-shop';

/**
 * The id a demo test gets in the demo seed: `demo-` and its name in lower case with dashes, e.g.
 * "Cart total counts quantities" -> `demo-cart-total-counts-quantities`.
 */
export function demoTestId(name: string): string {
  return `demo-${name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')}`;
}

/** A demo test with its seed id. */
export interface DemoSeedTest {
  id: string;
  definition: DemoTestDefinition;
}

export interface DemoSeed {
  seed: SeedFile;
  /** The demo suite's tests in order, with their ids. */
  tests: DemoSeedTest[];
  /**
   * The screenshot comparison test and the variables whose screenshot is its baseline (the site as it was);
   * the emulator accepts that screenshot at start-up (`establishDemoBaseline` in `emulator/index.ts`).
   */
  visual: { id: string; baseline: Record<string, string>; changed: Record<string, string> };
}

/**
 * Builds the demo seed for an emulator at `origin` (e.g. `http://127.0.0.1:4010`, no trailing slash): one
 * organization "Demo Shop" (`org-demo`), folder `folder-demo`, suite `suite-demo-shop` holding the demo
 * tests with ids from `demoTestId`, and the API key `apiKey` (default `demo-api-key`). The suite's start URL
 * and the tests' start URLs point at `${origin}/demo/`. The screenshot comparison test gets the suite's
 * comparison threshold (docs/api-contract.md, "Resources": screenshotCompareThreshold, 0..1).
 */
export function demoSeed(origin: string, apiKey = 'demo-api-key'): DemoSeed {
  const [suite] = demoSuites(`${origin.replace(/\/+$/, '')}/demo/`);
  if (!suite) throw new Error('The demo site defines no suite');
  const tests = suite.tests.map((definition) => ({ id: demoTestId(definition.name), definition }));
  const visualTest = tests.find((t) => t.definition.visualChange);
  if (!visualTest?.definition.visualChange)
    throw new Error('The demo suite has no screenshot comparison test');
  const seed: SeedFile = {
    users: [{ _id: 'user-demo', firstName: 'Demo', lastName: 'User' }],
    organizations: [{ _id: DEMO_ORGANIZATION_ID, name: 'Demo Shop' }],
    apiKeys: [{ key: apiKey, user: 'user-demo', organizations: [DEMO_ORGANIZATION_ID] }],
    folders: [{ _id: DEMO_FOLDER_ID, name: 'Demo shop', organization: DEMO_ORGANIZATION_ID }],
    suites: [
      {
        _id: DEMO_SUITE_ID,
        name: suite.name,
        organization: DEMO_ORGANIZATION_ID,
        folder: DEMO_FOLDER_ID,
        startUrl: suite.startUrl,
        globalStepDelay: suite.globalStepDelay,
        maxWaitDelay: suite.maxWaitDelay,
        maxAjaxDelay: suite.maxAjaxDelay,
        finalDelay: suite.finalDelay,
        screenshotCompareEnabled: suite.screenshotCompareEnabled,
        screenshotCompareThreshold: suite.screenshotCompareThreshold,
        viewportSize: suite.viewportSize,
        variables: suite.variables,
        publicStatusEnabled: true,
      },
    ],
    tests: tests.map(({ id, definition }) => ({
      _id: id,
      name: definition.name,
      suite: DEMO_SUITE_ID,
      details: definition.details,
      startUrl: definition.startUrl,
      screenshotCompareEnabled: definition.screenshotCompareEnabled,
      // A test with its own comparison setting uses its own threshold: keep the suite's.
      screenshotCompareThreshold: suite.screenshotCompareThreshold,
      steps: definition.steps,
    })),
  };
  return {
    seed,
    tests,
    visual: {
      id: visualTest.id,
      baseline: visualTest.definition.visualChange.baseline,
      changed: visualTest.definition.visualChange.changed,
    },
  };
}
