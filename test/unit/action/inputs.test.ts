import { rm } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InputError, readInputs } from '../../../src/inputs/index.js';
import { splitList } from '../../../src/inputs/parse.js';
import { parseVariables } from '../../../src/inputs/variables.js';
import { definitionFor } from '../../../src/inputs/test-files.js';
import { makeWorkspace, ORG, SUITE, TEST } from '../../support/action-fixtures.js';
import { projectDefaults, inputVariable, runnerInputs } from '../../support/runner-inputs.js';

let workspace: string;

beforeAll(async () => {
  workspace = await makeWorkspace('gi-inputs-');
});

afterAll(async () => {
  await rm(workspace, { recursive: true, force: true });
});

/** Reads `values` as a step `with:` them: the runner adds the defaults of action.yml. */
async function read(values: Record<string, string>) {
  return readInputs({ env: runnerInputs({ 'api-key': 'key-123', ...values }), workspace });
}

async function problemsOf(values: Record<string, string>) {
  try {
    await read(values);
  } catch (error) {
    expect(error).toBeInstanceOf(InputError);
    return (error as InputError).problems;
  }
  throw new Error('expected an InputError');
}

describe('readInputs', () => {
  it('reads the defaults the runner sets and sends no execute parameter the user did not set', async () => {
    const inputs = await read({ 'suite-ids': SUITE });
    expect(inputs.apiBaseUrl).toBe('https://api.ghostinspector.com/v1');
    expect(inputs.execute).toEqual({});
    expect(inputs.wait).toBe(true);
    expect(inputs.timeoutMs).toBe(30 * 60_000);
    expect(inputs.cancelOnTimeout).toBe(true);
    expect(inputs.failOnScreenshotCompare).toBe(false);
    expect(inputs.failOnTimeout).toBe(true);
    expect(inputs.failOnEmpty).toBe(true);
    expect(inputs.retryFailed).toBe(0);
    expect(inputs.failFast).toBe(false);
    expect(inputs.junitPath).toBe(path.join(workspace, 'ghost-inspector-junit.xml'));
    expect(inputs.resultsPath).toBe(path.join(workspace, 'ghost-inspector-results.json'));
    expect(inputs.screenshots).toBe('failed');
    expect(inputs.summary && inputs.annotations && !inputs.prComment).toBe(true);
    expect(inputs.secrets).toEqual(['key-123']);
  });

  it('reads lists separated by newlines and commas, and every execute parameter', async () => {
    const inputs = await read({
      'suite-ids': `${SUITE},\n${SUITE.replace('5', '1')}`,
      'test-ids': TEST,
      browser: 'chrome, firefox-120',
      region: 'us-east-1\neu-west-1',
      viewport: '1280x800,375x667',
      'start-url': 'https://preview.example.test/',
      'user-agent': 'Bot/1',
      'http-auth-username': 'u',
      'http-auth-password': 'p4ss',
      'data-file': 'data.csv',
      'max-concurrent-data-rows': '2',
      delay: '1500',
      'disable-notifications': 'true',
      'disable-visuals': 'FALSE',
      'screenshot-compare-enabled': 'True',
      'screenshot-compare-threshold': '0.05',
      'screenshot-compare-baseline-result': TEST,
      'screenshot-exclusions': '.ad, .clock',
      'screenshot-target': '#main',
      webhook: 'https://hooks.example.test/a',
      'chat-channel': '#qa',
      variables: 'PLAN=pro\nGREETING = hello = world\n# comment',
      'private-variables': '{"TOKEN": "s3cr3t", "PIN": 1234}',
      'timeout-minutes': '2.5',
      'retry-failed': '2',
      'fail-fast': 'true',
    });
    expect(inputs.suiteIds).toHaveLength(2);
    expect(inputs.startUrls).toEqual(['https://preview.example.test/']);
    expect(inputs.execute).toMatchObject({
      browser: ['chrome', 'firefox-120'],
      region: ['us-east-1', 'eu-west-1'],
      viewport: ['1280x800', '375x667'],
      userAgent: 'Bot/1',
      httpAuthUsername: 'u',
      httpAuthPassword: 'p4ss',
      maxConcurrentDataRows: 2,
      delay: 1500,
      disableNotifications: true,
      disableVisuals: false,
      screenshotCompareEnabled: true,
      screenshotCompareThreshold: 0.05,
      screenshotCompareBaselineResult: TEST,
      screenshotExclusions: '.ad, .clock',
      screenshotTarget: '#main',
      webhook: ['https://hooks.example.test/a'],
      chatChannel: 'qa',
      variables: { PLAN: 'pro', GREETING: 'hello = world', TOKEN: 's3cr3t', PIN: '1234' },
    });
    expect(inputs.execute.dataFile?.name).toBe('data.csv');
    expect(Buffer.from(inputs.execute.dataFile!.content).toString()).toContain('alice');
    expect(inputs.privateVariableNames).toEqual(['TOKEN', 'PIN']);
    expect(inputs.secrets).toEqual(['key-123', 'p4ss', 's3cr3t', '1234']);
    expect(inputs.timeoutMs).toBe(150_000);
    expect(inputs.retryFailed).toBe(2);
    expect(inputs.failFast).toBe(true);
  });
});

