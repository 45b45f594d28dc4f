/**
 * The job summary: Markdown with the HTML GitHub allows, rendered from the report model (pure) and written
 * with `core.summary` (the writer). Implements the step summary limits of the service facts ("The GitHub
 * platform": at most 1 MiB per step, `core.summary` does not escape HTML).
 *
 * Layout: a headline (verdict, counts, duration); a table per suite run (status, test, variant, duration,
 * link); then failures, each in a `<details>` block (failing step, error, console errors, thumbnail of the
 * final screenshot, link to the comparison image); then flaky, timed out, cancelled tests and screenshot
 * comparisons that failed without failing the run.
 *
 * Size: when the whole summary would pass `maxBytes`, it shows the headline and the failures only, and
 * past the budget it stops with "N more … not shown" and a pointer to the JUnit file and results file.
 * Every piece of service text is escaped ({@link escapeInline}, {@link escapeBlock}); links are only
 * `http(s)` URLs, percent-encoded where HTML or a table could break.
 */
import * as core from '@actions/core';

import type { Report, ReportSuiteRun, ReportTest } from './model.js';
import { allTests } from './model.js';
import { percent } from './phrases.js';
import { escapeBlock, escapeInline, formatDuration, plural, safeUrl, truncate } from './text.js';

export interface SummaryOptions {
  /** Where the JUnit XML was written (shown in the pointer when the summary is cut). */
  junitPath?: string;
  /** Where results.json was written. */
  resultsPath?: string;
  /** Upper bound of the summary in UTF-8 bytes; default {@link DEFAULT_SUMMARY_MAX_BYTES}. */
  maxBytes?: number;
}

/** GitHub drops a step summary above 1 MiB; keep 32 KiB of margin. */
export const DEFAULT_SUMMARY_MAX_BYTES = 1024 * 1024 - 32 * 1024;

/** Longest error text shown per failure, in characters. */
const MAX_ERROR_CHARS = 2000;
/** Console errors shown per failure, and their longest text. */
const MAX_CONSOLE_ERRORS = 5;
const MAX_CONSOLE_CHARS = 500;
/** Longest name in a table cell or heading. */
const MAX_NAME_CHARS = 300;
/** Bytes kept free for the closing "N more" note. */
const TAIL_RESERVE = 1024;

const STATE_LABEL: Record<ReportTest['state'], string> = {
  passed: '✅ Passed',
  failed: '❌ Failed',
  flaky: '🔁 Flaky',
  'timed-out': '⏱️ Timed out',
  cancelled: '🚫 Cancelled',
  error: '⚠️ Error',
};

/**
 * Renders the job summary (pure).
 * @param report the report model
 * @param options paths for the pointer when the summary is cut, and the byte budget
 * @returns Markdown/HTML of at most `maxBytes` UTF-8 bytes
 */
export function renderSummary(report: Report, options: SummaryOptions = {}): string {
  const maxBytes = options.maxBytes ?? DEFAULT_SUMMARY_MAX_BYTES;
  const head = headline(report);
  const full = new Budget(maxBytes);
  full.add(head);
  let fits = true;
  for (const run of report.runs) {
    if (!full.add(runTable(report, run))) {
      fits = false;
      break;
    }
  }
  if (fits) {
    for (const section of detailSections(report)) {
      if (!full.add(section)) {
        fits = false;
        break;
      }
    }
  }
  if (fits) return full.text();

  // Failures only, cut at the budget.
  const cut = new Budget(maxBytes - TAIL_RESERVE);
  cut.add(head);
  const failing = [...allTests(report)].filter(({ test }) => test.failing);
  cut.add(
    `> [!NOTE]\n> The full report does not fit in a job summary (${plural(report.totals.total, 'test')}): ` +
      `showing failures only.${pointer(options)}\n\n`,
  );
  if (failing.length > 0) cut.add(`### Failures (${failing.length})\n\n`);
  let shown = 0;
  for (const { run, test } of failing) {
    if (!cut.add(details(report, run, test))) break;
    shown += 1;
  }
  const rest = failing.length - shown;
  let tail = '';
  if (rest > 0) {
    tail = `**${rest} more ${rest === 1 ? 'failure' : 'failures'} not shown.**${pointer(options)}\n`;
  } else if (failing.length === 0) {
    tail = `No test failed. The per-test tables are left out.${pointer(options)}\n`;
  }
  return cut.text() + truncateBytes(tail, TAIL_RESERVE);
}

/**
 * Appends Markdown to the job summary (`$GITHUB_STEP_SUMMARY`) through `core.summary`.
 * @param markdown the output of {@link renderSummary}
 * @throws when the summary file is not set or cannot be written (`core.summary` errors)
 */
export async function writeSummary(markdown: string): Promise<void> {
  await core.summary.addRaw(markdown).write();
}

