/**
 * action.yml, the README and the code stay in step: the README's input and output tables are what
 * `npm run docs` writes from action.yml, every YAML block of the README parses and passes actionlint, the
 * figures the README quotes are the code's, the error messages it explains are the ones the code writes, and
 * inputs/schema.ts applies the defaults of action.yml (outside GitHub nobody else does).
 */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkMarkdown } from '../../../scripts/check-readme-workflows.js';
import { actionRef, generateReadme, inputGroups, parseAction } from '../../../scripts/gen-readme-io.js';
import { INPUT_DEFAULTS } from '../../../src/inputs/index.js';
import { DEFAULT_BURST, DEFAULT_RATE_PER_SECOND } from '../../../src/api/budget.js';
import { ROOT } from '../../support/harness.js';

const actionText = readFileSync(path.join(ROOT, 'action.yml'), 'utf8');
const action = parseAction(actionText);
const readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8');

function between(start: string, end: string): string {
  const i = readme.indexOf(start);
  const j = readme.indexOf(end);
  expect(i, start).toBeGreaterThanOrEqual(0);
  expect(j, end).toBeGreaterThan(i);
  return readme.slice(i, j);
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

/** Every .ts file under `dir`, concatenated. */
function sources(dir: string): string {
  let text = '';
  for (const name of readdirSync(dir)) {
    const file = path.join(dir, name);
    if (statSync(file).isDirectory()) text += sources(file);
    else if (name.endsWith('.ts')) text += readFileSync(file, 'utf8');
  }
  return text;
}

describe('action.yml', () => {
  it('has Marketplace metadata: a description under 125 characters and an author', () => {
    const meta = parseAction(actionText) as unknown as { description: string; author: string };
    expect(meta.description.length).toBeLessThan(125);
    expect(meta.author).toMatch(/\w/);
  });

  it('every input has a description, and no input repeats the empty default', () => {
    for (const [name, input] of Object.entries(action.inputs)) {
      expect(name).toMatch(/^[a-z][a-z0-9-]*$/);
      expect(input.description.length, name).toBeGreaterThan(10);
      expect(input.default, `${name}: a missing input is already empty`).not.toBe('');
    }
  });

  it('inputs.ts applies the defaults of action.yml; a missing input reads as empty', () => {
    const optional = Object.entries(action.inputs).filter(([, i]) => !i.required);
    for (const name of Object.keys(INPUT_DEFAULTS)) expect(optional.map(([n]) => n)).toContain(name);
    for (const [name, input] of optional) expect(INPUT_DEFAULTS[name] ?? '', name).toBe(input.default ?? '');
  });
});

describe('the README', () => {
  it('is what `npm run docs` writes from action.yml (run it after changing action.yml)', async () => {
    expect(await generateReadme(readme, actionText)).toBe(readme);
  });

  it('names this action as package.json does: repository and major version in every uses: line', async () => {
    const pkg = readFileSync(path.join(ROOT, 'package.json'), 'utf8');
    const ref = actionRef(pkg);
    const uses = [...readme.matchAll(/uses: (\S+ghost-inspector-action\S*)/g)].map((m) => m[1]);
    expect(uses.length).toBeGreaterThan(3);
    expect(new Set(uses)).toEqual(new Set([ref]));
    const moved = JSON.stringify({ version: '2.3.0', repository: 'https://github.com/acme/gi-action.git' });
    expect(actionRef(moved)).toBe('acme/gi-action@v2');
    const out = await generateReadme(readme, actionText, moved);
    expect(out).not.toContain(ref);
    expect(out).toContain('uses: acme/gi-action@v2');
    expect(out).toContain('uses: actions/checkout@v5');
    expect(() => actionRef(JSON.stringify({ version: '1.0.0' }))).toThrow('names no GitHub repository');
  });

  it('regenerates when action.yml changes: a new input appears in its group', async () => {
    const changed = actionText.replace(
      /^ {2}# Connection\n/m,
      "  # Connection\n  proxy-url:\n    description: 'A proxy for the requests, for this test only.'\n",
    );
    expect(inputGroups(changed)[0]?.names[0]).toBe('proxy-url');
    const out = await generateReadme(readme, changed);
    expect(rows(out).get('proxy-url')).toEqual(['A proxy for the requests, for this test only.', '—']);
  });

  it('lists exactly the inputs of action.yml, with the same defaults, and exactly its outputs', () => {
    const inputs = rows(between('<!-- generated:inputs:start -->', '<!-- generated:inputs:end -->'));
    expect([...inputs.keys()].sort()).toEqual(Object.keys(action.inputs).sort());
    for (const [name, input] of Object.entries(action.inputs)) {
      const shown = inputs.get(name)!.at(-1);
      const expected = input.required ? '**required**' : input.default ? `\`${input.default}\`` : '—';
      expect(shown, name).toBe(expected);
    }
    const outputs = rows(between('<!-- generated:outputs:start -->', '<!-- generated:outputs:end -->'));
    expect([...outputs.keys()].sort()).toEqual(Object.keys(action.outputs).sort());
  });

  it('every YAML block parses, passes actionlint and uses only inputs and outputs action.yml declares', async () => {
    expect(await checkMarkdown('README.md', readme, action)).toEqual([]);
  }, 30_000);

  it('the check catches a block that does not parse, an unknown input and an unknown output', async () => {
    const bad = [
      '```yaml',
      '- if: failure()',
      '  run: echo "Failed tests: ${{ steps.gi.outputs.failed-test-ids }}"',
      '```',
      '',
      '```yaml',
      '- id: gi',
      '  uses: your-org/ghost-inspector-action@v1',
      '  with:',
      '    api-key: ${{ secrets.KEY }}',
      '    suite-id: abc',
      '- run: echo "${{ steps.gi.outputs.failures }}"',
      '```',
      '',
      '```yaml',
      'jobs:',
      '  a:',
      '    steps:',
      '      - run: echo hi',
      '```',
    ].join('\n');
    const problems = await checkMarkdown('BAD.md', bad, action);
    expect(problems.find((p) => p.startsWith('BAD.md:2:'))).toMatch(/does not parse as YAML/);
    expect(problems).toContain('BAD.md:7: input "suite-id" is not in action.yml');
    expect(problems).toContain('BAD.md:7: output "failures" is not in action.yml');
    expect(problems.find((p) => p.startsWith('BAD.md:16:'))).toMatch(/actionlint: .*runs-on/);
  }, 30_000);

  it('has the sections users need, and the places kept for the texts of other changes', () => {
    for (const heading of [
      '## Quick start',
      '## Inputs',
      '## Outputs',
      '## Recipes',
      '## Permissions',
      '## Troubleshooting',
      '## Limitations',
      '## Redaction',
      '### How results are counted',
      '### When the deadline or a cancel comes',
    ]) {
      expect(readme).toContain(`\n${heading}\n`);
    }
    for (const place of ['redaction', 'results-counting', 'deadline-and-cancel']) {
      between(`<!-- lead:${place}:start -->`, `<!-- lead:${place}:end -->`);
    }
    expect(readme).toMatch(/pull-requests: write/);
    // Contributor material lives in CONTRIBUTING.md and docs/.
    for (const gone of ['## The emulator', '## Performance', '## Reliability', 'npm run bench']) {
      expect(readme).not.toContain(gone);
    }
  });

  it('the recipes cover gating, schedule, matrix, data, .side files, visual comparison and outputs', () => {
    const recipes = between('## Recipes', '## Permissions');
    for (const topic of [
      'pull_request',
      'schedule',
      'matrix',
      'data-file',
      '.side',
      'screenshot-compare-enabled',
      'wait: false',
      'steps.gi.outputs',
    ]) {
      expect(recipes).toContain(topic);
    }
  });

  it("docs/requests.md quotes the request budget the code applies (src/api/budget.ts's defaults)", () => {
    const requests = readFileSync(path.join(ROOT, 'docs', 'requests.md'), 'utf8');
    const prose = requests.replace(/\*\*/g, '').replace(/\s+/g, ' ');
    expect(prose).toContain(
      `a token bucket of ${DEFAULT_BURST} requests that refills at ${DEFAULT_RATE_PER_SECOND} requests/s`,
    );
    expect(requests).not.toMatch(/bursts of 2\b/);
    // The README is a user's page: the internals are linked, not repeated.
    expect(readme).toContain('[docs/requests.md](docs/requests.md)');
    expect(readme).not.toContain('token bucket');
  });

  it('Troubleshooting explains messages the code writes, in the words the code uses', () => {
    const src = sources(path.join(ROOT, 'src'));
    const trouble = between('## Troubleshooting', '## Limitations');
    for (const message of [
      'the request that starts the run failed after it may have reached the service',
      'The run may have started, so it was not sent again',
      'The service gave up waiting, but the tests stay triggered',
      'passed with runs still going; stopping the wait.',
      'answered no result.',
      'The test results of the suite result could not be listed.',
      'Check the API key (the account settings show it).',
      'not a pull request event; no comment.',
      'no github-token; no comment.',
      'Screenshot artifact not uploaded: ',
      'Screenshot not downloaded: ',
      'No test ran (empty suites or folders).',
      'The workflow was cancelled while the tests ran.',
      'Unexpected error: ',
      'Cancelled with the workflow.',
      'could not reach the service',
    ]) {
      expect(src, `src/ writes "${message}"`).toContain(message);
      expect(trouble, `Troubleshooting explains "${message}"`).toContain(message);
    }
    expect(trouble).toContain('TRIGGER_UNCERTAIN');
  });
});
