/**
 * The scenarios the golden files show: each a RunSummary, a policy and downloaded attachments.
 */
import { buildReport } from '../../../src/report/model.js';
import type { Report, ReportAttachments } from '../../../src/report/model-types.js';
import { decideVerdict, type VerdictPolicy } from '../../../src/run/outcome/outcome.js';
import type { RunSummary } from '../../../src/run/types.js';
import { Fixtures, summaryOf, suiteRun } from './fixtures.js';

export interface Scenario {
  summary: RunSummary;
  policy: ReportPolicy;
  attachments?: ReportAttachments;
}

/** What fails a run besides failed tests (`run/outcome.ts`); `failOnEmpty` false when not given. */
export type ReportPolicy = Omit<VerdictPolicy, 'failOnEmpty'> & { failOnEmpty?: boolean };

/** The report of `summary` around the verdict decided from it under `policy`, as the action builds it. */
export function reportOf(summary: RunSummary, policy: ReportPolicy, attachments?: ReportAttachments): Report {
  return buildReport(summary, decideVerdict(summary, { failOnEmpty: false, ...policy }), attachments);
}

const DEFAULT_POLICY: ReportPolicy = { failOnScreenshotCompare: false, failOnTimeout: true };

function allPassing(): Scenario {
  const fx = new Fixtures();
  const run = suiteRun(fx, {
    key: 'suite-5d0000000000000000000001-0',
    suiteId: '5d0000000000000000000001',
    suiteName: 'Smoke tests',
    suiteResultId: '6e0000000000000000000001',
    tests: [
      { name: 'Home page loads', outcome: 'passed', executionTime: 3120 },
      { name: 'Login works', outcome: 'passed', executionTime: 5400 },
      {
        name: 'Product page matches its baseline',
        outcome: 'passed',
        executionTime: 6010,
        screenshotCompare: { difference: 0.0123, passing: true },
      },
    ],
  });
  return { summary: summaryOf([run]), policy: DEFAULT_POLICY };
}

function failures(): Scenario {
  const fx = new Fixtures();
  const run = suiteRun(fx, {
    key: 'suite-5d0000000000000000000002-0',
    suiteId: '5d0000000000000000000002',
    suiteName: 'Checkout',
    suiteResultId: '6e0000000000000000000002',
    tests: [
      { name: 'Add to cart', outcome: 'passed', executionTime: 4200 },
      {
        name: 'Pay with card',
        outcome: 'failed',
        executionTime: 18_750,
        steps: [
          { command: 'open', target: '', value: 'https://shop.example.com/cart', passing: true },
          { command: 'assign', target: '#card', value: '4111111111111111', private: true, passing: true },
          { command: 'click', target: [{ selector: 'button.pay' }, { selector: '#pay' }], passing: true },
          {
            command: 'click',
            target: '.cookie-banner .close',
            optional: true,
            passing: false,
            error: 'Element not found',
          },
          {
            command: 'assertTextPresent',
            target: '.confirmation',
            value: 'Thank you',
            passing: false,
            error: 'Element ".confirmation" not found within 15000 ms',
          },
          { command: 'click', target: 'a.receipt', passing: null },
        ],
        consoleErrors: ['Uncaught TypeError: Cannot read properties of null (reading "submit")'],
        consoleLogs: ['analytics loaded'],
      },
      {
        name: 'Visual check of the basket',
        outcome: 'passed',
        executionTime: 7000,
        screenshotCompare: { difference: 0.184, threshold: 0.1, passing: false },
      },
      {
        name: 'JavaScript error fails the test',
        outcome: 'failed',
        executionTime: 2500,
        consoleErrors: ['ReferenceError: dataLayer is not defined'],
        errorDetails: 'The page logged a JavaScript error and "Fail on JavaScript error" is on.',
      },
    ],
  });
  const attachments: ReportAttachments = new Map();
  const pay = run.tests[1]!.result!;
  const visual = run.tests[2]!.result!;
  attachments.set(pay._id, { screenshot: 'ghost-inspector/Checkout/Pay-with-card.png' });
  attachments.set(visual._id, {
    screenshot: 'ghost-inspector/Checkout/Visual-check.png',
    comparison: 'ghost-inspector/Checkout/Visual-check.comparison.png',
  });
  return {
    summary: summaryOf([run]),
    policy: { failOnScreenshotCompare: true, failOnTimeout: true },
    attachments,
  };
}

