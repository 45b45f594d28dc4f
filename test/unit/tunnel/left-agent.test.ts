/**
 * The post step's stop of an agent a killed main step left running: only a pid that still runs the saved
 * executable is signalled, and one that ignores SIGTERM is killed.
 */
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { stopLeftAgent } from '../../../src/tunnel/left-agent.js';
import { isAlive } from '../../support/fake-tunnel.js';

/** A process of `process.execPath` that ignores SIGTERM, detached as the agent of a killed step is. */
function hungAgent(): number {
  const child = spawn(
    process.execPath,
    ['-e', "process.on('SIGTERM', () => {}); setInterval(() => {}, 1000)"],
    {
      detached: true,
      stdio: 'ignore',
    },
  );
  child.unref();
  return child.pid ?? 0;
}

describe.skipIf(process.platform === 'win32')('stopLeftAgent', () => {
  it('kills the saved agent, SIGKILL after SIGTERM is ignored', async () => {
    const pid = hungAgent();
    expect(await stopLeftAgent({ pid, path: process.execPath })).toBe(pid);
    expect(isAlive(pid)).toBe(false);
  });

  it('leaves a process alone that does not run the saved executable', async () => {
    const pid = hungAgent();
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
});
