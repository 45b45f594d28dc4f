/**
 * The whole product on the demo shop in Chromium: `npm run demo` (the emulator with the browser executor
 * and the demo seed, the bundled action as a child process) ends exactly as the demo suites are designed,
 * step by step; the visual change is caught by screenshot comparison with the expected difference; the
 * reports and the HTML preview a person opens read right. Then the emulator itself: the demo shop under
 * `/demo/`, the demo seed, and the baseline accepted at start-up.
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_BUG_ERROR, demoSuites } from '../../../demo/site/suites.js';
import { CHROMIUM_ARGS } from '../../../demo/executor/browser.js';
import { defaultChromiumPath } from '../../../demo/executor/chromium.js';
import { DEMO_SUITE_ID, demoTestId } from '../../../demo/seed.js';
import { startDemoEmulator } from '../../../demo/start.js';
import { DEFAULT_API_KEY, type Emulator } from '../../../emulator/index.js';
import type { TestResult } from '../../../src/api/types.js';
import { ROOT } from '../../support/harness.js';
import { BROWSER_TIMEOUT_MS, hasChromium } from '../../support/browser-request.js';

/** Screenshot comparison difference of the products page with `theme=new` against `theme=classic`. */
const EXPECTED_DIFFERENCE = { min: 0.1, max: 0.3 };
const DESIGN = demoSuites('http://127.0.0.1:9/demo/')[0]!;

/** A results.json result, as far as these tests read it. */
interface ResultLine {
  name: string;
  testId: string;
  state: string;
  failingStep?: { sequence: number; command: string; target: string; error?: string };
  steps: Array<{ sequence: number; optional: boolean; outcome: string; error?: string }>;
  screenshot?: { path?: string };
  screenshotCompare?: {
    difference: number | null;
    threshold: number;
    passing: boolean | null;
    baselineResultId?: string;
    path?: string;
  };
  screenshotCompareFailed: boolean;
}

