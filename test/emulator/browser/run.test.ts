import { PNG } from 'pngjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BrowserExecutor } from '../../../demo/executor/browser.js';
import { AUTH, startSite, type TestSite } from '../../support/browser-site.js';
import { BROWSER_TIMEOUT_MS, hasChromium, request, step } from '../../support/browser-request.js';

const BLOCKS = `<!doctype html><html><head><style>
  html, body { margin: 0; background: #fff; }
  #red { position: absolute; left: 40px; top: 30px; width: 100px; height: 80px; background: rgb(255, 0, 0); }
  #blue { position: absolute; left: 300px; top: 200px; width: 60px; height: 50px; background: rgb(0, 0, 255); }
</style></head><body><div id="red"></div><div id="blue"></div></body></html>`;

const AJAX = `<!doctype html><body><button id="load" onclick="fetch('/slow?ms=' + new URLSearchParams(location.search).get('ms')).then(r => r.text()).then(t => { document.getElementById('out').textContent = t; })">Load</button><p id="out">waiting</p></body>`;

const STORAGE = `<!doctype html><body><p id="seen"></p><script>
  document.getElementById('seen').textContent = 'previous: ' + (localStorage.getItem('mark') || 'none');
  localStorage.setItem('mark', 'set');
</script></body>`;

function pixel(png: Buffer, x: number, y: number): number[] {
  const img = PNG.sync.read(png);
  const i = (y * img.width + x) * 4;
  return [...img.data.subarray(i, i + 3)];
}

describe.skipIf(!hasChromium)('browser executor: run settings', { timeout: BROWSER_TIMEOUT_MS }, () => {
  let site: TestSite;
  let executor: BrowserExecutor;
  beforeAll(async () => {
    site = await startSite({ blocks: BLOCKS, ajax: AJAX, storage: STORAGE });
    executor = new BrowserExecutor({ maxConcurrent: 2 });
  }, BROWSER_TIMEOUT_MS);
  afterAll(async () => {
    await executor?.close();
    await site?.close();
  }, BROWSER_TIMEOUT_MS);

  it('captures the viewport with the page pixels', async () => {
    const outcome = await executor.run(
      request(`${site.url}/t/blocks`, [], { disableVisuals: false, viewport: { width: 640, height: 360 } }),
    );
    const png = outcome.screenshot!;
    const img = PNG.sync.read(png);
    expect([img.width, img.height]).toEqual([640, 360]);
    expect(pixel(png, 90, 70)).toEqual([255, 0, 0]);
    expect(pixel(png, 330, 225)).toEqual([0, 0, 255]);
    expect(pixel(png, 10, 10)).toEqual([255, 255, 255]);
    expect(pixel(png, 600, 340)).toEqual([255, 255, 255]);
  });

  it('hides screenshot exclusions and captures a screenshot target', async () => {
    const hidden = await executor.run(
      request(`${site.url}/t/blocks`, [], {
        disableVisuals: false,
        screenshotExclusions: '#red, .nothing',
        viewport: { width: 640, height: 360 },
      }),
    );
    expect(pixel(hidden.screenshot!, 90, 70)).toEqual([255, 255, 255]);
    expect(pixel(hidden.screenshot!, 330, 225)).toEqual([0, 0, 255]);

    const target = await executor.run(
      request(`${site.url}/t/blocks`, [], { disableVisuals: false, screenshotTarget: '#blue' }),
    );
    const img = PNG.sync.read(target.screenshot!);
    expect([img.width, img.height]).toEqual([60, 50]);
    expect(pixel(target.screenshot!, 30, 25)).toEqual([0, 0, 255]);

    const xpath = await executor.run(
      request(`${site.url}/t/blocks`, [], { disableVisuals: false, screenshotTarget: '//div[@id="red"]' }),
    );
    expect(PNG.sync.read(xpath.screenshot!).width).toBe(100);
    expect(pixel(xpath.screenshot!, 50, 40)).toEqual([255, 0, 0]);

    const missing = await executor.run(
      request(`${site.url}/t/blocks`, [], {
        disableVisuals: false,
        screenshotTarget: '#none',
        viewport: { width: 500, height: 300 },
      }),
    );
    expect(PNG.sync.read(missing.screenshot!).width).toBe(500);
    expect(missing.console.at(-1)?.output).toBe(
      'Screenshot target not found: #none; the viewport was captured instead',
    );
  });

  it('takes no screenshot when visuals are disabled', async () => {
    const outcome = await executor.run(request(`${site.url}/t/blocks`, [], { disableVisuals: true }));
    expect(outcome.passing).toBe(true);
    expect(outcome.screenshot).toBeUndefined();
    const shown = await executor.run(request(`${site.url}/t/blocks`, [], { disableVisuals: false }));
    expect(shown.screenshot).toBeInstanceOf(Buffer);
  });

  it('sends the user agent, sizes the viewport and answers HTTP auth', async () => {
    const outcome = await executor.run(
      request(
        `${site.url}/ua`,
        [step('assertText', '#ua', 'GhostEmulator/1.0'), step('assertText', '#w', '700x400')],
        {
          userAgent: 'Mozilla/5.0 GhostEmulator/1.0',
          viewport: { width: 700, height: 400 },
        },
      ),
    );
    expect(outcome.steps.map((s) => s.error)).toEqual([undefined, undefined]);
    const denied = await executor.run(
      request(`${site.url}/private`, [step('assertText', '#secret', 'Members only')], { maxWaitDelay: 200 }),
    );
    expect(denied.passing).toBe(false);
    const allowed = await executor.run(
      request(`${site.url}/private`, [step('assertText', '#secret', 'Members only')], { httpAuth: AUTH }),
    );
    expect(allowed.passing).toBe(true);
  });

  it('waits for pending requests after an action up to maxAjaxDelay', async () => {
    const steps = [step('click', '#load'), step('assertText', '#out', 'slow done')];
    const waited = await executor.run(
      request(`${site.url}/t/ajax?ms=600`, steps, { maxWaitDelay: 50, maxAjaxDelay: 30_000 }),
    );
    expect(waited.steps.map((s) => s.passing)).toEqual([true, true]);
    const hurried = await executor.run(
      request(`${site.url}/t/ajax?ms=60000`, steps, { maxWaitDelay: 50, maxAjaxDelay: 0 }),
    );
    expect(hurried.steps[1]).toMatchObject({
      passing: false,
      error: 'Text "slow done" not found in #out; found "waiting"',
    });
  });

  it('gives every run fresh storage, also when runs share the browser at once', async () => {
    const steps = [step('assertText', '#seen', 'previous: none')];
    const runs = await Promise.all(
      [1, 2, 3].map(() => executor.run(request(`${site.url}/t/storage`, steps))),
    );
    expect(runs.map((r) => r.passing)).toEqual([true, true, true]);
    const again = await executor.run(request(`${site.url}/t/storage`, steps));
    expect(again.passing).toBe(true);
  });

  it('fails the run when the start URL cannot be opened', async () => {
    const closed = await startSite({});
    const url = `${closed.url}/nothing`;
    await closed.close();
    const outcome = await executor.run(request(url, [step('click', '#a')], { disableVisuals: false }));
    expect(outcome.passing).toBe(false);
    expect(outcome.error).toBe(`Could not open the start URL ${url}: net::ERR_CONNECTION_REFUSED`);
    expect(outcome.steps[0]?.passing).toBeNull();
    expect(outcome.steps[0]?.dateExecuted).toBeUndefined();
  });

  it('rejects with an AbortError when the run is cancelled', async () => {
    const controller = new AbortController();
    const started = Date.now();
    const run = executor.run(
      request(`${site.url}/t/blocks`, [step('pause', '', '20000')], { signal: controller.signal }),
    );
    setTimeout(() => controller.abort(), 800);
    await expect(run).rejects.toMatchObject({ name: 'AbortError' });
    expect(Date.now() - started).toBeLessThan(15_000);
    const after = await executor.run(request(`${site.url}/t/blocks`, []));
    expect(after.passing).toBe(true);
  });

  it('rejects with an AbortError whenever the cancel lands while the run opens its context and page', async () => {
    for (let delayMs = 0; delayMs <= 300; delayMs += 20) {
      const controller = new AbortController();
      const run = executor.run(
        request(`${site.url}/t/blocks`, [step('pause', '', '20000')], { signal: controller.signal }),
      );
      setTimeout(() => controller.abort(), delayMs);
      const settled = await Promise.race([
        run.then(
          () => 'resolved',
          (error: Error) => error.name,
        ),
        new Promise((resolve) => setTimeout(() => resolve('still pending'), 15_000)),
      ]);
      expect(settled, `cancelled after ${delayMs} ms`).toBe('AbortError');
    }
  });

  it('stops at the run-time limit with partial steps', async () => {
    // The limit counts from the run's start: opening the page and the first step fit in it on a slow machine.
    const outcome = await executor.run(
      request(
        `${site.url}/t/blocks`,
        [step('assertElementPresent', '#red'), step('pause', '', '600000'), step('click', '#red')],
        { runTimeLimitMs: 6000, disableVisuals: false },
      ),
    );
    expect(outcome.passing).toBe(false);
    expect(outcome.error).toBe('The run-time limit of 6 s was reached');
    expect(outcome.steps.map((s) => s.passing)).toEqual([true, false, null]);
    expect(outcome.screenshot).toBeUndefined();
  });

  it('scales sleep-only delays by the time scale', async () => {
    const outcome = await executor.run(
      request(`${site.url}/t/blocks`, [step('pause', '', '5000'), step('assertElementPresent', '#red')], {
        timeScale: 0.01,
      }),
    );
    expect(outcome.passing).toBe(true);
    const gap = Date.parse(outcome.steps[1]!.dateExecuted!) - Date.parse(outcome.steps[0]!.dateExecuted!);
    expect(gap).toBeLessThan(4000);
  });
});

