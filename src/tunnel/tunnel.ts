/** A tunnel from the service's browsers to an app started in the job (docs/tunnel.md). */
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import type { TunnelInputs } from '../inputs/schema.js';
import { findAgent } from './agent.js';
import { askNgrokApi } from './ngrok-api.js';
import { agentMaySee, NGROK_DEFAULT_API, tunnelProvider, type TunnelProvider } from './providers.js';
import { seeAsBrowser } from './browser-check.js';
import { executableOf } from './process-executable.js';
import { systemClock, timeoutSignal, type Clock } from '../common/clock.js';

/** How long the agent may take to open the tunnel and the app to answer through it, ms. */
export const TUNNEL_START_MS = 60_000;
/** Pause between two tries of the public URL, ms. */
const RETRY_MS = 250;
/** After SIGTERM the agent gets this long to exit before SIGKILL, ms. */
export const STOP_GRACE_MS = 2_000;

export interface Tunnel {
  /** The public URL that leads to the local address, `http(s)://host[:port]`. */
  url: string;
  address: string;
  /** When the agent exited by itself after the tunnel opened (ms since the epoch), else null. */
  exitedAt(): number | null;
  /** Stops the agent (SIGTERM, then SIGKILL); resolves once it has exited. Safe to call twice. */
  stop(): Promise<void>;
}

/** The agent process, as the post step needs it to find it again. */
export interface AgentProcess {
  pid: number;
  path: string;
}

export interface StartTunnelOptions {
  tunnel: TunnelInputs;
  /** The job's environment: its `PATH` finds the agent; the agent sees only {@link agentMaySee} of it. */
  env: NodeJS.ProcessEnv;
  log: (line: string) => void;
  /** Aborts the start (a workflow cancel or the deadline). */
  signal: AbortSignal;
  /** Bound of the whole start, ms; default {@link TUNNEL_START_MS}. */
  timeoutMs?: number;
  /** The clock the bound runs on; default real time (tests end the bound when they choose). */
  clock?: Clock;
  /**
   * The local address the agent forwards to instead of the app's (the step's listener in front of the app,
   * docs/tunnel.md, "Push through the tunnel"); the app's address is still the one checked and named.
   */
  via?: string;
  /**
   * Called once the agent runs, before anything else is awaited (`path`: as it was started); and again once
   * it announced its public URL, with the executable the OS reports for its pid (a shim that `exec`s the
   * agent has done so by then): what the post step recognises the pid by.
   */
  onSpawn?: (agent: AgentProcess) => void;
}

const live = new Set<ChildProcess>();

/** Kills every agent still running at once (SIGKILL), synchronously: for exits that run no more code. */
export function killAgentsNow(): void {
  for (const child of live) child.kill('SIGKILL');
  live.clear();
}

/**
 * Starts the agent for `tunnel`, learns its public URL and waits until the app answers through it.
 * @throws Error naming the local address when the agent fails, announces a URL not `http(s)://host[:port]`,
 *   shows browsers its own page, or the app does not answer within the bound; the agent is stopped before
 */
