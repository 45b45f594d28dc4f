/** The job summary, rendered from the report model (docs/api-contract.md, "Step summary"). */
import type { Report, ReportSuiteRun } from './model-types.js';
import {
  OPEN_FAILURES,
  count,
  groupBlock,
  groupTests,
  link,
  otherSections,
  stateLabel,
  MAX_ERROR_CHARS,
  MAX_NAME_CHARS,
} from './summary-failures.js';
import { formatDuration, plural } from '../common/words.js';
import { STATE_LABEL } from './phrases.js';
import { escapeCode, escapeInline, truncate } from './text.js';

export interface SummaryOptions {
  /** Where the JUnit XML was written (shown in the pointer when the summary is cut). */
  junitPath?: string;
  resultsPath?: string;
  /** The tunnel the runs reached the app through: its public URL and the local address. */
  tunnel?: { url: string; address: string };
  /** Upper bound of the summary in UTF-8 bytes; default {@link DEFAULT_SUMMARY_MAX_BYTES}. */
  maxBytes?: number;
  /** The heading's title before the verdict; default {@link DEFAULT_TITLE}. */
  title?: string;
}

/** The title of the summary and pull-request comment headings unless `summary-title` says otherwise. */
export const DEFAULT_TITLE = 'Ghost Inspector';

/** GitHub drops a step summary above 1 MiB; keep 32 KiB of margin. */
export const DEFAULT_SUMMARY_MAX_BYTES = 1024 * 1024 - 32 * 1024;

/** Bytes kept free for the closing "N more" note. */
const TAIL_RESERVE = 1024;

/** The line added to the job summary once the screenshots artifact is uploaded (pure; an http(s) URL links). */
export function renderArtifactLine(artifactUrl: string): string {
  return `Screenshots: ${link(artifactUrl, 'artifact')}.\n\n`;
}

/**
 * Renders the job summary (pure) in at most `maxBytes` UTF-8 bytes; past that the failures left out are
 * counted and the reader pointed to JUnit and results.json (docs/reports.md, "What the reviewer sees").
 */
export function renderSummary(report: Report, options: SummaryOptions = {}): string {
  const maxBytes = options.maxBytes ?? DEFAULT_SUMMARY_MAX_BYTES;
  const head = headline(report, options);
  if (!report.waited) return startedSummary(report, head, options, maxBytes);
  const failures = groupTests(report, (t) => t.failing);
  const full = new Budget(maxBytes);
  const pieces = [head, ...failureSection(report, failures), suiteTable(report), ...otherSections(report)];
  pieces.push(...allTestsSection(report));
  if (pieces.every((piece) => full.add(piece))) return full.text();

  const cut = new Budget(maxBytes - TAIL_RESERVE);
  cut.add(head);
  cut.add(
    `> [!NOTE]\n> The full report does not fit in a job summary (${plural(report.totals.total, 'test')}): ` +
      `showing failures only.${pointer(options)}\n\n`,
  );
  let blocks = 0;
  let collapsed = false;
  for (const piece of failureSection(report, failures)) {
    if (piece === DETAILS_END || !cut.add(piece)) break;
    if (piece.startsWith('<details>')) collapsed = true;
    else if (piece.startsWith('<h4>')) blocks += 1;
  }
  const failing = count(failures);
  const rest = failing - count(failures.slice(0, blocks));
  let tail = collapsed ? DETAILS_END : '';
  if (rest > 0) {
    tail += `**${plural(rest, 'more failure')} not shown.**${pointer(options)}\n`;
  } else if (failing === 0) {
    tail += `No test failed. The per-test tables are left out.${pointer(options)}\n`;
  }
  return cut.text() + truncateBytes(tail, TAIL_RESERVE);
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
  if (options.junitPath) files.push(`the JUnit file <code>${escapeCode(options.junitPath)}</code>`);
  if (options.resultsPath) files.push(`the results file <code>${escapeCode(options.resultsPath)}</code>`);
  return files.length > 0 ? ` Every result is in ${files.join(' and ')}.` : '';
}

const VERDICT_LINE: Record<Report['verdict'], [icon: string, words: string]> = {
  passed: ['✅', 'passed'],
  failed: ['❌', 'failed'],
  cancelled: ['🚫', 'cancelled'],
  started: ['▶️', 'started'],
  'not-started': ['❌', 'runs not started'],
};

