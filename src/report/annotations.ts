/** Workflow annotations from the report model (docs/api-contract.md, "Annotations"). */
import type { ActionSink } from '../common/sink.js';
import { attemptReason, comparisonLine, failureMessage, flakySentence, withVariant } from './phrases.js';
import type { Report, ReportSuiteRun, ReportTest } from './model-types.js';
import { allTests } from './model.js';
import { cleanText, truncate } from './text.js';

type AnnotationLevel = 'error' | 'warning';

export interface Annotation {
  level: AnnotationLevel;
  title: string;
  message: string;
  /** The repository test file of a `test-files` run, relative to the workspace. */
  file?: string;
}

/** Annotations GitHub keeps per level and step. */
const MAX_ANNOTATIONS_PER_LEVEL = 10;
/** Longest message GitHub keeps, in characters. */
export const MAX_ANNOTATION_MESSAGE = 4096;
/** Longest title we write, in characters. */
const MAX_ANNOTATION_TITLE = 255;

/**
 * Renders the annotations of a report (pure): errors first, at most {@link MAX_ANNOTATIONS_PER_LEVEL} per
 * level (the last counts the rest; a failing step keeps one error for its own `setFailed`), messages and
 * titles cut to GitHub's limits (characters).
 */
export function renderAnnotations(report: Report): Annotation[] {
  const errors: Annotation[] = [];
  const warnings: Annotation[] = [];
  for (const { run, test } of allTests(report)) {
    if (test.failing) {
      errors.push(annotation('error', run, test, errorMessage(report, test)));
      continue;
    }
    const warning = warningMessage(test);
    if (warning) warnings.push(annotation('warning', run, test, warning));
  }
  return [
    ...cap(errors, 'error', 'failing tests', MAX_ANNOTATIONS_PER_LEVEL - (report.passing ? 0 : 1)),
    ...cap(warnings, 'warning', 'warnings', MAX_ANNOTATIONS_PER_LEVEL),
  ];
}

/** The warning of a test that does not fail the step but is worth a look; null for none. */
function warningMessage(test: ReportTest): string | null {
  if (test.state === 'flaky') return flakyMessage(test);
  if (test.screenshotCompareFailed)
    return `${comparisonLine(test)} (not counted as a failure)${linkSuffix(test)}`;
  if (test.state === 'timed-out' || test.state === 'cancelled')
    return failureMessage(test) + linkSuffix(test);
  return null;
}

/** Emits annotations through `sink` in order, each with its title and file. */
export function emitAnnotations(list: Annotation[], sink: Pick<ActionSink, 'error' | 'warning'>): void {
  for (const { level, title, message, file } of list)
    sink[level](message, file ? { title, file } : { title });
}

function annotation(
  level: AnnotationLevel,
  run: ReportSuiteRun,
  test: ReportTest,
  message: string,
): Annotation {
  return {
    level,
    title: truncate(oneLine(withVariant(test.title, run.variantLabel)), MAX_ANNOTATION_TITLE),
    message: truncate(cleanText(message), MAX_ANNOTATION_MESSAGE),
    ...(run.file ? { file: run.file } : {}),
  };
}

function errorMessage(report: Report, test: ReportTest): string {
  let message = failureMessage(test);
  if (test.state === 'failed' && test.screenshotCompareFailed && report.policy.failOnScreenshotCompare) {
    message += `\n${comparisonLine(test)}`;
  }
  return message + linkSuffix(test);
}

function flakyMessage(test: ReportTest): string {
  const first = test.attempts.find((a) => a.passing === false) ?? test.attempts[0];
  const why = first ? attemptReason(first) : 'failed';
  const parts = [`Flaky: ${flakySentence(test)} (first: ${why}).`];
  if (test.screenshotCompareFailed) parts.push(comparisonLine(test));
  return parts.join('\n') + linkSuffix(test);
}

function linkSuffix(test: ReportTest): string {
  return test.resultUrl ? `\n${test.resultUrl}` : '';
}

function oneLine(text: string): string {
  return cleanText(text).replace(/\s*[\r\n]+\s*/g, ' ');
}

/** Keeps at most `slots`: past that, the last one counts the rest and names as many as fit. */
function cap(list: Annotation[], level: AnnotationLevel, what: string, slots: number): Annotation[] {
  if (list.length <= slots) return list;
  const kept = list.slice(0, slots - 1);
  const rest = list.slice(slots - 1);
  const names = rest.map((a) => `- ${a.title}`).join('\n');
  const message = `${rest.length} more ${what} (GitHub shows at most ${MAX_ANNOTATIONS_PER_LEVEL} annotations of a kind per step); see the job summary and the JUnit file.\n${names}`;
  kept.push({
    level,
    title: `${rest.length} more ${what}`,
    message: truncate(message, MAX_ANNOTATION_MESSAGE),
  });
  return kept;
}
