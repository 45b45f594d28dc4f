/**
 * action.yml, the README and the code stay in step: the README's input and output tables are what
 * `npm run docs` writes from action.yml, every YAML block of the README parses and passes actionlint, the
 * figures the README quotes are the code's, and the error messages it explains are the ones the code writes.
 */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkMarkdown } from '../../../scripts/check-readme-workflows.js';
import {
  actionRef,
  cell,
  generateInputsDoc,
  generateReadme,
  inputGroups,
  parseAction,
  shortDescription,
} from '../../../scripts/gen-readme-io.js';
import { RATE_LIMIT_BURST, RATE_LIMIT_PER_SECOND } from '../../../src/api/limits.js';
import { ROOT } from '../../support/harness.js';

const actionText = readFileSync(path.join(ROOT, 'action.yml'), 'utf8');
const action = parseAction(actionText);
const readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
/** A page of docs/, by file name. */
const doc = (name: string): string => readFileSync(path.join(ROOT, 'docs', name), 'utf8');
const inputsDoc = doc('inputs.md');

/** The text of `text` (the README unless given) from `start` up to `end`. */
function between(start: string, end: string, text = readme): string {
  const i = text.indexOf(start);
  const j = text.indexOf(end, i);
  expect(i, start).toBeGreaterThanOrEqual(0);
  expect(j, end).toBeGreaterThan(i);
  return text.slice(i, j);
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

/**
 * List items of docs/inputs.md: `` - `name` (default): description `` (an input) → [description, default], or
 * `` - `name`: description `` (an output) → [description].
 */
function items(text: string): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const line of text.split('\n')) {
    const m = /^- `([a-z0-9-]+)`(?: \((.+?)\))?: (.*)$/.exec(line);
    if (!m) continue;
    expect(out.has(m[1] as string), `${m[1]} listed twice`).toBe(false);
    out.set(m[1] as string, m[2] === undefined ? [m[3] as string] : [m[3] as string, m[2]]);
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
});

