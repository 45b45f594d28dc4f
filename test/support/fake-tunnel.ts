/**
 * The fake ngrok agent (`fakes/ngrok-agent.mjs`) installed as `ngrok` in a folder of its own, to put first
 * on the action's PATH; and what the tests read back: the agents' pids (alive or not) and their arguments.
 */
import { chmod, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ROOT } from './harness.js';

export interface FakeAgent {
  /** The folder holding `ngrok`. */
  binDir: string;
  /** The environment that makes the action find and trace the fake: PATH first, the trace files. */
  env(): Record<string, string>;
  /** Pids of every agent started so far. */
  pids(): Promise<number[]>;
  /** Pids of the agents still running. */
  alive(): Promise<number[]>;
  /**
   * How the last agent was started: its arguments (the token's value shown as `<token>`) and the names of
   * the input, runner (`ACTIONS_*`) and token variables in its environment.
   */
  started(): Promise<{ args: string[]; secretEnv: string[] }>;
  remove(): Promise<void>;
}

export async function installFakeAgent(): Promise<FakeAgent> {
  const binDir = await mkdtemp(path.join(tmpdir(), 'gi-fake-ngrok-'));
  const script = path.join(ROOT, 'test/support/fakes/ngrok-agent.mjs');
  const agent = path.join(binDir, 'ngrok');
  await writeFile(agent, `#!/bin/sh\nexec "${process.execPath}" "${script}" "$@"\n`);
  await chmod(agent, 0o755);
  const pidsFile = path.join(binDir, 'pids.txt');
  const argsFile = path.join(binDir, 'args.json');
  const pids = async (): Promise<number[]> =>
    existsSync(pidsFile) ? (await readFile(pidsFile, 'utf8')).split('\n').filter(Boolean).map(Number) : [];
  return {
    binDir,
    env: () => ({
      PATH: `${binDir}${path.delimiter}${process.env.PATH ?? ''}`,
      FAKE_NGROK_PIDS: pidsFile,
      FAKE_NGROK_ARGS: argsFile,
    }),
    pids,
    alive: async () => (await pids()).filter(isAlive),
    started: async () =>
      JSON.parse(await readFile(argsFile, 'utf8')) as { args: string[]; secretEnv: string[] },
    remove: () => rm(binDir, { recursive: true, force: true }),
  };
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
