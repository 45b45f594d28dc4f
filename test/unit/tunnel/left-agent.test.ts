/**
 * The post step's stop of an agent a killed main step left running: only a pid that still runs the saved
 * executable is signalled, and one that ignores SIGTERM is killed.
 */
import { execFileSync, spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { stopLeftAgent } from '../../../src/tunnel/left-agent.js';
import { isAlive } from '../../support/fake-tunnel.js';

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
