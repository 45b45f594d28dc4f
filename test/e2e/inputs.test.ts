/**
 * Bad inputs: each gives its message, a failed step, and not a single request to the service (the
 * emulator's request log stays empty). The action runs in-process (`run(deps)`): input checking is the
 * same code in the bundle, which `e2e.test.ts` proves. Cases refused before any request keep the 10x
 * clock: they wait on no time, and a virtual clock would only watch their file reads. The runs that reach
 * the service (output files) share one virtual clock with an emulator of their own
 * (`useWorld`), and take milliseconds of real time. No case reads a
 * screenshot: the emulators render none (`visuals: false`).
 */
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeWorkspace, ORG, TEST } from '../support/action-fixtures.js';
import { useWorld } from '../support/world.js';

const setup = useWorld({ clock: 'scaled', timeScale: 0.02, speed: 10, fixtures: true, visuals: false });
const API_KEY = setup.apiKey;

/**
 * Bad inputs: a name, the inputs (over a connection and `suite-ids`), the input the error must name, and a
 * part of its message.
 */
const BAD_INPUTS: Array<[name: string, inputs: Record<string, string>, input: string, message: string]> = [
  ['missing API key', { 'api-key': '' }, 'api-key', 'required'],
  ['API key with a space', { 'api-key': 'a b' }, 'api-key', 'without spaces'],
  ['base URL not http', { 'api-base-url': 'ftp://x.test/v1' }, 'api-base-url', '/v1'],
  [
    'base URL without /v1',
    { 'api-base-url': 'https://api.example.test/v2' },
    'api-base-url',
    'ending in /v1',
  ],
  ['suite id with a slash', { 'suite-ids': 'abc/def' }, 'suite-ids', 'letters, digits'],
  ['test id with a space', { 'test-ids': 'two words' }, 'test-ids', 'letters, digits'],
  ['folder id with dots', { 'folder-ids': '../etc' }, 'folder-ids', 'letters, digits'],
  ['nothing to run', { 'suite-ids': '' }, 'suite-ids', 'at least one of'],
  ['test files without organization', { 'test-files': 'tests/login.json' }, 'organization-id', 'test-files'],
  [
    'test files matching nothing',
    { 'organization-id': ORG, 'test-files': 'nothing/*.json' },
    'test-files',
    'matches no file',
  ],
  [
    'test file not JSON',
    { 'organization-id': ORG, 'test-files': 'bad/broken.json' },
    'test-files',
    'not valid JSON',
  ],
  [
    'test file of another type',
    { 'organization-id': ORG, 'test-files': 'bad/*.txt' },
    'test-files',
    'neither a native JSON test',
  ],
  [
    'test file without steps',
    { 'organization-id': ORG, 'test-files': 'bad/nosteps.json' },
    'test-files',
    '"steps" must be an array',
  ],
  [
    '.side command without equivalent',
    { 'organization-id': ORG, 'test-files': 'bad/drag.side' },
    'test-files',
    'dragAndDropToObject',
  ],
  [
    'test files outside the workspace',
    { 'organization-id': ORG, 'test-files': '../*.json' },
    'test-files',
    'without ".."',
  ],
  ['organization id wrong', { 'organization-id': 'org:1' }, 'organization-id', 'letters, digits'],
  ['start URL not a URL', { 'start-url': 'example' }, 'start-url', 'http or https'],
  ['start URL ftp', { 'start-url': 'ftp://example.test' }, 'start-url', 'http'],
  ['unknown browser', { browser: 'safari' }, 'browser', 'chrome-<version>'],
  ['browser version words', { browser: 'chrome-latest' }, 'browser', 'firefox'],
  ['unknown region', { region: 'mars-1' }, 'region', 'us-east-1'],
  ['viewport with star', { viewport: '1280*800' }, 'viewport', '<width>x<height>'],
  ['viewport zero', { viewport: '0x100' }, 'viewport', '<width>x<height>'],
  ['negative delay', { delay: '-1' }, 'delay', '0 to 300000'],
  ['delay too long', { delay: '300001' }, 'delay', 'milliseconds'],
  ['fractional delay', { delay: '1.5' }, 'delay', 'integer'],
  [
    'threshold above 1',
    { 'screenshot-compare-threshold': '1.5' },
    'screenshot-compare-threshold',
    '0.0 to 1.0',
  ],
  [
    'threshold not a number',
    { 'screenshot-compare-threshold': 'low' },
    'screenshot-compare-threshold',
    '0.0 to 1.0',
  ],
  ['boolean yes', { 'disable-visuals': 'yes' }, 'disable-visuals', 'true or false'],
  ['wait maybe', { wait: 'maybe' }, 'wait', 'true or false'],
  ['cancel-on-timeout 1', { 'cancel-on-timeout': '1' }, 'cancel-on-timeout', 'true'],
  ['retry 4', { 'retry-failed': '4' }, 'retry-failed', '0 to 3'],
  ['summary-title on two lines', { 'summary-title': 'a\nb' }, 'summary-title', 'one line'],
  ['timeout-minutes zero', { 'timeout-minutes': '0' }, 'timeout-minutes', 'positive number of minutes'],
  ['timeout-minutes words', { 'timeout-minutes': 'soon' }, 'timeout-minutes', 'minutes'],
  ['data file missing', { 'data-file': 'missing.csv' }, 'data-file', 'not found'],
  ['data file empty', { 'data-file': 'empty.csv' }, 'data-file', 'empty'],
  ['data file and data source', { 'data-file': 'data.csv', 'data-source': ORG }, 'data-file', 'not both'],
  [
    'data file with test files',
    { 'data-file': 'data.csv', 'organization-id': ORG, 'test-files': 'tests/login.json' },
    'data-file',
    'on-demand',
  ],
  ['data source id wrong', { 'data-source': 'rows?x=1' }, 'data-source', 'letters, digits'],
  ['concurrent rows zero', { 'max-concurrent-data-rows': '0' }, 'max-concurrent-data-rows', 'integer from 1'],
  ['variable line without =', { variables: 'PLAN' }, 'variables', 'NAME=VALUE'],
  ['variable name digit', { variables: '1PLAN=x' }, 'variables', 'letters, digits'],
  ['reserved variable', { variables: 'browser=firefox' }, 'variables', 'reserved'],
  ['variable JSON array value', { variables: '{"A": [1]}' }, 'variables', 'string'],
  ['variables bad JSON', { variables: '{"A": ' }, 'variables', 'does not parse'],
  [
    'private variable also public',
    { variables: 'TOKEN=a', 'private-variables': 'TOKEN=secret-value' },
    'private-variables',
    'not also listed in variables (TOKEN is in both)',
  ],
  [
    'junit-path equal to results-path',
    { 'junit-path': 'out/report.xml', 'results-path': './out/report.xml' },
    'junit-path',
    'a path different from results-path',
  ],
  [
    'artifacts-dir equal to results-path',
    { 'artifacts-dir': 'results.json', 'results-path': 'results.json' },
    'artifacts-dir',
    'a path different from results-path',
  ],
  [
    'start URL shown without its credentials',
    { 'start-url': 'ftp://qa:secret-value@host/' },
    'start-url',
    'ftp://***@host/',
  ],
  ['password without user name', { 'http-auth-password': 'pw-secret' }, 'http-auth-username', 'user name'],
  ['screenshots some', { screenshots: 'some' }, 'screenshots', 'failed, all or none'],
  ['retention 91 days', { 'artifact-retention-days': '91' }, 'artifact-retention-days', '1 to 90'],
  ['artifact name slash', { 'artifact-name': 'a/b' }, 'artifact-name', 'without'],
  ['webhook not a URL', { 'test-ids': TEST, webhook: 'hook' }, 'webhook', 'http'],
  ['webhook with suites only', { webhook: 'https://h.test/' }, 'webhook', 'test-ids or test-files'],
  ['notify not a mode', { notify: 'sometimes' }, 'notify', 'poll, push or auto'],
  ['notify push without notify-url', { notify: 'push' }, 'notify-url', 'when notify is push'],
  [
    'notify-url without port',
    { 'notify-url': 'https://runner.example.com/hooks' },
    'notify-url',
    'explicit port',
  ],
  [
    'baseline with suites only',
    { 'screenshot-compare-baseline-result': TEST },
    'screenshot-compare-baseline-result',
    'tests only',
  ],
  ['chat channel with space', { 'chat-channel': 'qa team' }, 'chat-channel', 'name'],
];

