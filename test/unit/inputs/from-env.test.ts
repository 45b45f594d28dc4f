import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InputError, readInputs } from '../../../src/inputs/index.js';
import { makeWorkspace, ORG, SUITE, TEST } from '../../support/action-fixtures.js';
import { runnerInputs } from '../../support/runner-inputs.js';

let workspace: string;
/** A directory outside the workspace, with a file the workspace links to. */
let outside: string;

beforeAll(async () => {
  workspace = await makeWorkspace('gi-from-env-');
  await mkdir(path.join(workspace, 'data-dir'));
  outside = await mkdtemp(path.join(tmpdir(), 'gi-from-env-outside-'));
  await writeFile(path.join(outside, 'elsewhere.csv'), 'a\n1\n');
  await symlink(path.join(outside, 'elsewhere.csv'), path.join(workspace, 'outside.csv'));
});

afterAll(async () => {
  await rm(workspace, { recursive: true, force: true });
  await rm(outside, { recursive: true, force: true });
});

/** Reads `values` as a step `with:` them (the runner adds the defaults of action.yml). */
function read(values: Record<string, string>) {
  return readInputs({ env: runnerInputs({ 'api-key': 'key-123456', ...values }), workspace });
}

async function problemsOf(values: Record<string, string>) {
  const error = await read(values).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(InputError);
  return (error as InputError).problems;
}

describe('readInputs: what to run', () => {
  it('refuses a step with nothing to run, naming the inputs that would give it something', async () => {
    const problems = await problemsOf({});
    expect(problems).toEqual([
      {
        input: 'suite-ids',
        value: '',
        expected: 'at least one of suite-ids, test-ids, folder-ids, test-files or result-ids',
      },
    ]);
  });

  it('takes any one of them, or several, as something to run', async () => {
    const suites = await read({ 'suite-ids': SUITE });
    expect([suites.suiteIds, suites.repoTests]).toEqual([[SUITE], []]);
    const both = await read({ 'suite-ids': SUITE, 'folder-ids': ORG });
    expect([both.suiteIds, both.folderIds]).toEqual([[SUITE], [ORG]]);
    const tests = await read({ 'suite-ids': SUITE, 'test-ids': TEST });
    expect(tests.testIds).toEqual([TEST]);
    const files = await read({
      'suite-ids': SUITE,
      'organization-id': ORG,
      'test-files': 'tests/login.json',
    });
    expect(files.repoTests.map((t) => t.name)).toEqual(['Login']);
    const following = await read({ 'suite-ids': SUITE, 'result-ids': `suite-result:${ORG}` });
    expect(following.resultIds).toHaveLength(1);
  });

  it('a bad test-files pattern is one problem: the files it names are not looked for', async () => {
    const problems = await problemsOf({ 'organization-id': ORG, 'test-files': '../*.json' });
    expect(problems.map((p) => p.input)).toEqual(['test-files']);
    expect(problems[0]?.expected).toContain('without ".."');
  });

  it('a bad test file is reported with the problems of other inputs', async () => {
    const problems = await problemsOf({
      'organization-id': ORG,
      'start-url': 'ftp://files.test/',
      'test-files': 'bad/broken.json',
    });
    expect(problems.map((p) => p.input)).toEqual(['start-url', 'test-files']);
  });
});

describe('readInputs: the workspace', () => {
  it('is GITHUB_WORKSPACE, else the current directory', async () => {
    const env = runnerInputs({ 'api-key': 'key-123456', 'suite-ids': SUITE });
    const inputs = await readInputs({ env: { ...env, GITHUB_WORKSPACE: workspace } });
    expect(inputs.workspace).toBe(path.resolve(workspace));
    expect((await readInputs({ env })).workspace).toBe(process.cwd());
  });
});

describe('readInputs: redaction of the inputs the reports show', () => {
  it('a secret in the summary title, the comment key or an issue label is ***', async () => {
    const inputs = await read({
      'suite-ids': SUITE,
      'private-variables': 'TOKEN=tok-98765',
      'summary-title': 'Checkout tok-98765',
      'comment-key': 'key-123456-pr',
      'failure-issue-labels': 'qa, tok-98765',
    });
    expect(inputs.summaryTitle).toBe('Checkout ***');
    expect(inputs.commentKey).toBe('***-pr');
    expect(inputs.failureIssueLabels).toEqual(['qa', '***']);
  });
});

describe('readInputs: data-file', () => {
  it.each([
    ['empty.csv', 'the file is empty'],
    ['data-dir', 'not a file'],
    ['missing.csv', 'not found'],
    ['data.csv/inner.csv', 'cannot be read (ENOTDIR)'],
    ['outside.csv', 'it leads out of the workspace: its real path is outside it'],
  ])('%s: the problem says why (%s)', async (file, why) => {
    const problems = await problemsOf({ 'suite-ids': SUITE, 'data-file': file });
    expect(problems).toEqual([
      {
        input: 'data-file',
        value: file,
        expected: `the path of a readable CSV file inside the workspace (${why})`,
      },
    ]);
  });
});