class Budget {
  private readonly parts: string[] = [];
  private used = 0;
  constructor(private readonly max: number) {}
  /** Adds a piece if it fits; returns false (adding nothing) otherwise. */
  add(piece: string): boolean {
    const size = Buffer.byteLength(piece, 'utf8');
    if (this.used + size > this.max) return false;
    this.parts.push(piece);
    this.used += size;
    return true;
  }
  text(): string {
    return this.parts.join('');
  }
}

function truncateBytes(text: string, maxBytes: number): string {
  let out = text;
  while (Buffer.byteLength(out, 'utf8') > maxBytes) out = truncate(out, Math.floor(out.length * 0.9));
  return out;
}

function pointer(options: SummaryOptions): string {
  const files: string[] = [];
  if (options.junitPath) files.push(`the JUnit file <code>${escapeInline(options.junitPath)}</code>`);
  if (options.resultsPath) files.push(`the results file <code>${escapeInline(options.resultsPath)}</code>`);
  return files.length > 0 ? ` Every result is in ${files.join(' and ')}.` : '';
}

const VERDICT_LINE: Record<Report['verdict'], string> = {
  passed: '✅ Ghost Inspector: passed',
  failed: '❌ Ghost Inspector: failed',
  cancelled: '🚫 Ghost Inspector: cancelled',
  started: '▶️ Ghost Inspector: started',
  'not-started': '❌ Ghost Inspector: runs not started',
};

function headline(report: Report): string {
  const t = report.totals;
  const counts: string[] = [];
  if (t.failed) counts.push(`**${t.failed} failed**`);
  if (t.error) counts.push(`**${plural(t.error, 'error')}**`);
  if (t.timedOut)
    counts.push(
      `${report.policy.failOnTimeout ? '**' : ''}${t.timedOut} timed out${report.policy.failOnTimeout ? '**' : ''}`,
    );
  counts.push(`${t.passed} passed`);
  if (t.flaky) counts.push(`${t.flaky} flaky`);
  if (t.cancelled) counts.push(`${t.cancelled} cancelled`);
  let line = `## ${VERDICT_LINE[report.verdict]}\n\n${counts.join(', ')} of ${plural(t.total, 'test')} in ${formatDuration(t.duration)}`;
  if (report.runs.length > 1) line += ` (${plural(report.runs.length, 'suite run')})`;
  line += '.';
  if (t.screenshotCompareFailed) {
    line += ` ${plural(t.screenshotCompareFailed, 'screenshot comparison')} failed${
      report.policy.failOnScreenshotCompare ? '' : ' (not counted as failures)'
    }.`;
  }
  if (report.interrupted === 'deadline') line += ' The action stopped waiting at its deadline.';
  if (report.interrupted === 'signal') line += ' The workflow was cancelled.';
  return `${line}\n\n`;
}

function stateLabel(report: Report, test: ReportTest): string {
  let label = STATE_LABEL[test.state];
  if (test.screenshotCompareFailed) {
    label += report.policy.failOnScreenshotCompare ? ' · ❌ screenshot differs' : ' · ⚠️ screenshot differs';
  }
  return label;
}

function runTable(report: Report, run: ReportSuiteRun): string {
  const name = escapeInline(truncate(run.suiteName, MAX_NAME_CHARS));
  const title = run.suiteResultUrl ? link(run.suiteResultUrl, name) : name;
  const variant = run.variantLabel ? ` <sub>${escapeInline(run.variantLabel)}</sub>` : '';
  const t = run.totals;
  const bits = [`${plural(t.total, 'test')}`];
  if (t.failed) bits.push(`${t.failed} failed`);
  if (t.error) bits.push(plural(t.error, 'error'));
  if (t.timedOut) bits.push(`${t.timedOut} timed out`);
  if (t.cancelled) bits.push(`${t.cancelled} cancelled`);
  if (t.flaky) bits.push(`${t.flaky} flaky`);
  let out = `### ${title}${variant}\n\n${bits.join(', ')} · ${formatDuration(run.durationMs)}`;
  if (run.error) out += ` · ${escapeInline(truncate(run.error, MAX_ERROR_CHARS))}`;
  out += '\n\n| Status | Test | Variant | Duration | Result |\n| --- | --- | --- | --- | --- |\n';
  for (const test of run.tests) {
    const variantCell = escapeInline(run.variantLabel || testVariant(test)) || '–';
    const result = test.resultUrl ? link(test.resultUrl, 'result') : '–';
    out += `| ${stateLabel(report, test)} | ${escapeInline(truncate(test.name, MAX_NAME_CHARS))} | ${variantCell} | ${formatDuration(test.durationMs)} | ${result} |\n`;
  }
  return `${out}\n`;
}

function testVariant(test: ReportTest): string {
  return [test.browser, test.region, test.viewport].filter(Boolean).join(' · ');
}

