import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll, describe, expect, it } from 'vitest';

import { MAX_ANNOTATION_MESSAGE, emitAnnotations, renderAnnotations } from '../../src/report/annotations.js';
import { buildReport } from '../../src/report/model.js';
import { DEFAULT_SUMMARY_MAX_BYTES, renderSummary, writeSummary } from '../../src/report/summary.js';
import { largeSummary } from './fixtures.js';
import { SCENARIOS } from './scenarios.js';

const MiB = 1024 * 1024;
const policy = { failOnScreenshotCompare: false, failOnTimeout: true };
const bytes = (s: string) => Buffer.byteLength(s, 'utf8');
const paths = { junitPath: 'reports/junit.xml', resultsPath: 'reports/results.json' };

describe('renderSummary', () => {
  it('stays under 1 MiB with 20,000 results, showing failures first and pointing at the files', () => {
    const report = buildReport(largeSummary(20_000), policy);
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
    const shown = [...md.matchAll(/<details>/g)].length;
    const more = Number(/\*\*(\d+) more failures/.exec(md)![1]);
    expect(shown + more).toBe(report.totals.failed);
  });

  it('never passes maxBytes, whatever the budget', () => {
    const report = buildReport(largeSummary(300), policy);
    for (const maxBytes of [2_000, 5_000, 20_000, 60_000, 200_000]) {
      const md = renderSummary(report, { ...paths, maxBytes });
      expect(bytes(md), `maxBytes ${maxBytes}`).toBeLessThanOrEqual(maxBytes);
      expect(md).toContain('Ghost Inspector: failed');
    }
  });

  it('shows the full report when it fits: tables per suite run, then failures, flaky, timed out, cancelled', () => {
    const s = SCENARIOS.flaky!();
    const md = renderSummary(buildReport(s.summary, s.policy), paths);
    expect(md).not.toContain('showing failures only');
    expect(md).toContain('| Status | Test | Variant | Duration | Result |');
    expect(md.indexOf('### Flaky tests (1)')).toBeGreaterThan(md.indexOf('| Status |'));
    expect(md).toContain('### Screenshot comparisons that failed (not counted as failures) (1)');
    const t = SCENARIOS['timed-out']!();
    const md2 = renderSummary(
      buildReport(t.summary, { failOnScreenshotCompare: false, failOnTimeout: false }),
    );
    expect(md2).toContain('### Timed out (1)');
    expect(md2.indexOf('### Failures (2)')).toBeLessThan(md2.indexOf('### Timed out (1)'));
  });

  it('escapes service text: no raw markup, no broken table row, no blank line inside a details block', () => {
    const s = SCENARIOS['hostile-text']!();
    const md = renderSummary(buildReport(s.summary, s.policy, s.attachments));
    expect(md).not.toContain('<script>');
    expect(md).not.toContain('<!-- comment');
    expect(md).not.toMatch(/\[link\]\(javascript/);
    expect(md).not.toContain('hunter2');
    for (const row of md.split('\n').filter((l) => l.startsWith('| '))) {
      expect(row.split('|').length, row).toBe(7);
    }
    for (const block of md.match(/<details>[\s\S]*?<\/details>/g) ?? []) {
      expect(block).not.toMatch(/\n\s*\n/);
    }
    expect([...md.matchAll(/<details>/g)].length).toBe([...md.matchAll(/<\/details>/g)].length);
  });
});

describe('writeSummary', () => {
  const dir = mkdtempSync(join(tmpdir(), 'summary-test-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('appends to the step summary file', async () => {
    const file = join(dir, 'step-summary.md');
    writeFileSync(file, 'before\n');
    const previous = process.env.GITHUB_STEP_SUMMARY;
    process.env.GITHUB_STEP_SUMMARY = file;
    try {
      await writeSummary('## hello\n');
    } finally {
      if (previous === undefined) delete process.env.GITHUB_STEP_SUMMARY;
      else process.env.GITHUB_STEP_SUMMARY = previous;
    }
    expect(readFileSync(file, 'utf8')).toBe('before\n## hello\n');
  });
});

describe('renderAnnotations', () => {
  it('keeps at most 10 errors and 10 warnings with 20,000 results; the 10th counts the rest', () => {
    const report = buildReport(largeSummary(20_000), policy);
    const list = renderAnnotations(report);
    const errors = list.filter((a) => a.level === 'error');
    const warnings = list.filter((a) => a.level === 'warning');
    expect(errors).toHaveLength(10);
    expect(warnings).toHaveLength(10);
    expect(errors[9]!.title).toBe(`${report.totals.failed - 9} more failing tests`);
    expect(warnings[9]!.title).toBe(`${report.totals.flaky - 9} more warnings`);
    for (const a of list) expect(a.message.length).toBeLessThanOrEqual(MAX_ANNOTATION_MESSAGE);
    expect(errors[0]!.title).toBe('Regression suite 0 › Checkout flow 3 | with <markup> & `code`');
    expect(errors[0]!.message).toMatch(/^Step #3 assertText \.cart-total: Text/);
    expect(errors[0]!.message).toMatch(/\nhttps:\/\/app\.ghostinspector\.com\/results\/\w+$/);
  });

  it('cuts long messages at 4096 characters', () => {
    const report = buildReport(largeSummary(10), policy);
    report.runs[0]!.tests[3]!.failingStep!.error = 'x'.repeat(10_000);
    const [first] = renderAnnotations(report);
    expect(first!.message.length).toBe(MAX_ANNOTATION_MESSAGE);
    expect(first!.message.endsWith('…')).toBe(true);
  });

  it('warns about flaky tests and comparisons that do not fail the run; errors when they do', () => {
    const s = SCENARIOS.failures!();
    const lenient = renderAnnotations(
      buildReport(s.summary, { failOnScreenshotCompare: false, failOnTimeout: true }),
    );
    const strict = renderAnnotations(
      buildReport(s.summary, { failOnScreenshotCompare: true, failOnTimeout: true }),
    );
    expect(lenient.map((a) => a.level)).toEqual(['error', 'error', 'warning']);
    expect(strict.map((a) => a.level)).toEqual(['error', 'error', 'error']);
    expect(strict[1]!.title).toBe('Checkout › Visual check of the basket');
  });
});

describe('emitAnnotations', () => {
  it('writes workflow commands through @actions/core', () => {
    const written: string[] = [];
    const original = process.stdout.write.bind(process.stdout);
    process.stdout.write = ((chunk: string | Uint8Array) => {
      written.push(String(chunk));
      return true;
    }) as typeof process.stdout.write;
    try {
      emitAnnotations([
        { level: 'error', title: 'Suite › Test', message: 'Step #2 click: failed\nhttps://x/results/1' },
        { level: 'warning', title: 'W', message: 'flaky' },
        { level: 'notice', title: 'N', message: 'note' },
      ]);
    } finally {
      process.stdout.write = original;
    }
    const out = written.join('');
    expect(out).toContain('::error title=Suite › Test::Step #2 click: failed%0Ahttps://x/results/1');
    expect(out).toContain('::warning title=W::flaky');
    expect(out).toContain('::notice title=N::note');
  });
});