describe.skipIf(!hasChromium)('npm run demo in Chromium', { timeout: BROWSER_TIMEOUT_MS }, () => {
  let out: string;
  let demo: { code: number | null; stdout: string; stderr: string };
  let results: ResultLine[];

  beforeAll(async () => {
    out = await mkdtemp(path.join(tmpdir(), 'demo-browser-'));
    demo = await new Promise((resolve, reject) => {
      const child = spawn(
        process.execPath,
        ['--import', 'tsx', 'demo/run.ts', '--executor', 'browser', '--out', out],
        {
          cwd: ROOT,
          env: {
            PATH: process.env.PATH ?? '',
            HOME: process.env.HOME ?? '',
            ...(process.env.CHROMIUM_PATH ? { CHROMIUM_PATH: process.env.CHROMIUM_PATH } : {}),
            ...(process.env.BROWSER_WAIT_SCALE ? { BROWSER_WAIT_SCALE: process.env.BROWSER_WAIT_SCALE } : {}),
          },
          stdio: ['ignore', 'pipe', 'pipe'],
        },
      );
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
      child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      child.on('error', reject);
      child.on('close', (code) => resolve({ code, stdout, stderr }));
    });
    const file = path.join(out, 'ghost-inspector-results.json');
    results = existsSync(file)
      ? (JSON.parse(readFileSync(file, 'utf8')) as { results: ResultLine[] }).results
      : [];
  }, 300_000);
  afterAll(async () => {
    if (out) await rm(out, { recursive: true, force: true });
  }, BROWSER_TIMEOUT_MS);

  it('exits 0, prints the verdict and each test, and says where the reports went', () => {
    expect(demo.stderr, demo.stdout).toBe('');
    expect(demo.code, demo.stdout).toBe(0);
    expect(demo.stdout).toContain(`Executor: browser (headless Chromium at ${defaultChromiumPath()})`);
    expect(demo.stdout).toMatch(/Emulator: http:\/\/127\.0\.0\.1:\d+\/v1 \(demo seed; demo shop at http:/);
    expect(demo.stdout).toContain('Verdict: failed (action exit code 1)');
    expect(demo.stdout).toContain(
      '"total":5,"passed":4,"failed":1,"flaky":0,"timed-out":0,"cancelled":0,"error":0,"screenshot-compare-failed":1',
    );
    expect(demo.stdout).toContain(
      `✗ failed  Cart total counts quantities\n              step 7 assertText #total: ${DEMO_BUG_ERROR}`,
    );
    expect(demo.stdout).toMatch(
      /✓ passed {2}Products page looks right\n\s+screenshot comparison failed: difference \d+\.\d% \(threshold 1%\)/,
    );
    expect(demo.stdout).toContain('Outcomes: as designed.');
    const shown = path.relative(ROOT, out);
    for (const [label, file] of [
      ['JUnit report', 'ghost-inspector-junit.xml'],
      ['Job summary', 'ghost-inspector-summary.md'],
      ['Summary preview', 'ghost-inspector-summary.html (open it in a browser)'],
      ['Results JSON', 'ghost-inspector-results.json'],
    ] as const) {
      expect(demo.stdout).toMatch(new RegExp(`${label}: +${shown}/${file.replace(/[()]/g, '\\$&')}`));
    }
    // screenshots: all: five final screenshots and one comparison image
    expect(demo.stdout).toContain(`Screenshots:      ${shown}/ghost-inspector-screenshots (6 files)`);
  });

  it('each demo test ends as designed: verdict, failing step and its error, steps after it not run', () => {
    expect(results.map((r) => r.name)).toEqual(DESIGN.tests.map((t) => t.name));
    for (const test of DESIGN.tests) {
      const result = results.find((r) => r.name === test.name)!;
      expect(result.testId).toBe(demoTestId(test.name));
      expect({ name: test.name, state: result.state }).toEqual({
        name: test.name,
        state: test.expected.passing ? 'passed' : 'failed',
      });
      const hardFailures = result.steps.filter((s) => s.outcome === 'failed');
      if (test.expected.passing) {
        expect(hardFailures, test.name).toEqual([]);
        expect(result.failingStep, test.name).toBeUndefined();
        expect(result.steps.every((s) => s.outcome === 'passed' || s.outcome === 'failed-optional')).toBe(
          true,
        );
      } else {
        expect(result.failingStep).toMatchObject({
          sequence: test.expected.failingStep,
          error: test.expected.error,
        });
        expect(hardFailures.map((s) => s.sequence)).toEqual([test.expected.failingStep]);
        expect(result.steps.slice(0, test.expected.failingStep).every((s) => s.outcome === 'passed')).toBe(
          true,
        );
        expect(result.steps.slice(test.expected.failingStep! + 1).map((s) => s.outcome)).toEqual(
          result.steps.slice(test.expected.failingStep! + 1).map(() => 'not-run'),
        );
      }
      expect(existsSync(path.resolve(out, result.screenshot?.path ?? '-')), `${test.name} screenshot`).toBe(
        true,
      );
    }
    const bug = results.find((r) => r.name === 'Cart total counts quantities')!;
    expect(bug.failingStep).toEqual({
      sequence: 6,
      command: 'assertText',
      target: '#total',
      error: DEMO_BUG_ERROR,
    });
    // The optional first step of the sign-in test fails without failing the test.
    const signIn = results.find((r) => r.name === 'Sign in shows the products')!;
    expect(signIn.steps[0]).toMatchObject({
      outcome: 'failed-optional',
      error: 'Element not found: #accept-cookies',
    });
  });

  it('the visual change is caught by screenshot comparison with the expected difference', () => {
    const visual = results.find((r) => r.name === 'Products page looks right')!;
    expect(visual.state).toBe('passed');
    expect(visual.screenshotCompareFailed).toBe(true);
    const cmp = visual.screenshotCompare!;
    expect(cmp.passing).toBe(false);
    expect(cmp.threshold).toBe(DESIGN.screenshotCompareThreshold);
    expect(cmp.difference).toBeGreaterThanOrEqual(EXPECTED_DIFFERENCE.min);
    expect(cmp.difference).toBeLessThanOrEqual(EXPECTED_DIFFERENCE.max);
    expect(cmp.baselineResultId).toMatch(/\S/);
    expect(existsSync(path.resolve(out, cmp.path ?? '-')), 'comparison image').toBe(true);
    // No other test compares screenshots.
    expect(results.filter((r) => r.screenshotCompare).map((r) => r.name)).toEqual([
      'Products page looks right',
    ]);
  });

  it('the JUnit report and the job summary name the failing step and the comparison', () => {
    const junit = readFileSync(path.join(out, 'ghost-inspector-junit.xml'), 'utf8');
    expect(junit).toMatch(
      /<testsuites name="Ghost Inspector" tests="5" failures="1" errors="0" time="[\d.]+">/,
    );
    const failures = [
      ...junit.matchAll(/<testcase classname="Demo shop" name="([^"]+)"[\s\S]*?<\/testcase>/g),
    ]
      .filter((m) => m[0].includes('<failure'))
      .map((m) => m[1]);
    expect(failures).toEqual(['Cart total counts quantities']);
    expect(junit).toContain(
      '<failure message="Step 7 assertText #total: Text &quot;Total: $30&quot; not found in #total; found &quot;Total: $25&quot;"',
    );
    expect(junit).toMatch(/Screenshot comparison failed: difference \d+\.\d+% \(threshold 1%\)/);
    const summary = readFileSync(path.join(out, 'ghost-inspector-summary.md'), 'utf8');
    expect(summary).toContain('## ❌ Ghost Inspector: failed');
    expect(summary).toContain('<strong>Step 7</strong> <code>assertText</code> <code>#total</code>');
    expect(summary).toContain('Products page looks right');
  });

  it('the HTML preview opens in Chromium with its table, failure and images, after the emulator stopped', async () => {
    const browser = await chromium.launch({
      executablePath: defaultChromiumPath(),
      args: CHROMIUM_ARGS,
      headless: true,
    });
    try {
      const page = await browser.newPage({ viewport: { width: 1100, height: 900 } });
      await page.goto(`file://${path.join(out, 'ghost-inspector-summary.html')}`);
      await page.waitForLoadState('load');
      const seen = await page.evaluate(() => ({
        title: document.title,
        heading: document.querySelector('h2')?.textContent ?? '',
        // The per-test table (inside <details>): its rows with cells, second cell the test's name.
        rows: Array.from(document.querySelectorAll('details table tr'))
          .filter((tr) => tr.querySelector('td'))
          .map((tr) => tr.children[1]?.textContent),
        // Failures come first, open: the failing step's error right under the verdict.
        failure: document.querySelector('h4 ~ pre')?.textContent ?? '',
        images: Array.from(document.querySelectorAll('img')).map((img) => ({
          src: img.getAttribute('src'),
          width: img.naturalWidth,
        })),
      }));
      expect(seen.title).toBe('Ghost Inspector job summary (preview of the demo run)');
      expect(seen.heading).toContain('Ghost Inspector: failed');
      expect(seen.rows).toEqual(DESIGN.tests.map((t) => t.name));
      expect(seen.failure.replace(/\u200b/g, '')).toBe(DEMO_BUG_ERROR);
      // Thumbnails of the failed test, and of the changed screenshot with its comparison image, served from
      // files beside the page.
      expect(seen.images).toHaveLength(3);
      for (const image of seen.images) {
        expect(image.src).toMatch(/^ghost-inspector-summary-files\//);
        expect(image.width, image.src ?? '').toBeGreaterThan(0);
      }
    } finally {
      await browser.close();
    }
  });
});

describe.skipIf(!hasChromium)(
  'emulator with the browser executor and the demo seed',
  { timeout: BROWSER_TIMEOUT_MS },
  () => {
    let emulator: Emulator;
    beforeAll(async () => {
      emulator = await startDemoEmulator({ browser: { maxConcurrent: 3 } });
    }, BROWSER_TIMEOUT_MS);
    afterAll(async () => {
      await emulator?.close();
    }, BROWSER_TIMEOUT_MS);

    const visualId = demoTestId('Products page looks right');

    /** Runs the test `id` immediately with `theme` (the suite's other variables as seeded); its result. */
    async function execute(id: string, theme = 'classic'): Promise<TestResult> {
      const res = await fetch(
        `${emulator.baseUrl}/tests/${id}/execute/?apiKey=${DEFAULT_API_KEY}&theme=${theme}`,
        { method: 'POST' },
      );
      return ((await res.json()) as { data: TestResult }).data;
    }

    it('serves the demo shop under /demo/ and seeds its suite with the baseline accepted', async () => {
      // The start-up run is not in the logs the tests read.
      expect(emulator.requests()).toEqual([]);
      expect(emulator.runs()).toEqual([]);
      const index = await fetch(`${emulator.origin}/demo/`);
      expect(index.status).toBe(200);
      expect(index.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(await index.text()).toContain('<form');
      const css = await fetch(`${emulator.origin}/demo/style.css`);
      expect(css.headers.get('content-type')).toBe('text/css; charset=utf-8');
      expect((await fetch(`${emulator.origin}/demo/secret.txt`)).status).toBe(404);
      expect((await fetch(`${emulator.origin}/demo/..%2fseed.ts`)).status).toBe(404);

      const suites = (await (
        await fetch(`${emulator.baseUrl}/suites/?apiKey=${DEFAULT_API_KEY}`)
      ).json()) as {
        data: Array<{ _id: string; name: string; startUrl: string }>;
      };
      expect(suites.data.map((s) => s._id)).toEqual([DEMO_SUITE_ID]);
      expect(suites.data[0]?.startUrl).toBe(`${emulator.origin}/demo/index.html`);
      const tests = [...emulator.store.tests.values()].filter((t) => t.suite === DEMO_SUITE_ID);
      expect(tests.map((t) => t._id)).toEqual(DESIGN.tests.map((t) => demoTestId(t.name)));

      const visual = emulator.store.tests.get(visualId)!;
      const baselineIds = Object.values(visual.baselines);
      expect(baselineIds).toHaveLength(1);
      const baseline = emulator.store.results.get(baselineIds[0]!)!;
      expect(baseline).toMatchObject({ passing: true, variables: { theme: 'classic' } });
      expect(baseline.endUrl).toBe(`${emulator.origin}/demo/products.html?theme=classic`);
    });

    it('compares against that baseline (no difference without the change, the expected one with it); the failing test fails on the total, the cart as designed', async () => {
      const baselineId = Object.values(emulator.store.tests.get(visualId)!.baselines)[0];
      // The failing test waits out its assertion's wait: it runs beside the two comparisons, not after them.
      const [same, changed, bug] = await Promise.all([
        execute(visualId, 'classic'),
        execute(visualId, 'new'),
        execute(demoTestId('Cart total counts quantities')),
      ]);
      expect(same).toMatchObject({
        passing: true,
        screenshotCompareBaselineResult: baselineId,
        screenshotCompareDifference: 0,
        screenshotComparePassing: true,
      });
      expect(changed).toMatchObject({ passing: true, screenshotComparePassing: false });
      // The baseline is the last passing run's screenshot: the accepted one, or the classic run if it ended first.
      expect([baselineId, same._id]).toContain(changed.screenshotCompareBaselineResult);
      expect(changed.screenshotCompareDifference).toBeGreaterThanOrEqual(EXPECTED_DIFFERENCE.min);
      expect(changed.screenshotCompareDifference).toBeLessThanOrEqual(EXPECTED_DIFFERENCE.max);
      // The page's own log shows the cart as designed (the bug is in the total), and the run ends on the cart.
      expect(bug.passing).toBe(false);
      expect(bug.steps.find((s) => s.passing === false)?.error).toBe(DEMO_BUG_ERROR);
      expect(
        bug.console.some((c) => c.output.startsWith('cart: [{"id":"hat","qty":1},{"id":"socks","qty":2}]')),
      ).toBe(true);
      expect(bug.endUrl).toBe(`${emulator.origin}/demo/cart.html`);
    });
  },
);
