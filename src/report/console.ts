/** The console reporter: the run engine's events as the step's log lines; also the one label of a variant. */
import type { RunLog } from '../common/log.js';
import { formatDuration, plural } from '../common/words.js';
import type { RunEvent, RunEventListener } from '../run/events.js';
import { NOT_STARTED_ERROR } from '../run/stop/deadline.js';
import { foldIds, problemLines } from '../run/progress.js';
import type { SuiteRun, TestRun, Variant } from '../run/types.js';
import { failingStepOf } from './model-test.js';

import { STATE_LABEL, stepSentence, withVariant } from './phrases.js';
import { redactUrl } from '../api/redact.js';
import { refId } from '../api/refs.js';
import { cleanText } from './text.js';

/** The varied parts of a variant: browser, region, viewport, start URL (redacted), `row <n>` (from 1). */
export function variantParts(variant: Variant, withStartUrl = true): string[] {
  const parts: string[] = [];
  if (variant.browser) parts.push(cleanText(variant.browser));
  if (variant.region) parts.push(cleanText(variant.region));
  if (variant.viewport) parts.push(cleanText(variant.viewport));
  if (variant.startUrl && withStartUrl) parts.push(redactUrl(cleanText(variant.startUrl)));
  if (variant.dataRow !== undefined && variant.dataRow !== null) parts.push(`row ${variant.dataRow + 1}`);
  return parts;
}

/** The one label of a variant, `firefox · eu-west-1 · row 3`; '' when nothing varied. */
export function variantLabel(variant: Variant): string {
  return variantParts(variant).join(' · ');
}

/** A test's name in a log line, with its variant's label: `Pay [firefox]`. */
function named(name: string, variant: Variant): string {
  return withVariant(name, variantLabel(variant));
}

/** The group of one finished test: `❌ Failed  Checkout [chrome] in 4.2 s`, then suite, link, failing step. */
function testGroup(run: SuiteRun, test: TestRun): { title: string; lines: string[] } {
  const seconds = test.result?.executionTime ? ` in ${(test.result.executionTime / 1000).toFixed(1)} s` : '';
  const title = `${STATE_LABEL[test.state]}  ${named(test.testName, run.variant)}${seconds}`;
  const lines: string[] = [];
  if (run.kind === 'suite') lines.push(`Suite: ${run.suiteName}`);
  if (run.file) lines.push(`File: ${run.file}`);
  if (test.url) lines.push(`Result: ${test.url}`);
  const failing = failingStepOf(test.result?.steps, test.testId ?? refId(test.result?.test));
  if (failing) lines.push(stepSentence(failing));
  if (test.error) lines.push(test.error);
  if (test.attempts.length) lines.push(`Attempts before: ${test.attempts.length}`);
  return { title, lines };
}

function renderStop(event: RunEvent, log: RunLog): void {
  switch (event.type) {
    case 'retrying':
      log.info(
        `Re-running failed test ${named(event.testName, event.variant)} (attempt ${event.attempt} of ${event.attempts}).`,
      );
      return;
    case 'retry-problem': {
      const label = named(event.testName, event.variant);
      if (event.problem === 'not-sent') log.warning(`Could not re-run ${label}: ${event.message}`);
      else if (event.problem === 'not-read') log.warning(`Re-run of ${label}: ${event.message}`);
      else log.warning(`The re-run of ${label} was not found: ${event.message}`);
      return;
    }
    case 'timed-out':
      log.warning(
        `Timeout: ${formatDuration(event.timeoutMs)} passed with runs still going; stopping the wait.`,
      );
      return;
    case 'fail-fast':
      log.warning(
        `Fail-fast: ${named(event.test.testName, event.run.variant)} failed; cancelling ${plural(event.others, 'other remote run')} and starting no more.`,
      );
      return;
    case 'cancelling': {
      // Fail-fast told its cancels in its own line; only the late ones (triggers in flight) are added.
      if (event.reason === 'fail-fast' && !event.late) return;
      const why = event.reason === 'fail-fast' ? 'Fail-fast' : 'Workflow cancelled';
      const runs = plural(event.count, event.late ? 'more remote run' : 'remote run');
      log.warning(`${why}: cancelling ${runs}${event.late ? ' started by triggers in flight' : ''}.`);
      return;
    }
    case 'cancel-failed':
      log.warning(`Could not cancel ${event.remoteType} result ${event.id}: ${event.message}`);
      return;
    default:
      return;
  }
}

/** A listener writing each event as the step's log lines (the end-to-end tests read these texts). */
export function consoleReporter(log: RunLog): RunEventListener {
  return (event) => {
    switch (event.type) {
      case 'folder-listed':
        return log.info(`Folder ${event.folderId}: ${plural(event.suiteCount, 'suite')}.`);
      case 'folder-failed':
        return log.warning(`Folder ${event.folderId}: ${event.message}`);
      case 'run-started':
        return log.info(
          `Started ${event.label}: ${plural(event.resultIds.length, 'run')} (${foldIds(event.resultIds)}).`,
        );
      case 'runs-found':
        return log.info(
          `Found the run${event.resultIds.length === 1 ? '' : 's'} of ${event.label} after its execute was not answered: ${foldIds(event.resultIds)}.`,
        );
      case 'trigger-problems': {
        // Runs fail-fast kept from starting were not asked for in vain: an info line, not a warning.
        const skipped = event.problems.filter((p) => p.kind === NOT_STARTED_ERROR['fail-fast']);
        if (skipped.length > 0) {
          log.info(`Not started, fail-fast (a test had failed): ${foldIds(skipped.map((p) => p.label))}.`);
        }
        const problems = event.problems.filter((p) => p.kind !== NOT_STARTED_ERROR['fail-fast']);
        for (const line of problemLines(problems)) log.warning(line);
        return;
      }
      case 'test-finished': {
        const { title, lines } = testGroup(event.run, event.test);
        return log.group(title, lines);
      }
      case 'heartbeat':
        return log.info(
          `… ${plural(event.running, 'run')} still going, ${plural(event.finishedTests, 'test')} finished (${Math.round(event.elapsedMs / 1000)} s).`,
        );
      case 'detail':
        return log.debug?.(event.message);
      default:
        return renderStop(event, log);
    }
  };
}
