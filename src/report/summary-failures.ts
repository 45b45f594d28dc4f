/** The job summary's per-test sections (pure): one HTML block (no blank line) per failing test and its variants. */
import type { Report, ReportSuiteRun, ReportTest } from './model-types.js';
import { allTests } from './model.js';
import {
  attemptReason,
  comparisonLine,
  flakySentence,
  sameError,
  STATE_LABEL,
  stepLabel,
} from './phrases.js';
import { escapeCode, escapeInline, safeUrl, truncate } from './text.js';

/** Longest error text shown per failure, in characters. */
export const MAX_ERROR_CHARS = 2000;
/** Console errors shown per failure, and their longest text. */
const MAX_CONSOLE_ERRORS = 5;
const MAX_CONSOLE_CHARS = 500;
/** Longest name in a table cell or heading. */
export const MAX_NAME_CHARS = 300;

/** A test's state, plus its screenshot comparison when that failed (❌ when it counts, ⚠️ when not). */
export function stateLabel(report: Report, test: ReportTest): string {
  if (test.countedAs === 'failed' && test.state !== 'failed') {
    return `❌ Screenshot comparison failed (${test.state} otherwise)`;
  }
  let label = STATE_LABEL[test.state];
  if (test.screenshotCompareFailed) {
    label += report.policy.failOnScreenshotCompare ? ' · ❌ screenshot differs' : ' · ⚠️ screenshot differs';
  }
  return label;
}

/** An `<a>` to an http(s) URL; plain text when the URL is anything else. `text` must be escaped already. */
export function link(url: string | undefined, text: string): string {
  const href = url ? safeUrl(url) : '';
  return href ? `<a href="${href}">${text}</a>` : text;
}

interface Entry {
  run: ReportSuiteRun;
  test: ReportTest;
}

/** The same test (same suite and test) over every variant and data row, and the entries matching. */
export interface Group {
  /** Every run of the test (any state), report order. */
  all: Entry[];
  /** The entries of the section (e.g. failing ones). */
  matching: Entry[];
}

/** Groups the tests matching `match` by suite and test, across variants and data rows, in report order. */
export function groupTests(report: Report, match: (test: ReportTest) => boolean): Group[] {
  const byKey = new Map<string, Group>();
  const keyOf = ({ run, test }: Entry): string =>
    `${run.suiteId ?? run.suiteName}\u0000${test.testId ?? test.title}`;
  for (const entry of allTests(report)) {
    const key = keyOf(entry);
    let group = byKey.get(key);
    if (!group) {
      group = { all: [], matching: [] };
      byKey.set(key, group);
    }
    group.all.push(entry);
    if (match(entry.test)) group.matching.push(entry);
  }
  return [...byKey.values()].filter((g) => g.matching.length > 0);
}

/** `suite › test` (the model's title), escaped and cut. */
export function titleHtml(test: ReportTest): string {
  return escapeInline(truncate(test.title, MAX_NAME_CHARS));
}

/** `failed on 2 of 4 variants: <a>chrome</a>, <a>firefox</a>`; '' for a test run once without variant. */
function variantsLine(group: Group, verb: string): string {
  const links = group.matching.map((e) =>
    link(e.test.resultUrl ?? e.run.suiteResultUrl, escapeInline(e.run.variantLabel || 'no variant')),
  );
  if (group.all.length <= 1) return group.matching[0].run.variantLabel ? `<p>On ${links.join('')}</p>` : '';
  return `<p>${verb} on ${group.matching.length} of ${group.all.length} variants: ${links.join(', ')}</p>`;
}

/** Why a test is in a section, in a few words: `failed`, `error`, `timed out`, ... */
function verbOf(test: ReportTest): string {
  if (test.countedAs === 'failed' && test.state !== 'failed') return 'screenshot comparison failed';
  return test.state.replace('-', ' ');
}

/** The reason lines of one test: failing step and its error, else the test's error (never both alike). */
function reasonLines(test: ReportTest): string[] {
  const lines: string[] = [];
  const s = test.failingStep;
  if (s) {
    const target = s.target ? ` <code>${escapeCode(truncate(s.target, MAX_NAME_CHARS))}</code>` : '';
    lines.push(
      `<p><strong>${escapeInline(stepLabel(s))}</strong> <code>${escapeCode(s.command)}</code>${target}</p>`,
    );
    lines.push(`<pre>${escapeCode(truncate(s.error, MAX_ERROR_CHARS), true)}</pre>`);
  }
  if (test.error && !(s && sameError(s.error, test.error))) {
    lines.push(`<pre>${escapeCode(truncate(test.error, MAX_ERROR_CHARS), true)}</pre>`);
  }
  return lines;
}

