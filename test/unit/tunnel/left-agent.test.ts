/**
 * The post step's stop of an agent a killed main step left running: only a pid that still runs the saved
 * executable (as the OS reports it, not as its command line says) is signalled, and one that ignores
 * SIGTERM is killed; an agent started through a shim that `exec`s it is recognised.
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { stopLeftAgent } from '../../../src/tunnel/left-agent.js';
import { startTunnel, type AgentProcess } from '../../../src/tunnel/tunnel.js';
import { isAlive, useAgentAndApp } from '../../support/fake-tunnel.js';

/**
 * A process of `process.execPath`, detached as the agent of a killed step is, that ignores SIGTERM when
 * `ignoreTerm`; resolves once it is ready (its handler set), with its pid and how it ended.
 */
async function agent(ignoreTerm: boolean) {
  const script = `${ignoreTerm ? "process.on('SIGTERM', () => {}); " : ''}setInterval(() => {}, 1000); console.log('ready')`;
  const child = spawn(process.execPath, ['-e', script], {
    detached: true,
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  const ended = new Promise<NodeJS.Signals | null>((resolve) =>
    child.once('exit', (_code, signal) => resolve(signal)),
  );
  await new Promise((resolve) => child.stdout.once('data', resolve));
  child.stdout.destroy();
  child.unref();
  return { pid: child.pid ?? 0, ended };
}

/** An agent that ignores SIGTERM. */
async function hungAgent(): Promise<number> {
  return (await agent(true)).pid;
}

describe.skipIf(process.platform === 'win32')('stopLeftAgent', () => {
  it('kills the saved agent, SIGKILL after SIGTERM is ignored', async () => {
    const { pid, ended } = await agent(true);
    expect(await stopLeftAgent({ pid, path: process.execPath })).toBe(pid);
    expect(await ended).toBe('SIGKILL');
    expect(isAlive(pid)).toBe(false);
  });

  it('stops the saved agent with SIGTERM alone when it obeys', async () => {
    const { pid, ended } = await agent(false);
    expect(await stopLeftAgent({ pid, path: process.execPath })).toBe(pid);
    expect(await ended).toBe('SIGTERM');
    expect(isAlive(pid)).toBe(false);
  });

  it('leaves a process alone that does not run the saved executable', async () => {
    const pid = await hungAgent();
    try {
      expect(
        await stopLeftAgent({ pid, path: '/opt/hostedtoolcache/cloudflared/2026.9.3/x64/cloudflared' }),
      ).toBeNull();
      expect(isAlive(pid)).toBe(true);
    } finally {
      process.kill(pid, 'SIGKILL');
    }
  });

  it('waits for an agent that takes a while to end on SIGTERM, and sends no SIGKILL once it is gone', async () => {
    const script =
      "process.on('SIGTERM', () => setTimeout(() => process.exit(0), 300)); setInterval(() => {}, 1000); console.log('ready')";
    const child = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'ignore'] });
    const ended = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
    await new Promise((resolve) => child.stdout.once('data', resolve));
    const pid = child.pid ?? 0;
    expect(await stopLeftAgent({ pid, path: process.execPath })).toBe(pid);
    expect(await ended).toEqual({ code: 0, signal: null });
  });

  it('knows the agent saved by a symbolic link to its executable', async () => {
    const links = await mkdtemp(path.join(tmpdir(), 'gi-agent-link-'));
    try {
      const link = path.join(links, 'agent');
      await symlink(process.execPath, link);
      const { pid, ended } = await agent(false);
      expect(await stopLeftAgent({ pid, path: link })).toBe(pid);
      expect(await ended).toBe('SIGTERM');
    } finally {
      await rm(links, { recursive: true, force: true });
    }
  });

  it('does nothing for a pid that is gone', async () => {
    const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
    const pid = child.pid ?? 0;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
    expect(await stopLeftAgent({ pid, path: process.execPath })).toBeNull();
  });

  it('takes an agent that died but was not reaped (a zombie: its new parent never waits) for stopped', async () => {
    // As in a container job whose first process reaps nothing: the agent's parent (a shell turned into
    // `sleep`) never waits for it, so once it dies it stays a zombie, which signal 0 still finds.
    const parent = spawn(
      '/bin/sh',
      ['-c', `"${process.execPath}" -e "setInterval(() => {}, 1000)" & echo $!; exec sleep 30`],
      {
        stdio: ['ignore', 'pipe', 'ignore'],
      },
    );
    try {
      const pid = Number(
        await new Promise<string>((resolve) => parent.stdout.once('data', (d) => resolve(String(d)))),
      );
      await waitForCommand(pid);
      expect(await stopLeftAgent({ pid, path: process.execPath })).toBe(pid);
      expect(execFileSync('ps', ['-o', 'stat=', '-p', String(pid)], { encoding: 'utf8' }).trim()).toMatch(
        /^Z/,
      );
    } finally {
      parent.kill('SIGKILL');
    }
  });
});

/** Resolves once `pid` runs node (the shell's child has exec'd it). */
async function waitForCommand(pid: number): Promise<void> {
  for (;;) {
    const command = execFileSync('ps', ['-o', 'command=', '-p', String(pid)], { encoding: 'utf8' });
    if (command.includes(process.execPath)) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe.skipIf(process.platform === 'win32')('stopLeftAgent knows the agent by its executable', () => {
  const world = useAgentAndApp();

  it('recognises an agent started through a shim that execs it, from what the start recorded', async () => {
    const shims = await mkdtemp(path.join(tmpdir(), 'gi-agent-shim-'));
    try {
      // A version manager's shim: a shell script named like the agent that `exec`s the real one.
      await writeFile(
        path.join(shims, 'cloudflared'),
        `#!/bin/sh\nexec "${path.join(world.agent.binDir, 'cloudflared')}" "$@"\n`,
        { mode: 0o755 },
      );
      let saved: AgentProcess | undefined;
      const open = await startTunnel({
        tunnel: world.tunnel(),
        env: { PATH: shims },
        log: () => {},
        signal: new AbortController().signal,
        timeoutMs: 20_000,
        onSpawn: (agent) => (saved = agent),
      });
      const [pid] = await world.agent.alive();
      // The main step is killed here: the post step has only the saved state.
      expect(saved?.pid).toBe(pid);
      expect(await stopLeftAgent(saved ?? { pid: 0, path: '' })).toBe(pid);
      expect(isAlive(pid ?? 0)).toBe(false);
      await open.stop();
    } finally {
      await rm(shims, { recursive: true, force: true });
    }
  });

  it("leaves alone a process whose command line merely names the agent's path", async () => {
    const agentPath = '/opt/hostedtoolcache/cloudflared/2026.9.3/x64/cloudflared-linux-amd64';
    const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)', agentPath], {
      stdio: 'ignore',
    });
    const pid = child.pid ?? 0;
    try {
      await waitForCommand(pid);
      expect(execFileSync('ps', ['-o', 'command=', '-p', String(pid)], { encoding: 'utf8' })).toContain(
        agentPath,
      );
      expect(await stopLeftAgent({ pid, path: agentPath })).toBeNull();
      expect(isAlive(pid)).toBe(true);
    } finally {
      child.kill('SIGKILL');
    }
  });
});
