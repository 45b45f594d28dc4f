/**
 * Shared fixtures of the action tests: a workspace with test files and data files, and the table of bad
 * inputs (each with the input its error must name and a part of the message).
 */
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';

export const SUITE = '5a1b2c3d4e5f60718293a4b5';
export const TEST = '6b1b2c3d4e5f60718293a4b6';
export const ORG = '7c1b2c3d4e5f60718293a4b7';

export const SIDE_DOC = {
  id: 's',
  version: '2.0',
  name: 'Flows',
  url: 'https://example.test',
  tests: [
    { id: 'a', name: 'Home', commands: [{ command: 'open', target: '/', value: '' }] },
    {
      id: 'b',
      name: 'Search',
      commands: [
        { command: 'open', target: '/search', value: '' },
        { command: 'type', target: 'id=q', value: 'shoes' },
        { command: 'sendKeys', target: 'id=q', value: '${KEY_ENTER}' },
      ],
    },
  ],
  suites: [],
  plugins: [],
};

/** Creates a temporary workspace with `tests/` (good and bad test files) and CSV files. */
export async function makeWorkspace(prefix = 'gi-ws-'): Promise<string> {
  const workspace = await mkdtemp(path.join(tmpdir(), prefix));
  await mkdir(path.join(workspace, 'tests'));
  await mkdir(path.join(workspace, 'bad'));
  await writeFile(path.join(workspace, 'data.csv'), 'user,password\nalice,a\nbob,b\ncarol,c\n');
  await writeFile(path.join(workspace, 'empty.csv'), '');
  await writeFile(
    path.join(workspace, 'tests', 'login.json'),
    JSON.stringify({
      _id: 'x',
      name: 'Login',
      startUrl: 'https://example.test/',
      steps: [{ command: 'click', target: '#go', _id: 'y' }],
    }),
  );
  await writeFile(path.join(workspace, 'tests', 'flows.side'), JSON.stringify(SIDE_DOC));
  await writeFile(
    path.join(workspace, 'own-site.side'),
    JSON.stringify({
      ...SIDE_DOC,
      name: 'Own site',
      tests: [
        {
          id: 'c',
          name: 'Account',
          commands: [
            { command: 'open', target: '/login', value: '' },
            { command: 'open', target: 'https://example.test/account', value: '' },
          ],
        },
      ],
    }),
  );
  await writeFile(path.join(workspace, 'bad', 'broken.json'), '{ not json');
  await writeFile(path.join(workspace, 'bad', 'notes.txt'), 'hello');
  await writeFile(path.join(workspace, 'bad', 'nosteps.json'), JSON.stringify({ name: 'x' }));
  await writeFile(
    path.join(workspace, 'bad', 'drag.side'),
    JSON.stringify({
      ...SIDE_DOC,
      tests: [
        { id: 'a', name: 'Drag', commands: [{ command: 'dragAndDropToObject', target: 'a', value: 'b' }] },
      ],
    }),
  );
  return workspace;
}

export interface BadInputCase {
  name: string;
  /** Inputs merged over `{api-key, suite-ids}`. */
  inputs: Record<string, string>;
  /** The input the error must name. */
  input: string;
  /** A part of the message. */
  message: string;
}

