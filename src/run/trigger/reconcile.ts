/**
 * An execute whose answer never came is never sent again (it could start its runs twice): its runs are adopted
 * only on proof (`STEP_MARKER`). docs/architecture.md, "Reconciliation of a trigger in flight"; docs/reliability.md.
 */
import { refId } from '../../api/refs.js';
import type { GhostInspectorApi } from '../../api/api.js';
import { ApiError } from '../../api/errors.js';
import { PAGE_SIZE } from '../../api/limits.js';
import type { ExecuteOptions, TestResult } from '../../api/types.js';
import type { Clock } from '../../common/clock.js';
import type { Answer } from '../kinds.js';
import { STEP_MARKER } from '../../inputs/schema.js';
import { browserFits, type TriggerJob } from '../plan/execute.js';

/** How much earlier than the trigger a result's `dateCreated` may be and still count (clock skew), ms. */
export const CLOCK_SKEW_MS = 2_000;
/** Lookups before giving up (a run can take a moment to be listed), and the pause between them, ms. */
const LOOKUP_ATTEMPTS = 3;
const LOOKUP_PAUSE_MS = 1_000;

/** Whether a failed execute may have started runs: `TRIGGER_UNCERTAIN`, or `ABORTED` while in flight. */
export function mayHaveStarted(error: unknown): boolean {
  if (!(error instanceof ApiError)) return false;
  if (error.errorType === 'TRIGGER_UNCERTAIN') return true;
  return error.errorType === 'ABORTED' && error.inFlight === true;
}

