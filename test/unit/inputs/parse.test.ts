/**
 * Each input's form, checked in the test process (`src/inputs/parse.ts` through `readInputs`): the values
 * at the edges of each range and pattern are taken or refused, and a refusal names the input, the value and
 * the form expected in the words the step prints.
 */
import { rm } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InputError, readInputs } from '../../../src/inputs/index.js';
import { shortSecretWarnings, startUrlVariable } from '../../../src/inputs/parse.js';
import { ID_FORM } from '../../../src/inputs/schema.js';
import { makeWorkspace, ORG, SUITE, TEST } from '../../support/action-fixtures.js';
import { runnerInputs } from '../../support/runner-inputs.js';

let workspace: string;
beforeAll(async () => {
  workspace = await makeWorkspace('gi-parse-');
});
afterAll(() => rm(workspace, { recursive: true, force: true }));

/** Reads `values` as a step `with:` them, a suite to run unless they say otherwise. */
function read(values: Record<string, string>) {
  return readInputs({
    env: runnerInputs({ 'api-key': 'key-123456', 'suite-ids': SUITE, ...values }),
    workspace,
  });
}

/** The one problem `values` make (fails the test when they make none or several). */
async function problemOf(values: Record<string, string>) {
  const error = await read(values).catch((e: unknown) => e);
  expect(error, JSON.stringify(values)).toBeInstanceOf(InputError);
  const { problems } = error as InputError;
  expect(problems, JSON.stringify(values)).toHaveLength(1);
  return problems[0];
}

describe('numbers at the edges of their ranges', () => {
  it('timeout-minutes: a positive number up to 1440, decimals allowed; nothing else', async () => {
    expect((await read({ 'timeout-minutes': '1440' })).timeoutMs).toBe(1440 * 60_000);
    expect((await read({ 'timeout-minutes': '5' })).timeoutMs).toBe(300_000);
    expect((await read({ 'timeout-minutes': '0.5' })).timeoutMs).toBe(30_000);
    const expected = 'a positive number of minutes (at most 1440)';
    for (const value of ['1440.5', '0', 'x5', '5x', '-5'])
      expect(await problemOf({ 'timeout-minutes': value })).toEqual({
        input: 'timeout-minutes',
        value,
        expected,
      });
  });

  it('integers: each range inclusive at both ends, its unit named', async () => {
    const cases: Array<[string, number, number, string]> = [
      ['retry-failed', 0, 3, 'runs'],
      ['failure-issue-reopen-days', 0, 365, 'days'],
      ['artifact-retention-days', 1, 90, 'days'],
    ];
    for (const [input, min, max, unit] of cases) {
      await expect(read({ [input]: String(min) })).resolves.toBeTruthy();
      await expect(read({ [input]: String(max) })).resolves.toBeTruthy();
      expect(await problemOf({ [input]: String(max + 1) })).toEqual({
        input,
        value: String(max + 1),
        expected: `an integer from ${min} to ${max} (${unit})`,
      });
    }
    expect((await read({ 'retry-failed': '3' })).retryFailed).toBe(3);
  });
});

