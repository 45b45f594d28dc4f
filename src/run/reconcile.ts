/**
 * Reconciliation of a trigger whose answer never came: an execute that may have reached the service
 * (`TRIGGER_UNCERTAIN`: reset, timeout, 5xx, unreadable answer) or that was cut short in flight by the
 * deadline or a workflow cancel (`ABORTED` after it was sent). The execute is never sent again (a second
 * execute could start the runs twice); instead the runs it may have started are looked up:
 *
 * - suite: `GET /suites/{suiteId}/results/?count=50` (newest first, running ones included);
 * - test: `GET /tests/{testId}/running/`, then `GET /tests/{testId}/results/?count=50`;
 * - repository test file (on demand): `GET /organizations/{organizationId}/running/`, by the test's name.
 *
 * A result counts as this trigger's when it was created at or after the trigger time (less
 * `CLOCK_SKEW_MS`), is not already followed by the action, (when the trigger set one) has the same start
 * URL, and, for a test or file, is not part of a suite result (a suite run of the same test). The engine adopts what is found (polls it, or cancels it when the action is stopping) and
 * reports the trigger as "may have started" only when nothing is found.
 */
import { refId } from '../api/refs.js';
import type { ActionApi } from './action-api.js';
import { ApiError } from '../api/errors.js';
import { PAGE_SIZE } from '../api/limits.js';
import type { SuiteResult, TestResult } from '../api/types.js';
import type { Clock } from './clock.js';
import type { TriggerJob } from './execute.js';

/** How much earlier than the trigger a result's `dateCreated` may be and still count (clock skew), ms. */
export const CLOCK_SKEW_MS = 2_000;
/** Lookups before giving up (a run can take a moment to be listed), and the pause between them, ms. */
export const LOOKUP_ATTEMPTS = 3;
export const LOOKUP_PAUSE_MS = 1_000;

/**
 * Whether a failed execute may have started runs: `TRIGGER_UNCERTAIN`, or `ABORTED` while an attempt was
 * in flight. An abort before sending, or during the wait before a retry (the attempts so far were refused
 * with 429 or never arrived), started nothing.
 */
export function mayHaveStarted(error: unknown): boolean {
  if (!(error instanceof ApiError)) return false;
  if (error.errorType === 'TRIGGER_UNCERTAIN') return true;
  return error.errorType === 'ABORTED' && error.inFlight === true;
}

/** What to look up. */
export interface LookupRequest {
  job: TriggerJob;
  /** When the execute was sent, ms since the epoch. */
  triggeredAtMs: number;
  /** How many results the execute would have started (variants × data rows; at least 1). */
  expected: number;
  /** Result ids the action already follows (never adopted twice). */
  known: ReadonlySet<string>;
  organizationId: string | null;
  /** Ends the lookup (the stop phase's own time limit). */
  signal?: AbortSignal;
}

type Found = SuiteResult | TestResult;

async function listCandidates(api: ActionApi, req: LookupRequest): Promise<Found[]> {
  const opts = req.signal ? { signal: req.signal } : {};
  const { job } = req;
  if (job.kind === 'suite') return api.listSuiteResults(job.suiteId, { count: PAGE_SIZE }, opts);
  if (job.kind === 'test') {
    const running = await api.listTestRunning(job.testId, opts);
    if (running.length > 0) return running;
    return api.listTestResults(job.testId, { count: PAGE_SIZE }, opts);
  }
  if (!req.organizationId) return [];
  const running = await api.listOrganizationRunning(req.organizationId, opts);
  return running.filter((r) => r.name === job.definition.name && !refId(r.test));
}

/** The candidates that belong to the trigger, oldest first, at most `expected`. */
export function matchTriggered(candidates: Found[], req: LookupRequest): Found[] {
  const since = req.triggeredAtMs - CLOCK_SKEW_MS;
  const startUrl = req.job.startUrl;
  return (
    candidates
      .filter((r) => !!r?._id && !req.known.has(r._id))
      .filter((r) => {
        const created = Date.parse(r.dateCreated ?? '');
        return Number.isFinite(created) && created >= since;
      })
      .filter((r) => startUrl === undefined || !r.startUrl || r.startUrl === startUrl)
      // A test's results list also holds the test results of suite runs: never this trigger's.
      .filter((r) => req.job.kind === 'suite' || !(r as TestResult).suiteResult)
      .sort((a, b) => Date.parse(a.dateCreated) - Date.parse(b.dateCreated))
      .slice(0, Math.max(1, req.expected))
  );
}

/**
 * Looks up the runs an uncertain or interrupted execute started: up to `LOOKUP_ATTEMPTS` lookups,
 * `LOOKUP_PAUSE_MS` apart, until one finds any.
 * @returns the results found, oldest first ([] when none could be found, or the signal ended the search).
 * Never throws: a failed lookup counts as "not found yet".
 */
export async function findTriggeredRuns(api: ActionApi, req: LookupRequest, clock: Clock): Promise<Found[]> {
  for (let attempt = 0; attempt < LOOKUP_ATTEMPTS; attempt++) {
    if (req.signal?.aborted) return [];
    if (attempt > 0) {
      await clock.sleep(LOOKUP_PAUSE_MS, req.signal);
      if (req.signal?.aborted) return [];
    }
    try {
      const found = matchTriggered(await listCandidates(api, req), req);
      if (found.length > 0) return found;
    } catch {
      // Not found yet: try again.
    }
  }
  return [];
}