type CountKey = 'failed' | 'error' | 'timedOut' | 'passed' | 'flaky' | 'cancelled';

/** One count of tests in words: `3 failed`, `1 error`, `2 timed out`. */
function countWords(key: CountKey, n: number): string {
  return key === 'error' ? plural(n, 'error') : `${n} ${key === 'timedOut' ? 'timed out' : key}`;
}

/** The counts of the verdict in words, e.g. `**1 failed**, 4 passed of 5 tests in 12.3 s (2 suite runs).`. */
function countsLine(report: Report): string {
  const t = report.totals;
  const bold = (k: CountKey): boolean =>
    k !== 'passed' && k !== 'flaky' && (k !== 'timedOut' || report.policy.failOnTimeout);
  const counts = (['failed', 'error', 'timedOut', 'passed', 'flaky', 'cancelled'] as const)
    .filter((k) => k === 'passed' || t[k] > 0)
    .map((k) => (bold(k) ? `**${countWords(k, t[k])}**` : countWords(k, t[k])));
  let line = `${counts.join(', ')} of ${plural(t.total, 'test')} in ${formatDuration(t.duration)}`;
  if (report.runs.length > 1) line += ` (${plural(report.runs.length, 'suite run')})`;
  line += '.';
  if (t.screenshotCompareFailed) {
    const counted = report.policy.failOnScreenshotCompare;
    line += ` ${plural(t.screenshotCompareFailed, 'screenshot comparison')} failed (${
      counted ? 'counted as failed' : 'not counted as failures'
    }).`;
  }
  return line;
}

/** The heading (`## ❌ Ghost Inspector: failed`), the counts, why the step fails, the tunnel; ends in a blank line. */
export function headline(report: Report, options: Pick<SummaryOptions, 'title' | 'tunnel'>): string {
  const [icon, words] = VERDICT_LINE[report.verdict];
  let line = `## ${icon} ${escapeInline(options.title ?? DEFAULT_TITLE)}: ${words}\n\n`;
  if (report.waited) line += countsLine(report);
  else {
    const started = report.totals.total - report.totals.error;
    line += `Started ${plural(started, 'run')} without waiting (\`wait: false\`)`;
    line += report.totals.error ? `; **${report.totals.error} could not be started**.` : '.';
  }
  if (report.interrupted === 'deadline') line += ' The action stopped waiting at its deadline.';
  if (report.interrupted === 'signal') line += ' The workflow was cancelled.';
  if (report.interrupted === 'fail-fast')
    line += ' A test failed: the other runs were cancelled (`fail-fast`).';
  if (!report.passing && report.reasons.length > 0) {
    line += `\n\n**The step fails:** ${escapeInline(report.reasons.join(' '))}`;
  }
  if (options.tunnel) {
    const { url, address } = options.tunnel;
    line += `\n\nTunnel: <code>${escapeCode(url)}</code> → <code>${escapeCode(address)}</code>.`;
  }
  return `${line}\n\n`;
}

const DETAILS_END = '</details>\n\n';

/** The failures heading and groups: the first {@link OPEN_FAILURES} open, the rest in one `<details>`. */
function failureSection(report: Report, groups: ReturnType<typeof groupTests>): string[] {
  if (groups.length === 0) return [];
  const out = [`### Failures (${count(groups)})\n\n`];
  for (const [i, g] of groups.entries()) {
    if (i === OPEN_FAILURES)
      out.push(`<details><summary>${plural(count(groups.slice(i)), 'more failure')}</summary>\n\n`);
    out.push(groupBlock(report, g));
  }
  if (groups.length > OPEN_FAILURES) out.push(DETAILS_END);
  return out;
}