describe.skipIf(!hasChromium)('browser executor: concurrency', { timeout: BROWSER_TIMEOUT_MS }, () => {
  it('runs at most maxConcurrent at once and queues the rest', async () => {
    const site = await startSite({ wait: '<!doctype html><p id="p">x</p>' });
    const executor = new BrowserExecutor({ maxConcurrent: 1 });
    try {
      const steps = [step('pause', '', '400')];
      const runs = await Promise.all([0, 1].map(() => executor.run(request(`${site.url}/t/wait`, steps))));
      const [a, b] = runs.map((r) => Date.parse(r.steps[0]!.dateExecuted!));
      expect(Math.abs(a! - b!)).toBeGreaterThanOrEqual(400);
      // a queued run leaves the queue when cancelled
      const controller = new AbortController();
      const first = executor.run(request(`${site.url}/t/wait`, [step('pause', '', '100')]));
      const queued = executor.run(request(`${site.url}/t/wait`, steps, { signal: controller.signal }));
      controller.abort();
      await expect(queued).rejects.toMatchObject({ name: 'AbortError' });
      expect((await first).passing).toBe(true);
    } finally {
      await executor.close();
      await site.close();
    }
  });

  it('reports a missing Chromium clearly', async () => {
    const executor = new BrowserExecutor({ executablePath: '/nonexistent/chromium' });
    await expect(executor.run(request('http://127.0.0.1:1/', []))).rejects.toThrow(
      'Chromium not found at /nonexistent/chromium (set CHROMIUM_PATH)',
    );
    await executor.close();
  });
});
