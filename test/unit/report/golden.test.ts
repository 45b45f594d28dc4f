/**
 * Golden files: the JUnit XML, job summary, annotations and pull-request comment of each scenario, committed
 * under test/unit/report/golden/ and reviewed as diffs. Regenerate with `UPDATE_GOLDEN=1 npx vitest run test/unit/report`.
 * Every JUnit file is also validated against the Jenkins junit-10 schema (unmodified) with xmllint.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { describe, expect, it } from 'vitest';

import { renderAnnotations } from '../../../src/report/annotations.js';
import { renderJUnit } from '../../../src/report/junit.js';
import { renderPullRequestComment } from '../../../src/report/pr-comment.js';
import { renderSummary } from '../../../src/report/summary.js';
import { schemaErrors } from '../../support/junit.js';
import { reportOf, SCENARIOS } from './scenarios.js';

const here = dirname(fileURLToPath(import.meta.url));
const goldenDir = join(here, 'golden');
const update = process.env.UPDATE_GOLDEN === '1';

function golden(file: string, actual: string): void {
  const path = join(goldenDir, file);
  if (update || !existsSync(path)) {
    if (!update) throw new Error(`missing golden file ${file}: run with UPDATE_GOLDEN=1 and review the diff`);
    mkdirSync(goldenDir, { recursive: true });
    writeFileSync(path, actual);
    return;
  }
  expect(actual, `${file} differs from its golden file (UPDATE_GOLDEN=1 regenerates it)`).toBe(
    readFileSync(path, 'utf8'),
  );
}

describe.each(Object.keys(SCENARIOS))('golden: %s', (name) => {
  const scenario = SCENARIOS[name]!();
  const report = reportOf(scenario.summary, scenario.policy, scenario.attachments);
  const options = {
    junitPath: 'reports/ghost-inspector-junit.xml',
    resultsPath: 'reports/ghost-inspector.json',
  };

  it('JUnit XML', () => {
    golden(`${name}.junit.xml`, renderJUnit(report));
  });

  it('JUnit XML is valid against the junit-10 schema as it is', () => {
    expect(schemaErrors(renderJUnit(report))).toBe('');
  });

  it('job summary', () => {
    golden(`${name}.summary.md`, renderSummary(report, options));
  });

  it('annotations', () => {
    golden(`${name}.annotations.json`, `${JSON.stringify(renderAnnotations(report), null, 2)}\n`);
  });

  it('pull-request comment', () => {
    golden(
      `${name}.pr-comment.md`,
      renderPullRequestComment(report, { runUrl: 'https://github.com/acme/shop/actions/runs/123456789' }),
    );
  });
});