describe('patterns, anchored at both ends', () => {
  it('failure-issue-assignees: GitHub logins of 1 to 39 letters, digits and hyphens, not starting with one', async () => {
    const logins = await read({ 'failure-issue-assignees': 'o, octo-cat, A1' });
    expect(logins.failureIssueAssignees).toEqual(['o', 'octo-cat', 'A1']);
    await expect(read({ 'failure-issue-assignees': `a${'b'.repeat(38)}` })).resolves.toBeTruthy();
    for (const value of ['-octo', 'octo!', '!octo', `a${'b'.repeat(39)}`])
      expect(await problemOf({ 'failure-issue-assignees': value })).toEqual({
        input: 'failure-issue-assignees',
        value,
        expected: 'GitHub logins',
      });
  });

  it('failure-issue-events: lower-case event names, at least one', async () => {
    expect((await read({ 'failure-issue-events': 'schedule\npull_request' })).failureIssueEvents).toEqual([
      'schedule',
      'pull_request',
    ]);
    const expected = 'event names such as schedule, workflow_dispatch, push, newline or comma separated';
    for (const value of ['push1', '1push'])
      expect(await problemOf({ 'failure-issue-events': value })).toEqual({
        input: 'failure-issue-events',
        value,
        expected,
      });
    expect(await problemOf({ 'failure-issue-events': ' , ' })).toEqual({
      input: 'failure-issue-events',
      value: '',
      expected,
    });
  });

  it('api-base-url: an http or https URL ending in /v1, its trailing slashes taken off', async () => {
    expect((await read({ 'api-base-url': 'https://gi.test/v1///' })).apiBaseUrl).toBe('https://gi.test/v1');
    const expected = 'an http or https URL ending in /v1';
    for (const value of ['https://gi.test/v1/extra', 'ftp://gi.test/v1'])
      expect(await problemOf({ 'api-base-url': value })).toEqual({ input: 'api-base-url', value, expected });
  });

  it('result-ids: ids, each optionally after suite-result: or test-result: at its very start', async () => {
    const refs = await read({
      'suite-ids': '',
      'result-ids': `suite-result:${SUITE}\ntest-result:${TEST}\n${SUITE}`,
    });
    expect(refs.resultIds).toEqual([
      { type: 'suite', id: SUITE },
      { type: 'test', id: TEST },
      { type: null, id: SUITE },
    ]);
    const value = `xsuite-result:${SUITE}`;
    expect(await problemOf({ 'suite-ids': '', 'result-ids': value })).toEqual({
      input: 'result-ids',
      value,
      expected: `result ids of ${ID_FORM}, each optionally after suite-result: or test-result:`,
    });
  });

  it('a start URL that begins with a variable: a path, query, fragment or nothing after it', () => {
    expect(startUrlVariable('{{base}}/checkout')).toBe('base');
    expect(startUrlVariable('{{base}}')).toBe('base');
    expect(startUrlVariable('https://shop.test/{{base}}')).toBeNull();
  });

  it('start-url: http or https, or a variable then a path, query, fragment or nothing', async () => {
    const read_ = await read({
      'start-url': '{{base}}/checkout\n{{base}}\n{{base}}?q=1\nhttps://shop.test/',
      variables: 'base=https://shop.test',
    });
    expect(read_.startUrls).toEqual(['{{base}}/checkout', '{{base}}', '{{base}}?q=1', 'https://shop.test/']);
    const expected = 'http or https URLs, or {{name}}/path with a variable such as {{ngrokUrl}}';
    for (const value of ['{{base}}checkout', '{{base}}/a b', 'ftp://shop.test/'])
      expect(await problemOf({ 'start-url': value, variables: 'base=https://shop.test' })).toEqual({
        input: 'start-url',
        value,
        expected,
      });
  });
});

describe('inputs that depend on others', () => {
  it('organization-id is read as given', async () => {
    expect((await read({ 'organization-id': ORG })).organizationId).toBe(ORG);
    expect((await read({})).organizationId).toBeNull();
  });

  it('notify push needs notify-url; auto or poll without one is no URL', async () => {
    expect(await problemOf({ notify: 'push' })).toEqual({
      input: 'notify-url',
      value: '',
      expected: 'the public URL of this runner when notify is push',
    });
    expect((await read({ notify: 'auto' })).notifyUrl).toBeNull();
    expect((await read({ notify: 'push', 'notify-url': 'http://runner.test:8931' })).notifyUrl).toBe(
      'http://runner.test:8931',
    );
  });

  it('a webhook only with tests: the values refused are shown as given, joined', async () => {
    expect(await problemOf({ webhook: 'https://hooks.test/a' })).toEqual({
      input: 'webhook',
      value: 'https://hooks.test/a',
      expected: 'test-ids or test-files to apply to (suites take no webhook parameter)',
    });
    await expect(
      read({ 'suite-ids': '', 'test-ids': TEST, webhook: 'https://hooks.test/a' }),
    ).resolves.toBeTruthy();
  });

  it('no JUnit file (junit-path empty) is no clash with the other output paths', async () => {
    await expect(read({ 'junit-path': '' })).resolves.toMatchObject({ junitPath: null });
  });
});

describe('secrets', () => {
  it("a start URL's user and password are secrets, the password decoded too", async () => {
    const inputs = await read({ 'start-url': 'https://ann:p%40ss-word-1@shop.test/' });
    expect(inputs.secrets).toEqual(
      expect.arrayContaining(['p%40ss-word-1', 'p@ss-word-1', 'ann:p%40ss-word-1']),
    );
    const userOnly = await read({ 'start-url': 'https://ann@shop.test/' });
    expect(userOnly.secrets.some((s) => s.startsWith('ann'))).toBe(false);
  });

  it('a secret too short to redact: one warning naming the input, never the value', () => {
    const [warning, ...rest] = shortSecretWarnings({ 'http-auth-password': 'abc', 'api-key': undefined });
    expect(rest).toEqual([]);
    expect(warning).toMatch(
      /^http-auth-password: the value is shorter than \d+ characters, too short to be removed from free text \(error messages, step errors, console lines\) without damaging other text\. It is hidden in the results' variables and GitHub masks it in the log, but may appear elsewhere in reports\. Use a value of at least \d+ characters\.$/,
    );
    expect(warning).not.toContain('abc');
  });
});
