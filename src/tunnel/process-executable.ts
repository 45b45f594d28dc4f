/** The executable a process runs, as the operating system reports it (docs/tunnel.md, "Teardown"). */
import { execFile } from 'node:child_process';
import { readlink, realpath } from 'node:fs/promises';
import { promisify } from 'node:util';

const run = promisify(execFile);

/**
 * The path of the executable `pid` runs, as the OS reports it: Linux reads the `/proc/<pid>/exe` link (the
 * file the kernel loaded, whatever the command line says); macOS and other Unix systems ask `ps -o comm=`
 * (on macOS the path the process was last started from: a process started from a path, as `spawn` and a
 * shim's `exec` do, shows that full path, not its arguments); Windows asks PowerShell for the process's
 * `Path`. A process started through a shim that `exec`s the agent reports the agent.
 * @returns the path, or null when no such process runs (or it is a zombie, on Linux)
 */
export async function executableOf(pid: number): Promise<string | null> {
  try {
    // Stryker disable all: other systems than Linux; the tests run on Linux (agents.yml runs them all)
    if (process.platform === 'win32') {
      const script = `(Get-Process -Id ${pid} -ErrorAction Stop).Path`;
      const { stdout } = await run('powershell.exe', ['-NoProfile', '-NonInteractive', '-Command', script]);
      return stdout.trim() || null;
    }
    if (process.platform !== 'linux') {
      const { stdout } = await run('ps', ['-o', 'comm=', '-p', String(pid)]);
      return stdout.trim() || null;
    }
    // Stryker restore all
    return await readlink(`/proc/${pid}/exe`);
  } catch {
    return null; // no such process (`ps` exits 1, PowerShell throws, the link is gone)
  }
}

/**
 * Whether `pid` runs `executable` (a path as {@link executableOf} reported it, or as the agent was started
 * from: its real path is compared too). Case is ignored on Windows.
 */
export async function runsExecutable(pid: number, executable: string): Promise<boolean> {
  const running = await executableOf(pid);
  if (!running) return false;
  const real = await realpath(executable).catch(() => executable);
  const same = (a: string, b: string): boolean =>
    // Stryker disable next-line all: Windows only; the tests run on Linux
    process.platform === 'win32' ? a.toLowerCase() === b.toLowerCase() : a === b;
  return same(running, executable) || same(running, real);
}