describe('bad inputs', () => {
  it('has at least 30 cases', () => {
    expect(BAD_INPUTS.length).toBeGreaterThanOrEqual(30);
  });

  it.concurrent.each(BAD_INPUTS)('%s', async (_name, inputs, input, message) => {
    const r = await setup.run({ inputs: { ...setup.connection(), 'suite-ids': 'suite-smoke', ...inputs } });
    expect(r.code).toBe(1);
    expect(r.stdout).toContain(`Input "${input}"`);
    expect(r.stdout).toContain(message);
    expect(r.stdout).not.toContain(API_KEY);
    expect(r.stdout).not.toContain('secret-value');
    expect(r.stdout).not.toContain('pw-secret');
    expect(setup.emulator.requests()).toEqual([]);
  });

  it('sent no request at all', () => {
    // Runs after every case above (they share the setup.emulator).
    expect(setup.emulator.requests()).toEqual([]);
  });
});

describe('output files', () => {
  const reports = useWorld({ fixtures: true, visuals: false });

  it('a report that cannot be written is named by its input, and the run still reports', async () => {
    const own = await makeWorkspace('gi-e2e-write-');
    try {
      await writeFile(path.join(own, 'blocker'), 'a file where a directory is expected');
      const r = await reports.run({
        workspace: own,
        inputs: {
          ...reports.connection(),
          'suite-ids': 'suite-smoke',
          'junit-path': 'blocker/junit.xml',
          'timeout-minutes': '2',
        },
      });
      expect(r.code, r.stdout).toBe(0);
      expect(r.stdout).toMatch(/::warning::Could not write the JUnit report \(junit-path\): /);
      expect(r.outputs.passed).toBe('3');
      const unusable = await reports.run({
        workspace: own,
        inputs: {
          ...reports.connection(),
          'suite-ids': 'suite-smoke',
          'results-path': 'blocker/results.json',
        },
      });
      expect(unusable.code).toBe(1);
      expect(unusable.stdout).toMatch(/::error::Could not create the directory of results-path \(/);
    } finally {
      await rm(own, { recursive: true, force: true });
    }
  });
});

describe('data-file stays in the workspace', () => {
  it('a path out of it (../) or a symbolic link to a file outside it is refused before any run', async () => {
    const parent = await mkdtemp(path.join(os.tmpdir(), 'gi-e2e-data-'));
    const own = path.join(parent, 'workspace');
    await mkdir(own);
    const requestsBefore = setup.emulator.requests().length;
    try {
      await writeFile(path.join(parent, 'x.csv'), 'PRIVATE_ROW\nPRIVATE-abc123\n');
      await writeFile(path.join(own, 'inside.csv'), 'name\nrow\n');
      await symlink(path.join(parent, 'x.csv'), path.join(own, 'linked.csv'));
      for (const file of ['../x.csv', 'linked.csv', path.join(parent, 'x.csv')]) {
        const r = await setup.run({
          workspace: own,
          inputs: { ...setup.connection(), 'suite-ids': 'suite-data', 'data-file': file },
        });
        expect(r.code, file).toBe(1);
        expect(r.stdout).toContain(
          `Input "data-file" has value "${file}"; expected the path of a readable CSV file inside the workspace (it leads out of the workspace`,
        );
        expect(r.stdout).not.toContain('PRIVATE');
      }
      // Nothing was sent (a straggling read of an earlier test's run may still arrive: only sends count).
      expect(
        setup.emulator
          .requests()
          .slice(requestsBefore)
          .filter((q) => q.method !== 'GET'),
      ).toEqual([]);
    } finally {
      await rm(parent, { recursive: true, force: true });
    }
  });
});

describe('test-files stay in the workspace', () => {
  it('a symbolic link out of the workspace is refused, and no file content appears in the error', async () => {
    const own = await makeWorkspace('gi-e2e-links-');
    const outside = await mkdtemp(path.join(os.tmpdir(), 'gi-e2e-outside-'));
    const requestsBefore = setup.emulator.requests().length;
    try {
      const test = { name: 'Outside test', startUrl: 'https://outside.example', steps: [] };
      await writeFile(path.join(outside, 'outside.json'), JSON.stringify(test));
      await writeFile(path.join(outside, 'notes.txt'), 'PRIVATE-NOTES-abc123 and more');
      await mkdir(path.join(own, 'linked'), { recursive: true });
      await symlink(path.join(outside, 'outside.json'), path.join(own, 'linked', 'outside.json'));
      await symlink(path.join(outside, 'notes.txt'), path.join(own, 'linked', 'notes.json'));
      await symlink(outside, path.join(own, 'linked-dir'));
      for (const pattern of ['linked/outside.json', 'linked/notes.json', 'linked-dir/*.json']) {
        const r = await setup.run({
          workspace: own,
          inputs: { ...setup.connection(), 'organization-id': 'org-acme', 'test-files': pattern },
        });
        expect(r.code, pattern).toBe(1);
        expect(r.stdout).toMatch(/Input "test-files".*leads out of the workspace/);
        expect(r.stdout).not.toContain('PRIVATE-NOTES');
        expect(r.stdout).not.toContain('Outside test');
      }
      // Nothing was sent (a straggling read of an earlier test's run may still arrive: only sends count).
      expect(
        setup.emulator
          .requests()
          .slice(requestsBefore)
          .filter((q) => q.method !== 'GET'),
      ).toEqual([]);
    } finally {
      await rm(own, { recursive: true, force: true });
      await rm(outside, { recursive: true, force: true });
    }
  });

  it('a file that is not JSON is named without quoting its content', async () => {
    const own = await makeWorkspace('gi-e2e-notjson-');
    try {
      await writeFile(path.join(own, 'broken.json'), 'PRIVATE-NOTES-abc123 is not a test');
      const r = await setup.run({
        workspace: own,
        inputs: { ...setup.connection(), 'organization-id': 'org-acme', 'test-files': 'broken.json' },
      });
      expect(r.code).toBe(1);
      expect(r.stdout).toMatch(/Input "test-files".*broken\.json.*is not valid JSON/);
      expect(r.stdout).not.toContain('PRIVATE');
    } finally {
      await rm(own, { recursive: true, force: true });
    }
  });
});
