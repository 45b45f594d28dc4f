/**
 * The engine's log on the step's log (`runLog`, docs/redaction.md): every line redacted; a log line never
 * starts a workflow command of its own; a group's title from service text loses terminal escape sequences
 * (colours, OSC 8 links) and control characters, and the group is closed after its lines.
 */
import { describe, expect, it } from 'vitest';
import { runLog } from '../../../src/action/log.js';
import { RecordingSink } from '../../support/run-action.js';

const redact = (text: string): string => text.replaceAll('s3cret', '***');

describe('runLog', () => {
  it('info, warning and debug lines are redacted on their way to the sink', () => {
    const sink = new RecordingSink();
    const log = runLog(sink, redact);
    log.info('key s3cret');
    log.warning('warned s3cret');
    log.debug?.('debugged s3cret');
    expect(sink.stdout).toBe('key ***\n::warning::warned ***\n::debug::debugged ***\n');
  });

  it('an info line with a line break cannot start a workflow command', () => {
    const sink = new RecordingSink();
    runLog(sink, redact).info('step text\n::error::forged');
    expect(sink.stdout.split('\n').filter((l) => l.startsWith('::'))).toEqual([]);
  });

  it('a group: its title without escape sequences or control characters, its lines redacted, then closed', () => {
    const sink = new RecordingSink();
    runLog(sink, redact).group(
      '\u001b[31mRed\u001b[0m \u001b]8;;https://x.example\u0007link\u001b]8;;\u0007\tsuite\u2028 s3cret',
      ['line s3cret', 'two\nlines'],
    );
    expect(sink.stdout).toBe('::group::Red linksuite ***\nline ***\ntwo lines\n::endgroup::\n');
  });
});
