/** The post step: cancels the runs a killed main step left going (docs/architecture.md, "The post step"). */
import pLimit from 'p-limit';
import { createClient } from '../api/client.js';
import { InputReader, parseConnection } from '../inputs/parse.js';
import type { Remote, RemoteListener } from '../run/book.js';
import type { ActionDeps } from './deps.js';
import type { ActionSink } from '../common/sink.js';
import { messageOf } from '../common/log.js';
import { withinTimeLimit } from '../common/time-limit.js';
import { plural } from '../common/words.js';
import { stopAgentLeftRunning } from './tunnel.js';

/** The state entry the main step sets first: its presence tells the bundle it runs as the post step. */
export const POST_FLAG = 'isPost';
const RUN_PREFIX = 'run-';
/** Timeout of each cancel request of the post step, ms. */
const POST_CANCEL_TIMEOUT_MS = 10_000;
/** The post step's time in all, whatever the service does, ms (docs/architecture.md, "The post step"). */
export const POST_STEP_LIMIT_MS = 30_000;
/** What the cancels leave of {@link POST_STEP_LIMIT_MS} for the step to end, ms. */
const POST_END_MARGIN_MS = 2_000;
/** Cancel requests the post step has in flight at once. */
export const POST_CANCEL_CONCURRENCY = 20;

/** Whether this process is the post step (the main step set {@link POST_FLAG}). */
export function isPostStep(env: NodeJS.ProcessEnv): boolean {
  return !!env[`STATE_${POST_FLAG}`];
}

/** Keeps the runs the engine follows in the step state; `clear` when the main step ended by itself. */
export function runStateRecorder(sink: ActionSink): { onRemote: RemoteListener; clear(): void } {
  const kept = new Set<string>();
  return {
    onRemote: (remote) => {
      // A run not proven the step's own (`result-ids`) is never the post step's to cancel.
      if (remote.inferred) return;
      if (remote.active) kept.add(remote.id);
      else kept.delete(remote.id);
      sink.saveState(`${RUN_PREFIX}${remote.id}`, remote.active ? remote.type : '');
    },
    clear: () => {
      for (const id of kept) sink.saveState(`${RUN_PREFIX}${id}`, '');
      kept.clear();
    },
  };
}

/** The runs the main step recorded as started and never saw end, from `STATE_run-<id>` variables. */
function runsLeftGoing(env: NodeJS.ProcessEnv): Array<Pick<Remote, 'type' | 'id'>> {
  const runs: Array<Pick<Remote, 'type' | 'id'>> = [];
  for (const [name, value] of Object.entries(env)) {
    if (!name.startsWith(`STATE_${RUN_PREFIX}`)) continue;
    if (value !== 'suite' && value !== 'test') continue;
    runs.push({ type: value, id: name.slice(`STATE_${RUN_PREFIX}`.length) });
  }
  return runs;
}

/**
 * The post step: cancels every run of {@link runsLeftGoing}, {@link POST_CANCEL_CONCURRENCY} at a time, all
 * within {@link POST_STEP_LIMIT_MS} of its start (on `deps.clock`); the runs not cancelled by then are named in
 * one warning. Never fails the step: a failed cancel warns.
 */
export async function runPost(deps: ActionDeps): Promise<void> {
  const { sink } = deps;
  const startedAtMs = deps.clock.now();
  await stopAgentLeftRunning(deps); // the tunnel agent a killed main step left running (docs/tunnel.md)
  try {
    const runs = runsLeftGoing(deps.env);
    if (runs.length === 0) return;
    const reader = new InputReader(deps.env, deps.inputDefaults);
    const { apiKey, apiBaseUrl } = parseConnection(reader);
    if (apiKey && deps.github.onRunner) sink.setSecret(apiKey);
    if (reader.problems.length > 0) {
      sink.warning(
        `${runs.length} Ghost Inspector runs may still be going: the inputs cannot reach the service.`,
      );
      return;
    }
    sink.info(`Cancelling ${runs.length} Ghost Inspector runs the main step was stopped before ending.`);
    const api = createClient({ apiKey, baseUrl: apiBaseUrl, requestTimeoutMs: POST_CANCEL_TIMEOUT_MS });
    const left = new Set(runs);
    const limitMs = POST_STEP_LIMIT_MS - POST_END_MARGIN_MS - (deps.clock.now() - startedAtMs);
    const limit = pLimit(POST_CANCEL_CONCURRENCY);
    await withinTimeLimit(
      undefined,
      limitMs,
      (stop) =>
        Promise.all(
          runs.map((run) =>
            limit(async () => {
              if (stop.aborted) return;
              const signal = AbortSignal.any([stop, AbortSignal.timeout(POST_CANCEL_TIMEOUT_MS)]);
              try {
                if (run.type === 'suite') await api.cancelSuiteResult(run.id, { signal });
                else await api.cancelTestResult(run.id, { signal });
                sink.info(`Cancelled ${run.type} result ${run.id}.`);
              } catch (error) {
                if (stop.aborted) return;
                sink.warning(`Could not cancel ${run.type} result ${run.id}: ${messageOf(error)}`);
              }
              left.delete(run);
            }),
          ),
        ),
      deps.clock,
    );
    if (left.size > 0) {
      sink.warning(
        `${plural(left.size, 'Ghost Inspector run')} may still be going: not cancelled within the post step's ` +
          `${POST_STEP_LIMIT_MS / 1000} s (${[...left].map((run) => `${run.type} result ${run.id}`).join(', ')}).`,
      );
    }
  } catch (error) {
    sink.warning(`Post step: ${messageOf(error)}`);
  }
}
