/** Builds one test of the report model (`model.ts`) from a test result (pure). */
import { refId, refName } from '../api/refs.js';
import { resultImages } from '../api/screenshots.js';
import type { ConsoleEntry, StepTarget } from '../api/types.js';
import type { KeptStep, KeptTestResult } from '../run/kept-result.js';
import { countedAs, failsStep, type VerdictPolicy } from '../run/outcome/outcome.js';
import type { SuiteRun, TestRun, Variant } from '../run/types.js';
import type {
  FailingStep,
  ReportAttachments,
  ReportAttempt,
  ReportConsoleError,
  ReportScreenshotCompare,
  ReportStep,
  ReportTest,
  StepOutcome,
} from './model-types.js';
import { redactUrl, withoutQuery } from '../api/redact.js';
import { cleanText } from './text.js';

const EPOCH = '1970-01-01T00:00:00.000Z';
const PRIVATE_VALUE = '********';

/** A variant's browser, region and viewport as report test fields (docs/results-json.md, "results[]"). */
export function variantFields(variant: Variant): Pick<ReportTest, 'browser' | 'region' | 'viewport'> {
  return {
    ...(variant.browser ? { browser: cleanText(variant.browser) } : {}),
    ...(variant.region ? { region: cleanText(variant.region) } : {}),
    ...(variant.viewport ? { viewport: cleanText(variant.viewport) } : {}),
  };
}

/** Where a test sits: its fallback key, its suite's name and run, and what the report needs. */
export interface TestContext {
  /** Key when the test has no result: `<suite run key>#<index>`. */
  key: string;
  suiteName: string;
  run: SuiteRun;
  appUrl: string;
  policy: Pick<VerdictPolicy, 'failOnScreenshotCompare' | 'failOnTimeout'>;
  attachments: ReportAttachments;
}

/** One test of the report model from a test run; `countedAs` and `failing` by the verdict's rules. */
export function buildTest(test: TestRun, ctx: TestContext): ReportTest {
  const { run, appUrl, policy, attachments } = ctx;
  const r = test.result;
  const name =
    cleanText(test.testName) || cleanText(refName(r?.test)) || cleanText(r?.name) || '(unnamed test)';
  const steps = (r?.steps ?? []).map(buildStep);
  const failingStep = failingStepOf(r?.steps, test.testId ?? refId(r?.test));
  const compare = r ? buildCompare(r, attachments.get(r._id)?.comparison) : undefined;
  const screenshotCompareFailed = r?.screenshotComparePassing === false;
  const counted = countedAs(test.state, screenshotCompareFailed, policy);
  const errorText = cleanText(test.error) || cleanText(r?.error?.details) || undefined;
  const resultUrl = r ? `${appUrl}/results/${r._id}` : test.url ? cleanText(test.url) : undefined;
  const variant = variantFields(run.variant ?? {});
  const viewport = r?.viewportSize ? `${r.viewportSize.width}x${r.viewportSize.height}` : variant.viewport;
  const shot = r && resultImages(r).screenshot;
  const shotPath = r && attachments.get(r._id)?.screenshot;
  const screenshot = shot && {
    originalUrl: writtenUrl(shot.url),
    smallUrl: writtenUrl(shot.smallUrl) || writtenUrl(shot.url),
    ...(shotPath ? { path: shotPath } : {}),
  };
  return {
    key: r?._id ?? ctx.key,
    resultId: r?._id ?? null,
    testId: test.testId ?? refId(r?.test),
    name,
    title: run.kind === 'test' ? name : `${ctx.suiteName} › ${name}`,
    state: test.state,
    countedAs: counted,
    failing: failsStep(counted, policy),
    durationMs: r ? resultDuration(r) : null,
    ...(r && validDate(r.dateExecutionStarted) ? { startedAt: r.dateExecutionStarted } : {}),
    ...(r && validDate(r.dateExecutionFinished) ? { finishedAt: r.dateExecutionFinished } : {}),
    ...(failingStep ? { failingStep } : {}),
    ...(errorText ? { error: errorText } : {}),
    steps,
    consoleErrors: (r?.console ?? []).filter((c) => c.error).map(buildConsole),
    ...(resultUrl ? { resultUrl } : {}),
    ...(r?.startUrl ? { startUrl: redactUrl(cleanText(r.startUrl)) } : {}),
    ...(r?.endUrl ? { endUrl: redactUrl(cleanText(r.endUrl)) } : {}),
    ...(r?.video?.url ? { videoUrl: writtenUrl(r.video.url) } : {}),
    ...(screenshot && screenshot.originalUrl ? { screenshot } : {}),
    ...(compare ? { screenshotCompare: compare } : {}),
    screenshotCompareFailed,
    attempts: test.attempts.map((a) => buildAttempt(a, appUrl)),
    ...variant,
    ...(r?.browser ? { browser: cleanText(r.browser) } : {}),
    ...(r?.region ? { region: cleanText(r.region) } : {}),
    ...(viewport ? { viewport } : {}),
  };
}

