/**
 * Service text the bundled action writes, in the forms a plain search misses: a private value the service
 * sends base64-encoded (as in an `Authorization: Basic` header it echoes) and HTML-escaped (as in markup it
 * quotes), and references GitHub would link (`Step #2`, `GH-42`, `#42`, `@octocat`). None of the private
 * value may reach a log line, an annotation, the summary, JUnit or results.json; no step is written
 * `Step #2`; no live reference reaches the summary.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type Emulator, type SeedFile } from '../../../emulator/index.js';
import { runAction, type ActionRun } from '../../support/harness.js';
import {
  FILES,
  findSecrets,
  makeTempWorkspace,
  ORG,
  removeWorkspace,
  secretInputs,
  type Secrets,
} from '../../support/reliability.js';

const secrets: Secrets = {
  apiKey: 'RELKEY-encoded-m3Wd8',
  httpAuthPassword: 'RELPW-encoded-t5Lc1',
  privateValue: 'Pw<9&Secret"41',
};
const BASIC = Buffer.from(`qa:${secrets.privateValue}`).toString('base64');
const HTML = secrets.privateValue.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/"/g, '&quot;');

function seed(): SeedFile {
  return {
    users: [{ _id: 'user-e', firstName: 'E', lastName: 'Ncoded' }],
    organizations: [{ _id: ORG, name: 'Encoded' } as SeedFile['organizations'][number]],
    apiKeys: [{ key: secrets.apiKey, user: 'user-e', organizations: [ORG] }],
    suites: [{ _id: 'suite-e', name: 'Encoded suite', organization: ORG }],
    tests: [
      {
        _id: 'e-login',
        name: 'Login GH-42 for @octocat',
        suite: 'suite-e',
        startUrl: 'https://shop.encoded.example/',
        steps: [
          { command: 'open', target: '/' },
          { command: 'assertText', target: '#greeting' },
        ],
        scenario: {
          outcome: 'fail',
          failingStep: 1,
          error: `Sent Authorization: Basic ${BASIC}; page showed <input value="${HTML}">; see GH-42, #42 and @octocat`,
          runDurationMs: 50,
        },
      },
    ],
  } as unknown as SeedFile;
}

let emulator: Emulator;
let workspace: string;
let run: ActionRun;

beforeAll(async () => {
  emulator = await startEmulator({ timeScale: 0.01, seed: seed(), quiet: true });
  workspace = await makeTempWorkspace('gi-rel-encoded-');
  run = await runAction({
    workspace,
    inputs: {
      ...secretInputs(secrets),
      'api-base-url': emulator.baseUrl,
      'suite-ids': 'suite-e',
      screenshots: 'none',
      timeout: '1',
    },
  });
}, 60_000);

afterAll(async () => {
  await emulator?.close();
  if (workspace) await removeWorkspace(workspace);
});

describe('service text in encoded forms and with references', () => {
  it('the run fails on the step whose error quotes the private value', () => {
    expect(run.code, run.stdout + run.stderr).toBe(1);
    expect(run.outputs.failed).toBe('1');
  });

  it('the private value base64-encoded or HTML-escaped is written nowhere', () => {
    expect(findSecrets(run, workspace, secrets)).toEqual([]);
    const junit = readFileSync(path.join(workspace, FILES.junit), 'utf8');
    for (const text of [run.stdout, run.summary, junit]) {
      expect(text).not.toContain(BASIC.slice(4, -4));
      expect(text).not.toContain('Secret&amp;');
    }
    // The digits that stand for "qa:" stay; those of the private value are gone.
    expect(run.stdout).toContain(`Authorization: Basic ${BASIC.slice(0, 4)}***`);
  });

  it('annotations and JUnit say "Step 2", never "Step #2"', () => {
    const junit = readFileSync(path.join(workspace, FILES.junit), 'utf8');
    const annotations = run.stdout.split('\n').filter((l) => l.startsWith('::error'));
    expect(annotations.some((l) => l.includes('Step 2 assertText'))).toBe(true);
    expect(junit).toContain('Step 2 assertText');
    for (const text of [junit, ...annotations, run.summary]) expect(text).not.toMatch(/#\s*2\b/);
  });

  it('the summary holds no live reference: GH-42, #42 and @octocat are written inert', () => {
    // Code spans and blocks keep the exact text (a copy gives the selector); GitHub links no reference there.
    const prose = run.summary.replace(/<(pre|code)>[^]*?<\/\1>/g, '');
    expect(prose).toContain('octocat');
    expect(prose).toContain('42');
    expect(prose).not.toMatch(/\bGH-\d/i);
    expect(prose).not.toMatch(/(^|[^&\w])#\d/m);
    expect(prose).not.toMatch(/@octocat/);
  });
});