describe('readInputs with test files', () => {
  it('parses native JSON and .side files', async () => {
    const inputs = await read({ 'organization-id': ORG, 'test-files': 'tests/login.json\nbad/*.side' }).catch(
      (e: InputError) => e,
    );
    // bad.side matches *.side and fails conversion: the error names the file and the command.
    expect(inputs).toBeInstanceOf(InputError);
    expect((inputs as InputError).message).toContain('bad/drag.side');
    expect((inputs as InputError).message).toContain('dragAndDropToObject');

    const ok = await read({ 'organization-id': ORG, 'test-files': 'tests/login.json\ntests/flows.side' });
    expect(ok.repoTests.map((t) => `${t.file}#${t.index}:${t.name}`)).toEqual([
      'tests/login.json#0:Login',
      'tests/flows.side#0:Home',
      'tests/flows.side#1:Search',
    ]);
    const login = ok.repoTests[0]!.definition;
    expect(login).not.toHaveProperty('_id');
    expect(login.steps[0]).toEqual({
      sequence: 0,
      command: 'click',
      target: '#go',
      value: '',
      variableName: '',
      condition: null,
      optional: false,
      private: false,
    });
    const search = ok.repoTests[2]!.definition;
    expect(search.startUrl).toBe('https://example.test/search');
    expect(search.steps.map((s) => [s.command, s.target, s.value])).toEqual([
      ['assign', '#q', 'shoes'],
      ['keypress', '#q', '13'],
    ]);
  });
});

describe('test files under start-url', () => {
  it('each test gets its definition per start URL: .side opens rebased with a notice, JSON start URL replaced', async () => {
    const inputs = await read({
      'organization-id': ORG,
      'test-files': 'tests/login.json\ntests/flows.side\nown-site.side',
      'start-url': 'https://staging.test/v2\nhttps://qa:pw-1234@preview.test/',
    });
    const [login, home, search, own] = inputs.repoTests;
    expect(definitionFor(login!, undefined).startUrl).toBe('https://example.test/');
    expect(definitionFor(login!, 'https://staging.test/v2').startUrl).toBe('https://staging.test/v2');
    expect(definitionFor(home!, 'https://staging.test/v2').startUrl).toBe('https://staging.test/v2/');
    expect(definitionFor(search!, 'https://staging.test/v2').startUrl).toBe('https://staging.test/v2/search');
    expect(definitionFor(search!, undefined).startUrl).toBe('https://example.test/search');
    const opens = (startUrl: string) =>
      definitionFor(own!, startUrl)
        .steps.filter((s) => s.command === 'open')
        .map((s) => s.target);
    expect(opens('https://staging.test/v2')).toEqual(['https://staging.test/v2/account']);
    expect(inputs.notices).toHaveLength(2);
    expect(inputs.notices[0]).toContain('own-site.side: 1 open command to the file');
    expect(inputs.notices[1]).toContain('https://***@preview.test/');
    expect(inputs.notices.join('\n')).not.toContain('pw-1234');
  });
});

