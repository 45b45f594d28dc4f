/**
 * The action's tunnel step in-process (`src/action/tunnel.ts`, docs/tunnel.md) with the fake cloudflared
 * (`test/support/fakes`, which follows cloudflared's docs) in front of a loopback app: the public URL as
 * the `tunnel-url` output, redacted; the agent saved in the step state once spawned and cleared once
 * stopped or failed; a start that cannot open fails the step before any run, also when the deadline has
 * passed; a warning for each run that ended after the agent exited; the post step's stop of an agent left
 * running; and a forced exit that kills the agents first.
 */
import { spawn } from 'node:child_process';
import { realpath } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ActionDeps } from '../../../src/action/deps.js';
import {
  killingAgentsOnForceExit,
  openTunnel,
  stopAgentLeftRunning,
  warnRunsAfterAgentExit,
} from '../../../src/action/tunnel.js';
import { readGitHubContext } from '../../../src/github.js';
import { readInputs, type ActionInputs } from '../../../src/inputs/index.js';
import type { Tunnel } from '../../../src/tunnel/tunnel.js';
import { installFakeAgent, isAlive, type FakeAgent } from '../../support/fake-tunnel.js';
import { until } from '../../support/harness.js';
import { ManualClock } from '../../support/manual-clock.js';
import { runSummary, suiteRun } from '../../support/run-factories.js';
import { RecordingSink, stepDeps } from '../../support/run-action.js';
import { runnerInputs } from '../../support/runner-inputs.js';

/** The loopback host of the fake agent's public URL, made a secret so redaction shows. */
const HOST = '127.0.0.1';
const NOW = Date.parse('2026-05-01T12:00:00.000Z');

let agent: FakeAgent;
let app: Server;
let appUrl: string;

beforeAll(async () => {
  agent = await installFakeAgent();
  app = createServer((_req, res) => res.end('app'));
  await new Promise<void>((resolve) => app.listen(0, HOST, resolve));
  appUrl = `http://${HOST}:${(app.address() as AddressInfo).port}`;
});
beforeEach(() => agent.behave({}));
// An agent a failing case left running is this file's own: none outlives its case.
afterEach(async () => {
  for (const pid of await agent.alive()) process.kill(pid, 'SIGKILL');
});
afterAll(async () => {
  app.closeAllConnections();
  app.close();
  await agent.remove();
});

/** A sink that also keeps every `saveState` call, in order. */
class StateSink extends RecordingSink {
  saves: Array<[string, string]> = [];
  override saveState(name: string, value: string): void {
    super.saveState(name, value);
    this.saves.push([name, value]);
  }
}

function depsWith(env: NodeJS.ProcessEnv, sink = new StateSink()): ActionDeps & { sink: StateSink } {
  return stepDeps(env, sink, { github: readGitHubContext({}), clock: new ManualClock(NOW) });
}

type TunnelInputs = ActionInputs & { tunnel: NonNullable<ActionInputs['tunnel']> };

/** The inputs of a step with `tunnel: <the app>`; the loopback host is one of their secrets. */
async function tunnelInputs(): Promise<TunnelInputs> {
  const inputs = await readInputs({
    env: runnerInputs({ 'api-key': 'tunnel-unit-key', 'suite-ids': 'suite-1', tunnel: appUrl }),
    workspace: process.cwd(),
  });
  return { ...inputs, tunnel: inputs.tunnel!, secrets: [...inputs.secrets, HOST] };
}

/** The agent saved in the step state by the last non-empty save. */
function savedAgent(sink: StateSink): { pid: number; path: string } {
  const saved = sink.saves.filter(([name, value]) => name === 'tunnel-agent' && value).at(-1);
  return JSON.parse(saved![1]) as { pid: number; path: string };
}

