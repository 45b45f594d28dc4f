/**
 * Runs the action in-process (`run(deps)` of `src/main.ts`) the way `test/support/harness.ts` runs the
 * built bundle as a child process: same inputs, same {@link ActionRun} back, no build and no process start.
 *
 * The sink records what `@actions/core` would have done: log lines and workflow commands become the
 * runner's stdout (commands escaped as `@actions/core` escapes them), outputs and the job summary are kept
 * in memory, `setFailed` makes the exit code 1. A workflow cancel is sent with `cancel(signal)`; the
 * forced exit ends the run at once with `signal: 'SIGKILL'` (the flow is left to finish unobserved).
 * Tests that prove the bundle (`dist/index.js`) keep using the child-process harness.
 */
import { run } from '../../src/main.js';
import type { ActionDeps, EngineTuning } from '../../src/action/deps.js';
import type { ActionSink, AnnotationProperties } from '../../src/common/sink.js';
import { readGitHubContext } from '../../src/github.js';
import { systemClock, type Clock } from '../../src/common/clock.js';
import type { ActionRun, StartOptions } from './harness.js';
import { projectDefaults, runnerInputs } from './runner-inputs.js';

/**
 * The dependencies of a step run in-process without a process of its own: the GitHub context read from
 * `env`, real time unless `over` says otherwise, no signals, and an exit after a cancel or a forced exit
 * that do nothing. For tests that call one part of the action (`runPost`, `runTests`, `openTunnel`, …).
 */
export function stepDeps<S extends ActionSink>(
  env: NodeJS.ProcessEnv,
  sink: S,
  over: Partial<Omit<ActionDeps, 'sink'>> = {},
): ActionDeps & { sink: S } {
  return {
    env,
    github: readGitHubContext(env),
    clock: systemClock,
    exitAfterCancel: () => undefined,
    listenForSignals: () => () => undefined,
    forceExit: () => undefined,
    ...over,
    sink,
  };
}

/**
 * Options of an in-process run: those of the child-process harness, plus the clock, engine waits and the
 * API client's factory (`ActionDeps`).
 */
export interface InProcessOptions extends StartOptions {
  clock?: Clock;
  engine?: EngineTuning;
  createApi?: ActionDeps['createApi'];
}

/** An in-process run under way. */
export interface InProcessRun {
  /** Sends a workflow cancel, as the runner's SIGINT or SIGTERM would. */
  cancel(signal?: NodeJS.Signals): void;
  /** The run's stdout so far. */
  stdout(): string;
  /** Ends the run at once, as a forced exit does (the flow is left to finish unobserved). */
  kill(): void;
  /** Resolves when the action returns (or is force-exited). */
  done: Promise<ActionRun>;
}

/** `%`, CR and LF escaped as in a workflow command's message (`@actions/core` `escapeData`). */
function escapeData(text: string): string {
  return text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

/** A property value escaped as `@actions/core` escapes it (`escapeProperty`). */
function escapeProperty(text: string): string {
  return escapeData(text).replace(/:/g, '%3A').replace(/,/g, '%2C');
}

/** A workflow command line as `@actions/core` writes it: `::name key=value,...::message`. */
function command(name: string, message: string, properties: AnnotationProperties = {}): string {
  const props = Object.entries(properties)
    .filter(([, v]) => v !== undefined && v !== null && v !== '')
    .map(([k, v]) => `${k}=${escapeProperty(String(v))}`)
    .join(',');
  return `::${name}${props ? ` ${props}` : ''}::${escapeData(message)}\n`;
}

/** A sink recording into a transcript, an output map and a summary string. */
export class RecordingSink implements ActionSink {
  private text = '';
  /** When the first output came (`Date.now()`), the action's start as a bound counts it. */
  firstOutputAt: number | undefined;
  get stdout(): string {
    return this.text;
  }
  set stdout(text: string) {
    this.firstOutputAt ??= Date.now();
    this.text = text;
  }
  outputs: Record<string, string> = {};
  /** What `saveState` kept, the last value of each name. */
  state: Record<string, string> = {};
  summary = '';
  failed = false;
  info(message: string): void {
    this.stdout += `${message}\n`;
  }
  debug(message: string): void {
    this.stdout += command('debug', message);
  }
  warning(message: string, properties?: AnnotationProperties): void {
    this.stdout += command('warning', message, properties);
  }
  error(message: string, properties?: AnnotationProperties): void {
    this.stdout += command('error', message, properties);
  }
  notice(message: string, properties?: AnnotationProperties): void {
    this.stdout += command('notice', message, properties);
  }
  startGroup(title: string): void {
    this.stdout += command('group', title);
  }
  endGroup(): void {
    this.stdout += '::endgroup::\n';
  }
  setSecret(secret: string): void {
    this.stdout += command('add-mask', secret);
  }
  setOutput(name: string, value: string): void {
    this.outputs[name] = value;
  }
  setFailed(message: string): void {
    this.failed = true;
    this.error(message);
  }
  appendSummary(markdown: string): Promise<void> {
    this.summary += markdown;
    return Promise.resolve();
  }
  useRunnerFiles(): void {}
  saveState(name: string, value: string): void {
    this.state[name] = value;
  }
}

/**
 * Starts the action in-process with `INPUT_<NAME>` variables built from `options.inputs` and the defaults
 * of action.yml, `GITHUB_WORKSPACE` and `options.env` (never this process's environment).
 */
export function startActionInProcess(options: InProcessOptions): InProcessRun {
  const env: NodeJS.ProcessEnv = {
    GITHUB_WORKSPACE: options.workspace,
    GITHUB_OUTPUT: `${options.workspace}/.runner-output.txt`,
    GITHUB_STEP_SUMMARY: `${options.workspace}/.runner-summary.md`,
    ...options.env,
    ...runnerInputs(options.inputs, options.env),
  };
  const sink = new RecordingSink();
  let onSignal: ((signal: NodeJS.Signals) => void) | null = null;
  let exitedAfterCancel = false;
  let finish: (signal: NodeJS.Signals | null) => void = () => {};
  const ended = new Promise<NodeJS.Signals | null>((resolve) => (finish = resolve));
  const deps: ActionDeps = {
    env,
    inputDefaults: projectDefaults(),
    github: readGitHubContext(env),
    sink,
    clock: options.clock ?? systemClock,
    ...(options.engine ? { engine: options.engine } : {}),
    ...(options.createApi ? { createApi: options.createApi } : {}),
    listenForSignals: (handler) => {
      onSignal = handler;
      return () => (onSignal = null);
    },
    exitAfterCancel: () => (exitedAfterCancel = true),
    forceExit: () => finish('SIGKILL'),
  };
  void run(deps).then(() => finish(null));
  const done = ended.then((signal): ActionRun => {
    const result: ActionRun = {
      code: signal ? null : sink.failed ? 1 : 0,
      signal,
      stdout: sink.stdout,
      stderr: '',
      outputs: { ...sink.outputs },
      summary: sink.summary,
      state: { ...sink.state },
      ...(sink.firstOutputAt === undefined ? {} : { firstOutputAt: sink.firstOutputAt }),
    };
    // After a workflow cancel the process exits non-zero whatever the verdict (`process.exitCode || 1`).
    if (exitedAfterCancel) result.code = 1;
    return result;
  });
  return {
    cancel: (signal = 'SIGINT') => onSignal?.(signal),
    stdout: () => sink.stdout,
    kill: () => finish('SIGKILL'),
    done,
  };
}
