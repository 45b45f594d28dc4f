/** The tunnel step (docs/tunnel.md): opens the tunnel before any run, and makes sure the agent dies with us. */
import { createRedactor } from '../api/redact.js';
import type { ActionInputs } from '../inputs/index.js';
import type { RunSummary } from '../run/types.js';
import { variantLabel } from '../report/console.js';
import { killAgentsNow, startTunnel, TUNNEL_START_MS, type Tunnel } from '../tunnel/tunnel.js';
import { stopLeftAgent } from '../tunnel/left-agent.js';
import type { ActionDeps } from './deps.js';
import { logLine, messageOf } from '../common/log.js';

/** The step state entry naming the running agent, `{"pid":…,"path":…}`; empty once it is stopped. */
const AGENT_STATE = 'tunnel-agent';

/**
 * Opens the tunnel `inputs.tunnel` asks for before `deadlineAtMs` (ms since the epoch on `deps.clock`); the
 * agent forwards to `via` when given (the step's listener in front of the app), else to the app.
 * @returns the open tunnel (the caller stops it), or null when the step has failed (no run triggered)
 */
export async function openTunnel(
  inputs: ActionInputs & { tunnel: NonNullable<ActionInputs['tunnel']> },
  deps: ActionDeps,
  deadlineAtMs: number,
  signal: AbortSignal,
  via?: string,
): Promise<Tunnel | null> {
  const redact = createRedactor(inputs.secrets);
  try {
    const tunnel = await startTunnel({
      tunnel: inputs.tunnel,
      env: deps.env,
      log: (line) => deps.sink.info(logLine(redact(line))),
      signal,
      timeoutMs: Math.max(0, Math.min(TUNNEL_START_MS, deadlineAtMs - deps.clock.now())),
      onSpawn: (agent) => deps.sink.saveState(AGENT_STATE, JSON.stringify(agent)),
      ...(via ? { via } : {}),
    });
    deps.sink.setOutput('tunnel-url', redact(tunnel.url));
    return {
      ...tunnel,
      url: redact(tunnel.url),
      stop: async () => {
        await tunnel.stop();
        deps.sink.saveState(AGENT_STATE, '');
      },
    };
  } catch (error) {
    deps.sink.saveState(AGENT_STATE, '');
    deps.sink.setFailed(redact(`Could not open the tunnel: ${messageOf(error)} No run was triggered.`));
    return null;
  }
}

/** Warns once for every run that ended after the agent exited by itself (it may have seen an error page). */
export function warnRunsAfterAgentExit(tunnel: Tunnel, summary: RunSummary, deps: ActionDeps): void {
  const exitedAtMs = tunnel.exitedAt();
  if (exitedAtMs === null) return;
  const exitedAt = new Date(exitedAtMs).toISOString();
  for (const run of summary.runs) {
    if (!run.endedAt || Date.parse(run.endedAt) < exitedAtMs) continue;
    const variant = variantLabel(run.variant);
    deps.sink.warning(
      `The tunnel agent exited at ${exitedAt}, before "${run.suiteName}"${variant ? ` [${variant}]` : ''} ended (${run.endedAt}): its browsers may have reached ${tunnel.url} without the app behind it.`,
    );
  }
}

/** The post step's part: stops the agent a killed main step left running, when that pid is still it. */
export async function stopAgentLeftRunning(deps: ActionDeps): Promise<void> {
  const saved = deps.env[`STATE_${AGENT_STATE}`] ?? '';
  if (!saved) return;
  try {
    const stopped = await stopLeftAgent(JSON.parse(saved) as { pid: number; path: string });
    if (stopped) deps.sink.info(`Stopped the tunnel agent the main step left running (pid ${stopped}).`);
  } catch (error) {
    deps.sink.warning(`The tunnel agent the main step started may still be running: ${messageOf(error)}`);
  }
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
