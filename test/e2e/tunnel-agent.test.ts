/**
 * The tunnel agent's life in a job, end to end through `dist/index.js`: the fake agents on PATH (they follow
 * the agents' docs, see `test/support/fakes`), a loopback app, and the emulator's simulated runs (the run's
 * start URL through the tunnel in Chromium is `tunnel.test.ts`). The default cloudflared quick tunnel passes
 * and its agent sees none of the job's secrets; ngrok's free-plan warning page and a cloudflared that cannot
 * get a quick tunnel fail the step before any run is triggered, naming the cause; an agent that exits while
 * the run goes on is a warning on the run; no agent is left running: after a passing run with an agent that
 * ignores SIGTERM, after SIGTERM mid-run, after SIGKILL mid-run (the post step stops it).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { agentMaySee } from '../../src/tunnel/providers.js';
import { useAgentAndApp } from '../support/fake-tunnel.js';
import { postStepEnv, until, type ActionRun } from '../support/harness.js';
import { listFiles } from '../support/reliability.js';
import { useWorld } from '../support/world.js';

const TOKEN = 'ngrok-token-7Qx2Lm9Zr4Kp1Vb8';
/** Secrets a job's environment may hold: none may reach the agent or any output. */
const JOB_SECRETS = {
  AWS_SECRET_ACCESS_KEY: 'aws-secret-8Jd3',
  DB_PASSWORD: 'db-password-2Kx7',
  ACTIONS_RUNTIME_TOKEN: 'runtime-token-5Hd8',
  GITHUB_TOKEN: 'ghs_token9Kq2',
};
const TEST = 'test-home';

const world = useWorld({ clock: 'scaled', visuals: false });
const tunnel = useAgentAndApp();

afterEach(async () => {
  expect(await tunnel.agent.alive()).toEqual([]);
  world.emulator.setScenario(TEST, world.seedScenarios.get(TEST)!);
});

function inputsFor(over: Record<string, string> = {}): Record<string, string> {
  return {
    ...world.connection(),
    'test-ids': TEST,
    tunnel: tunnel.appUrl,
    'start-url': '{{ngrokUrl}}/index.html',
    screenshots: 'none',
    'timeout-minutes': '2',
    ...over,
  };
}

/** Every file the run wrote in the workspace, as text. */
function workspaceText(): string {
  return listFiles(world.workspace)
    .map((file) => readFileSync(path.join(world.workspace, file), 'latin1'))
    .join('\n');
}

function expectNoSecret(run: ActionRun): void {
  const files = workspaceText();
  for (const text of [run.stdout, run.stderr, run.summary, JSON.stringify(run.outputs), files]) {
    for (const secret of [TOKEN, ...Object.values(JOB_SECRETS)]) expect(text).not.toContain(secret);
  }
}

const triggered = (): unknown[] =>
  world.emulator.requests().filter((r) => r.method === 'POST' || r.path.includes('execute'));

/** Starts the bundle with a run that never ends, and waits until the run is under way. */
async function startMidRun(inputs: Record<string, string>) {
  world.emulator.setScenario(TEST, { hang: true });
  const started = await world.start({ bundle: true, inputs, env: tunnel.agent.env() });
  // Triggered, and read once since: the run is under way and followed.
  await until(() => {
    const paths = world.emulator.requests().map((r) => r.path);
    const execute = paths.findIndex((p) => p.includes(`/tests/${TEST}/execute`));
    return execute >= 0 && paths.slice(execute + 1).some((p) => /\/(results|running)\//.test(p));
  }, 30_000);
  return started;
}

describe('the tunnel agent in a job (fake agents, bundle)', () => {
  it('opens the default quick tunnel; the agent sees no job secret; an agent that ignores SIGTERM is killed when the step ends', async () => {
    await tunnel.agent.behave({ ignoreSigterm: true });
    const before = (await tunnel.agent.pids()).length;
    const run = await world.run({
      bundle: true,
      inputs: inputsFor(),
      env: { ...tunnel.agent.env(), ...JOB_SECRETS },
    });
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(run.outputs.passed).toBe('1');
    expect(run.outputs['tunnel-url']).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const { args, env } = await tunnel.agent.started();
    expect(args.slice(0, 3)).toEqual(['tunnel', '--no-autoupdate', '--url']);
    expect(env.filter((name) => !agentMaySee('cloudflared', name))).toEqual([]);
    expect(run.state['tunnel-agent']).toBe('');
    expectNoSecret(run);
    // One agent ran, and none is left running (afterEach): the step killed it after SIGTERM did nothing.
    expect(await tunnel.agent.pids()).toHaveLength(before + 1);
  });

  it("refuses ngrok's free-plan warning page before triggering any run, naming it and the ways out", async () => {
    await tunnel.agent.behave({ plan: 'free' });
    const inputs = inputsFor({ 'tunnel-provider': 'ngrok', 'ngrok-authtoken': TOKEN });
    const run = await world.run({ bundle: true, inputs, env: tunnel.agent.env() });
    expect(run.code).toBe(1);
    expect(run.stdout).toContain("ngrok's browser warning page (ERR_NGROK_6024");
    expect(run.stdout).toContain('tunnel-provider: cloudflared');
    expect(run.stdout).toContain('ngrok paid plan');
    expect(run.stdout).toContain('No run was triggered');
    expect(triggered()).toEqual([]);
    expectNoSecret(run);
  });

  it('fails within 15 s when cloudflared cannot get a quick tunnel, quoting its error, triggering nothing', async () => {
    await tunnel.agent.behave({ failQuickTunnel: true });
    const started = Date.now();
    const inputs = inputsFor({ 'timeout-minutes': '5' });
    const run = await world.run({ bundle: true, inputs, env: tunnel.agent.env() });
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
    await tunnel.agent.behave({ exitAfterRequests: 1 }); // the action's own check through the tunnel
    const run = await world.run({ bundle: true, inputs: inputsFor(), env: tunnel.agent.env() });
    expect(run.stdout).toMatch(
      /::warning::The tunnel agent exited at \d{4}-\d\d-\d\dT[\d:.]+Z, before "[^"]+"[^\n]* ended \(\d{4}-[\d-]+T[\d:.]+Z\)/,
    );
  });

  it('stops the agent on SIGTERM mid-run', async () => {
    const inputs = inputsFor({ 'tunnel-provider': 'ngrok', 'ngrok-authtoken': TOKEN });
    const { cancel, done } = await startMidRun(inputs);
    expect(await tunnel.agent.alive()).toHaveLength(1);
    cancel('SIGTERM');
    const run = await done;
    expect(run.code).not.toBe(0);
    expectNoSecret(run);
  });

  it('after SIGKILL of the main step, the post step stops the agent it left running', async () => {
    await tunnel.agent.behave({ ignoreSigterm: true });
    const inputs = inputsFor();
    const { kill, done } = await startMidRun(inputs);
    kill();
    const main = await done;
    const [pid] = await tunnel.agent.alive();
    expect(JSON.parse(main.state['tunnel-agent'] ?? '{}')).toMatchObject({ pid });
    const env = { ...tunnel.agent.env(), ...postStepEnv(main.state) };
    const post = await world.run({ bundle: true, inputs, env });
    expect(post.code).toBe(0);
    expect(post.stdout).toContain(`Stopped the tunnel agent the main step left running (pid ${pid})`);
  });
});
