/**
 * Everything the action takes from the world, as one object: the environment it reads inputs from, the
 * GitHub context, the sink for outputs, logs and failure, a clock, the process's signals and exits.
 * `src/index.ts` runs the action with {@link processDeps}; a test builds its own to run the action
 * in-process against the emulator on loopback.
 */
import type { ClientOptions, GhostInspectorApi } from '../api/api.js';
import type { EngineOptions } from '../run/engine.js';
import { readGitHubContext, type GitHubContext } from '../github.js';
import { systemClock, type Clock } from '../run/clock.js';
import { forceExit } from '../run/stop/deadline.js';
import { actionsCoreSink, type ActionSink } from '../common/sink.js';
import type { StopDeps } from './stop.js';

/** Engine waits a test may shorten (defaults: `run/engine.ts`). Never set by the action itself. */
export type EngineTuning = Pick<
  EngineOptions,
  'notFoundGraceMs' | 'heartbeatMs' | 'maxPollErrors' | 'triggerConcurrency' | 'signalCancelTimeoutMs'
>;

/** The action's dependencies; see {@link processDeps} for the real ones. */
export interface ActionDeps extends StopDeps {
  /** Inputs (`INPUT_<NAME>`), `GITHUB_TOKEN`, `GHOST_INSPECTOR_APP_URL`, the artifact client's variables. */
  env: NodeJS.ProcessEnv;
  /** The GitHub context, read from `env`. */
  github: GitHubContext;
  /** Outputs, log lines, annotations, the job summary and the step's failure. */
  sink: ActionSink;
  /** Time for the deadline, the request budget and the engine's waits. */
  clock: Clock;
  /** Ends the process after a workflow cancel, with its exit code (non-zero). */
  exitAfterCancel(): void;
  /** Shorter engine waits, for tests. */
  engine?: EngineTuning;
  /**
   * Makes the action's API client from the options the action builds (default `createClient` of
   * `api/client.ts`). Never set by the action itself: a test that runs the action on a virtual clock wraps
   * the real client to see each call in flight (time stands still meanwhile) and gives it the clock's
   * `now` and `random`.
   */
  createApi?: (options: ClientOptions) => GhostInspectorApi;
}

/**
 * The real dependencies: `process.env`, `@actions/core`, real time, `SIGINT`/`SIGTERM` of this process,
 * `process.exit` and a SIGKILL of itself for the forced exit.
 */
export function processDeps(): ActionDeps {
  return {
    env: process.env,
    github: readGitHubContext(process.env),
    sink: actionsCoreSink(),
    clock: systemClock,
    listenForSignals: (handler) => {
      process.on('SIGINT', handler);
      process.on('SIGTERM', handler);
      return () => {
        process.off('SIGINT', handler);
        process.off('SIGTERM', handler);
      };
    },
    exitAfterCancel: () => process.exit(process.exitCode || 1),
    forceExit,
  };
}
