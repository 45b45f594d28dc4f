/**
 * The tunnel to an app started in the job, end to end through `dist/index.js`: the demo shop served on a
 * loopback port, the fake agents on PATH (they follow the agents' docs, see `test/support/fakes`), the
 * emulator's Chromium executor loading the test's start URL `{{ngrokUrl}}/…` through the tunnel.
 * The default cloudflared quick tunnel passes (the run's webhook rides it to the step, which stands in
 * front of the app) and its agent sees none of the job's secrets; ngrok's
 * free-plan warning page and a cloudflared that cannot get a quick tunnel fail the step before any run is
 * triggered, naming the cause; an agent that exits while the run goes on is a warning on the run; no agent
 * is left running: after a passing run with an agent that ignores SIGTERM, after SIGTERM mid-run, after
 * SIGKILL mid-run (the post step stops it). An app that never answers is `startTunnel`'s own case
 * (test/unit/tunnel/tunnel.test.ts), and a tunnel that cannot open fails the step before any run
 * (test/unit/action/tunnel.test.ts, and the cloudflared case here).
 */
import { readdir, readFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DEMO_SITE_FILES, demoSiteDir } from '../../demo/site/index.js';
import { demoTestId } from '../../demo/seed.js';
import { startDemoEmulator } from '../../demo/start.js';
import { hasChromium } from '../support/browser-request.js';
import { installFakeAgent, type FakeAgent } from '../support/fake-tunnel.js';
import { agentMaySee } from '../../src/tunnel/providers.js';
import { postStepEnv, until, type ActionRun } from '../support/harness.js';
import { useWorld } from '../support/world.js';

const KEY = 'e2e-tunnel-key';
const TOKEN = 'ngrok-token-7Qx2Lm9Zr4Kp1Vb8';
const SIGN_IN = demoTestId('Sign in shows the products');
/** Secrets a job's environment may hold: none may reach the agent or any output. */
const JOB_SECRETS = {
  AWS_SECRET_ACCESS_KEY: 'aws-secret-8Jd3',
  DB_PASSWORD: 'db-password-2Kx7',
  ACTIONS_RUNTIME_TOKEN: 'runtime-token-5Hd8',
  GITHUB_TOKEN: 'ghs_token9Kq2',
};

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