describe('variables, secrets and warnings', () => {
  it('accepts names that are also Object.prototype members, in both forms', async () => {
    const lines = await read({
      'suite-ids': SUITE,
      variables: 'constructor=a\ntoString=b\n__proto__=c',
      'private-variables': 'hasOwnProperty=secret-1',
    });
    expect(Object.entries(lines.execute.variables!)).toEqual([
      ['constructor', 'a'],
      ['toString', 'b'],
      ['__proto__', 'c'],
      ['hasOwnProperty', 'secret-1'],
    ]);
    const json = await read({ 'suite-ids': SUITE, variables: '{"constructor": "a", "__proto__": "c"}' });
    expect(Object.entries(json.execute.variables!)).toEqual([
      ['constructor', 'a'],
      ['__proto__', 'c'],
    ]);
    const problems = await problemsOf({ 'suite-ids': SUITE, variables: 'toString=a\ntoString=b' });
    expect(problems[0]?.expected).toContain('toString repeats');
  });

  it('takes the credentials of URL inputs as secrets', async () => {
    const inputs = await read({
      'test-ids': TEST,
      'start-url': 'https://qa:p%40ss-word@staging.test/',
      webhook: 'https://hook:hook-pw@hooks.test/x',
    });
    expect(inputs.startUrls).toEqual(['https://qa:p%40ss-word@staging.test/']);
    expect(inputs.secrets).toEqual(
      expect.arrayContaining(['p%40ss-word', 'p@ss-word', 'qa:p%40ss-word', 'hook-pw', 'hook:hook-pw']),
    );
  });

  it('warns about secret values too short to be removed from free text, never showing them', async () => {
    const inputs = await read({
      'suite-ids': SUITE,
      'private-variables': 'PIN=1\nTOKEN=long-enough',
      'http-auth-username': 'qa',
      'http-auth-password': 'pw',
    });
    expect(inputs.warnings).toHaveLength(2);
    expect(inputs.warnings[0]).toMatch(/^http-auth-password: the value is shorter than 4 characters/);
    expect(inputs.warnings[1]).toMatch(/^private-variables PIN: the value is shorter than 4 characters/);
    expect(inputs.secrets).toContain('1');
    expect((await read({ 'suite-ids': SUITE })).warnings).toEqual([]);
  });

  it('warns when the variables set GI_ACTION_STEP, whose value the action replaces; a private value stays unshown', async () => {
    for (const input of ['variables', 'private-variables']) {
      const inputs = await read({
        'suite-ids': SUITE,
        [input]: 'GI_ACTION_STEP=mine-1234\nOTHER=other-value',
      });
      expect(inputs.warnings, input).toEqual([
        expect.stringMatching(
          new RegExp(`^Input "${input}" sets GI_ACTION_STEP, .*: the value given is replaced\\.$`),
        ),
      ]);
      expect(inputs.warnings.join(' ')).not.toContain('mine-1234');
    }
    expect((await read({ 'suite-ids': SUITE, variables: 'OTHER=x' })).warnings).toEqual([]);
  });
});

describe('bad inputs', () => {
  it('lists every bad input in one error', async () => {
    const problems = await problemsOf({ 'suite-ids': SUITE, browser: 'safari', delay: 'x', region: 'mars' });
    expect(problems.map((p) => p.input)).toEqual(['browser', 'region', 'delay']);
  });

  it('masks the value of secret inputs', async () => {
    const problems = await problemsOf({ 'suite-ids': SUITE, 'private-variables': '{"A": ' });
    expect(problems[0]).toMatchObject({ input: 'private-variables', value: '***' });
    const spaced = await problemsOf({ 'suite-ids': SUITE, 'api-key': 'secret key' });
    expect(spaced[0]).toMatchObject({ input: 'api-key', value: '***' });
  });

  it('shows an empty secret as empty, as README documents', async () => {
    await expect(read({ 'suite-ids': SUITE, 'api-key': '' })).rejects.toThrow(
      'Input "api-key" has value ""; expected the Ghost Inspector API key (required).',
    );
  });
});