export const BAD_INPUTS: BadInputCase[] = [
  { name: 'missing API key', inputs: { 'api-key': '' }, input: 'api-key', message: 'required' },
  { name: 'API key with a space', inputs: { 'api-key': 'a b' }, input: 'api-key', message: 'without spaces' },
  {
    name: 'base URL not http',
    inputs: { 'api-base-url': 'ftp://x.test/v1' },
    input: 'api-base-url',
    message: '/v1',
  },
  {
    name: 'base URL without /v1',
    inputs: { 'api-base-url': 'https://api.example.test/v2' },
    input: 'api-base-url',
    message: 'ending in /v1',
  },
  {
    name: 'suite id with a slash',
    inputs: { 'suite-ids': 'abc/def' },
    input: 'suite-ids',
    message: 'letters, digits',
  },
  {
    name: 'test id with a space',
    inputs: { 'test-ids': 'two words' },
    input: 'test-ids',
    message: 'letters, digits',
  },
  {
    name: 'folder id with dots',
    inputs: { 'folder-ids': '../etc' },
    input: 'folder-ids',
    message: 'letters, digits',
  },
  { name: 'nothing to run', inputs: { 'suite-ids': '' }, input: 'suite-ids', message: 'at least one of' },
  {
    name: 'test files without organization',
    inputs: { 'test-files': 'tests/login.json' },
    input: 'organization-id',
    message: 'test-files',
  },
  {
    name: 'test files matching nothing',
    inputs: { 'organization-id': ORG, 'test-files': 'nothing/*.json' },
    input: 'test-files',
    message: 'matches no file',
  },
  {
    name: 'test file not JSON',
    inputs: { 'organization-id': ORG, 'test-files': 'bad/broken.json' },
    input: 'test-files',
    message: 'not valid JSON',
  },
  {
    name: 'test file of another type',
    inputs: { 'organization-id': ORG, 'test-files': 'bad/*.txt' },
    input: 'test-files',
    message: 'neither a native JSON test',
  },
  {
    name: 'test file without steps',
    inputs: { 'organization-id': ORG, 'test-files': 'bad/nosteps.json' },
    input: 'test-files',
    message: '"steps" must be an array',
  },
  {
    name: '.side command without equivalent',
    inputs: { 'organization-id': ORG, 'test-files': 'bad/drag.side' },
    input: 'test-files',
    message: 'dragAndDropToObject',
  },
  {
    name: 'test files outside the workspace',
    inputs: { 'organization-id': ORG, 'test-files': '../*.json' },
    input: 'test-files',
    message: 'without ".."',
  },
  {
    name: 'organization id wrong',
    inputs: { 'organization-id': 'org:1' },
    input: 'organization-id',
    message: 'letters, digits',
  },
  {
    name: 'start URL not a URL',
    inputs: { 'start-url': 'example' },
    input: 'start-url',
    message: 'http or https',
  },
  {
    name: 'start URL ftp',
    inputs: { 'start-url': 'ftp://example.test' },
    input: 'start-url',
    message: 'http',
  },
  { name: 'unknown browser', inputs: { browser: 'safari' }, input: 'browser', message: 'chrome-<version>' },
  {
    name: 'browser version words',
    inputs: { browser: 'chrome-latest' },
    input: 'browser',
    message: 'firefox',
  },
  { name: 'unknown region', inputs: { region: 'mars-1' }, input: 'region', message: 'us-east-1' },
  {
    name: 'viewport with star',
    inputs: { viewport: '1280*800' },
    input: 'viewport',
    message: '<width>x<height>',
  },
  { name: 'viewport zero', inputs: { viewport: '0x100' }, input: 'viewport', message: '<width>x<height>' },
  { name: 'negative delay', inputs: { delay: '-1' }, input: 'delay', message: '0 to 300000' },
  { name: 'delay too long', inputs: { delay: '300001' }, input: 'delay', message: 'milliseconds' },
  { name: 'fractional delay', inputs: { delay: '1.5' }, input: 'delay', message: 'integer' },
  {
    name: 'threshold above 1',
    inputs: { 'screenshot-compare-threshold': '1.5' },
    input: 'screenshot-compare-threshold',
    message: '0.0 to 1.0',
  },
  {
    name: 'threshold not a number',
    inputs: { 'screenshot-compare-threshold': 'low' },
    input: 'screenshot-compare-threshold',
    message: '0.0 to 1.0',
  },
  {
    name: 'boolean yes',
    inputs: { 'disable-visuals': 'yes' },
    input: 'disable-visuals',
    message: 'true or false',
  },
  { name: 'wait maybe', inputs: { wait: 'maybe' }, input: 'wait', message: 'true or false' },
  {
    name: 'cancel-on-timeout 1',
    inputs: { 'cancel-on-timeout': '1' },
    input: 'cancel-on-timeout',
    message: 'true',
  },
  { name: 'retry 4', inputs: { 'retry-failed': '4' }, input: 'retry-failed', message: '0 to 3' },
  {
    name: 'summary-title on two lines',
    inputs: { 'summary-title': 'a\nb' },
    input: 'summary-title',
    message: 'one line',
  },
  {
    name: 'timeout-minutes zero',
    inputs: { 'timeout-minutes': '0' },
    input: 'timeout-minutes',
    message: 'positive number of minutes',
  },
  {
    name: 'timeout-minutes words',
    inputs: { 'timeout-minutes': 'soon' },
    input: 'timeout-minutes',
    message: 'minutes',
  },
  {
    name: 'data file missing',
    inputs: { 'data-file': 'missing.csv' },
    input: 'data-file',
    message: 'not found',
  },
  { name: 'data file empty', inputs: { 'data-file': 'empty.csv' }, input: 'data-file', message: 'empty' },
  {
    name: 'data file and data source',
    inputs: { 'data-file': 'data.csv', 'data-source': ORG },
    input: 'data-file',
    message: 'not both',
  },
  {
    name: 'data file with test files',
    inputs: { 'data-file': 'data.csv', 'organization-id': ORG, 'test-files': 'tests/login.json' },
    input: 'data-file',
    message: 'on-demand',
  },
  {
    name: 'data source id wrong',
    inputs: { 'data-source': 'rows?x=1' },
    input: 'data-source',
    message: 'letters, digits',
  },
  {
    name: 'concurrent rows zero',
    inputs: { 'max-concurrent-data-rows': '0' },
    input: 'max-concurrent-data-rows',
    message: 'integer from 1',
  },
  {
    name: 'variable line without =',
    inputs: { variables: 'PLAN' },
    input: 'variables',
    message: 'NAME=VALUE',
  },
  {
    name: 'variable name digit',
    inputs: { variables: '1PLAN=x' },
    input: 'variables',
    message: 'letters, digits',
  },
  {
    name: 'reserved variable',
    inputs: { variables: 'browser=firefox' },
    input: 'variables',
    message: 'reserved',
  },
  {
    name: 'variable JSON array value',
    inputs: { variables: '{"A": [1]}' },
    input: 'variables',
    message: 'string',
  },
  {
    name: 'variables bad JSON',
    inputs: { variables: '{"A": ' },
    input: 'variables',
    message: 'does not parse',
  },
  {
    name: 'private variable also public',
    inputs: { variables: 'TOKEN=a', 'private-variables': 'TOKEN=secret-value' },
    input: 'private-variables',
    message: 'not also listed in variables (TOKEN is in both)',
  },
  {
    name: 'junit-path equal to results-path',
    inputs: { 'junit-path': 'out/report.xml', 'results-path': './out/report.xml' },
    input: 'junit-path',
    message: 'a path different from results-path',
  },
  {
    name: 'artifacts-dir equal to results-path',
    inputs: { 'artifacts-dir': 'results.json', 'results-path': 'results.json' },
    input: 'artifacts-dir',
    message: 'a path different from results-path',
  },
  {
    name: 'start URL shown without its credentials',
    inputs: { 'start-url': 'ftp://qa:secret-value@host/' },
    input: 'start-url',
    message: 'ftp://***@host/',
  },
  {
    name: 'password without user name',
    inputs: { 'http-auth-password': 'pw-secret' },
    input: 'http-auth-username',
    message: 'user name',
  },
  {
    name: 'screenshots some',
    inputs: { screenshots: 'some' },
    input: 'screenshots',
    message: 'failed, all or none',
  },
  {
    name: 'retention 91 days',
    inputs: { 'artifact-retention-days': '91' },
    input: 'artifact-retention-days',
    message: '1 to 90',
  },
  {
    name: 'artifact name slash',
    inputs: { 'artifact-name': 'a/b' },
    input: 'artifact-name',
    message: 'without',
  },
  {
    name: 'webhook not a URL',
    inputs: { 'test-ids': TEST, webhook: 'hook' },
    input: 'webhook',
    message: 'http',
  },
  {
    name: 'webhook with suites only',
    inputs: { webhook: 'https://h.test/' },
    input: 'webhook',
    message: 'test-ids or test-files',
  },
  {
    name: 'notify not a mode',
    inputs: { notify: 'sometimes' },
    input: 'notify',
    message: 'poll, push or auto',
  },
  {
    name: 'notify push without notify-url',
    inputs: { notify: 'push' },
    input: 'notify-url',
    message: 'when notify is push',
  },
  {
    name: 'notify-url without port',
    inputs: { 'notify-url': 'https://runner.example.com/hooks' },
    input: 'notify-url',
    message: 'explicit port',
  },
  {
    name: 'baseline with suites only',
    inputs: { 'screenshot-compare-baseline-result': TEST },
    input: 'screenshot-compare-baseline-result',
    message: 'tests only',
  },
  {
    name: 'chat channel with space',
    inputs: { 'chat-channel': 'qa team' },
    input: 'chat-channel',
    message: 'name',
  },
];
