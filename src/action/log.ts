/** The engine's {@link RunLog} on the sink: redacted, and unable to start a workflow command of its own. */
import { logLine, type RunLog } from '../common/log.js';
import type { ActionSink } from '../common/sink.js';

/** Terminal escape sequences: CSI (`ESC [ ... m`, colours) and OSC (`ESC ] 8 ;; url BEL`, links). */
// eslint-disable-next-line no-control-regex
const ESCAPE_SEQUENCE = /\u001b\[[0-?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)?/g;

/** A group title from service text: escape sequences and every control or separator character removed. */
function titleText(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(ESCAPE_SEQUENCE, '').replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, '');
}

/** The engine's log on the sink: every line goes through `redact` (secrets and URL credentials out). */
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
