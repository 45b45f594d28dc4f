/**
 * The demo without Chromium: the job summary preview (rendering, images saved from a loopback server), the
 * demo script's fallback to the simulated executor, its option errors, and the emulator's clear refusal to
 * start the demo seed when Chromium cannot run. The browser path is in test/emulator/browser/demo.test.ts.
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderSummaryPage, saveLinkedFiles } from '../../demo/preview.js';
import { startDemoEmulator } from '../../demo/start.js';
import { ROOT } from '../support/harness.js';

const MISSING_CHROMIUM = path.join(tmpdir(), 'no-such-dir', 'chromium');

/** Runs `demo/run.ts` with `args`; `CHROMIUM_PATH` as given. */
function runDemo(
  args: string[],
  chromiumPath: string,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'demo/run.ts', ...args], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', CHROMIUM_PATH: chromiumPath },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('job summary preview', () => {
  it('renders the summary Markdown and its HTML into a standalone page', () => {
    const markdown = [
      '## ❌ Ghost Inspector: failed',
      '',
      '**1 failed**, 1 passed of 2 tests.',
      '',
      '| Status | Test |',
      '| --- | --- |',
      '| ✅ Passed | Sign in |',
      '| ❌ Failed | Cart &lt;total&gt; |',
      '',
      '<details><summary>❌ Failed: <strong>Cart</strong></summary>',
      '<pre>Text &quot;Total: &#36;30&quot; not found</pre>',
      '</details>',
    ].join('\n');
    const page = renderSummaryPage(markdown, 'Preview <of> "demo"');
    expect(page.startsWith('<!doctype html>')).toBe(true);
    expect(page).toContain('<meta charset="utf-8">');
    expect(page).toContain('<title>Preview &lt;of&gt; &quot;demo&quot;</title>');
    expect(page).toContain('<h2>❌ Ghost Inspector: failed</h2>');
    expect(page).toContain('<strong>1 failed</strong>');
    expect(page).toMatch(/<table>\s*<thead>\s*<tr>\s*<th>Status<\/th>/);
    expect(page).toContain('<td>Cart &lt;total&gt;</td>');
    expect(page).toContain('<details><summary>❌ Failed: <strong>Cart</strong></summary>');
    expect(page).toContain('<pre>Text &quot;Total: &#36;30&quot; not found</pre>');
    expect(page).not.toMatch(/<(link|script)\b/);
  });

  describe('linked emulator files', () => {
    let server: Server;
    let origin: string;
    let dir: string;
    beforeAll(async () => {
      server = createServer((req, res) => {
        if (req.url === '/_emulator/files/r1-small.png') res.writeHead(200).end(Buffer.from('small-png'));
        else if (req.url === '/_emulator/files/r1-original.png') res.writeHead(200).end('original-png');
        else res.writeHead(404).end();
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      dir = await mkdtemp(path.join(tmpdir(), 'demo-preview-'));
    });
    afterAll(async () => {
      server?.closeAllConnections();
      await new Promise<void>((resolve) => server?.close(() => resolve()));
      await rm(dir, { recursive: true, force: true });
    });

    it('are saved beside the page and relinked; missing ones and other links stay as they were', async () => {
      const markdown =
        `<a href="${origin}/_emulator/files/r1-original.png"><img src="${origin}/_emulator/files/r1-small.png"></a> ` +
        `<a href="${origin}/_emulator/files/gone.png">gone</a> ` +
        `<a href="https://app.ghostinspector.com/results/r1">result</a>`;
      const out = await saveLinkedFiles(markdown, origin, path.join(dir, 'files'), 'files');
      expect(out.saved).toBe(2);
      expect(out.markdown).toBe(
        '<a href="files/r1-original.png"><img src="files/r1-small.png"></a> ' +
          `<a href="${origin}/_emulator/files/gone.png">gone</a> ` +
          '<a href="https://app.ghostinspector.com/results/r1">result</a>',
      );
      expect(readFileSync(path.join(dir, 'files', 'r1-small.png'), 'utf8')).toBe('small-png');
      expect(readFileSync(path.join(dir, 'files', 'r1-original.png'), 'utf8')).toBe('original-png');
      expect(existsSync(path.join(dir, 'files', 'gone.png'))).toBe(false);
    });
  });
});