/** One row per suite: status, counts, and each variant's passed/total linked to its suite result. */
function suiteTable(report: Report): string {
  const suites = new Map<string, ReportSuiteRun[]>();
  for (const run of report.runs) {
    const key = `${run.kind}\u0000${run.suiteId ?? run.suiteName}`;
    suites.set(key, [...(suites.get(key) ?? []), run]);
  }
  let out =
    '### Suites\n\n| | Suite | Tests | Passed | Failed | Other | Runs |\n| --- | --- | --- | --- | --- | --- | --- |\n';
  for (const runs of suites.values()) {
    const sum = (k: CountKey | 'total'): number => runs.reduce((n, r) => n + r.totals[k], 0);
    const failing = runs.some((r) => r.tests.some((t) => t.failing));
    const icon = failing ? '❌' : sum('flaky') + sum('timedOut') > 0 ? '⚠️' : '✅';
    const other = (['error', 'flaky', 'timedOut', 'cancelled'] as const)
      .filter((k) => sum(k) > 0)
      .map((k) => countWords(k, sum(k)));
    const perRun = runs.map((r) => {
      const url = r.suiteResultUrl ?? r.tests[0]?.resultUrl;
      const label =
        escapeInline(r.variantLabel) || (url ? (r.kind === 'suite' ? 'suite result' : 'result') : '');
      const ratio = `${r.totals.passed}/${r.totals.total}`;
      return label ? `${link(url, label)} ${ratio}` : ratio;
    });
    const name = escapeInline(truncate(runs[0].suiteName, MAX_NAME_CHARS));
    out += `| ${icon} | ${name} | ${sum('total')} | ${sum('passed')} | ${sum('failed')} | ${other.join(', ') || '–'} | ${perRun.join(' · ')} |\n`;
  }
  return `${out}\n`;
}

/** Every test per suite run, each run in its own `<details>` (an HTML table: no blank line inside). */
function* allTestsSection(report: Report): Generator<string> {
  yield `### All tests (${report.totals.total})\n\n`;
  for (const run of report.runs) {
    const variant = run.variantLabel ? ` <sub>${escapeInline(run.variantLabel)}</sub>` : '';
    const bits = [plural(run.totals.total, 'test'), countWords('passed', run.totals.passed)];
    if (run.totals.failed) bits.push(countWords('failed', run.totals.failed));
    const rows = run.tests.map((test) => {
      const result = test.resultUrl ? link(test.resultUrl, 'result') : '–';
      return `<tr><td>${stateLabel(report, test)}</td><td>${escapeInline(truncate(test.name, MAX_NAME_CHARS))}</td><td>${formatDuration(test.durationMs)}</td><td>${result}</td></tr>`;
    });
    const about = [
      run.suiteResultUrl ? link(run.suiteResultUrl, 'suite result') : '',
      run.error ? escapeInline(truncate(run.error, MAX_ERROR_CHARS)) : '',
    ].filter(Boolean);
    yield `<details><summary><strong>${escapeInline(truncate(run.suiteName, MAX_NAME_CHARS))}</strong>${variant}: ${bits.join(', ')} · ${formatDuration(run.durationMs)}</summary>\n${about.length > 0 ? `<p>${about.join(' · ')}</p>\n` : ''}<table><tr><th>Status</th><th>Test</th><th>Duration</th><th>Result</th></tr>\n${rows.join('\n')}\n</table></details>\n\n`;
  }
}

/** `wait: false`: the runs asked for, each with its link, or why it could not be started. */
function startedSummary(report: Report, head: string, options: SummaryOptions, maxBytes: number): string {
  const cut = new Budget(maxBytes - TAIL_RESERVE);
  cut.add(head);
  cut.add('| Run | Variant | Status | Link |\n| --- | --- | --- | --- |\n');
  let shown = 0;
  for (const run of report.runs) {
    const standIn = run.tests[0];
    const status = standIn
      ? `${STATE_LABEL.error}: ${escapeInline(truncate(standIn.error ?? standIn.name, MAX_ERROR_CHARS))}`
      : '▶️ Started';
    const url = run.suiteResultUrl ?? run.resultUrl;
    const row = `| ${escapeInline(truncate(run.suiteName, MAX_NAME_CHARS))} | ${escapeInline(run.variantLabel) || '–'} | ${status} | ${url ? link(url, run.suiteResultUrl ? 'suite result' : 'result') : '–'} |\n`;
    if (!cut.add(row)) break;
    shown += 1;
  }
  const rest = report.runs.length - shown;
  const tail = rest > 0 ? `\n**${rest} more runs not shown.**${pointer(options)}\n` : '\n';
  return cut.text() + truncateBytes(tail, TAIL_RESERVE);
}
