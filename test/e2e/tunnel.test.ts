/**
 * The tunnel to an app started in the job, end to end through `dist/index.js`, in Chromium: the demo shop
 * served on a loopback port, the fake agents on PATH (they follow the agents' docs, see
 * `test/support/fakes`), the emulator's Chromium executor loading the test's start URL `{{ngrokUrl}}/…`
 * through the default quick tunnel, and the run's webhook riding the tunnel back to the step, which stands in
 * front of the app. The agent's life in a job (secrets, refusals, exits, signals, the post step) is
 * `tunnel-agent.test.ts`, on the simulated executor.
 */
import { readFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BrowserExecutor } from '../../demo/executor/browser.js';
import { DEMO_SITE_FILES, demoSiteDir } from '../../demo/site/index.js';
import { demoSeed, demoTestId } from '../../demo/seed.js';
import { startEmulator } from '../../emulator/index.js';
import { BROWSER_TIMEOUT_MS, hasChromium } from '../support/browser-request.js';
import { installFakeAgent, type FakeAgent } from '../support/fake-tunnel.js';
import { useWorld } from '../support/world.js';

const KEY = 'e2e-tunnel-key';
const SIGN_IN = demoTestId('Sign in shows the products');

/** The demo shop on loopback; records each request's path and host. */
async function startApp(): Promise<{ url: string; seen: IncomingMessage[]; close(): Promise<void> }> {
  const seen: IncomingMessage[] = [];
  const server: Server = createServer((req, res) => {
    seen.push(req);
    const name = (req.url ?? '/').split('?')[0]!.replace(/^\/demo\//, '') || 'index.html';
    const type = DEMO_SITE_FILES[name];
    if (!type) return void res.writeHead(404).end('not found');
    void readFile(path.join(demoSiteDir, name)).then((body) =>
      res.writeHead(200, { 'content-type': type }).end(body),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    close: () => new Promise((resolve) => (server.closeAllConnections(), server.close(() => resolve()))),
  };
}

describe.skipIf(!hasChromium)(
  'tunnel to the app started in the job (fake agents, Chromium)',
  { timeout: BROWSER_TIMEOUT_MS },
  () => {
    const world = useWorld({
      clock: 'scaled',
      apiKey: KEY,
      timeScale: 1,
      // The demo seed without its screenshot baseline: this test takes no screenshot.
      seed: (origin) => demoSeed(origin).seed,
      startEmulator: (options) =>
        startEmulator({ ...options, executor: new BrowserExecutor({ maxConcurrent: 1 }) }),
    });
    let app: Awaited<ReturnType<typeof startApp>>;
    let agent: FakeAgent;

    beforeAll(async () => {
      [app, agent] = await Promise.all([startApp(), installFakeAgent()]);
    }, BROWSER_TIMEOUT_MS);
    afterAll(async () => {
      for (const pid of (await agent?.alive()) ?? []) process.kill(pid, 'SIGKILL');
      await Promise.all([app?.close(), agent?.remove()]);
    }, BROWSER_TIMEOUT_MS);

    it("loads {{ngrokUrl}} in Chromium through the default quick tunnel; the run's webhook rides it back to the step", async () => {
      const run = await world.run({
        bundle: true,
        inputs: {
          ...world.connection(),
          'test-ids': SIGN_IN,
          tunnel: app.url,
          'start-url': '{{ngrokUrl}}/demo/index.html',
          screenshots: 'none',
          'timeout-minutes': '2',
        },
        env: agent.env(),
      });
      expect(run.code, run.stdout + run.stderr).toBe(0);
      expect(run.outputs.passed).toBe('1');
      const tunnelUrl = run.outputs['tunnel-url'] ?? '';
      expect(tunnelUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      // The browser reached the app through the proxy: the app saw the tunnel's host, not its own.
      const viaTunnel = app.seen.filter((req) => req.headers.host === new URL(tunnelUrl).host);
      expect(viaTunnel.map((req) => req.url)).toContain('/demo/index.html');
      const idOf = (test: unknown): unknown =>
        typeof test === 'string' ? test : (test as { _id?: string })?._id;
      const result = [...world.emulator.store.results.values()].find((r) => idOf(r.test) === SIGN_IN);
      expect(result?.variables.ngrokUrl).toBe(tunnelUrl);
      expect(run.summary).toContain(tunnelUrl);
      // A test run and notify auto: the agent forwards to the step's listener in front of the app, and the
      // run's webhook crossed the tunnel to it.
      const { args } = await agent.started();
      expect(args[3]).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(args[3]).not.toBe(app.url);
      expect(await agent.requests()).toContainEqual(expect.stringMatching(/^POST \/[0-9a-f]{48} 200$/));
      expect(await agent.alive()).toEqual([]);
    });
  },
);