function flaky(): Scenario {
  const fx = new Fixtures();
  const run = suiteRun(fx, {
    key: 'suite-5d0000000000000000000003-0',
    suiteId: '5d0000000000000000000003',
    suiteName: 'Search',
    suiteResultId: '6e0000000000000000000003',
    tests: [
      {
        name: 'Search suggestions',
        outcome: 'passed',
        executionTime: 6100,
        attempts: [
          {
            name: 'Search suggestions',
            outcome: 'failed',
            executionTime: 15_900,
            steps: [
              { command: 'open', target: '', value: 'https://shop.example.com/', passing: true },
              { command: 'assign', target: 'input[name=q]', value: 'shoes', passing: true },
              {
                command: 'assertElementPresent',
                target: '.suggestions li',
                passing: false,
                error: 'Element ".suggestions li" not found within 15000 ms',
              },
            ],
          },
        ],
      },
      { name: 'Search results', outcome: 'passed', executionTime: 5200 },
      {
        name: 'Visual check of results',
        outcome: 'passed',
        executionTime: 5300,
        screenshotCompare: { difference: 0.2, threshold: 0.05, passing: false },
      },
    ],
  });
  return { summary: summaryOf([run]), policy: DEFAULT_POLICY };
}

function timedOut(): Scenario {
  const fx = new Fixtures();
  const run = suiteRun(fx, {
    key: 'suite-5d0000000000000000000004-0',
    suiteId: '5d0000000000000000000004',
    suiteName: 'Long journeys',
    suiteResultId: '6e0000000000000000000004',
    timedOut: true,
    cancelled: true,
    tests: [
      { name: 'Short journey', outcome: 'passed', executionTime: 9000 },
      {
        name: 'Endless journey',
        outcome: 'cancelled',
        state: 'timed-out',
        error: 'Still running after the 15 min deadline; cancelled remotely (cancel-on-timeout).',
        steps: [
          { command: 'open', target: '', value: 'https://shop.example.com/', passing: true },
          { command: 'click', target: '#next', passing: true },
          { command: 'click', target: '#never-ends', passing: null },
        ],
      },
    ],
  });
  const lost = suiteRun(fx, {
    key: 'suite-5d0000000000000000000005-0',
    suiteId: '5d0000000000000000000005',
    suiteName: 'Inventory',
    suiteResultId: '6e0000000000000000000005',
    tests: [
      {
        name: 'Stock levels',
        outcome: 'running',
        state: 'error',
        error: 'GET /suite-results/{id}/results/ failed after 5 attempts: HTTP 502 Bad Gateway.',
      },
    ],
  });
  const never: import('../../../src/run/types.js').SuiteRun = {
    kind: 'suite',
    key: 'suite-5d0000000000000000000006-0',
    suiteId: '5d0000000000000000000006',
    suiteName: 'Payments',
    variant: {},
    triggeredAt: fx.at(),
    endedAt: fx.at(2000),
    tests: [],
    error: 'Execute failed: VALIDATION_ERROR "Invalid region: mars-north-1".',
  };
  return {
    summary: summaryOf([run, lost, never], { interrupted: 'deadline' }),
    policy: { failOnScreenshotCompare: false, failOnTimeout: true },
  };
}

function cancelled(): Scenario {
  const fx = new Fixtures();
  const run = suiteRun(fx, {
    key: 'suite-5d0000000000000000000007-0',
    suiteId: '5d0000000000000000000007',
    suiteName: 'Nightly regression',
    suiteResultId: '6e0000000000000000000007',
    cancelled: true,
    tests: [
      { name: 'Account settings', outcome: 'passed', executionTime: 4000 },
      {
        name: 'Order history',
        outcome: 'cancelled',
        error: 'The workflow was cancelled; the test result was cancelled remotely.',
      },
      { name: 'Wish list', outcome: 'cancelled' },
    ],
  });
  return {
    summary: summaryOf([run], { interrupted: 'signal' }),
    policy: DEFAULT_POLICY,
  };
}

