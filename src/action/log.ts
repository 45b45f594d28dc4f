/**
 * The action's log: the engine's {@link RunLog} and the artifacts' logger written to the sink, redacted and
 * unable to start a workflow command of their own.
 */
import type { Logger } from '../artifacts/download.js';
import type { RunLog } from '../run/engine.js';
import type { ActionSink } from './sink.js';

/**
 * One line of plain log output (`core.info` writes its text as is). Line breaks and other control characters
 * in service text (test names, step errors) become spaces, so that the service can never start a line of
 * its own, which the runner would read as a workflow command (`::warning::`, `::stop-commands::`, ...).
 * Commands with data (`core.warning`, `core.debug`, group titles) are escaped by `@actions/core` itself.
 */
export function logLine(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/[\u0000-\u0008\u000a-\u001f\u007f\u2028\u2029]+/g, ' ');
}

/** Terminal escape sequences: CSI (`ESC [ ... m`, colours) and OSC (`ESC ] 8 ;; url BEL`, links). */
// eslint-disable-next-line no-control-regex
const ESCAPE_SEQUENCE = /\u001b\[[0-?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)?/g;

/**
 * A group title from service text (a test name): terminal escape sequences removed whole, every other
 * control character (C0, DEL, C1, NUL, BEL, line breaks) and line or paragraph separator removed.
 */
export function titleText(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(ESCAPE_SEQUENCE, '').replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, '');
}

/**
 * The engine's log on the sink: every line goes through `redact` (secrets and URL credentials out).
 * @param sink where lines go
 * @param redact removes the run's secrets from a line
 */
export function runLog(sink: ActionSink, redact: (text: string) => string): RunLog {
  return {
    info: (line) => sink.info(logLine(redact(line))),
    warning: (line) => sink.warning(redact(line)),
    debug: (line) => sink.debug(redact(line)),
    group: (title, lines) => {
      // Redacted before `@actions/core` escapes it: the runner's mask misses a secret's `%25` form.
      sink.startGroup(titleText(redact(title)));
      for (const line of lines) sink.info(logLine(redact(line)));
      sink.endGroup();
    },
  };
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
