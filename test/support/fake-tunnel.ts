/**
 * The fake tunnel agents (`fakes/ngrok-agent.mjs`, `fakes/cloudflared-agent.mjs`) installed as `ngrok` and
 * `cloudflared` in a folder of their own, to put first on the action's PATH; their behaviour set through a
 * file in that folder (the action gives its agent an allow-listed environment); and what the tests read
 * back: the agents' pids (alive or not), their arguments and the names of their environment variables.
 */
import { execFileSync } from 'node:child_process';
import { chmod, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { createServer, type IncomingMessage } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import type { TunnelInputs } from '../../src/inputs/schema.js';
import { listen } from './fake-server.js';
import { ROOT } from './harness.js';

/** What the fakes do besides behaving as the agents' docs say (see the fakes' own comments). */
export interface FakeBehaviour {
  /** ngrok: `free` shows browsers the warning page (ERR_NGROK_6024). Default: a paid plan. */
  plan?: 'free' | 'paid';
  /** ngrok: every request through the tunnel gets 404 ERR_NGROK_3200. */
  tunnelNotFound?: boolean;
  /** ngrok: its `started tunnel` log line names a dead URL; only its API names the tunnel. */
  staleLogUrl?: boolean;
  /** ngrok: its log names no API address. */
  noApi?: boolean;
  /** ngrok: its log and API name a public URL with a path (a lie: no documented ngrok behaviour). */
  urlWithPath?: boolean;
  /** ngrok: cannot reach ngrok's service; logs its reconnect error again and again, never opens the tunnel. */
  unreachable?: boolean;
  /** cloudflared: cannot get a quick tunnel, prints its error and exits 1. */
  failQuickTunnel?: boolean;
  /** Ignore SIGTERM: only SIGKILL ends the agent. */
  ignoreSigterm?: boolean;
  /** Exit (code 1) once this many requests through the tunnel were answered. */
  exitAfterRequests?: number;
}

export interface FakeAgent {
  /** The folder holding `ngrok` and `cloudflared`. */
  binDir: string;
  /** The environment that makes the action find the fakes: PATH first. */
  env(): Record<string, string>;
  /** Sets what the agents started from now on do. */
  behave(behaviour: FakeBehaviour): Promise<void>;
  /** Pids of every agent started so far. */
  pids(): Promise<number[]>;
  /** Pids of the agents still running. */
  alive(): Promise<number[]>;
  /** How the last agent was started: its arguments (a token shown as `<token>`), its variables' names. */
  started(): Promise<{ args: string[]; env: string[] }>;
  /** Every request the agents answered through the tunnel so far, as `METHOD path status`. */
  requests(): Promise<string[]>;
  remove(): Promise<void>;
}

export async function installFakeAgent(): Promise<FakeAgent> {
  const binDir = await mkdtemp(path.join(tmpdir(), 'gi-fake-agent-'));
  for (const name of ['ngrok', 'cloudflared']) {
    const script = pathToFileURL(path.join(ROOT, `test/support/fakes/${name}-agent.mjs`)).href;
    const exe = path.join(binDir, name);
    await writeFile(exe, `#!${process.execPath}\nimport(${JSON.stringify(script)});\n`);
    await chmod(exe, 0o755);
  }
  const pidsFile = path.join(binDir, 'pids.txt');
  const requestsFile = path.join(binDir, 'requests.txt');
  const pids = async (): Promise<number[]> =>
    existsSync(pidsFile) ? (await readFile(pidsFile, 'utf8')).split('\n').filter(Boolean).map(Number) : [];
  return {
    binDir,
    env: () => ({ PATH: `${binDir}${path.delimiter}${process.env.PATH ?? ''}` }),
    behave: (behaviour) => writeFile(path.join(binDir, 'fake-config.json'), JSON.stringify(behaviour)),
    pids,
    alive: async () => (await pids()).filter(isAlive),
    started: async () =>
      JSON.parse(await readFile(path.join(binDir, 'args.json'), 'utf8')) as { args: string[]; env: string[] },
    requests: async () =>
      existsSync(requestsFile) ? (await readFile(requestsFile, 'utf8')).split('\n').filter(Boolean) : [],
    remove: () => rm(binDir, { recursive: true, force: true }),
  };
}

/**
 * Whether `pid` runs: signal 0 finds it, and `ps` shows no zombie (a process that died but that its parent,
 * e.g. a first process that reaps nothing, has not waited for).
 */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return !execFileSync('ps', ['-o', 'stat=', '-p', String(pid)], { encoding: 'utf8' })
      .trim()
      .startsWith('Z');
  } catch {
    return false;
  }
}

/** The fake agents and a loopback app for one file's tests; the fields are set once `beforeAll` has run. */
export interface AgentAndApp {
  agent: FakeAgent;
  /** The app's address, `http://127.0.0.1:<port>`; it answers `app`. */
  appUrl: string;
  /** Tunnel inputs for the app: cloudflared, no token, no host header, unless `over` says otherwise. */
  tunnel(over?: Partial<TunnelInputs>): TunnelInputs;
}

/**
 * Registers a file's hooks: installs the fake agents and starts the app before its tests (each request shown
 * to `onRequest`), resets the agents' behaviour before each test, removes both after the file.
 */
export function useAgentAndApp(onRequest?: (request: IncomingMessage) => void): AgentAndApp {
  let closeApp = (): Promise<void> => Promise.resolve();
  const world: AgentAndApp = {
    agent: undefined as unknown as FakeAgent,
    appUrl: '',
    tunnel: (over = {}) => ({
      address: world.appUrl,
      provider: 'cloudflared',
      authtoken: '',
      urlVariable: 'ngrokUrl',
      hostHeader: '',
      ...over,
    }),
  };
  beforeAll(async () => {
    world.agent = await installFakeAgent();
    const app = await listen(
      createServer((request, response) => {
        onRequest?.(request);
        response.end('app');
      }),
    );
    [world.appUrl, closeApp] = [app.url, app.close];
  });
  beforeEach(() => world.agent.behave({}));
  afterAll(async () => {
    await closeApp();
    await world.agent?.remove();
  });
  return world;
}