function dataDriven(): Scenario {
  const fx = new Fixtures();
  const rows = [
    { email: 'ann@example.com', ok: true },
    { email: 'bob@example.com', ok: false },
    { email: 'cy@example.com', ok: true },
  ];
  const runs = rows.map((row, i) =>
    suiteRun(fx, {
      key: `suite-5d0000000000000000000008-${i}`,
      suiteId: '5d0000000000000000000008',
      suiteName: 'Sign-up',
      suiteResultId: `6e000000000000000000008${i}`,
      variant: { dataRow: i },
      tests: [
        {
          name: 'Register',
          outcome: row.ok ? 'passed' : 'failed',
          variables: { email: row.email },
          executionTime: 3000 + i * 100,
          ...(row.ok
            ? {}
            : {
                steps: [
                  { command: 'open', target: '', value: 'https://shop.example.com/signup', passing: true },
                  { command: 'assign', target: '#email', value: '{{email}}', passing: true },
                  {
                    command: 'assertText',
                    target: '.flash',
                    value: 'Welcome',
                    passing: false,
                    error: 'Text "Email already taken" does not match "Welcome"',
                  },
                ],
              }),
        },
        { name: 'Confirm e-mail', outcome: 'passed', executionTime: 2000 },
      ],
    }),
  );
  return { summary: summaryOf(runs), policy: DEFAULT_POLICY };
}

function variants(): Scenario {
  const fx = new Fixtures();
  const combos = [
    { browser: 'chrome', region: 'us-east-1', viewport: '1280x800' },
    { browser: 'firefox', region: 'eu-west-1', viewport: '1280x800' },
    { browser: 'chrome', region: 'us-east-1', viewport: '375x667' },
    { startUrl: 'https://deploy:s3cret@staging.shop.example.com/' },
  ];
  const runs = combos.map((variant, i) =>
    suiteRun(fx, {
      key: `suite-5d0000000000000000000009-${i}`,
      suiteId: '5d0000000000000000000009',
      suiteName: 'Responsive layout',
      suiteResultId: `6e000000000000000000009${i}`,
      variant,
      tests: [
        { name: 'Header', outcome: 'passed', executionTime: 2100 + i },
        i === 2
          ? {
              name: 'Menu',
              outcome: 'failed',
              executionTime: 8000,
              steps: [
                { command: 'open', target: '', value: 'https://shop.example.com/', passing: true },
                {
                  command: 'click',
                  target: 'nav .menu',
                  passing: false,
                  error: 'Element "nav .menu" is not visible',
                },
              ],
            }
          : { name: 'Menu', outcome: 'passed', executionTime: 2500 + i },
        // A suite holding two tests of the same name: the JUnit names must stay unique.
        { name: 'Menu', outcome: 'passed', executionTime: 1000 },
      ],
    }),
  );
  return { summary: summaryOf(runs), policy: DEFAULT_POLICY };
}

/** Text that tries every trick: markup, Markdown, emoji, control characters, lone surrogates, CDATA ends. */
export const HOSTILE =
  '<script>alert("x")</script> | `rm -rf` **bold** [link](javascript:alert(1)) ![img](https://evil.example/x.png) ' +
  '@octocat #1 ~~gone~~ _it_ ]]> and ]]> again &amp; 🚀👩‍💻 \u0000\u0001\u0008\u000B\u000C\u000E\u001F\uFFFE\uFFFF ' +
  'lone \uD800 high \uDC00 low\r\nsecond line\n\nafter a blank line\n<!-- comment --> <details> </pre>';

function hostile(): Scenario {
  const fx = new Fixtures();
  const run = suiteRun(fx, {
    key: 'suite-5d000000000000000000000a-0',
    suiteId: '5d000000000000000000000a',
    suiteName: `Suite ${HOSTILE}`,
    suiteResultId: '6e000000000000000000000a',
    variant: { browser: 'chrome|<b>', region: 'us-east-1' },
    tests: [
      {
        name: `Test ${HOSTILE}`,
        outcome: 'failed',
        startUrl: 'https://ci-user:hunter2@shop.example.com/?q=<x>&y="1"',
        steps: [
          { command: 'open', target: '', value: 'https://shop.example.com/', passing: true },
          {
            command: `click ${HOSTILE}`,
            target: [{ selector: HOSTILE }],
            passing: false,
            error: `Error ${HOSTILE}`,
          },
        ],
        consoleErrors: [`Console ${HOSTILE}`],
        errorDetails: HOSTILE,
      },
      {
        name: `Passing ${HOSTILE}`,
        outcome: 'passed',
        screenshotCompare: { difference: 0.5, passing: false },
      },
    ],
  });
  return { summary: summaryOf([run]), policy: { failOnScreenshotCompare: false, failOnTimeout: true } };
}

/** The golden scenarios, by file stem. */
export const SCENARIOS: Record<string, () => Scenario> = {
  'all-passing': allPassing,
  failures,
  flaky,
  'timed-out': timedOut,
  cancelled,
  'data-driven': dataDriven,
  variants,
  'hostile-text': hostile,
};
