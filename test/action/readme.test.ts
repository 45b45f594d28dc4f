/**
 * action.yml, the README and inputs/schema.ts stay in step: the README's tables list exactly the inputs and
 * outputs of action.yml with the same defaults, and inputs/schema.ts holds the same defaults (outside GitHub
 * nobody else applies them).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { INPUT_DEFAULTS } from '../../src/inputs/index.js';
import { ROOT } from './harness.js';

interface ActionYml {
  inputs: Record<string, { description: string; required?: boolean; default?: string }>;
  outputs: Record<string, { description: string }>;
}

const action = parse(readFileSync(path.join(ROOT, 'action.yml'), 'utf8')) as ActionYml;
const readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8');

function section(name: string): string {
  const start = readme.indexOf(`<!-- ${name}:start -->`);
  const end = readme.indexOf(`<!-- ${name}:end -->`);
  expect(start, `README marker ${name}:start`).toBeGreaterThanOrEqual(0);
  expect(end, `README marker ${name}:end`).toBeGreaterThan(start);
  return readme.slice(start, end);
}

/** Table rows whose first cell is a code span: name → the other cells, trimmed. */
function rows(text: string): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const line of text.split('\n')) {
    const m = /^\|\s*`([a-z0-9-]+)`\s*\|(.*)\|\s*$/.exec(line);
    if (!m) continue;
    const cells = (m[2] as string).split(/(?<!\\)\|/).map((c) => c.trim());
    expect(out.has(m[1] as string), `${m[1]} listed twice`).toBe(false);
    out.set(m[1] as string, cells);
  }
  return out;
}

describe('action.yml and the README', () => {
  it('every input has a description; optional inputs have a default', () => {
    for (const [name, input] of Object.entries(action.inputs)) {
      expect(name).toMatch(/^[a-z][a-z0-9-]*$/);
      expect(input.description.length, name).toBeGreaterThan(10);
      if (!input.required) expect(typeof input.default, name).toBe('string');
    }
  });

  it('the README lists exactly the inputs of action.yml, with the same defaults', () => {
    const table = rows(section('inputs'));
    expect([...table.keys()].sort()).toEqual(Object.keys(action.inputs).sort());
    for (const [name, input] of Object.entries(action.inputs)) {
      const cells = table.get(name)!;
      const shown = cells[cells.length - 1];
      const expected = input.required ? '**required**' : input.default === '' ? '—' : `\`${input.default}\``;
      expect(shown, name).toBe(expected);
    }
  });

  it('the README lists exactly the outputs of action.yml', () => {
    const table = rows(section('outputs'));
    expect([...table.keys()].sort()).toEqual(Object.keys(action.outputs).sort());
  });

  it('inputs/schema.ts holds the defaults of action.yml for every optional input', () => {
    const optional = Object.entries(action.inputs).filter(([, i]) => !i.required);
    expect(Object.keys(INPUT_DEFAULTS).sort()).toEqual(optional.map(([n]) => n).sort());
    for (const [name, input] of optional) expect(INPUT_DEFAULTS[name], name).toBe(input.default);
  });

  it('the recipes cover gating, schedule, matrix, data, .side files and visual comparison', () => {
    const recipes = section('recipes');
    for (const topic of [
      'pull_request',
      'schedule',
      'matrix',
      'data-file',
      '.side',
      'screenshot-compare-enabled',
    ]) {
      expect(recipes).toContain(topic);
    }
  });
});
