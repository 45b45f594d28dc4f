/**
 * A tunnel from the service's browsers to an app started in the job (docs/tunnel.md): the agent runs as a
 * child process, its log tells the public URL, and the tunnel counts as open once that URL answers through
 * it. Every agent started is stopped by `stop()`, and killed at once when the process exits or is ended by
 * force ({@link killAgentsNow}), so none is left running on the runner.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import type { TunnelInputs } from '../inputs/schema.js';
import { findAgent } from './agent.js';
import { tunnelProvider, type AgentLine } from './providers.js';

/** How long the agent may take to open the tunnel and the app to answer through it, ms. */
export const TUNNEL_START_MS = 60_000;
/** Pause between two tries of the public URL, ms. */
const RETRY_MS = 250;
/** One try of the public URL, or of the local address, ms. */
const TRY_TIMEOUT_MS = 5_000;
/** After SIGTERM the agent gets this long to exit before SIGKILL, ms. */
const STOP_GRACE_MS = 2_000;

/** An open tunnel. */
export interface Tunnel {
  /** The public URL that leads to the local address. */
  url: string;
  /** The local address it exposes. */
  address: string;
  /** Stops the agent (SIGTERM, then SIGKILL); resolves once it has exited. Safe to call twice. */
  stop(): Promise<void>;
}

export interface StartTunnelOptions {
  tunnel: TunnelInputs;
  /** The environment the agent inherits (its `PATH` finds the agent). */
  env: NodeJS.ProcessEnv;
  /** Progress lines. */
  log: (line: string) => void;
  /** Aborts the start (a workflow cancel or the deadline). */
  signal: AbortSignal;
  /** Bound of the whole start, ms; default {@link TUNNEL_START_MS}. */
  timeoutMs?: number;
}

const live = new Set<ChildProcess>();

/** Kills every agent still running at once (SIGKILL), synchronously: for exits that run no more code. */
export function killAgentsNow(): void {
  for (const child of live) child.kill('SIGKILL');
  live.clear();
}

/**
 * Starts the agent for `tunnel`, learns its public URL and waits until the app answers through it.
 * @returns the open tunnel; the caller stops it
 * @throws Error naming the local address when the agent cannot start, exits, reports an error, or the app
 *   does not answer through the tunnel within the bound; the agent is stopped before
 */
export async function startTunnel(options: StartTunnelOptions): Promise<Tunnel> {
  const { tunnel, log } = options;
  const provider = tunnelProvider(tunnel.provider);
  const bound = AbortSignal.any([options.signal, AbortSignal.timeout(options.timeoutMs ?? TUNNEL_START_MS)]);
  const agentPath = await findAgent(provider, options.env.PATH ?? options.env.Path ?? '', log);
  const child = spawn(agentPath, provider.args(tunnel), {
    env: { ...options.env, ...provider.env(tunnel) },
    stdio: ['ignore', 'pipe', 'pipe'],
    windowsHide: true,
  });
  if (live.size === 0) process.once('exit', killAgentsNow);
  live.add(child);
  const exited = new Promise<void>((resolve) => child.once('close', () => resolve()));
  child.once('exit', () => live.delete(child));
  const stop = once(() => stopAgent(child, exited));
  try {
    const url = await publicUrl(child, provider.readLine, bound, tunnel, exited);
    log(`Tunnel (${provider.name}): ${url} -> ${tunnel.address}`);
    await waitUntilAnswering(url, tunnel.address, bound);
    return { url, address: tunnel.address, stop };
  } catch (error) {
    await stop();
    if (options.signal.aborted)
      throw new Error(`Cancelled while the tunnel to ${tunnel.address} was opening.`);
    throw error;
  }
}

/** The public URL from the agent's log; rejects when the agent reports an error, exits or the bound ends. */
function publicUrl(
  child: ChildProcess,
  readLine: (line: string) => AgentLine,
  bound: AbortSignal,
  tunnel: TunnelInputs,
  exited: Promise<void>,
): Promise<string> {
  const name = tunnel.provider;
  return new Promise<string>((resolve, reject) => {
    let lastError = '';
    const onLine = (line: string): void => {
      const said = readLine(line);
      if (said && 'url' in said) resolve(said.url);
      else if (said && 'error' in said) lastError = said.error;
    };
    for (const stream of [child.stdout, child.stderr]) {
      if (stream) createInterface({ input: stream }).on('line', onLine);
    }
    child.once('error', (error) =>
      reject(new Error(`Could not start the ${name} agent for tunnel ${tunnel.address}: ${error.message}`)),
    );
    void exited.then(() =>
      reject(
        new Error(
          `The ${name} agent exited (code ${child.exitCode ?? child.signalCode}) before it opened the tunnel to ${tunnel.address}${lastError ? `: ${lastError}` : ''}.`,
        ),
      ),
    );
    bound.addEventListener(
      'abort',
      () =>
        reject(
          new Error(
            `The ${name} agent did not open the tunnel to ${tunnel.address} in time${lastError ? `: ${lastError}` : ''}.`,
          ),
        ),
      { once: true },
    );
  });
}

/**
 * Tries the public URL until the app answers through the tunnel: any answer but a tunnel's own "bad
 * gateway" (5xx from the tunnel when nothing answers at the local address).
 * @throws Error naming the local address, and what it answers directly, when the bound ends first
 */
async function waitUntilAnswering(url: string, address: string, bound: AbortSignal): Promise<void> {
  let last = 'no answer';
  while (!bound.aborted) {
    const answer = await tryUrl(url, bound);
    if (answer.ok) return;
    last = answer.why;
    await new Promise((resolve) => setTimeout(resolve, RETRY_MS));
  }
  if ((bound.reason as Error | undefined)?.name !== 'TimeoutError') throw new Error('Cancelled.');
  const direct = await tryUrl(address, AbortSignal.timeout(TRY_TIMEOUT_MS));
  const local = direct.ok
    ? `the app answers at ${address} itself, but not through the tunnel`
    : `nothing answers at ${address} (${direct.why}): start the app in an earlier step and wait until it answers`;
  throw new Error(
    `The app did not answer through the tunnel (${url} -> ${address}; last: ${last}): ${local}.`,
  );
}

/** One GET of `url`: whether an app answered, else why not. */
async function tryUrl(url: string, bound: AbortSignal): Promise<{ ok: boolean; why: string }> {
  try {
    const res = await fetch(url, {
      redirect: 'manual',
      headers: { 'ngrok-skip-browser-warning': '1' },
      signal: AbortSignal.any([bound, AbortSignal.timeout(TRY_TIMEOUT_MS)]),
    });
    await res.body?.cancel();
    const tunnelError = res.headers.get('ngrok-error-code') ?? '';
    if (tunnelError || [502, 503, 504, 530].includes(res.status)) {
      return { ok: false, why: `HTTP ${res.status}${tunnelError ? ` ${tunnelError}` : ''}` };
    }
    return { ok: true, why: '' };
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    return { ok: false, why: cause?.code ?? cause?.message ?? (error as Error).message };
  }
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

function once(fn: () => Promise<void>): () => Promise<void> {
  let running: Promise<void> | undefined;
  return () => (running ??= fn());
}