describe('openTunnel', () => {
  it('opens the tunnel: the tunnel-url output redacted, the agent saved while it runs and cleared once stopped', async () => {
    const inputs = await tunnelInputs();
    const deps = depsWith(agent.env());
    const tunnel = await openTunnel(inputs, deps, NOW + 10 * 60_000, new AbortController().signal);
    expect(tunnel).not.toBeNull();
    expect(tunnel!.url).toMatch(/^http:\/\/\*\*\*:\d+$/);
    expect(deps.sink.outputs['tunnel-url']).toBe(tunnel!.url);
    expect(deps.sink.stdout).toContain(`Tunnel (cloudflared): ${tunnel!.url} -> http://***:`);
    expect(deps.sink.stdout).not.toContain(HOST);
    const { pid, path: executable } = savedAgent(deps.sink);
    // Saved as started, then as the executable the OS reports for that pid (the fake is a node script).
    expect(
      deps.sink.saves.map(([name, value]) => [name, (JSON.parse(value) as { pid: number }).pid]),
    ).toEqual([
      ['tunnel-agent', pid],
      ['tunnel-agent', pid],
    ]);
    expect(await realpath(executable)).toBe(await realpath(process.execPath));
    expect(isAlive(pid)).toBe(true);
    expect(await agent.alive()).toContain(pid);
    await tunnel!.stop();
    expect(isAlive(pid)).toBe(false);
    expect(deps.sink.saves.at(-1)).toEqual(['tunnel-agent', '']);
    expect(deps.sink.failed).toBe(false);
  });

  it('a deadline already passed: no time to open, the step fails before any run, the agent cleared', async () => {
    const inputs = await tunnelInputs();
    const deps = depsWith(agent.env());
    const tunnel = await openTunnel(inputs, deps, NOW - 60_000, new AbortController().signal);
    expect(tunnel).toBeNull();
    expect(deps.sink.failed).toBe(true);
    expect(deps.sink.stdout).toMatch(/::error::Could not open the tunnel: \S.* No run was triggered\.\n$/);
    expect(deps.sink.outputs).toEqual({});
    expect(deps.sink.saves.at(-1)).toEqual(['tunnel-agent', '']);
    expect(await agent.alive()).toEqual([]);
  });

  it('an agent that cannot open: its error in the failure, redacted; the agent state cleared', async () => {
    await agent.behave({ failQuickTunnel: true });
    const inputs = await tunnelInputs();
    const deps = depsWith(agent.env());
    expect(await openTunnel(inputs, deps, NOW + 10 * 60_000, new AbortController().signal)).toBeNull();
    expect(deps.sink.stdout).toMatch(
      /^::error::Could not open the tunnel: The cloudflared agent .*failed to request quick Tunnel.* No run was triggered\.\n$/,
    );
    expect(deps.sink.stdout).toContain('http://***:');
    expect(deps.sink.stdout).not.toContain(HOST);
    expect(deps.sink.saves.at(-1)).toEqual(['tunnel-agent', '']);
  });
});

describe('warnRunsAfterAgentExit', () => {
  const exitedAtMs = Date.parse('2026-05-01T12:05:00.000Z');
  const tunnel = (exitedAt: number | null): Tunnel => ({
    url: 'http://***:4567',
    address: 'http://localhost:3000',
    exitedAt: () => exitedAt,
    stop: () => Promise.resolve(),
  });
  const summary = runSummary([
    suiteRun([], { key: 'before', suiteName: 'Before', endedAt: '2026-05-01T12:04:59.999Z' }),
    suiteRun([], { key: 'at', suiteName: 'At', endedAt: '2026-05-01T12:05:00.000Z' }),
    suiteRun([], {
      key: 'after',
      suiteName: 'After',
      endedAt: '2026-05-01T12:06:00.000Z',
      variant: { browser: 'firefox', region: 'eu-west-1' },
    }),
    suiteRun([], { key: 'going', suiteName: 'Going' }),
  ]);

  it('warns once for each run that ended at or after the agent exited, with its variant', () => {
    const deps = depsWith({});
    warnRunsAfterAgentExit(tunnel(exitedAtMs), summary, deps);
    expect(deps.sink.stdout).toBe(
      '::warning::The tunnel agent exited at 2026-05-01T12:05:00.000Z, before "At" ended (2026-05-01T12:05:00.000Z): its browsers may have reached http://***:4567 without the app behind it.\n' +
        '::warning::The tunnel agent exited at 2026-05-01T12:05:00.000Z, before "After" [firefox · eu-west-1] ended (2026-05-01T12:06:00.000Z): its browsers may have reached http://***:4567 without the app behind it.\n',
    );
  });

  it('an agent that never exited by itself: no warning', () => {
    const deps = depsWith({});
    warnRunsAfterAgentExit(tunnel(null), summary, deps);
    expect(deps.sink.stdout).toBe('');
  });
});