describe('the README', () => {
  it('is what `npm run docs` writes from action.yml (run it after changing action.yml), as is docs/inputs.md', async () => {
    expect(await generateReadme(readme, actionText)).toBe(readme);
    expect(await generateInputsDoc(inputsDoc, actionText)).toBe(inputsDoc);
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
    expect(out).toContain('uses: actions/checkout@v7');
    expect(() => actionRef(JSON.stringify({ version: '1.0.0' }))).toThrow('names no GitHub repository');
  });

  it('regenerates when action.yml changes: a new input appears in its group', async () => {
    const changed = actionText.replace(
      /^ {2}# Connection\n/m,
      "  # Connection\n  proxy-url:\n    description: 'A proxy for the requests, for this test only.'\n",
    );
    expect(inputGroups(changed)[0]?.names[0]).toBe('proxy-url');
    const out = await generateReadme(readme, changed);
    expect(rows(out).get('proxy-url')).toEqual(['A proxy for the requests, for this test only', '—']);
    const full = await generateInputsDoc(inputsDoc, changed);
    expect(items(full).get('proxy-url')).toEqual(['A proxy for the requests, for this test only.', '—']);
  });

  it('shows the first clause of each description in the README, the whole of it in docs/inputs.md', () => {
    const short = rows(between('<!-- generated:inputs:start -->', '<!-- generated:inputs:end -->'));
    const full = items(
      between('<!-- generated:inputs:start -->', '<!-- generated:inputs:end -->', inputsDoc),
    );
    for (const [name, input] of Object.entries(action.inputs)) {
      const clause = shortDescription(input.description);
      expect(clause.length, name).toBeGreaterThan(10);
      expect(clause.length, name).toBeLessThanOrEqual(80);
      expect(short.get(name)?.[0]?.length, name).toBeLessThan(full.get(name)![0]!.length + 1);
      expect(full.get(name)?.[0], name).toBe(cell(input.description));
    }
    expect(
      shortDescription(
        'Re-run each failed test alone up to this many times (integer 0 to 3); a test that then passes is flaky.',
      ),
    ).toBe('Re-run each failed test alone up to this many times');
    expect(shortDescription('true or false: wait for the runs to finish. false starts the runs.')).toBe(
      'Wait for the runs to finish',
    );
    expect(shortDescription('Organization id. Required with test-files (on-demand runs).')).toBe(
      'Organization id. Required with test-files',
    );
    expect(shortDescription('Viewport size(s) as WxH in pixels (e.g. 1280x800), newline separated.')).toBe(
      'Viewport size(s) as WxH in pixels, newline separated',
    );
  });

  it('lists exactly the inputs of action.yml, with the same defaults, and exactly its outputs (README and docs/inputs.md)', () => {
    for (const [text, parse] of [
      [readme, rows],
      [inputsDoc, items],
    ] as const) {
      const inputs = parse(between('<!-- generated:inputs:start -->', '<!-- generated:inputs:end -->', text));
      expect([...inputs.keys()].sort()).toEqual(Object.keys(action.inputs).sort());
      for (const [name, input] of Object.entries(action.inputs)) {
        const shown = inputs.get(name)!.at(-1);
        const expected = input.required ? '**required**' : input.default ? `\`${input.default}\`` : '—';
        expect(shown, name).toBe(expected);
      }
      const outputs = parse(
        between('<!-- generated:outputs:start -->', '<!-- generated:outputs:end -->', text),
      );
      expect([...outputs.keys()].sort()).toEqual(Object.keys(action.outputs).sort());
    }
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

  it('is a front page: at most 500 lines, its sections in the order a team reads them', () => {
    expect(readme.split('\n').length).toBeLessThanOrEqual(500);
    const order = [
      '## Quick start',
      '## Permissions',
      '## Simple workflows',
      '## Recipes',
      '## Inputs',
      '## Outputs',
      '## Migrating from the Ghost Inspector CLI or Docker image',
      '## Versions',
      '## Troubleshooting',
      '## Further reading',
      '## Develop',
    ].map((heading) => readme.indexOf(`\n${heading}\n`));
    for (const at of order) expect(at).toBeGreaterThan(0);
    expect(order).toEqual([...order].sort((a, b) => a - b));
    // The picture of the summary is committed and small.
    const image = /!\[[^\]]+\]\((docs\/images\/[\w.-]+\.png)\)/.exec(readme)?.[1];
    expect(image).toBeDefined();
    expect(statSync(path.join(ROOT, image!)).size).toBeLessThan(100_000);
    expect(readme).toMatch(/pull-requests: write/);
    // Contributor material lives in CONTRIBUTING.md and docs/.
    for (const gone of ['## The emulator', '## Performance', '## Reliability', 'npm run bench']) {
      expect(readme).not.toContain(gone);
    }
  });

  it('names the Node versions and the whole set-up in its Develop section', () => {
    const develop = between('## Develop', '[MIT](LICENSE)');
    const pkg = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
      engines: { node: string };
    };
    // Each lower bound of `engines` (e.g. 22.18 of ^22.18.0), and the major `.nvmrc` names.
    const bounds = [...pkg.engines.node.matchAll(/(\d+\.\d+)\.\d+/g)].map((m) => m[1]!);
    expect(bounds.length).toBeGreaterThan(0);
    for (const bound of bounds) expect(develop).toContain(bound);
    expect(develop).toContain(readFileSync(path.join(ROOT, '.nvmrc'), 'utf8').trim());
    expect(develop).toContain(`Node ${/using: '?node(\d+)/.exec(actionText)?.[1]}`);
    expect(develop).toContain('npm ci && npm run demo');
    expect(develop).toContain('npm test');
  });

  it('keeps the internals in docs/, linked from the README, with the places kept for the texts of other changes', () => {
    const pages: Record<string, string[]> = {
      'how-it-runs.md': [
        '## Starting and waiting',
        '## When the deadline or a cancel comes',
        '## How results are counted',
        '## Running outside GitHub',
      ],
      'reports.md': ['# What the reviewer sees'],
      'redaction.md': ['## Redaction'],
      'limitations.md': ['# Limitations'],
      'troubleshooting.md': ['# Troubleshooting'],
    };
    for (const [page, headings] of Object.entries(pages)) {
      expect(readme).toContain(`(docs/${page}`);
      for (const heading of headings) expect(doc(page), `${page}: ${heading}`).toContain(`${heading}\n`);
    }
    for (const [page, place] of [
      ['redaction.md', 'redaction'],
      ['how-it-runs.md', 'results-counting'],
      ['how-it-runs.md', 'deadline-and-cancel'],
    ] as const) {
      between(`<!-- lead:${place}:start -->`, `<!-- lead:${place}:end -->`, doc(page));
    }
  });

  it('the recipes cover gating with the comment, previews, schedule, matrix, data, test files, tunnel, start and wait, publishers', () => {
    const recipes = between('## Simple workflows', '## Inputs');
    for (const topic of [
      'pull_request',
      'pr-comment: true',
      'deployment_status',
      'schedule',
      'matrix',
      'data-file',
      '.side',
      'tunnel:',
      'wait: false',
      'result-ids:',
      'screenshot-compare-enabled',
      'steps.gi.outputs',
      'dorny/test-reporter@',
      'mikepenz/action-junit-report@',
      'EnricoMi/publish-unit-test-result-action@',
    ]) {
      expect(recipes).toContain(topic);
    }
  });

  it('maps every option of the official CLI (npm ghost-inspector) to an input action.yml declares', () => {
    const migrating = between('## Migrating from the Ghost Inspector CLI or Docker image', '## Versions');
    expect(migrating).toContain('docker://ghostinspector/cli');
    // The options the CLI's run commands declare, read from the package itself (its yargs builders).
    const require = createRequire(import.meta.url);
    const options = new Set(['apiKey', 'json', 'jsonInput']);
    const yargs = {
      options(declared: Record<string, unknown>) {
        for (const name of Object.keys(declared)) options.add(name);
        return yargs;
      },
    };
    for (const command of ['suite/execute', 'test/execute', 'test/execute-on-demand', 'test-result/wait']) {
      (
        require(`ghost-inspector/bin/commands/${command}.js`) as { builder: (y: typeof yargs) => void }
      ).builder(yargs);
      expect(migrating).toContain(`\`${command.replace('/', ' ')}`);
    }
    expect(options.size).toBeGreaterThan(25);
    for (const name of options) {
      if (name === '[variableName]') expect(migrating).toContain('`--<name> <value>`');
      else expect(migrating, name).toContain(`\`--${name}\``);
    }
    // Every input named on the right of the table exists.
    const named = [...migrating.matchAll(/^\|[^|]*\|(.*)\|\s*$/gm)].flatMap((row) =>
      [...(row[1] as string).matchAll(/`([a-z][a-z0-9-]*)(?::[^`]*)?`/g)].map((m) => m[1] as string),
    );
    expect(named.length).toBeGreaterThan(30);
    for (const name of named) expect(action.inputs, name).toHaveProperty(name);
  });

  it("docs/requests.md quotes the request budget the code applies (src/api/budget.ts's defaults)", () => {
    const requests = readFileSync(path.join(ROOT, 'docs', 'requests.md'), 'utf8');
    const prose = requests.replace(/\*\*/g, '').replace(/\s+/g, ' ');
    expect(prose).toContain(
      `a token bucket of ${RATE_LIMIT_BURST} requests that refills at ${RATE_LIMIT_PER_SECOND} requests/s`,
    );
    expect(requests).not.toMatch(/bursts of 2\b/);
    // The README is a user's page: the internals are linked, not repeated.
    expect(readme).toContain('[docs/requests.md](docs/requests.md)');
    expect(readme).not.toContain('token bucket');
  });

  it('Troubleshooting explains messages the code writes, in the words the code uses', () => {
    const src = sources(path.join(ROOT, 'src'));
    const trouble = doc('troubleshooting.md');
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
      expect(trouble, `docs/troubleshooting.md explains "${message}"`).toContain(message);
    }
    expect(trouble).toContain('TRIGGER_UNCERTAIN');
  });

  it("the README's Troubleshooting holds the ten commonest messages, the code's own words, and links the rest", () => {
    const src = sources(path.join(ROOT, 'src'));
    const trouble = between('## Troubleshooting', '## Further reading');
    const messages = [...trouble.matchAll(/^\| `(.+?)`\s*\|/gm)].map((m) => m[1] as string);
    expect(messages.length).toBeLessThanOrEqual(10);
    for (const message of [
      'the Ghost Inspector API key (required)',
      'Check the API key (the account settings show it).',
      'the request that starts the run failed after it may have reached the service',
      'passed with runs still going; stopping the wait.',
      'No test ran (empty suites or folders).',
    ]) {
      expect(src, `src/ writes "${message}"`).toContain(message);
      expect(trouble, `Troubleshooting explains "${message}"`).toContain(message);
    }
    // Composed by the code from parts: an input's message, the verdict's reason and a report writer's warning.
    expect(src).toContain('`Input "${p.input}" has value ${JSON.stringify(shown)}; expected ${p.expected}.`');
    expect(trouble).toContain(
      '`Input "api-key" has value ""; expected the Ghost Inspector API key (required).`',
    );
    expect(src).toContain("reasons.push(`${plural(plainFailed, 'test')} failed.`)");
    expect(trouble).toContain('`<n> tests failed.`');
    expect(src).toContain("what: 'the pull-request comment'");
    expect(trouble).toContain('`Could not write the pull-request comment: ');
    expect(trouble).toContain('TRIGGER_UNCERTAIN');
    expect(trouble).toContain('(docs/troubleshooting.md)');
  });
});
