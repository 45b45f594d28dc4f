/** What every layer needs to write a log: line writers, a line safe for the runner, an error's message. */
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

/** One log line whose control characters became spaces: it can never start a workflow command. */
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
