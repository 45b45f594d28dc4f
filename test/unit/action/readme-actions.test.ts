/**
 * The third-party actions of the docs' recipes (`scripts/check-readme-workflows.ts`, check 4): each is named at
 * a major the fixture holds (its input names read from that release's action.yml), and a step passing an input
 * that action does not declare is caught, whether or not actionlint knows the action.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkMarkdown, readThirdPartyActions } from '../../../scripts/check-readme-workflows.js';
import { parseAction } from '../../../scripts/gen-readme-io.js';
import { ROOT } from '../../support/harness.js';

const action = parseAction(readFileSync(path.join(ROOT, 'action.yml'), 'utf8'));
const known = readThirdPartyActions();

/** One markdown YAML block per step of two lines; block `i`'s text starts at line 2 + 5 * i. */
function blocks(steps: Array<[string, string]>): string {
  return steps.map((lines) => ['```yaml', ...lines, '```', ''].join('\n')).join('\n');
}

describe('third-party actions in the docs', () => {
  it('the fixture names each action at a major, read from a release of that major, with its inputs', () => {
    expect(Object.keys(known).length).toBeGreaterThan(0);
    for (const [uses, entry] of Object.entries(known)) {
      const [repo, major] = uses.split('@') as [string, string];
      expect(entry.version, uses).toMatch(new RegExp(`^${major}(\\.\\d+)*$`));
      expect(entry.commit, uses).toMatch(/^[0-9a-f]{40}$/);
      expect(entry.source, uses).toBe(`https://github.com/${repo}/blob/${entry.version}/action.yml`);
      expect(entry.inputs.length, uses).toBeGreaterThan(0);
      expect(new Set(entry.inputs).size, uses).toBe(entry.inputs.length);
    }
  });

  it('every third-party step of the README is one the fixture holds, with inputs it declares', async () => {
    const readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
    const used = [...readme.matchAll(/uses: ([\w.-]+\/[\w.-]+@v\d+)/g)].map((m) => m[1]!);
    const thirdParty = used.filter((u) => !u.includes('ghost-inspector-action'));
    expect(thirdParty.length).toBeGreaterThan(0);
    for (const uses of thirdParty) expect(Object.keys(known), uses).toContain(uses);
    expect(await checkMarkdown('README.md', readme, action, known)).toEqual([]);
  }, 30_000);

  it('catches each wrong input of a third-party action, one planted per block', async () => {
    const planted: Array<[string, string]> = [
      ['actions/checkout@v7', 'fetch_depth'],
      ['actions/checkout@v7', 'depth'],
      ['actions/upload-artifact@v3', 'retention_days'],
      ['actions/upload-artifact@v3', 'paths'],
      ['dorny/test-reporter@v3', 'report-paths'],
      ['dorny/test-reporter@v3', 'fail-on-failure'],
      ['mikepenz/action-junit-report@v6', 'report-paths'],
      ['mikepenz/action-junit-report@v6', 'check-name'],
      ['EnricoMi/publish-unit-test-result-action@v2', 'junit_file'],
      ['EnricoMi/publish-unit-test-result-action@v2', 'check-name'],
    ];
    const markdown = blocks(planted.map(([uses, input]) => [`- uses: ${uses}`, `  with: { ${input}: x }`]));
    const problems = await checkMarkdown('BAD.md', markdown, action, known);
    planted.forEach(([uses, input], i) => {
      expect(problems, `${uses} ${input}`).toContain(
        `BAD.md:${2 + 5 * i}: input "${input}" is not an input of ${uses} (its action.yml at ${known[uses]!.version})`,
      );
    });
  }, 30_000);

  it('an action or a major the fixture lacks is named; only a GitHub Enterprise Server major may be too old', async () => {
    const markdown = blocks([
      ['- uses: actions/checkout@v5', '  name: an older major'],
      ['- uses: someone/unknown-action@v1', '  name: an action the fixture lacks'],
      ['- uses: actions/upload-artifact@v3', '  with: { name: shots, path: shots }'],
      ['- uses: docker://ghostinspector/cli', '  name: a container'],
      ['- uses: ./local-action', '  name: an action of the repository'],
    ]);
    const problems = await checkMarkdown('BAD.md', markdown, action, known);
    expect(problems).toContain(
      'BAD.md:2: actions/checkout@v5 is not in scripts/fixtures/third-party-actions.json: add the inputs of its action.yml at that major',
    );
    expect(problems.filter((p) => p.startsWith('BAD.md:7:'))).toEqual([
      'BAD.md:7: someone/unknown-action@v1 is not in scripts/fixtures/third-party-actions.json: add the inputs of its action.yml at that major',
    ]);
    expect(problems.filter((p) => /^BAD\.md:(12|17|22):/.test(p))).toEqual([]);
    // Without the GitHub Enterprise Server mark, actionlint's "too old" stands.
    const unmarked = { ...known, 'actions/upload-artifact@v3': { ...known['actions/upload-artifact@v3']! } };
    delete unmarked['actions/upload-artifact@v3']!.enterpriseServer;
    const strict = await checkMarkdown('BAD.md', markdown, action, unmarked);
    expect(strict.filter((p) => p.startsWith('BAD.md:12:'))).toEqual([
      expect.stringMatching(/actionlint: the runner of "actions\/upload-artifact@v3" action is too old/),
    ]);
  }, 60_000);
});
