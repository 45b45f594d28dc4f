/**
 * `startTunnel` when the start goes wrong, with the fake agents on loopback (they follow the agents' docs,
 * see `test/support/fakes`): an agent that cannot start, is killed, never gets its tunnel, or exits before
 * the app answers through it; a workflow cancel while the tunnel opens; a try cut short by the bound. Also
 * the exit hook that kills the agents still running (`killAgentsNow`), and the Windows `Path` variable.
 */
import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { TunnelInputs } from '../../../src/inputs/schema.js';
import {
  killAgentsNow,
  startTunnel,
  type AgentProcess,
  type StartTunnelOptions,
} from '../../../src/tunnel/tunnel.js';
import { isAlive, useAgentAndApp } from '../../support/fake-tunnel.js';
import { until } from '../../support/harness.js';
import { ManualClock } from '../../support/manual-clock.js';

const world = useAgentAndApp();
const { tunnel } = world;

const ngrok: Partial<TunnelInputs> = { provider: 'ngrok', authtoken: 'ngrok-token-7Qx2Lm9Zr4Kp1Vb8' };

function start(over: Partial<TunnelInputs>, options: Partial<StartTunnelOptions> = {}) {
  return startTunnel({
    tunnel: tunnel(over),
    env: world.agent.env(),
    log: () => {},
    signal: new AbortController().signal,
    timeoutMs: 20_000,
    ...options,
  });
}

/** The message `promise` rejects with. */
async function failure(promise: Promise<unknown>): Promise<string> {
  return promise.then(
    () => 'resolved',
    (error: unknown) => (error as Error).message,
  );
}

