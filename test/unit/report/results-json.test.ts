import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll, describe, expect, it } from 'vitest';

import { type Report, type ReportTest } from '../../../src/report/model-types.js';
import {
  RESULTS_JSON_VERSION,
  renderResultsJson,
  writeResultsJson,
} from '../../../src/report/results-json.js';
import { largeSummary } from './fixtures.js';
import { reportOf, SCENARIOS } from './scenarios.js';

const dir = mkdtempSync(join(tmpdir(), 'results-json-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

type ResultsFile = Omit<Report, 'runs'> & {
  version: number;
  runs: Array<Record<string, unknown>>;
  results: Array<ReportTest & { run: string; suite: string }>;
};

describe('results.json', () => {
  it('holds every normalized result, one per line', () => {
    const s = SCENARIOS['timed-out']!();
    const report = reportOf(s.summary, s.policy);
    const text = renderResultsJson(report);
    const parsed = JSON.parse(text) as ResultsFile;
    expect(parsed.version).toBe(RESULTS_JSON_VERSION);
    expect(parsed.verdict).toBe('failed');
    expect(parsed.totals).toEqual(report.totals);
    expect(parsed.runs.map((r) => r.key)).toEqual(report.runs.map((r) => r.key));
    expect(parsed.runs[0]).not.toHaveProperty('tests');
    expect(parsed.results).toHaveLength(4);
    expect(parsed.results[1]).toMatchObject({
      run: report.runs[0]!.key,
      suite: 'Long journeys',
      state: 'timed-out',
    });
    const lines = text.trimEnd().split('\n');
    expect(lines).toHaveLength(1 + 4 + 1);
    for (const line of lines.slice(1, -1)) JSON.parse(line.replace(/,$/, ''));
  });

  it('writes 2,000 results by streaming, equal to the rendered text', async () => {
    const report = reportOf(largeSummary(2000), { failOnScreenshotCompare: false, failOnTimeout: true });
    const path = join(dir, 'out', 'results.json');
    await writeResultsJson(report, path);
    const text = readFileSync(path, 'utf8');
    expect(text).toBe(renderResultsJson(report));
    expect((JSON.parse(text) as ResultsFile).results).toHaveLength(2000);
  });

  it('rejects when the file cannot be written', async () => {
    const s = SCENARIOS['all-passing']!();
    const report = reportOf(s.summary, s.policy);
    writeFileSync(join(dir, 'a-file'), '');
    await expect(writeResultsJson(report, join(dir, 'a-file', 'results.json'))).rejects.toThrow(
      /ENOTDIR|EEXIST/,
    );
  });
});