describe.skipIf(!hasChromium)('tunnel to the app started in the job (fake agents, Chromium)', () => {
  const world = useWorld({
    clock: 'scaled',
    apiKey: KEY,
    timeScale: 1,
    startEmulator: (options) => startDemoEmulator({ ...options, browser: { maxConcurrent: 1 } }),
  });
  let app: Awaited<ReturnType<typeof startApp>>;
  let agent: FakeAgent;
  let workspace: string;
  const bundle = (inputs: Record<string, string>, env: Record<string, string>) =>
    world.start({ bundle: true, workspace, inputs, env });

  beforeAll(async () => {
    [app, agent] = await Promise.all([startApp(), installFakeAgent()]);
  });
  beforeEach(async () => {
    await agent.behave({});
    workspace = await world.newWorkspace();
  });
  afterEach(async () => {
    expect(await agent.alive()).toEqual([]);
  });
  afterAll(async () => {
    for (const pid of (await agent?.alive()) ?? []) process.kill(pid, 'SIGKILL');
    await Promise.all([app?.close(), agent?.remove()]);
  });

  function inputsFor(over: Record<string, string>): Record<string, string> {
    return {
      ...world.connection(),
      'test-ids': SIGN_IN,
      tunnel: app.url,
      'start-url': '{{ngrokUrl}}/demo/index.html',
      screenshots: 'none',
      'timeout-minutes': '2',
      ...over,
    };
  }

  function expectNoSecret(run: ActionRun, files: string): void {
    for (const text of [run.stdout, run.stderr, run.summary, JSON.stringify(run.outputs), files]) {
      for (const secret of [TOKEN, ...Object.values(JOB_SECRETS)]) expect(text).not.toContain(secret);
    }
  }

  const triggered = (): unknown[] =>
    world.emulator.requests().filter((r) => r.method === 'POST' || r.path.includes('execute'));

  it('loads {{ngrokUrl}} in Chromium through the default quick tunnel; the agent sees no job secret; an agent that ignores SIGTERM is killed when the step ends', async () => {
    await agent.behave({ ignoreSigterm: true });
    const before = (await agent.pids()).length;
    const run = await (await bundle(inputsFor({}), { ...agent.env(), ...JOB_SECRETS })).done;
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
    const { args, env } = await agent.started();
    expect(args.slice(0, 3)).toEqual(['tunnel', '--no-autoupdate', '--url']);
    expect(args[3]).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(args[3]).not.toBe(app.url);
    expect(await agent.requests()).toContainEqual(expect.stringMatching(/^POST \/[0-9a-f]{48} 200$/));
    expect(env.filter((name) => !agentMaySee('cloudflared', name))).toEqual([]);
    expect(run.state['tunnel-agent']).toBe('');
    expectNoSecret(run, await workspaceText(workspace));
    // One agent ran, and none is left running (afterEach): the step killed it after SIGTERM did nothing.
    expect(await agent.pids()).toHaveLength(before + 1);
  });

  it("refuses ngrok's free-plan warning page before triggering any run, naming it and the ways out", async () => {
    await agent.behave({ plan: 'free' });
    const inputs = inputsFor({ 'tunnel-provider': 'ngrok', 'ngrok-authtoken': TOKEN });
    const run = await (await bundle(inputs, agent.env())).done;
    expect(run.code).toBe(1);
    expect(run.stdout).toContain("ngrok's browser warning page (ERR_NGROK_6024");
    expect(run.stdout).toContain('tunnel-provider: cloudflared');
    expect(run.stdout).toContain('ngrok paid plan');
    expect(run.stdout).toContain('No run was triggered');
    expect(triggered()).toEqual([]);
    expectNoSecret(run, await workspaceText(workspace));
  });

  it('fails within 15 s when cloudflared cannot get a quick tunnel, quoting its error, triggering nothing', async () => {
    await agent.behave({ failQuickTunnel: true });
    const started = Date.now();
    const run = await (await bundle(inputsFor({ 'timeout-minutes': '5' }), agent.env())).done;
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain(
      'failed to request quick Tunnel: Post "https://api.trycloudflare.com/tunnel": dial tcp: lookup api.trycloudflare.com: no such host',
    );
    expect(run.stdout).not.toMatch(/Tunnel \(cloudflared\): https:\/\/api\.trycloudflare\.com/);
    expect(run.stdout).toContain('No run was triggered');
    expect(triggered()).toEqual([]);
  });

  it('warns on the run that ended after the agent exited, naming the time', async () => {
    await agent.behave({ exitAfterRequests: 1 }); // the action's own check through the tunnel
    const run = await (await bundle(inputsFor({}), agent.env())).done;
    expect(run.stdout).toMatch(
      /::warning::The tunnel agent exited at \d{4}-\d\d-\d\dT[\d:.]+Z, before "Sign in shows the products"[^\n]* ended \(\d{4}-[\d-]+T[\d:.]+Z\)/,
    );
  });

  it('stops the agent on SIGTERM mid-run', async () => {
    const inputs = inputsFor({
      'start-url': '{{ngrokUrl}}/hold',
      'tunnel-provider': 'ngrok',
      'ngrok-authtoken': TOKEN,
    });
    const before = app.seen.length;
    const { cancel, done } = await bundle(inputs, agent.env());
    await until(() => app.seen.slice(before).some((req) => req.url === '/hold'), 30_000);
    expect(await agent.alive()).toHaveLength(1);
    cancel('SIGTERM');
    const run = await done;
    expect(run.code).not.toBe(0);
    expectNoSecret(run, await workspaceText(workspace));
  });

  it('after SIGKILL of the main step, the post step stops the agent it left running', async () => {
    await agent.behave({ ignoreSigterm: true });
    const inputs = inputsFor({ 'start-url': '{{ngrokUrl}}/hold' });
    const before = app.seen.length;
    const { kill, done } = await bundle(inputs, agent.env());
    await until(() => app.seen.slice(before).some((req) => req.url === '/hold'), 30_000);
    kill();
    const main = await done;
    const [pid] = await agent.alive();
    expect(JSON.parse(main.state['tunnel-agent'] ?? '{}')).toMatchObject({ pid });
    const post = await (await bundle(inputs, { ...agent.env(), ...postStepEnv(main.state) })).done;
    expect(post.code).toBe(0);
    expect(post.stdout).toContain(`Stopped the tunnel agent the main step left running (pid ${pid})`);
  });
});
