/** Everything the action takes from the world, as one object (docs/architecture.md, "Dependencies"). */
import type { ClientOptions, GhostInspectorApi } from '../api/api.js';
import type { EngineOptions } from '../run/engine.js';
import { readGitHubContext, type GitHubContext } from '../github.js';
import { systemClock, type Clock } from '../common/clock.js';
import { actionsCoreSink, type ActionSink } from '../common/sink.js';
import type { StopDeps } from './stop.js';
import type { StepProgress } from './boundary.js';
import { ACTION_DEFAULTS } from '../inputs/action-defaults.js';

/** Engine waits a test may shorten (defaults: `run/engine.ts`). Never set by the action itself. */
export type EngineTuning = Pick<
  EngineOptions,
  'waits' | 'heartbeatMs' | 'maxPollErrors' | 'triggerConcurrency' | 'signalCancelTimeoutMs'
>;

/** The action's dependencies; see {@link processDeps} for the real ones. */
export interface ActionDeps extends StopDeps {
  /** Inputs (`INPUT_<NAME>`), `GITHUB_TOKEN`, `GHOST_INSPECTOR_APP_URL`, the artifact client's variables. */
  env: NodeJS.ProcessEnv;
  /** action.yml's defaults by input name, applied to an input given empty. */
  inputDefaults?: Record<string, string>;
  github: GitHubContext;
  /** Outputs, log lines, annotations, the job summary and the step's failure. */
  sink: ActionSink;
  /** Time for the deadline, the request budget and the engine's waits. */
  clock: Clock;
  /** Ends the process after a workflow cancel, with its exit code (non-zero). */
  exitAfterCancel(): void;
  /** Shorter engine waits, for tests. */
  engine?: EngineTuning;
  /** What the step has done so far, for an end other than `run()` returning (`boundary.ts`); default a new one. */
  progress?: StepProgress;
  /** Makes the API client (default `createClient`); only tests set it, to wrap the real client. */
  createApi?: (options: ClientOptions) => GhostInspectorApi;
}

/** The real dependencies: `process.env`, `@actions/core`, real time, this process's signals and exit. */
export function processDeps(): ActionDeps {
  return {
    env: process.env,
    inputDefaults: ACTION_DEFAULTS,
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
    // SIGKILL: `process.exit` would wait for a hung file-system call.
    forceExit: () => process.kill(process.pid, 'SIGKILL'),
  };
}
