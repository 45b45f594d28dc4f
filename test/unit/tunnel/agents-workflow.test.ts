/**
 * `.github/workflows/agents.yml` passes actionlint as `docs:check` runs it, on the five kinds of hosted
 * runner (the x64 macOS label, newer than the shipped actionlint's list, allowed by name), and the check
 * still catches a runner label that does not exist and a matrix property that is not defined.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { checkWorkflowFile } from '../../../scripts/check-readme-workflows.js';
import { ROOT } from '../../support/harness.js';

const FILE = '.github/workflows/agents.yml';
const text = readFileSync(path.join(ROOT, FILE), 'utf8');

describe('agents.yml', () => {
  it('passes actionlint on ubuntu x64 and arm64, macOS arm64 and x64, Windows x64', async () => {
    expect(await checkWorkflowFile(FILE, text)).toEqual([]);
    const workflow = parse(text) as { jobs: { agents: { strategy: { matrix: { os: string[] } } } } };
    expect(workflow.jobs.agents.strategy.matrix.os).toEqual([
      'ubuntu-latest',
      'ubuntu-24.04-arm',
      'macos-latest',
      'macos-15-intel',
      'windows-latest',
    ]);
  });

  it('the check still catches an unknown runner label and an undefined matrix property', async () => {
    const label = await checkWorkflowFile(FILE, text.replace(', macos-15-intel,', ', macos-15-intell,'));
    expect(label.join('\n')).toContain('label "macos-15-intell" is unknown');
    const matrix = await checkWorkflowFile(FILE, text.replace('matrix.os }}', 'matrix.oss }}'));
    expect(matrix.join('\n')).toContain('property "oss" is not defined');
  });
});
