import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll, describe, expect, it } from 'vitest';

import {
  MAX_ANNOTATION_MESSAGE,
  emitAnnotations,
  renderAnnotations,
} from '../../../src/report/annotations.js';
import { buildStartedReport } from '../../../src/report/model.js';
import { DEFAULT_SUMMARY_MAX_BYTES, renderArtifactLine, renderSummary } from '../../../src/report/summary.js';
import { actionsCoreSink } from '../../../src/common/sink.js';
import { renderPullRequestComment } from '../../../src/report/pr-comment.js';
import { largeSummary } from './fixtures.js';
import { reportOf, SCENARIOS } from './scenarios.js';

const MiB = 1024 * 1024;
const policy = { failOnScreenshotCompare: false, failOnTimeout: true };
const bytes = (s: string) => Buffer.byteLength(s, 'utf8');
const paths = { junitPath: 'reports/junit.xml', resultsPath: 'reports/results.json' };

describe('renderSummary', () => {
  it('heads the summary and the pull-request comment with summary-title, so matrix legs differ', () => {
    const { summary, policy: scenarioPolicy } = SCENARIOS['all-passing']!();
    const report = reportOf(summary, scenarioPolicy);
    expect(renderSummary(report)).toMatch(/^## ✅ Ghost Inspector: passed\n/);
    const leg = renderSummary(report, { title: 'Ghost Inspector (firefox, *eu*)' });
    expect(leg).toMatch(/^## ✅ Ghost Inspector \(firefox, &#42;eu&#42;\): passed\n/);
    expect(renderPullRequestComment(report, { title: 'Smoke (firefox)' })).toContain(
      '## ✅ Smoke (firefox): passed',
    );
  });

  it('stays under 1 MiB with 20,000 results, showing failures first and pointing at the files', () => {
    const report = reportOf(largeSummary(20_000), policy);
    expect(report.totals.total).toBe(20_000);
    const md = renderSummary(report, paths);
    expect(bytes(md)).toBeLessThanOrEqual(DEFAULT_SUMMARY_MAX_BYTES);
    expect(bytes(md)).toBeLessThan(MiB);
    expect(md).toContain('showing failures only');
    expect(md).toMatch(/\*\*\d+ more failures not shown\.\*\*/);
    expect(md).toContain('<code>reports/junit.xml</code>');
    expect(md).toContain('<code>reports/results.json</code>');
    // Failures only: no passing row, no table.
    expect(md).not.toContain('✅ Passed');
    const shown = [...md.matchAll(/<h4>/g)].length;
    const more = Number(/\*\*(\d+) more failures/.exec(md)![1]);
    expect(shown + more).toBe(report.totals.failed);
    // The full summary's layout: the first failures open, the rest in one `<details>` counting them, closed.
    expect(md).toMatch(/<details><summary>\d+ more failures<\/summary>/);
    expect(md.split('<details>').length).toBe(md.split('</details>').length);
  });

  it('never passes maxBytes, whatever the budget', () => {
    const report = reportOf(largeSummary(300), policy);
    for (const maxBytes of [2_000, 5_000, 20_000, 60_000, 200_000]) {
      const md = renderSummary(report, { ...paths, maxBytes });
      expect(bytes(md), `maxBytes ${maxBytes}`).toBeLessThanOrEqual(maxBytes);
      expect(md).toContain('Ghost Inspector: failed');
    }
  });

  it('shows the full report when it fits: failures first, a row per suite, then flaky, timed out, all tests', () => {
    const s = SCENARIOS.flaky!();
    const md = renderSummary(reportOf(s.summary, s.policy), paths);
    expect(md).not.toContain('showing failures only');
    expect(md).toContain('| | Suite | Tests | Passed | Failed | Other | Runs |');
    expect(md.indexOf('### 🔁 Flaky tests (1)')).toBeGreaterThan(md.indexOf('| | Suite |'));
    expect(md).toContain('### 🖼️ Screenshot comparisons (1 failed)');
    expect(md).toContain('Not counted as failures');
    // Per-test tables only inside <details>.
    expect(md.indexOf('<details><summary><strong>Search</strong>')).toBeGreaterThan(
      md.indexOf('### All tests'),
    );
    const t = SCENARIOS['timed-out']!();
    const md2 = renderSummary(reportOf(t.summary, { failOnScreenshotCompare: false, failOnTimeout: false }));
    expect(md2).toContain('### ⏱️ Timed out (1)');
    expect(md2.indexOf('### Failures (2)')).toBeLessThan(md2.indexOf('### ⏱️ Timed out (1)'));
    // Failures come right after the verdict line, before any table.
    expect(md2.indexOf('### Failures (2)')).toBeLessThan(md2.indexOf('| | Suite |'));
  });

  it('escapes service text: no raw markup, no broken table row, no blank line inside a details block', () => {
    const s = SCENARIOS['hostile-text']!();
    const md = renderSummary(reportOf(s.summary, s.policy, s.attachments));
    expect(md).not.toContain('<script>');
    expect(md).not.toContain('<!-- comment');
    expect(md).not.toMatch(/\[link\]\(javascript/);
    expect(md).not.toContain('hunter2');
    const rows = md.split('\n').filter((l) => l.startsWith('| '));
    expect(rows.length).toBeGreaterThan(2);
    for (const row of rows) expect(row.split('|').length, row).toBe(rows[0]!.split('|').length);
    for (const block of md.match(/<details>[\s\S]*?<\/details>/g) ?? []) {
      expect(block).not.toMatch(/\n\s*\n/);
    }
    for (const block of md.match(/<h4>[\s\S]*?\n\n/g) ?? []) {
      expect(block.trimEnd()).not.toMatch(/\n\s*\n/);
    }
    expect([...md.matchAll(/<details>/g)].length).toBe([...md.matchAll(/<\/details>/g)].length);
  });

  it('code spans hold exactly the selector: no invisible character, entities only', () => {
    const s = SCENARIOS.failures!();
    const report = reportOf(s.summary, s.policy);
    report.runs[0]!.tests[1]!.failingStep!.target = '#pay @click a[href*="x"] > `b` | c';
    const md = renderSummary(report);
    const code = /<strong>Step 5<\/strong> <code>[^<]*<\/code> <code>([^<]*)<\/code>/.exec(md)![1]!;
    expect(code).not.toContain('\u200B');
    const decoded = code
      .replace(/&#(\d+);/g, (_, n: string) => String.fromCharCode(Number(n)))
      .replace(/&quot;/g, '"')
      .replace(/&gt;/g, '>')
      .replace(/&lt;/g, '<')
      .replace(/&#39;/g, "'")
      .replace(/&amp;/g, '&');
    expect(decoded).toBe('#pay @click a[href*="x"] > `b` | c');
  });

  it('prints the failing step error once, even when the result error repeats it', () => {
    const s = SCENARIOS.failures!();
    const pay = s.summary.runs[0]!.tests[1]!;
    const stepError = 'Element ".confirmation" not found within 15000 ms';
    pay.result!.error = { details: `Step 5 failed: ${stepError}` } as never;
    const md = renderSummary(reportOf(s.summary, s.policy));
    expect(md.split('not found within 15000 ms').length - 1).toBe(1);
  });

  it('groups one test failing on several variants, each variant linked, and collapses past ten failures', () => {
    const s = SCENARIOS.variants!();
    const menu = s.summary.runs[2]!.tests[1]!;
    for (const run of s.summary.runs) {
      // The same test (same id) in every variant; it fails on two of them.
      run.tests[1]!.testId = menu.testId;
    }
    s.summary.runs[0]!.tests[1] = { ...menu, result: { ...menu.result!, _id: '6f00000000000000000000ff' } };
    const md = renderSummary(reportOf(s.summary, s.policy));
    expect(md).toMatch(
      /failed on 2 of 4 variants: <a href="[^"]+6f00000000000000000000ff">chrome · us-east-1 · 1280x800<\/a>, <a href="[^"]+">chrome · us-east-1 · 375x667<\/a>/,
    );
    expect(md.match(/<h4>/g)).toHaveLength(1);
    expect(md).toContain('### Failures (2)');

    const many = reportOf(largeSummary(300), policy);
    const md2 = renderSummary(many, { maxBytes: 10 * MiB });
    const open = md2.slice(0, md2.search(/<details><summary>\d+ more failures/));
    expect(open.match(/<h4>/g)).toHaveLength(10);
    expect(md2).toMatch(/<details><summary>\d+ more failures<\/summary>/);
  });

  it('states why the step fails under the verdict line (fail-on-empty) and links the screenshots artifact', () => {
    const s = SCENARIOS['all-passing']!();
    const empty = reportOf({ ...s.summary, runs: [] }, { ...s.policy, failOnEmpty: true });
    const md = renderSummary(empty);
    expect(md).toMatch(/^## ❌ Ghost Inspector: failed/);
    expect(md).toContain('**The step fails:** No test ran (empty suites or folders).');
    expect(renderArtifactLine('https://github.com/acme/shop/actions/runs/1/artifacts/2')).toContain(
      'Screenshots: <a href="https://github.com/acme/shop/actions/runs/1/artifacts/2">artifact</a>',
    );
  });

  it('wait: false lists the runs started with their links, and the runs that could not start', () => {
    const s = SCENARIOS['timed-out']!();
    const runs = s.summary.runs.map((r) => ({ ...r, tests: [], timedOut: false, cancelled: false }));
    const report = buildStartedReport({ ...s.summary, runs }, { ...s.policy, failOnEmpty: false });
    const md = renderSummary(report);
    expect(md).toMatch(/^## ❌ Ghost Inspector: runs not started/);
    expect(md).toContain('Started 2 runs without waiting (`wait: false`); **1 could not be started**.');
    expect(md).toContain(
      '<a href="https://app.ghostinspector.com/suite-results/6e0000000000000000000004">suite result</a>',
    );
    expect(md).toContain('Execute failed: VALIDATION&#95;ERROR');
  });
});

describe('the job summary sink', () => {
  const dir = mkdtempSync(join(tmpdir(), 'summary-test-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('appends to the step summary file', async () => {
    const file = join(dir, 'step-summary.md');
    writeFileSync(file, 'before\n');
    const previous = process.env.GITHUB_STEP_SUMMARY;
    process.env.GITHUB_STEP_SUMMARY = file;
    try {
      await actionsCoreSink().appendSummary('## hello\n');
    } finally {
      if (previous === undefined) delete process.env.GITHUB_STEP_SUMMARY;
      else process.env.GITHUB_STEP_SUMMARY = previous;
    }
    expect(readFileSync(file, 'utf8')).toBe('before\n## hello\n');
  });
});

describe('renderAnnotations', () => {
  it('keeps at most 10 warnings and 9 errors (the failing step writes the 10th) with 20,000 results; the last counts the rest', () => {
    const report = reportOf(largeSummary(20_000), policy);
    expect(report.passing).toBe(false);
    const list = renderAnnotations(report);
    const errors = list.filter((a) => a.level === 'error');
    const warnings = list.filter((a) => a.level === 'warning');
    expect(errors).toHaveLength(9);
    expect(warnings).toHaveLength(10);
    expect(errors[8]!.title).toBe(`${report.totals.failed - 8} more failing tests`);
    expect(warnings[9]!.title).toBe(`${report.totals.flaky - 9} more warnings`);
    for (const a of list) expect(a.message.length).toBeLessThanOrEqual(MAX_ANNOTATION_MESSAGE);
    expect(errors[0]!.title).toBe('Regression suite 0 › Checkout flow 3 | with <markup> & `code`');
    expect(errors[0]!.message).toMatch(/^Step 3 assertText \.cart-total: Text/);
    expect(errors[0]!.message).toMatch(/\nhttps:\/\/app\.ghostinspector\.com\/results\/\w+$/);
  });

  it('cuts long messages at 4096 characters', () => {
    const report = reportOf(largeSummary(10), policy);
    report.runs[0]!.tests[3]!.failingStep!.error = 'x'.repeat(10_000);
    const [first] = renderAnnotations(report);
    expect(first!.message.length).toBe(MAX_ANNOTATION_MESSAGE);
    expect(first!.message.endsWith('…')).toBe(true);
  });

  it('warns about flaky tests and comparisons that do not fail the run; errors when they do', () => {
    const s = SCENARIOS.failures!();
    const lenient = renderAnnotations(
      reportOf(s.summary, { failOnScreenshotCompare: false, failOnTimeout: true }),
    );
    const strict = renderAnnotations(
      reportOf(s.summary, { failOnScreenshotCompare: true, failOnTimeout: true }),
    );
    expect(lenient.map((a) => a.level)).toEqual(['error', 'error', 'warning']);
    expect(strict.map((a) => a.level)).toEqual(['error', 'error', 'error']);
    expect(strict[1]!.title).toBe('Checkout › Visual check of the basket');
  });
});

describe('emitAnnotations', () => {
  it('writes workflow commands through the @actions/core sink', () => {
    const written: string[] = [];
    const original = process.stdout.write.bind(process.stdout);
    process.stdout.write = ((chunk: string | Uint8Array) => {
      written.push(String(chunk));
      return true;
    }) as typeof process.stdout.write;
    try {
      emitAnnotations(
        [
          { level: 'error', title: 'Suite › Test', message: 'Step 2 click: failed\nhttps://x/results/1' },
          { level: 'warning', title: 'W', message: 'flaky', file: 'tests/w.json' },
        ],
        actionsCoreSink(),
      );
    } finally {
      process.stdout.write = original;
    }
    const out = written.join('');
    expect(out).toContain('::error title=Suite › Test::Step 2 click: failed%0Ahttps://x/results/1');
    expect(out).toContain('::warning title=W,file=tests/w.json::flaky');
  });
});