export async function startTunnel(options: StartTunnelOptions): Promise<Tunnel> {
  const { tunnel, log, env } = options;
  const provider = tunnelProvider(tunnel.provider);
  // A timeout signal held by its own timer: one from AbortSignal.timeout() inside AbortSignal.any() can be
  // garbage-collected and never fire.
  const started = new AbortController();
  const timeout = timeoutSignal(
    options.clock ?? systemClock,
    options.timeoutMs ?? TUNNEL_START_MS,
    started.signal,
  );
  const bound = AbortSignal.any([options.signal, timeout]);
  const agentPath = await findAgent(provider, env.PATH ?? env.Path ?? '', log).catch((error: unknown) => {
    started.abort();
    throw error;
  });
  const agentTunnel = options.via ? viaFront(tunnel, options.via) : tunnel;
  const child = spawn(agentPath, provider.args(agentTunnel), {
    env: {
      ...Object.fromEntries(Object.entries(env).filter(([name]) => agentMaySee(provider.name, name))),
      ...provider.env(tunnel),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
    // Stryker disable next-line all: Windows only; the tests run on Linux
    windowsHide: true,
  });
  if (live.size === 0) process.once('exit', killAgentsNow);
  live.add(child);
  const exited = new Promise<void>((resolve) => child.once('close', () => resolve()));
  let stopping: Promise<void> | undefined;
  let exitedAt: number | null = null;
  child.once('exit', () => {
    live.delete(child);
    if (!stopping) exitedAt = Date.now();
  });
  const stop = (): Promise<void> => (stopping ??= stopAgent(child, exited));
  if (child.pid !== undefined) options.onSpawn?.({ pid: child.pid, path: agentPath });
  // Asked while the app is tried through the tunnel (PowerShell takes a while on Windows); settled before
  // this function returns or throws, so that nothing is saved after the caller's last word on the agent.
  let recorded: Promise<void> = Promise.resolve();
  try {
    const url = await publicUrl(child, provider, bound, tunnel.address, agentTunnel.address, exited);
    recorded = recordExecutable(child.pid, options.onSpawn);
    log(`Tunnel (${provider.name}): ${url} -> ${tunnel.address}`);
    await waitUntilAnswering(url, tunnel.address, bound, options.signal, () => {
      const code = child.exitCode ?? child.signalCode;
      if (code === null) return;
      throw new Error(
        `The ${provider.name} agent exited (code ${code}) before the app answered through the tunnel to ${tunnel.address}.`,
      );
    });
    await recorded;
    return { url, address: tunnel.address, exitedAt: () => exitedAt, stop };
  } catch (error) {
    await recorded;
    await stop();
    if (options.signal.aborted)
      throw new Error(`Cancelled while the tunnel to ${tunnel.address} was opening.`);
    throw error;
  } finally {
    started.abort();
  }
}

/**
 * `tunnel` as the agent sees it when it forwards to `via`: that address, and `rewrite` spelled out as the
 * app's own host, so that the app gets the Host header it would get without the step in between.
 */
function viaFront(tunnel: TunnelInputs, via: string): TunnelInputs {
  const hostHeader = tunnel.hostHeader === 'rewrite' ? new URL(tunnel.address).host : tunnel.hostHeader;
  return { ...tunnel, address: via, hostHeader };
}

/** Calls `onSpawn` again with the executable the OS reports for `pid`, when it reports one. */
async function recordExecutable(
  pid: number | undefined,
  onSpawn: StartTunnelOptions['onSpawn'],
): Promise<void> {
  const running = pid === undefined ? null : await executableOf(pid);
  if (pid !== undefined && running) onSpawn?.({ pid, path: running });
}

/** The public URL the agent announces (ngrok: its local API first); rejects on a fatal line, exit or bound. */
function publicUrl(
  child: ChildProcess,
  provider: TunnelProvider,
  bound: AbortSignal,
  address: string,
  /** The address the agent forwards to, as its API lists it. */
  agentAddress: string,
  exited: Promise<void>,
): Promise<string> {
  const name = provider.name;
  const readLine = provider.lineReader();
  return new Promise<string>((resolve, reject) => {
    let lastError = '';
    let api = NGROK_DEFAULT_API;
    let settled = false;
    const fail = (message: string): void => {
      if (settled) return;
      settled = true;
      reject(new Error(message));
    };
    const said = (): string => (lastError ? `: ${lastError}` : '');
    const onLine = (line: string): void => {
      if (settled) return;
      const read = readLine(line);
      if (!read) return;
      if ('api' in read) api = read.api;
      else if ('error' in read) {
        lastError = read.error;
        if (read.fatal) fail(`The ${name} agent failed to open the tunnel to ${address}: ${read.error}`);
      } else {
        settled = true;
        const fromLog = read.url;
        const listed = name === 'ngrok' ? askNgrokApi(api, agentAddress, bound) : Promise.resolve(null);
        void listed.then((url) => resolve(checkedPublicUrl(name, url ?? fromLog))).catch(reject);
      }
    };
    for (const stream of [child.stdout, child.stderr]) {
      if (stream) createInterface({ input: stream }).on('line', onLine);
    }
    child.once('error', (error) =>
      fail(`Could not start the ${name} agent for tunnel ${address}: ${error.message}`),
    );
    const code = (): string => String(child.exitCode ?? child.signalCode);
    void exited.then(() =>
      fail(`The ${name} agent exited (code ${code()}) before it opened the tunnel to ${address}${said()}.`),
    );
    const late = (): void =>
      fail(`The ${name} agent did not open the tunnel to ${address} in time${said()}.`);
    bound.addEventListener('abort', late, { once: true });
  });
}

/**
 * `url` reduced to its origin when it is `http(s)://host[:port]` and nothing else (a token could ride there).
 * @throws Error naming the agent, never the URL, otherwise
 */
export function checkedPublicUrl(agent: string, url: string): string {
  const parsed = URL.canParse(url) ? new URL(url) : null;
  // The href of a bare origin is the origin and `/`: no user, password, path, query or fragment.
  if (
    !parsed ||
    !/^https?:$/.test(parsed.protocol) ||
    parsed.href !== `${parsed.origin}/` ||
    /[@?#]/.test(url)
  ) {
    throw new Error(
      `The ${agent} agent announced a public URL that is not of the form https://host[:port] (not shown: it may carry a secret).`,
    );
  }
  return parsed.origin;
}

/**
 * Fetches the public URL as a browser would until the app answers.
 * @throws Error at once on the agent's own page; at the bound, naming the local address and what it answers
 */
async function waitUntilAnswering(
  url: string,
  address: string,
  bound: AbortSignal,
  cancel: AbortSignal,
  checkAgent: () => void,
): Promise<void> {
  let last = 'no answer';
  while (!bound.aborted) {
    checkAgent();
    const seen = await seeAsBrowser(url, bound);
    if (seen.kind === 'app') return;
    if (seen.kind === 'agent-page') {
      throw new Error(
        `Ghost Inspector's browsers would see ${seen.what} at ${url}, not the app at ${address}. Ways out: tunnel-provider: cloudflared (a quick tunnel, no account, no warning page), or an ngrok paid plan, which shows browsers no warning page.`,
      );
    }
    if (!bound.aborted) last = seen.why; // an answer cut short by the bound says nothing
    await new Promise((resolve) => setTimeout(resolve, RETRY_MS));
  }
  if (cancel.aborted) throw new Error('Cancelled.');
  const direct = await seeAsBrowser(address, cancel);
  const local =
    direct.kind !== 'not-yet'
      ? `the app answers at ${address} itself, but not through the tunnel`
      : `nothing answers at ${address} (${direct.why}): start the app in an earlier step and wait until it answers`;
  throw new Error(
    `The app did not answer through the tunnel (${url} -> ${address}; last: ${last}): ${local}.`,
  );
}

/** SIGTERM, SIGKILL after {@link STOP_GRACE_MS}; resolves once the agent has exited. */
async function stopAgent(child: ChildProcess, exited: Promise<void>): Promise<void> {
  if (child.pid !== undefined && child.exitCode === null && child.signalCode === null) {
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), STOP_GRACE_MS);
    await exited;
    clearTimeout(timer);
  }
  live.delete(child);
}