function* detailSections(report: Report): Generator<string> {
  const groups: Array<{ title: string; match: (t: ReportTest) => boolean }> = [
    { title: 'Failures', match: (t) => t.failing },
    { title: 'Flaky tests', match: (t) => !t.failing && t.state === 'flaky' },
    { title: 'Timed out', match: (t) => !t.failing && t.state === 'timed-out' },
    { title: 'Cancelled', match: (t) => !t.failing && t.state === 'cancelled' },
    {
      title: 'Screenshot comparisons that failed (not counted as failures)',
      match: (t) => !t.failing && t.screenshotCompareFailed && t.state !== 'flaky',
    },
  ];
  for (const group of groups) {
    const matches = [...allTests(report)].filter(({ test }) => group.match(test));
    if (matches.length === 0) continue;
    yield `### ${group.title} (${matches.length})\n\n`;
    for (const { run, test } of matches) yield details(report, run, test);
  }
}

/** One test in a `<details>` block: no blank line inside, so Markdown never resumes within it. */
function details(report: Report, run: ReportSuiteRun, test: ReportTest): string {
  const variant = run.variantLabel ? ` <sub>${escapeInline(run.variantLabel)}</sub>` : '';
  const lines: string[] = [];
  lines.push(
    `<details><summary>${stateLabel(report, test)}: <strong>${escapeInline(truncate(run.suiteName, MAX_NAME_CHARS))} › ${escapeInline(truncate(test.name, MAX_NAME_CHARS))}</strong>${variant}</summary>`,
  );
  if (test.failingStep) {
    const s = test.failingStep;
    const target = s.target ? ` <code>${escapeInline(truncate(s.target, MAX_NAME_CHARS))}</code>` : '';
    lines.push(
      `<p><strong>Failing step #${s.sequence + 1}:</strong> <code>${escapeInline(s.command)}</code>${target}</p>`,
    );
    lines.push(`<pre>${escapeBlock(truncate(s.error, MAX_ERROR_CHARS))}</pre>`);
  }
  if (test.error) lines.push(`<pre>${escapeBlock(truncate(test.error, MAX_ERROR_CHARS))}</pre>`);
  if (test.state === 'flaky' && test.attempts.length > 0) {
    const items = test.attempts.map((a, i) => {
      const why = a.failingStep
        ? `step #${a.failingStep.sequence + 1} <code>${escapeInline(a.failingStep.command)}</code>: ${escapeInline(truncate(a.failingStep.error, MAX_CONSOLE_CHARS))}`
        : escapeInline(truncate(a.error ?? 'failed', MAX_CONSOLE_CHARS));
      return `<li>Attempt ${i + 1} failed: ${why} (${link(a.resultUrl, 'result')})</li>`;
    });
    lines.push(`<p>Passed on attempt ${test.attempts.length + 1}.</p><ul>${items.join('')}</ul>`);
  }
  if (test.consoleErrors.length > 0) {
    const shown = test.consoleErrors.slice(0, MAX_CONSOLE_ERRORS);
    const text = shown.map((c) => truncate(c.output, MAX_CONSOLE_CHARS)).join('\n');
    const more = test.consoleErrors.length - shown.length;
    lines.push(
      `<p><strong>JavaScript console errors${more > 0 ? ` (${shown.length} of ${test.consoleErrors.length})` : ''}:</strong></p><pre>${escapeBlock(text)}</pre>`,
    );
  }
  const links: string[] = [];
  if (test.resultUrl) links.push(link(test.resultUrl, 'Result'));
  if (run.suiteResultUrl) links.push(link(run.suiteResultUrl, 'Suite result'));
  if (test.videoUrl) links.push(link(test.videoUrl, 'Video'));
  const c = test.screenshotCompare;
  if (c?.imageUrl) {
    const diff =
      c.difference === null
        ? ''
        : ` (difference ${percent(c.difference)}, threshold ${percent(c.threshold)})`;
    links.push(`${link(c.imageUrl, 'Screenshot comparison')}${diff}`);
  } else if (test.screenshotCompareFailed && c?.difference != null) {
    links.push(
      `Screenshot comparison: difference ${percent(c.difference)}, threshold ${percent(c.threshold)}`,
    );
  }
  if (links.length > 0) lines.push(`<p>${links.join(' · ')}</p>`);
  const shot = test.screenshot;
  const thumb = shot ? safeUrl(shot.smallUrl) : '';
  if (shot && thumb) {
    const img = `<img src="${thumb}" alt="Final screenshot" width="320">`;
    lines.push(
      `<p>${safeUrl(shot.originalUrl) ? `<a href="${safeUrl(shot.originalUrl)}">${img}</a>` : img}</p>`,
    );
  }
  lines.push('</details>');
  return `${lines.join('\n')}\n\n`;
}

/** An `<a>` to an http(s) URL; plain text when the URL is anything else. `text` must be escaped already. */
function link(url: string, text: string): string {
  const href = safeUrl(url);
  return href ? `<a href="${href}">${text}</a>` : text;
}
