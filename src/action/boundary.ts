/**
 * The process boundary of the main step (docs/architecture.md, "The process boundary"): the process exits 0
 * only once `run()` returned after writing a verdict that passed. Any other end (the deadline's backstop, the
 * forced exit after a signal, an event loop left empty, an uncaught error or unhandled rejection) fails the
 * step with an `::error` saying what was left unfinished, after the job summary says so too.
 */
import { redactUrl } from '../api/redact.js';
import type { ActionSink } from '../common/sink.js';
import { messageOf } from '../common/log.js';
import { plural } from '../common/words.js';
import { DEFAULT_TITLE } from '../report/summary.js';
import { escapeInline } from '../report/text.js';
import type { Remote } from '../run/book.js';

/** How long an unfinished end waits for the job summary to be written before the process ends, ms. */
const SUMMARY_WAIT_MS = 2_000;
/** Runs named in the error; the rest are counted. */
const RUNS_NAMED = 5;

/** What the main step has done so far, as `run()` tells it; read when the process ends another way. */
export class StepProgress {
  /** What the step is doing now, as the error words it (`running the tests`). */
  doing = 'reading the inputs';
  /** The verdict once announced (`true`: it passed); null before. */
  passed: boolean | null = null;
  /** The reports (job summary included) are written. */
  reported = false;
  /** The job summary's title and whether one is written (the inputs, once read). */
  summary = { title: DEFAULT_TITLE, enabled: true };
  /** Removes the secrets from a message (the inputs' redactor, once read). */
  redact: (text: string) => string = redactUrl;
  /** Set once an unfinished end has begun: the first one speaks, later ones are ignored. */
  ended = false;
  private readonly following = new Map<string, string>();

  /** Keeps the remote runs being followed (the engine's `onRemote`). */
  readonly onRemote = (remote: Readonly<Remote>): void => {
    const key = `${remote.type}:${remote.id}`;
    if (remote.active) this.following.set(key, `${remote.type} result ${remote.id}`);
    else this.following.delete(key);
  };

  /** What was left unfinished: `while running the tests; 2 runs still followed (…); no verdict was reached`. */
  unfinished(): string {
    const runs = [...this.following.values()];
    const named = runs.slice(0, RUNS_NAMED).join(', ') + (runs.length > RUNS_NAMED ? ', …' : '');
    const verdict = this.passed === null ? 'no verdict was reached' : 'the verdict was written';
    const following = runs.length > 0 ? `; ${plural(runs.length, 'run')} still followed (${named})` : '';
    return `while ${this.doing}${following}; ${verdict}`;
  }
}

/** What an unfinished end needs: the sink, the step's progress, and how the process ends. */
export interface UnfinishedEnd {
  sink: ActionSink;
  progress: StepProgress;
  /** Ends the process (non-zero). */
  exit(): void;
}

/**
 * Fails the step for an end other than `run()` returning: `::error` `<cause>. Stopped <unfinished>.`,
 * the same words in the job summary unless the reports were written (waiting at most `waitMs` for it, ms),
 * then `exit`. Only the first call acts.
 */
export function endUnfinished(end: UnfinishedEnd, cause: string, waitMs = SUMMARY_WAIT_MS): void {
  const { sink, progress } = end;
  if (progress.ended) return;
  progress.ended = true;
  const message = progress.redact(`${cause}. Stopped ${progress.unfinished()}.`);
  sink.setFailed(message);
  const written =
    progress.reported || !progress.summary.enabled
      ? Promise.resolve()
      : sink.appendSummary(
          `## ❌ ${escapeInline(progress.summary.title)}: did not finish\n\n${escapeInline(message)}\n`,
        );
  const waited = new Promise<void>((resolve) => setTimeout(resolve, waitMs));
  void Promise.race([written.catch(() => undefined), waited]).then(() => end.exit());
}

/** The process events the boundary listens to (a subset of `process`). */
export interface ProcessEvents {
  on(event: 'beforeExit', listener: () => void): unknown;
  on(event: 'uncaughtException', listener: (error: Error) => void): unknown;
  on(event: 'unhandledRejection', listener: (reason: unknown) => void): unknown;
}

/**
 * Ends the step through {@link endUnfinished} when the process would end before `run()` returned (its event
 * loop empty), or on an uncaught error or unhandled rejection.
 */
export function guardProcess(events: ProcessEvents, end: UnfinishedEnd): void {
  events.on('beforeExit', () => endUnfinished(end, 'Nothing was left to wait for'));
  events.on('uncaughtException', (error) => endUnfinished(end, `Uncaught error: ${messageOf(error)}`));
  events.on('unhandledRejection', (reason) =>
    endUnfinished(end, `Unhandled rejection: ${messageOf(reason)}`),
  );
}

/**
 * The exit code once `run()` returned: 0 only when the verdict was written and passed and nothing failed the
 * step (`exitCode`, set by `setFailed`); otherwise non-zero, failing the step if nothing did.
 */
export function exitCodeAfterRun(
  progress: StepProgress,
  sink: ActionSink,
  exitCode: number | string | null | undefined,
): number {
  if (Number(exitCode)) return Number(exitCode);
  if (progress.passed === true) return 0;
  if (progress.passed === null) sink.setFailed(progress.redact(`The action ended ${progress.unfinished()}.`));
  return 1;
}