/** A screenshot or video URL as the reports write it: cleaned, without its query string (signed URLs). */
function writtenUrl(url: string | null | undefined): string {
  const text = cleanText(url);
  return text ? withoutQuery(text) : '';
}

function buildAttempt(r: KeptTestResult, appUrl: string): ReportAttempt {
  const failingStep = failingStepOf(r.steps, refId(r.test));
  const error = cleanText(r.error?.details);
  return {
    resultId: r._id,
    resultUrl: `${appUrl}/results/${r._id}`,
    passing: r.passing,
    durationMs: resultDuration(r),
    ...(failingStep ? { failingStep } : {}),
    ...(error ? { error } : {}),
  };
}

function buildCompare(r: KeptTestResult, path: string | undefined): ReportScreenshotCompare | undefined {
  const hasImage = Boolean(r.screenshotCompare);
  if (!hasImage && r.screenshotComparePassing == null && r.screenshotCompareDifference == null)
    return undefined;
  const image = resultImages(r).comparison;
  const imageUrl = writtenUrl(image?.url);
  const smallUrl = writtenUrl(image?.smallUrl) || imageUrl;
  return {
    difference: numberOrNull(r.screenshotCompareDifference),
    threshold: r.screenshotCompareThreshold,
    passing: r.screenshotComparePassing ?? null,
    ...(imageUrl ? { imageUrl, smallUrl } : {}),
    baselineResultId: r.screenshotCompareBaselineResult ?? null,
    ...(path ? { path } : {}),
  };
}

function buildStep(step: KeptStep): ReportStep {
  const skipped = step.condition?.result === false;
  const outcome: StepOutcome = skipped
    ? 'skipped'
    : step.passing === true
      ? 'passed'
      : step.passing === false
        ? step.optional
          ? 'failed-optional'
          : 'failed'
        : 'not-run';
  const error = cleanText(step.error);
  return {
    sequence: step.sequence,
    command: cleanText(step.command),
    target: targetText(step.target),
    value: step.private ? (step.value ? PRIVATE_VALUE : '') : cleanText(step.value),
    optional: Boolean(step.optional),
    outcome,
    ...(error ? { error } : {}),
    ...(step.url ? { url: redactUrl(cleanText(step.url)) } : {}),
  };
}

/** A step target as one string: several selectors (tried in order) are joined with ` || `. */
function targetText(target: StepTarget | null | undefined): string {
  if (target === null || target === undefined) return '';
  if (typeof target === 'string') return cleanText(target);
  return target.map((t) => cleanText(t?.selector)).join(' || ');
}

/**
 * The first required step of a test result that failed, as the reports tell it; undefined when none. With the
 * result's own test id, a step whose `extra.source.test` is another test is named as that module's step (an
 * on-demand result has no test id: its steps are told as its own).
 */
export function failingStepOf(
  steps: KeptStep[] | null | undefined,
  ownTestId?: string | null,
): FailingStep | undefined {
  const index = steps?.map(buildStep).findIndex((s) => s.outcome === 'failed') ?? -1;
  if (!steps || index < 0) return undefined;
  const { sequence, command, target, error } = buildStep(steps[index]);
  const source = steps[index].extra?.source;
  const fromModule =
    ownTestId &&
    typeof source?.test === 'string' &&
    source.test !== ownTestId &&
    Number.isInteger(source.sequence);
  return {
    sequence,
    command,
    target,
    error: error ?? 'Step failed (the service gave no error text).',
    ...(fromModule ? { module: { testId: cleanText(source.test), sequence: source.sequence } } : {}),
  };
}

function buildConsole(entry: ConsoleEntry): ReportConsoleError {
  return {
    output: cleanText(entry.output),
    url: redactUrl(cleanText(entry.url)),
    dateExecuted: entry.dateExecuted,
  };
}

function resultDuration(r: KeptTestResult): number | null {
  const time = numberOrNull(r.executionTime);
  if (time !== null) return time;
  if (validDate(r.dateExecutionStarted) && validDate(r.dateExecutionFinished)) {
    return Math.max(0, dateMs(r.dateExecutionFinished) - dateMs(r.dateExecutionStarted));
  }
  return null;
}

/** True for a parseable ISO 8601 date other than the epoch (the service's "never" on tests). */
function validDate(value: string | undefined | null): value is string {
  return typeof value === 'string' && value !== EPOCH && Number.isFinite(Date.parse(value));
}

/** An ISO 8601 date as ms since the epoch; 0 when it does not parse (the report's durations stay >= 0). */
export function dateMs(value: string): number {
  const ms = Date.parse(value);
  return Number.isFinite(ms) ? ms : 0;
}

/** A finite number as it is (durations in ms, comparison differences); null for null, undefined, NaN, ±∞. */
export function numberOrNull(value: number | null | undefined): number | null {
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}
