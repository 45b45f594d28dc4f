/** The engine's {@link RunLog} on the sink: redacted, and unable to start a workflow command of its own. */
import { redactUrl } from '../api/redact.js';
import { logLine, type RunLog } from '../common/log.js';
import type { ActionSink } from '../common/sink.js';

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
      // A title is a state, a test name and a variant: data, never rewritten; only URL credentials go.
      sink.startGroup(redactUrl(title));
      for (const line of lines) sink.info(logLine(redact(line)));
      sink.endGroup();
    },
  };
}
