/** The verdict's two ends in the action: deciding it once, and announcing it last. */
import type { ActionInputs } from '../inputs/index.js';
import { decideStartedVerdict, decideVerdict, type Verdict } from '../run/outcome/outcome.js';
import type { RunSummary } from '../run/types.js';
import type { ActionSink } from '../common/sink.js';
import { plural } from '../common/words.js';

/** The one verdict every report, output and the step result render (`wait: false`: judged on its triggers). */
export function decideRunVerdict(inputs: ActionInputs, summary: RunSummary): Verdict {
  const policy = {
    failOnScreenshotCompare: inputs.failOnScreenshotCompare,
    failOnTimeout: inputs.failOnTimeout,
    failOnEmpty: inputs.failOnEmpty,
  };
  const interrupted = summary.interrupted === 'signal';
  return inputs.wait || interrupted ? decideVerdict(summary, policy) : decideStartedVerdict(summary, policy);
}

/** Logs the verdict with its counts and fails the step (`setFailed`, every reason) when it does not pass. */
export function announceVerdict(sink: ActionSink, verdict: Verdict): void {
  const c = verdict.counts;
  if (!verdict.waited) {
    sink.info(`Started ${plural(c.total - c.error, 'run')} without waiting (wait: false).`);
  } else {
    sink.info(
      `Verdict: ${verdict.passing ? 'passed' : 'failed'} — ${c.total} total, ${c.passed} passed, ${c.failed} failed, ` +
        `${c.flaky} flaky, ${c.timedOut} timed out, ${c.cancelled} cancelled, ${c.error} error, ` +
        `${c.screenshotCompareFailed} screenshot comparison(s) failed.`,
    );
  }
  if (!verdict.passing) sink.setFailed(verdict.reasons.join(' '));
}