describe('helpers', () => {
  it('splitList splits on newlines and commas', () => {
    expect(splitList(' a, b\n\nc ,\r\nd')).toEqual(['a', 'b', 'c', 'd']);
  });

  it('parseVariables reads lines and JSON', () => {
    const problems: string[] = [];
    const fail = (input: string) => problems.push(input);
    expect(parseVariables('A=1\nB= two words \n', 'variables', fail)).toEqual({ A: '1', B: 'two words' });
    expect(parseVariables('{"A": 1, "B": "x"}', 'variables', fail)).toEqual({ A: '1', B: 'x' });
    expect(problems).toEqual([]);
    parseVariables('A=1\nA=2', 'variables', fail);
    expect(problems).toEqual(['variables']);
  });

  it('reads INPUT_* variables with dashes kept; an empty junit-path turns JUnit off, an empty github-token is GITHUB_TOKEN', async () => {
    const env: Record<string, string> = {
      ...runnerInputs({ 'api-key': 'k', 'suite-ids': SUITE }),
      GITHUB_TOKEN: 'gh-token',
    };
    expect(env['INPUT_SUITE-IDS']).toBe(SUITE);
    const inputs = await readInputs({
      env: { ...env, 'INPUT_JUNIT-PATH': '', 'INPUT_GITHUB-TOKEN': '' },
      workspace,
    });
    expect(inputs.suiteIds).toEqual([SUITE]);
    expect(inputs.junitPath).toBeNull();
    expect(inputs.githubToken).toBe('gh-token');
    const withDefault = await readInputs({ env, workspace });
    expect(withDefault.junitPath).toBe(path.join(workspace, 'ghost-inspector-junit.xml'));
  });
});

describe('defaults', () => {
  it('the harnesses set every input with an action.yml default, as the runner does; a given value wins', () => {
    const defaults = projectDefaults();
    expect(Object.keys(defaults).length).toBeGreaterThan(20);
    const env = runnerInputs({ wait: 'false', 'junit-path': '' }, { GITHUB_TOKEN: 'gh-1' });
    for (const [name, value] of Object.entries(defaults)) {
      if (name === 'wait' || name === 'junit-path' || name === 'github-token') continue;
      expect(env[inputVariable(name)], name).toBe(value);
    }
    expect(env.INPUT_WAIT).toBe('false');
    expect(env['INPUT_JUNIT-PATH']).toBe('');
    expect(env['INPUT_GITHUB-TOKEN']).toBe('gh-1');
  });

  it('an input left out reads as its action.yml default, also where empty has a meaning', async () => {
    // Outside a runner nothing sets the defaults: only the inputs given are in the environment.
    const defaults = projectDefaults();
    const env = { 'INPUT_API-KEY': 'k', 'INPUT_SUITE-IDS': SUITE, GITHUB_TOKEN: 'gh-3' };
    const inputs = await readInputs({ env, workspace, defaults });
    expect(inputs.junitPath).toBe(path.join(workspace, defaults['junit-path']!));
    expect(inputs.failureIssueLabels).toEqual(splitList(defaults['failure-issue-labels']!));
    expect(inputs.failureIssueLabels.length).toBeGreaterThan(0);
    // The one expression default (`${{ github.token }}`) is the job's token.
    expect(inputs.githubToken).toBe('gh-3');
    expect(inputs.timeoutMs).toBe(Number(defaults['timeout-minutes']) * 60_000);
  });

  it('an input given empty reads as its action.yml default, but where empty has a meaning', async () => {
    // Empty means: no JUnit file, the GITHUB_TOKEN variable, no labels (action.yml).
    const emptyMeans = new Set(['junit-path', 'github-token', 'failure-issue-labels']);
    const defaults = projectDefaults();
    const empty = Object.fromEntries(Object.keys(defaults).map((name) => [name, '']));
    const env = { ...runnerInputs({ 'api-key': 'k', 'suite-ids': SUITE, ...empty }), GITHUB_TOKEN: 'gh-2' };
    const inputs = await readInputs({ env, workspace, defaults });
    expect(inputs.wait).toBe(true);
    expect(inputs.screenshots).toBe(defaults.screenshots);
    expect(inputs.junitPath).toBeNull();
    expect(inputs.githubToken).toBe('gh-2');
    expect(inputs.failureIssueLabels).toEqual([]);
    // Without the defaults, each of the others is refused by name, with the expected form.
    const problems = await problemsOf({ 'suite-ids': SUITE, ...empty });
    const refused = new Set(problems.map((p) => p.input));
    for (const name of Object.keys(empty)) expect(refused.has(name), name).toBe(!emptyMeans.has(name));
    expect(problems.find((p) => p.input === 'wait')).toEqual({
      input: 'wait',
      value: '',
      expected: 'true or false',
    });
  });
});