/** A detached process of `process.execPath` standing for an agent a killed main step left running. */
async function leftAgent(): Promise<number> {
  const child = spawn(process.execPath, ['-e', "setInterval(() => {}, 1000); console.log('ready')"], {
    detached: true,
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  await new Promise((resolve) => child.stdout.once('data', resolve));
  child.stdout.destroy();
  child.unref();
  return child.pid ?? 0;
}

describe.skipIf(process.platform === 'win32')('stopAgentLeftRunning', () => {
  it('stops the agent the step state names and says so', async () => {
    const pid = await leftAgent();
    try {
      const deps = depsWith({ 'STATE_tunnel-agent': JSON.stringify({ pid, path: process.execPath }) });
      await stopAgentLeftRunning(deps);
      expect(isAlive(pid)).toBe(false);
      expect(deps.sink.stdout).toBe(`Stopped the tunnel agent the main step left running (pid ${pid}).\n`);
    } finally {
      if (isAlive(pid)) process.kill(pid, 'SIGKILL');
    }
  });

  it('no agent saved, or one no longer running: nothing done, nothing said', async () => {
    const pid = await leftAgent();
    try {
      for (const env of [{}, { 'STATE_tunnel-agent': '' }]) {
        const deps = depsWith(env);
        await stopAgentLeftRunning(deps);
        expect(deps.sink.stdout).toBe('');
      }
      // The pid runs another executable: not the agent any more.
      const other = depsWith({ 'STATE_tunnel-agent': JSON.stringify({ pid, path: '/opt/cloudflared' }) });
      await stopAgentLeftRunning(other);
      expect(other.sink.stdout).toBe('');
      expect(isAlive(pid)).toBe(true);
    } finally {
      process.kill(pid, 'SIGKILL');
    }
  });

  it('a state it cannot read: a warning that the agent may still run, never a failure', async () => {
    const deps = depsWith({ 'STATE_tunnel-agent': '{"pid": 12' });
    await stopAgentLeftRunning(deps);
    expect(deps.sink.stdout).toMatch(
      /^::warning::The tunnel agent the main step started may still be running: \S.*\n$/,
    );
    expect(deps.sink.failed).toBe(false);
  });
});

describe('killingAgentsOnForceExit', () => {
  it('kills the running agents, then forces the exit; the rest of the deps unchanged', async () => {
    const inputs = await tunnelInputs();
    let exits = 0;
    const world = { ...depsWith(agent.env()), forceExit: () => (exits += 1) };
    const tunnel = await openTunnel(inputs, world, NOW + 10 * 60_000, new AbortController().signal);
    const { pid } = savedAgent(world.sink);
    expect(isAlive(pid)).toBe(true);
    const deps = killingAgentsOnForceExit(world);
    expect(deps.sink).toBe(world.sink);
    expect(deps.env).toBe(world.env);
    deps.forceExit();
    expect(exits).toBe(1);
    await until(() => !isAlive(pid), 20_000);
    await tunnel!.stop();
  });
});
