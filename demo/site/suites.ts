/**
 * Demo suites that test the demo site (`index.ts`) with the browser executor: several passing tests, one
 * failing at a known step because of the site's deliberate bug, and one whose screenshot changes against
 * its baseline when the site's visual change is switched on. The emulator's default seed merges them.
 */
import type { Step, Variable } from '../../emulator/api-types.js';

/** A step in definition form (no `_id`, no result fields). */
export type DemoStep = Omit<Step, '_id' | 'passing' | 'dateExecuted' | 'url' | 'extra' | 'error'>;

/** What a demo test is expected to do against the unchanged site (checked by the browser tests). */
export interface DemoExpectation {
  passing: boolean;
  /** Zero-based index of the failing step. */
  failingStep?: number;
  /** The failing step's error, exactly. */
  error?: string;
}

export interface DemoTestDefinition {
  name: string;
  details: string;
  startUrl: string;
  steps: DemoStep[];
  screenshotCompareEnabled: boolean | null;
  expected: DemoExpectation;
  /**
   * For the screenshot comparison test: the variables that give the baseline screenshot (the site as it was)
   * and the ones that give the changed screenshot (the visual change on). Run once with `baseline` and accept
   * that screenshot, then run with `changed` (or the suite's default variables) to see the comparison fail.
   */
  visualChange?: { baseline: Record<string, string>; changed: Record<string, string> };
}

export interface DemoSuiteDefinition {
  name: string;
  startUrl: string;
  /** ms (docs/api-contract.md, "Resources" settings). */
  globalStepDelay: number;
  maxWaitDelay: number;
  maxAjaxDelay: number;
  finalDelay: number;
  screenshotCompareEnabled: boolean;
  screenshotCompareThreshold: number;
  viewportSize: { width: number; height: number };
  variables: Variable[];
  tests: DemoTestDefinition[];
}

function step(
  sequence: number,
  command: string,
  target: string | Array<{ selector: string }> = '',
  value = '',
  extra: Partial<DemoStep> = {},
): DemoStep {
  return {
    sequence,
    command,
    target,
    value,
    variableName: '',
    condition: null,
    optional: false,
    private: false,
    ...extra,
  };
}

function numbered(steps: Array<Omit<DemoStep, 'sequence'>>): DemoStep[] {
  return steps.map((s, i) => ({ ...s, sequence: i }));
}

type Def = Omit<DemoStep, 'sequence'>;
const d = (
  command: string,
  target: DemoStep['target'] = '',
  value = '',
  extra: Partial<DemoStep> = {},
): Def => {
  const { sequence: _sequence, ...rest } = step(0, command, target, value, extra);
  return rest;
};

/** The error of the failing demo test: the cart total ignores the second line's quantity. */
export const DEMO_BUG_ERROR = 'Text "Total: $30" not found in #total; found "Total: $25"';

/** The demo shop's tests against the site at `base` (no trailing slash). */
function demoTests(base: string): DemoTestDefinition[] {
  return [
    {
      name: 'Sign in shows the products',
      details: 'Signs in and checks the greeting and the product list.',
      startUrl: `${base}/index.html`,
      screenshotCompareEnabled: null,
      expected: { passing: true },
      steps: numbered([
        d('click', '#accept-cookies', '', {
          optional: true,
          notes: 'No cookie banner on this site: optional.',
        }),
        d('assign', '#username', '{{user}}'),
        d('assign', '#password', 'secret'),
        d('click', [{ selector: '#sign-in' }, { selector: '#login' }]),
        d('assertText', '#welcome', 'Signed in as {{user}}'),
        d('assertElementPresent', '#product-hat'),
        d('assertTextPresent', '', 'Socks'),
        d('extract', '#product-scarf .price', '', { variableName: 'scarfPrice' }),
        d('assertEval', '', 'return "{{scarfPrice}}" === "$12";'),
      ]),
    },
    {
      name: 'Sign in requires a username',
      details: 'Submitting an empty form shows an error and stays on the page.',
      startUrl: `${base}/index.html`,
      screenshotCompareEnabled: null,
      expected: { passing: true },
      steps: numbered([
        d('assertElementNotVisible', '#login-error'),
        d('click', '#login'),
        d('assertElementVisible', '#login-error'),
        d('assertText', '#login-error', 'Please enter a username'),
        d('assertEval', '', 'location.pathname.endsWith("/index.html")'),
      ]),
    },
    {
      name: 'Add a product to the cart',
      details: 'Adds two products and checks the cart count and lines.',
      startUrl: `${base}/products.html`,
      screenshotCompareEnabled: null,
      expected: { passing: true },
      steps: numbered([
        d('click', '[data-add="hat"]'),
        d('click', '//button[@data-add="socks"]'),
        d('assertText', '#cart-count', '2'),
        d('click', '#go-cart'),
        d('assertElementPresent', '#line-hat'),
        d('assertText', '#line-socks .qty', '1'),
        d('assertText', '#total', 'Total: $25'),
        d('assertElementNotVisible', '#empty'),
      ]),
    },
    {
      name: 'Cart total counts quantities',
      details: "Two pairs of socks and a hat cost $30. Fails: the total ignores the second line's quantity.",
      startUrl: `${base}/products.html`,
      screenshotCompareEnabled: null,
      expected: { passing: false, failingStep: 6, error: DEMO_BUG_ERROR },
      steps: numbered([
        d('click', '[data-add="hat"]'),
        d('click', '[data-add="socks"]'),
        d('click', '[data-add="socks"]'),
        d('eval', '', 'console.log("cart: " + localStorage.getItem("cart"))'),
        d('click', '#go-cart'),
        d('assertText', '#line-socks .qty', '2'),
        d('assertText', '#total', 'Total: $30'),
        d('click', '#clear'),
      ]),
    },
    {
      name: 'Products page looks right',
      details:
        'Screenshot comparison of the product list. With theme=new the header, borders and a promo banner change.',
      startUrl: `${base}/products.html?theme={{theme}}`,
      screenshotCompareEnabled: true,
      expected: { passing: true },
      visualChange: { baseline: { theme: 'classic' }, changed: { theme: 'new' } },
      steps: numbered([
        d('assertElementPresent', '#product-scarf'),
        d('assertTextPresent', '', 'Browsing as a guest'),
      ]),
    },
  ];
}

/**
 * The demo suites for the demo site served at `baseUrl` (e.g. `http://127.0.0.1:4010/demo`, no trailing
 * slash needed). Every test starts with an empty cart: each run has a fresh browser context.
 */
export function demoSuites(baseUrl: string): DemoSuiteDefinition[] {
  const base = baseUrl.replace(/\/+$/, '');
  const tests = demoTests(base);
  return [
    {
      name: 'Demo shop',
      startUrl: `${base}/index.html`,
      globalStepDelay: 100,
      maxWaitDelay: 3000,
      maxAjaxDelay: 2000,
      finalDelay: 0,
      screenshotCompareEnabled: false,
      screenshotCompareThreshold: 0.01,
      viewportSize: { width: 1024, height: 768 },
      variables: [
        { name: 'user', value: 'ada', private: false },
        { name: 'theme', value: 'classic', private: false },
      ],
      tests,
    },
  ];
}
