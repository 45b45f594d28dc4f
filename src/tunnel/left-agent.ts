import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { systemClock } from '../common/clock.js';
import { runsExecutable } from './process-executable.js';
import { STOP_GRACE_MS, type AgentProcess } from './tunnel.js';

const run = promisify(execFile);
/** Pause between two looks at whether the agent is gone, ms. */
const POLL_MS = 100;

/**
 * Stops the agent a killed main step left running, only when its pid still runs its executable (a pid is
 * reused once the agent is gone), as the OS reports the executable of that pid, never by what its command
 * line says: SIGTERM, then SIGKILL after {@link STOP_GRACE_MS} (docs/tunnel.md, "Teardown").
 * @returns the pid stopped, or null when nothing of that agent runs any more
 * @throws Error when the agent survives SIGKILL or cannot be signalled
 */
export async function stopLeftAgent(agent: AgentProcess): Promise<number | null> {
  if (!Number.isInteger(agent.pid) || agent.pid <= 0 || typeof agent.path !== 'string') return null;
  if (!(await runsExecutable(agent.pid, agent.path))) return null;
  process.kill(agent.pid, 'SIGTERM');
  if (await gone(agent.pid, STOP_GRACE_MS)) return agent.pid;
  process.kill(agent.pid, 'SIGKILL');
  if (await gone(agent.pid, STOP_GRACE_MS)) return agent.pid;
  throw new Error(`pid ${agent.pid} still runs after SIGKILL`);
}

async function gone(pid: number, withinMs: number): Promise<boolean> {
  const until = Date.now() + withinMs;
  for (;;) {
    if (!(await alive(pid))) return true;
    if (Date.now() >= until) return false;
    await systemClock.sleep(POLL_MS);
  }
}

/** Whether `pid` still runs: signal 0 finds it and it is no zombie (dead, its parent not having reaped it). */
async function alive(pid: number): Promise<boolean> {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  // Stryker disable next-line all: Windows only; the tests run on Linux
  if (process.platform === 'win32') return true;
  try {
    const { stdout } = await run('ps', ['-o', 'stat=', '-p', String(pid)]);
    return !stdout.trim().startsWith('Z');
  } catch {
    return false; // gone between the two looks
  }
}
