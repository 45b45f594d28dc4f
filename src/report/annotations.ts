/** Workflow annotations from the report model (docs/github-platform.md, "Annotations"). */
import * as core from '@actions/core';

import { comparisonLine, failureMessage, stepSentence } from './phrases.js';
import type { Report, ReportSuiteRun, ReportTest } from './model.js';
import { allTests } from './model.js';
import { cleanText, truncate } from './text.js';

type AnnotationLevel = 'error' | 'warning' | 'notice';

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

export interface AnnotationOptions {
  /** Error annotations the step writes besides these (e.g. `core.setFailed`'s); default 0. */
  reservedErrors?: number;
}

/**
 * Renders the annotations of a report (pure): errors first, at most {@link MAX_ANNOTATIONS_PER_LEVEL} per
 * level (the last counts the rest), messages and titles cut to GitHub's limits (characters).
 */
export function renderAnnotations(report: Report, options: AnnotationOptions = {}): Annotation[] {
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
  const errorSlots = Math.max(1, MAX_ANNOTATIONS_PER_LEVEL - Math.max(0, options.reservedErrors ?? 0));
  return [
    ...cap(errors, 'error', 'failing tests', errorSlots),
    ...cap(warnings, 'warning', 'warnings', MAX_ANNOTATIONS_PER_LEVEL),
  ];
}

/** The warning of a test that does not fail the step but is worth a look; null for none. */
function warningMessage(test: ReportTest): string | null {
  if (test.state === 'flaky') return flakyMessage(test);
  if (test.screenshotCompareFailed)
    return `${comparisonLine(test)} (not counted as a failure)${linkSuffix(test)}`;
  if (test.state === 'timed-out')
    return `Timed out: ${test.error ?? 'still running at the deadline'}${linkSuffix(test)}`;
  if (test.state === 'cancelled')
    return `Cancelled${test.error ? `: ${test.error}` : '.'}${linkSuffix(test)}`;
  return null;
}

/** An annotation's properties as `@actions/core` takes them. */
type AnnotationProps = { title: string; file?: string };

/** Where annotations go: `@actions/core` or the action's sink (`common/sink.ts`). */
export interface AnnotationSink {
  error(message: string, properties: AnnotationProps): void;
  warning(message: string, properties: AnnotationProps): void;
  notice(message: string, properties: AnnotationProps): void;
}

/** Emits annotations through `sink` (default `@actions/core`) in order, each with its title and file. */
export function emitAnnotations(list: Annotation[], sink: AnnotationSink = core): void {
  for (const a of list) {
    const props: AnnotationProps = a.file ? { title: a.title, file: a.file } : { title: a.title };
    if (a.level === 'error') sink.error(a.message, props);
    else if (a.level === 'warning') sink.warning(a.message, props);
    else sink.notice(a.message, props);
  }
}

function annotation(
  level: AnnotationLevel,
  run: ReportSuiteRun,
  test: ReportTest,
  message: string,
): Annotation {
  return {
    level,
    title: truncate(oneLine(titleOf(run, test)), MAX_ANNOTATION_TITLE),
    message: truncate(cleanText(message), MAX_ANNOTATION_MESSAGE),
    ...(run.file ? { file: run.file } : {}),
  };
}

function titleOf(run: ReportSuiteRun, test: ReportTest): string {
  return `${test.title}${run.variantLabel ? ` [${run.variantLabel}]` : ''}`;
}

function errorMessage(report: Report, test: ReportTest): string {
  let message: string;
  if (test.state === 'failed' || test.state === 'error') message = failureMessage(test);
  else if (test.state === 'timed-out')
    message = `Timed out: ${test.error ?? 'still running at the deadline'}`;
  else if (test.state === 'cancelled') message = `Cancelled${test.error ? `: ${test.error}` : '.'}`;
  else message = comparisonLine(test);
  if (test.state === 'failed' && test.screenshotCompareFailed && report.policy.failOnScreenshotCompare) {
    message += `\n${comparisonLine(test)}`;
  }
  return message + linkSuffix(test);
}

function flakyMessage(test: ReportTest): string {
  const first = test.attempts.find((a) => a.passing === false) ?? test.attempts[0];
  const why = first?.failingStep ? stepSentence(first.failingStep) : (first?.error ?? 'failed');
  const parts = [`Flaky: passed on attempt ${test.attempts.length + 1} after failing (${why}).`];
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
