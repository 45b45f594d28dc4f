/** Where the action's words go: the part of `@actions/core` the action uses, so a test can hand in its own. */
import * as core from '@actions/core';

/** An annotation's place and title (as `@actions/core` takes them). */
export type AnnotationProperties = core.AnnotationProperties;

/** The `@actions/core`-like sink the action writes to. None of these throws except `appendSummary`. */
export interface ActionSink {
  /** A plain log line, written as is (escape it first: `common/log.ts` `logLine`). */
  info(message: string): void;
  /** A debug line (shown when step debug logging is on). */
  debug(message: string): void;
  warning(message: string, properties?: AnnotationProperties): void;
  error(message: string, properties?: AnnotationProperties): void;
  notice(message: string, properties?: AnnotationProperties): void;
  startGroup(title: string): void;
  endGroup(): void;
  /** Masks a value in every later log line (on a runner). */
  setSecret(secret: string): void;
  setOutput(name: string, value: string): void;
  /** Fails the step with an error annotation; the process exit code becomes 1. */
  setFailed(message: string): void;
  /** Appends Markdown to the job summary. @throws when the file is not set or cannot be written */
  appendSummary(markdown: string): Promise<void>;
  /** Sends later outputs and summary to these files (outside GitHub, when the runner gave none). */
  useRunnerFiles(files: { outputFile?: string; summaryFile?: string }): void;
  /** Keeps a value for the post step, which reads it as `STATE_<name>` (never a secret). */
  saveState(name: string, value: string): void;
}

/** The real sink: `@actions/core`; {@link ActionSink.useRunnerFiles} sets its files in `process.env`. */
export function actionsCoreSink(): ActionSink {
  return {
    info: (message) => core.info(message),
    debug: (message) => core.debug(message),
    warning: (message, properties) => core.warning(message, properties),
    error: (message, properties) => core.error(message, properties),
    notice: (message, properties) => core.notice(message, properties),
    startGroup: (title) => core.startGroup(title),
    endGroup: () => core.endGroup(),
    setSecret: (secret) => core.setSecret(secret),
    setOutput: (name, value) => core.setOutput(name, value),
    setFailed: (message) => core.setFailed(message),
    appendSummary: async (markdown) => {
      await core.summary.addRaw(markdown).write();
    },
    // Only the runner's state file reaches a post step; without one the value would only be printed.
    saveState: (name, value) => {
      if (process.env.GITHUB_STATE) core.saveState(name, value);
    },
    useRunnerFiles: (files) => {
      if (files.outputFile) process.env.GITHUB_OUTPUT = files.outputFile;
      if (files.summaryFile) process.env.GITHUB_STEP_SUMMARY = files.summaryFile;
    },
  };
}