export interface LookupRequest {
  job: TriggerJob;
  /** The options the execute sent: the variant a run must show to be this trigger's. */
  options?: ExecuteOptions;
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

export interface Lookup {
  /** The runs proven the trigger's (they show the step's marker), oldest first; at most `expected`. */
  adopted: Answer[];
  /** The results that may be the trigger's but showed no proof, oldest first. */
  candidates: Answer[];
}

async function listCandidates(api: GhostInspectorApi, req: LookupRequest): Promise<Answer[]> {
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

/** How a result's own fields compare with what was sent: equal, not shown, or different. */
type Fit = 'match' | 'unknown' | 'mismatch';

function listOf(value: string | string[] | undefined): string[] {
  if (value === undefined) return [];
  return (Array.isArray(value) ? value : [value]).map((v) => v.toLowerCase());
}

/** One field: `shown` (the result's, '' when absent) against the values sent (none sent: no evidence). */
function fieldFit(
  shown: string,
  sent: string[],
  fits: (sent: string, shown: string) => boolean = (a, b) => a === b.toLowerCase(),
): Fit {
  if (sent.length === 0) return 'match';
  if (!shown) return 'unknown';
  return sent.some((value) => fits(value, shown)) ? 'match' : 'mismatch';
}

/** How a result fits the variant sent, as far as its fields show it (a suite result: only its start URL). */
export function variantFit(result: Answer, options: ExecuteOptions, startUrl?: string): Fit {
  const r = result as Partial<TestResult>;
  const size = r.viewportSize;
  const fits: Fit[] = [
    fieldFit(typeof r.browser === 'string' ? r.browser : '', listOf(options.browser), browserFits),
    fieldFit(typeof r.region === 'string' ? r.region : '', listOf(options.region)),
    fieldFit(size?.width && size?.height ? `${size.width}x${size.height}` : '', listOf(options.viewport)),
    fieldFit(typeof r.startUrl === 'string' ? r.startUrl.toLowerCase() : '', listOf(startUrl)),
  ];
  const shownVariables = r.variables && typeof r.variables === 'object' ? r.variables : null;
  for (const [name, value] of Object.entries(options.variables ?? {})) {
    const shown = shownVariables?.[name];
    fits.push(
      shown === undefined || shown === null ? 'unknown' : String(shown) === value ? 'match' : 'mismatch',
    );
  }
  if (fits.includes('mismatch')) return 'mismatch';
  return fits.includes('unknown') ? 'unknown' : 'match';
}

/**
 * The start URL sent, to compare with the one a result shows; none when it holds a `{{variable}}`: the service
 * fills that in (from variables this step may not know), so only the marker can prove such a run.
 */
function comparableStartUrl(sent: string | undefined): string | undefined {
  return sent !== undefined && /\{\{[^{}]*\}\}/.test(sent) ? undefined : sent;
}

/** The candidates that may be the trigger's (new, unknown, no differing variant), oldest first, with fit. */
export function matchTriggered(
  candidates: Answer[],
  req: LookupRequest,
): Array<{ result: Answer; fit: Fit }> {
  const since = req.triggeredAtMs - CLOCK_SKEW_MS;
  const options = req.options ?? {};
  const startUrl = comparableStartUrl(options.startUrl ?? req.job.startUrl);
  return (
    candidates
      .filter((r) => !!r?._id && !req.known.has(r._id))
      .filter((r) => {
        const created = Date.parse(r.dateCreated ?? '');
        return Number.isFinite(created) && created >= since;
      })
      // A test's results list also holds the test results of suite runs: never this trigger's.
      .filter((r) => req.job.kind === 'suite' || !(r as TestResult).suiteResult)
      .map((result) => ({ result, fit: variantFit(result, options, startUrl) }))
      .filter((c) => c.fit !== 'mismatch')
      .sort((a, b) => Date.parse(a.result.dateCreated) - Date.parse(b.result.dateCreated))
  );
}

/**
 * Whether `result` shows the step's marker sent in `options`: true, false (another marker), or null (not
 * shown yet). A suite result shows no variables: the first test result of its run is read for them.
 */
async function provenOurs(
  api: GhostInspectorApi,
  req: LookupRequest,
  result: Answer,
): Promise<boolean | null> {
  const sent = req.options?.variables?.[STEP_MARKER];
  if (sent === undefined) return null;
  let shown: Partial<TestResult> | undefined = result;
  if (req.job.kind === 'suite') {
    const opts = req.signal ? { signal: req.signal } : {};
    [shown] = await api.listSuiteResultTestResults(result._id, { count: 1, offset: 0 }, opts);
  }
  const value = shown?.variables && typeof shown.variables === 'object' ? shown.variables[STEP_MARKER] : null;
  return value === undefined || value === null ? null : String(value) === sent;
}

/**
 * Looks up the runs of an uncertain or interrupted execute, up to `LOOKUP_ATTEMPTS` times: adopted only when
 * proven the step's own (`provenOurs`), at most `expected`; the rest that fit are candidates. Never throws.
 */
export async function findTriggeredRuns(
  api: GhostInspectorApi,
  req: LookupRequest,
  clock: Clock,
): Promise<Lookup> {
  let fitting: Answer[] = [];
  const proof = new Map<string, boolean>();
  const expected = Math.max(1, req.expected);
  const proven = (): Answer[] => fitting.filter((r) => proof.get(r._id) === true);
  for (let attempt = 0; attempt < LOOKUP_ATTEMPTS; attempt++) {
    if (req.signal?.aborted) break;
    if (attempt > 0) {
      await clock.sleep(LOOKUP_PAUSE_MS, req.signal);
      if (req.signal?.aborted) break;
    }
    try {
      fitting = matchTriggered(await listCandidates(api, req), req).map((c) => c.result);
      for (const r of fitting.filter((c) => !proof.has(c._id))) {
        const ours = await provenOurs(api, req, r).catch(() => null);
        if (ours !== null) proof.set(r._id, ours);
      }
      if (proven().length >= expected) break;
    } catch {
      // Not found yet: try again.
    }
  }
  const adopted = proven().slice(0, expected);
  const candidates = fitting.filter((r) => !proof.has(r._id));
  return { adopted, candidates };
}