describe('demo script without Chromium', () => {
  let out: string;
  beforeAll(async () => {
    out = await mkdtemp(path.join(tmpdir(), 'demo-simulated-'));
  });
  afterAll(async () => {
    await rm(out, { recursive: true, force: true });
  });

  it('falls back to the simulated executor, says why, and writes every report', async () => {
    const run = await runDemo(['--out', out], MISSING_CHROMIUM);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(
      `Executor: simulated: no Chromium at ${MISSING_CHROMIUM} (install chromium-headless-shell or set CHROMIUM_PATH`,
    );
    expect(run.stdout).toContain('Verdict: failed (action exit code 1)');
    expect(run.stdout).toMatch(
      /✗ failed {2}Pay by card\n\s+step 3 \S+ \S+: Element not found: \.confirmation/,
    );
    expect(run.stdout).toContain('Outcomes: as designed.');
    // The failing test was run before the action: its history from the service is in the summary.
    expect(run.stdout).toMatch(/History: Checkout › Pay by card: failed ([2-9]|\d\d) of its last \d+ runs/);
    // The reports' web app links point at the emulator's pages, and every link of the summary opened.
    expect(run.stdout).toMatch(/Summary links: +([1-9]\d*) checked, all open/);
    for (const name of [
      'ghost-inspector-junit.xml',
      'ghost-inspector-summary.md',
      'ghost-inspector-summary.html',
      'ghost-inspector-results.json',
    ]) {
      expect(existsSync(path.join(out, name)), name).toBe(true);
    }
    const shown = path.relative(ROOT, out);
    expect(run.stdout).toContain(`JUnit report:     ${shown}/ghost-inspector-junit.xml`);
    expect(run.stdout).toContain(
      `Summary preview:  ${shown}/ghost-inspector-summary.html (open it in a browser)`,
    );
    expect(run.stdout).toMatch(new RegExp(`Screenshots: +${shown}/ghost-inspector-screenshots \\(1 file\\)`));
    const page = readFileSync(path.join(out, 'ghost-inspector-summary.html'), 'utf8');
    expect(page).toContain('Pay by card');
    expect(page).toContain('History of the failed tests');
    expect(page).not.toContain('app.ghostinspector.com');
    expect(page).toMatch(/href="http:\/\/127\.0\.0\.1:\d+\/results\/\w+"/);
    // The failed test's thumbnail was saved beside the page: it shows after the emulator stopped.
    const images = [...page.matchAll(/<img src="([^"]+)"/g)].map((m) => m[1] as string);
    expect(images.length).toBeGreaterThan(0);
    for (const src of images) {
      expect(src.startsWith('ghost-inspector-summary-files/')).toBe(true);
      expect(existsSync(path.join(out, src)), src).toBe(true);
    }
  });

  it('refuses --executor browser with a hint, and unknown options with exit code 2', async () => {
    const [browser, bad, unknown] = await Promise.all([
      runDemo(['--executor', 'browser', '--out', out], MISSING_CHROMIUM),
      runDemo(['--executor', 'firefox'], MISSING_CHROMIUM),
      runDemo(['--fast'], MISSING_CHROMIUM),
    ]);
    expect(browser.code).toBe(1);
    expect(browser.stderr).toContain(`No Chromium at ${MISSING_CHROMIUM}`);
    expect(browser.stderr).toContain('CHROMIUM_PATH');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--executor must be browser or simulated');
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain("Unknown option '--fast'");
  });
});

describe('emulator demo seed without Chromium', () => {
  it('refuses to start, naming the baseline run and why it failed', async () => {
    await expect(startDemoEmulator({ browser: { executablePath: MISSING_CHROMIUM } })).rejects.toThrow(
      `Demo seed: the baseline run of test demo-products-page-looks-right failed: The test could not be run: Chromium not found at ${MISSING_CHROMIUM}`,
    );
  });
});
