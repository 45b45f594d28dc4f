/**
 * The tunnel to an app started in the job, end to end through `dist/index.js`: the demo shop served on a
 * loopback port, the fake ngrok agent on PATH, the emulator's Chromium executor loading the test's start URL
 * `{{ngrokUrl}}/…` through the tunnel. The token never reaches an output, and no agent is left running:
 * after a passing run, after SIGTERM mid-run, and when the app never answers.
 */
import { readdir, readFile, rm, mkdtemp } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_SITE_FILES, demoSiteDir } from '../../emulator/demo-site/index.js';
import { demoTestId, startEmulator, type Emulator } from '../../emulator/index.js';
import { hasChromium } from '../support/browser-request.js';
import { installFakeAgent, type FakeAgent } from '../support/fake-tunnel.js';
import { runAction, startAction, waitFor, type ActionRun } from '../support/harness.js';

const KEY = 'e2e-tunnel-key';
const TOKEN = 'ngrok-token-7Qx2Lm9Zr4Kp1Vb8';
const SIGN_IN = demoTestId('Sign in shows the products');

/** The demo shop on loopback, holding `/hold` requests unanswered; records each request's path and host. */
async function startApp(): Promise<{ url: string; seen: IncomingMessage[]; close(): Promise<void> }> {
  const seen: IncomingMessage[] = [];
  const server: Server = createServer((req, res) => {
    seen.push(req);
    const name = (req.url ?? '/').split('?')[0]!.replace(/^\/demo\//, '') || 'index.html';
    if (req.url === '/hold') return;
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

/** Every file the run wrote in the workspace, as text. */
async function workspaceText(workspace: string): Promise<string> {
  const names = await readdir(workspace, { recursive: true, withFileTypes: true });
  const files = names.filter((d) => d.isFile()).map((d) => path.join(d.parentPath, d.name));
  return (await Promise.all(files.map((f) => readFile(f, 'latin1')))).join('\n');
}

describe.skipIf(!hasChromium)('tunnel to the app started in the job (fake ngrok agent, Chromium)', () => {
  let emulator: Emulator;
  let app: Awaited<ReturnType<typeof startApp>>;
  let agent: FakeAgent;
  let workspace: string;

  beforeAll(async () => {
    [emulator, app, agent] = await Promise.all([
      startEmulator({ executor: 'browser', apiKey: KEY, quiet: true, browser: { maxConcurrent: 1 } }),
      startApp(),
      installFakeAgent(),
    ]);
  });
  afterAll(async () => {
    await Promise.all([emulator?.close(), app?.close(), agent?.remove()]);
  });

  async function inputsFor(over: Record<string, string>): Promise<Record<string, string>> {
    workspace = await mkdtemp(path.join(tmpdir(), 'gi-e2e-tunnel-'));
    return {
      'api-key': KEY,
      'api-base-url': emulator.baseUrl,
      'test-ids': SIGN_IN,
      tunnel: app.url,
      'start-url': '{{ngrokUrl}}/demo/index.html',
      screenshots: 'none',
      'timeout-minutes': '2',
      ...over,
    };
  }

  function expectNoToken(run: ActionRun, files: string): void {
    for (const text of [run.stdout, run.stderr, run.summary, JSON.stringify(run.outputs), files]) {
      expect(text).not.toContain(TOKEN);
    }
  }

  it('loads {{ngrokUrl}} in Chromium through the tunnel; the run passes and the agent is stopped', async () => {
    const inputs = await inputsFor({});
    const runner = { ACTIONS_RUNTIME_TOKEN: 'runtime-token-5Hd8', GITHUB_TOKEN: 'ghs_token9Kq2' };
    const env = { ...agent.env(), ...runner, NGROK_AUTHTOKEN: TOKEN };
    const run = await runAction({ workspace, inputs, env });
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(run.outputs.passed).toBe('1');
    const tunnelUrl = run.outputs['tunnel-url'] ?? '';
    expect(tunnelUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    // The browser reached the app through the proxy: the app saw the tunnel's host, not its own.
    const viaTunnel = app.seen.filter((req) => req.headers.host === new URL(tunnelUrl).host);
    expect(viaTunnel.map((req) => req.url)).toContain('/demo/index.html');
    const idOf = (test: unknown): unknown =>
      typeof test === 'string' ? test : (test as { _id?: string })?._id;
    const result = [...emulator.store.results.values()].find((r) => idOf(r.test) === SIGN_IN);
    expect(result?.variables.ngrokUrl).toBe(tunnelUrl);
    expect(run.summary).toContain(tunnelUrl);
    expect(run.summary).toContain(app.url);
    // The agent gets its token and none of the action's inputs or the runner's credentials.
    expect(await agent.started()).toEqual({
      args: ['http', app.url, '--log', 'stdout', '--log-format', 'json'],
      secretEnv: ['NGROK_AUTHTOKEN'],
    });
    expectNoToken(run, await workspaceText(workspace));
    expect(await agent.alive()).toEqual([]);
    await rm(workspace, { recursive: true, force: true });
  });

  it('stops the agent on SIGTERM mid-run', async () => {
    const inputs = await inputsFor({ 'start-url': '{{ngrokUrl}}/hold', 'ngrok-authtoken': TOKEN });
    const before = app.seen.length;
    const { child, done } = await startAction({ workspace, inputs, env: agent.env() });
    // The browser is loading the held page through the tunnel: the run is going.
    await waitFor(() => app.seen.slice(before).some((req) => req.url === '/hold'), 30_000);
    expect(await agent.alive()).toHaveLength(1);
    child.kill('SIGTERM');
    const run = await done;
    expect(run.code).not.toBe(0);
    expectNoToken(run, await workspaceText(workspace));
    expect(await agent.alive()).toEqual([]);
    await rm(workspace, { recursive: true, force: true });
  });

  it('fails naming the local address when the app never answers, triggers nothing, leaves no agent', async () => {
    const closed = await startApp();
    await closed.close();
    const inputs = await inputsFor({
      tunnel: closed.url,
      'timeout-minutes': '0.1',
      'ngrok-authtoken': TOKEN,
    });
    emulator.resetLog();
    const started = Date.now();
    const run = await runAction({ workspace, inputs, env: agent.env() });
    expect(run.code).toBe(1);
    expect(Date.now() - started).toBeLessThan(6_000 + 5_000);
    expect(run.stdout).toContain(`nothing answers at ${closed.url}`);
    expect(run.stdout).toContain('No run was triggered');
    expect(emulator.requests().filter((r) => r.method === 'POST' || r.path.includes('execute'))).toEqual([]);
    expectNoToken(run, await workspaceText(workspace));
    expect(await agent.alive()).toEqual([]);
    await rm(workspace, { recursive: true, force: true });
  });
});
