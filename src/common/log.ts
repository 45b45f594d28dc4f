/**
 * What every layer needs to write a log: the line-writer types, a line made safe for the runner, the
 * message of a thrown value, and the artifacts' logger on the sink.
 */
import type { ActionSink } from './sink.js';

/** Where messages go; `@actions/core` fits (`{info: core.info, warning: core.warning}`). */
export interface Logger {
  info(message: string): void;
  warning(message: string): void;
  debug?(message: string): void;
}

/** Where the console reporter writes (text still to be redacted by the writer). */
export interface RunLog extends Logger {
  /** A collapsible group: a title line and its body lines. */
  group(title: string, lines: string[]): void;
}

/**
 * One line of plain log output: control characters become spaces, so service text can never start a line
 * the runner would read as a workflow command (`core.info` writes its text as is).
 */
export function logLine(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/[\u0000-\u0008\u000a-\u001f\u007f\u2028\u2029]+/g, ' ');
}

/** The screenshots' logger on the sink (their lines hold no secret: signed URLs are never logged). */
export function artifactsLog(sink: ActionSink): Logger {
  return {
    info: (line) => sink.info(logLine(line)),
    warning: (line) => sink.warning(line),
    debug: (line) => sink.debug(line),
  };
}

/** The message of a thrown value. */
export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