function linksLine({ run, test }: Entry): string {
  const links: string[] = [];
  if (test.resultUrl) links.push(link(test.resultUrl, 'Result'));
  if (run.suiteResultUrl) links.push(link(run.suiteResultUrl, 'Suite result'));
  if (test.videoUrl) links.push(link(test.videoUrl, 'Video'));
  if (test.screenshotCompare?.imageUrl || test.screenshotCompareFailed) {
    links.push(link(test.screenshotCompare?.imageUrl, escapeInline(comparisonLine(test, false))));
  }
  return links.length > 0 ? `<p>${links.join(' · ')}</p>` : '';
}

/** The final screenshot's thumbnail, and the comparison image's when the comparison failed. */
function thumbnail(test: ReportTest): string {
  const images: string[] = [];
  const add = (small: string | undefined, original: string | undefined, alt: string): void => {
    const thumb = small ? safeUrl(small) : '';
    if (!thumb) return;
    const img = `<img src="${thumb}" alt="${alt}" width="320">`;
    const href = original ? safeUrl(original) : '';
    images.push(href ? `<a href="${href}">${img}</a>` : img);
  };
  add(test.screenshot?.smallUrl, test.screenshot?.originalUrl, 'Final screenshot');
  if (test.screenshotCompareFailed) {
    add(test.screenshotCompare?.smallUrl, test.screenshotCompare?.imageUrl, 'Screenshot comparison');
  }
  return images.length > 0 ? `<p>${images.join(' ')}</p>` : '';
}

function consoleLines(test: ReportTest): string {
  if (test.consoleErrors.length === 0) return '';
  const shown = test.consoleErrors.slice(0, MAX_CONSOLE_ERRORS);
  const text = shown.map((c) => truncate(c.output, MAX_CONSOLE_CHARS)).join('\n');
  const count =
    shown.length < test.consoleErrors.length
      ? `${shown.length} of ${test.consoleErrors.length}`
      : `${shown.length}`;
  return `<details><summary>JavaScript console errors (${count})</summary><pre>${escapeCode(text, true)}</pre></details>`;
}

function attemptsLine(test: ReportTest): string {
  if (test.state !== 'flaky' || test.attempts.length === 0) return '';
  const items = test.attempts.map(
    (a, i) =>
      `<li>Attempt ${i + 1} failed: ${escapeInline(truncate(attemptReason(a), MAX_CONSOLE_CHARS))} (${link(a.resultUrl, 'result')})</li>`,
  );
  return `<p>Flaky: ${flakySentence(test)}.</p><ul>${items.join('')}</ul>`;
}

/** One group as an HTML block; entries of other variants add their reason only when it differs. */
export function groupBlock(report: Report, group: Group): string {
  const first = group.matching[0];
  const lines = [`<h4>${stateLabel(report, first.test)}: ${titleHtml(first.test)}</h4>`];
  const variants = variantsLine(group, verbOf(first.test));
  if (variants) lines.push(variants);
  lines.push(...reasonLines(first.test), attemptsLine(first.test), thumbnail(first.test));
  lines.push(linksLine(first), consoleLines(first.test));
  const firstReason = reasonLines(first.test).join('');
  for (const other of group.matching.slice(1)) {
    const reason = reasonLines(other.test);
    if (reason.join('') === firstReason) continue;
    lines.push(
      `<p>On ${link(other.test.resultUrl, escapeInline(other.run.variantLabel || 'another run'))}:</p>`,
      ...reason,
    );
  }
  return `${lines.filter(Boolean).join('\n')}\n\n`;
}

/** Failures shown open before the rest is collapsed. */
export const OPEN_FAILURES = 10;

/** The sections after the suite table: flaky, timed out without failing, screenshot comparisons. */
export function* otherSections(report: Report): Generator<string> {
  const flaky = groupTests(report, (t) => !t.failing && t.state === 'flaky');
  if (flaky.length > 0) {
    yield `### 🔁 Flaky tests (${count(flaky)})\n\nFailed, then passed when re-run (\`retry-failed\`): not failures.\n\n`;
    for (const g of flaky) yield groupBlock(report, g);
  }
  const late = groupTests(report, (t) => !t.failing && t.state === 'timed-out');
  if (late.length > 0) {
    yield `### ⏱️ Timed out (${count(late)})\n\nStill running at the deadline; not failures, as \`fail-on-timeout\` is off.\n\n`;
    for (const g of late) yield groupBlock(report, g);
  }
  const compared = report.totals.screenshotCompareFailed;
  if (compared > 0) {
    const counted = report.policy.failOnScreenshotCompare;
    yield `### 🖼️ Screenshot comparisons (${compared} failed)\n\n${
      counted
        ? `Counted as failures (\`fail-on-screenshot-compare\`): listed under Failures above.`
        : `Not counted as failures (\`fail-on-screenshot-compare\` is off):`
    }\n\n`;
    if (!counted) {
      for (const g of groupTests(
        report,
        (t) => t.screenshotCompareFailed && !t.failing && t.state !== 'flaky',
      ))
        yield groupBlock(report, g);
    }
  }
}

export function count(groups: Group[]): number {
  return groups.reduce((n, g) => n + g.matching.length, 0);
}
