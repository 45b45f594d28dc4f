/**
 * The tunnel step (docs/tunnel.md): opens the tunnel to the app started in the job before any run is
 * triggered, and makes sure the agent dies with the action, even when it ends by force.
 */
import { createRedactor } from '../api/redact.js';
import type { ActionInputs } from '../inputs/index.js';
import { killAgentsNow, startTunnel, TUNNEL_START_MS, type Tunnel } from '../tunnel/tunnel.js';
import type { ActionDeps } from './deps.js';
import { logLine, messageOf } from '../common/log.js';

/**
 * Opens the tunnel `inputs.tunnel` asks for, bounded by the action's deadline and the workflow cancel.
 * @param deadlineAtMs the action's deadline, ms since the epoch on `deps.clock`
 * @returns the open tunnel (the caller stops it), or null when it could not be opened: the step has then
 *   failed with a message naming the local address
 */
export async function openTunnel(
  inputs: ActionInputs & { tunnel: NonNullable<ActionInputs['tunnel']> },
  deps: ActionDeps,
  deadlineAtMs: number,
  signal: AbortSignal,
): Promise<Tunnel | null> {
  const redact = createRedactor(inputs.secrets);
  try {
    const tunnel = await startTunnel({
      tunnel: inputs.tunnel,
      env: agentEnv(deps.env),
      log: (line) => deps.sink.info(logLine(redact(line))),
      signal,
      timeoutMs: Math.max(0, Math.min(TUNNEL_START_MS, deadlineAtMs - deps.clock.now())),
    });
    deps.sink.setOutput('tunnel-url', tunnel.url);
    return tunnel;
  } catch (error) {
    deps.sink.setFailed(redact(`Could not open the tunnel: ${messageOf(error)} No run was triggered.`));
    return null;
  }
}

/** The action's environment without its inputs, the runner's `ACTIONS_*` variables and any token. */
function agentEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(env).filter(([name]) => !/^(INPUT_|ACTIONS_)|TOKEN/i.test(name)));
}

/** `deps` whose forced exit first kills the tunnel agents (a forced exit runs no exit handler). */
export function killingAgentsOnForceExit<T extends Pick<ActionDeps, 'forceExit'>>(deps: T): T {
  return {
    ...deps,
    forceExit: () => {
      killAgentsNow();
      deps.forceExit();
    },
  };
}