describe('startTunnel when the agent does not open the tunnel', () => {
  it('an agent that cannot be started: a clear error, no agent to report', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'gi-broken-agent-'));
    try {
      const exe = path.join(dir, 'cloudflared');
      await writeFile(exe, '#!/nonexistent/interpreter\n'); // executable, but its interpreter is missing
      await chmod(exe, 0o755);
      const spawned: AgentProcess[] = [];
      const message = await failure(
        start({}, { env: { PATH: dir }, onSpawn: (started) => spawned.push(started) }),
      );
      expect(message).toBe(
        `Could not start the cloudflared agent for tunnel ${world.appUrl}: spawn ${exe} ENOENT`,
      );
      expect(spawned).toEqual([]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('an agent killed before it announces the tunnel: its signal named, found by the pid and path given', async () => {
    const spawned: AgentProcess[] = [];
    const message = await failure(
      start(
        {},
        {
          onSpawn: (started) => {
            spawned.push(started);
            process.kill(started.pid, 'SIGKILL');
          },
        },
      ),
    );
    expect(message).toBe(
      `The cloudflared agent exited (code SIGKILL) before it opened the tunnel to ${world.appUrl}.`,
    );
    expect(spawned).toEqual([
      { pid: expect.any(Number), path: path.join(world.agent.binDir, 'cloudflared') },
    ]);
  });

  it('an agent that never gets its tunnel: the bound ends the wait, quoting its last error', async () => {
    await world.agent.behave({ unreachable: true });
    // The bound runs on a clock of the test's: it ends once the agent has run and logged its error (it logs
    // as it starts, then every second), however long a busy machine takes to start it.
    const clock = new ManualClock();
    const ending = failure(start(ngrok, { timeoutMs: 1_500, clock }));
    await until(async () => (await world.agent.pids()).length > 0);
    await new Promise((resolve) => setTimeout(resolve, 200)); // the agent's first line read from its pipe
    await clock.advance(1_500);
    const message = await ending;
    expect(message).toBe(
      `The ngrok agent did not open the tunnel to ${world.appUrl} in time: failed to reconnect session: failed to dial ngrok server with address "connect.ngrok-agent.com:443": dial tcp: lookup connect.ngrok-agent.com: no such host.`,
    );
    expect(await world.agent.alive()).toEqual([]);
  });

  it('an agent not installed and without a download for this machine: the reason, before any agent runs', async () => {
    const arch = Object.getOwnPropertyDescriptor(process, 'arch')!;
    Object.defineProperty(process, 'arch', { ...arch, value: 'gi-none' });
    try {
      const message = await failure(start({}, { env: {} }));
      expect(message).toBe(
        `cloudflared is not on PATH and there is no download of it for ${process.platform}/gi-none: install it in an earlier step`,
      );
    } finally {
      Object.defineProperty(process, 'arch', arch);
    }
  });

  it('an agent that announces a URL with a path: refused without showing it, the agent stopped', async () => {
    await world.agent.behave({ urlWithPath: true });
    const message = await failure(start(ngrok));
    expect(message).toMatch(
      /^The ngrok agent announced a public URL that is not of the form https:\/\/host\[:port\]/,
    );
    expect(message).not.toContain('t0k3n');
    expect(await world.agent.alive()).toEqual([]);
  });
});

describe('startTunnel after the tunnel opened', () => {
  it('an agent that exits before the app answered through it: its exit code named', async () => {
    await world.agent.behave({ tunnelNotFound: true, exitAfterRequests: 1 });
    const message = await failure(start(ngrok));
    expect(message).toBe(
      `The ngrok agent exited (code 1) before the app answered through the tunnel to ${world.appUrl}.`,
    );
  });

  it('a workflow cancel while it waits for the app: cancelled, the agent stopped', async () => {
    await world.agent.behave({ tunnelNotFound: true });
    const cancel = new AbortController();
    const lines: string[] = [];
    const log = (line: string): void => {
      lines.push(line);
      cancel.abort();
    };
    const message = await failure(start(ngrok, { log, signal: cancel.signal }));
    expect(message).toBe(`Cancelled while the tunnel to ${world.appUrl} was opening.`);
    expect(lines).toEqual([expect.stringMatching(/^Tunnel \(ngrok\): http:\/\/127\.0\.0\.1:\d+ -> /)]);
    expect(lines[0]).toContain(` -> ${world.appUrl}`);
    expect(await world.agent.alive()).toEqual([]);
  });

  it('a try cut short by the bound says nothing about the app', async () => {
    // Answers only when asked directly: a request through the tunnel (the agent's Host) is held.
    let address = '';
    let tried = false;
    const held = createServer((req, res) => {
      if (req.headers.host === new URL(address).host) res.end('app');
      else tried = true;
    });
    await new Promise<void>((resolve) => held.listen(0, '127.0.0.1', resolve));
    address = `http://127.0.0.1:${(held.address() as AddressInfo).port}`;
    try {
      // The bound (on a clock of the test's) ends once a try through the tunnel is held at the app.
      const clock = new ManualClock();
      const ending = failure(start({ address }, { timeoutMs: 1_500, clock }));
      await until(() => tried);
      await clock.advance(1_500);
      const message = await ending;
      expect(message).toMatch(
        /^The app did not answer through the tunnel \(http:\/\/127\.0\.0\.1:\d+ -> .*; last: no answer\): the app answers at .* itself, but not through the tunnel\.$/,
      );
      expect(message).toContain(` -> ${address}; `);
    } finally {
      held.closeAllConnections();
      held.close();
    }
  });
});

describe('the agents still running', () => {
  it('are killed at once by killAgentsNow, hooked once on exit however many run', async () => {
    const hooks = (): number => process.listeners('exit').filter((l) => l === killAgentsNow).length;
    const before = hooks();
    const first = await start({});
    const second = await start({});
    try {
      expect(hooks() - before).toBe(1);
      expect(await world.agent.alive()).toHaveLength(2);
      killAgentsNow();
      const alive = await world.agent.alive();
      await until(() => alive.every((pid) => !isAlive(pid)), 10_000);
    } finally {
      await first.stop();
      await second.stop();
    }
  });

  it('finds the agent through `Path` when there is no `PATH` (as Windows names it)', async () => {
    const open = await start({}, { env: { Path: world.agent.env().PATH } });
    try {
      expect(await (await fetch(open.url)).text()).toBe('app');
    } finally {
      await open.stop();
    }
  });
});
