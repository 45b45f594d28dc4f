/**
 * What the bundled action writes from service text: a private value that reaches a step's target (string
 * and selector list), a suite name holding the API key, a test name holding a private value with `%` (the
 * `%25` form in a group title), the private value quoted base64-encoded and HTML-escaped in a step error,
 * references GitHub would link (`GH-42`, `#42`, `@octocat`), terminal escapes, NUL and BEL in a test name, bidi and zero-width characters
 * in names, and signed screenshot URLs (the `signed-urls` fault). None of it may reach a log line, a group
 * title, the summary, JUnit, results.json, the outputs or an artifact entry name as it came.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { Emulator, SeedFile } from '../../../emulator/index.js';
import { SIGNED_URL_QUERY } from '../../../emulator/faults.js';
import type { ActionRun } from '../../support/harness.js';
import { FILES, findSecrets, listFiles, ORG, secretInputs, type Secrets } from '../../support/reliability.js';
import { useWorlds } from '../../support/world.js';
import { readFileSync } from 'node:fs';
import path from 'node:path';

const secrets: Secrets = {
  apiKey: 'RELKEY-written-k9Xq2',
  httpAuthPassword: 'RELPW-written-p7Zt4',
  privateValue: 'Zq9%Se<c&r"et77',
};
/** The private value as a service quotes it in an echoed `Authorization: Basic` header, and in markup. */
const BASIC = Buffer.from(`qa:${secrets.privateValue}`).toString('base64');
const HTML = secrets.privateValue.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/"/g, '&quot;');
const ESCAPES =
  'red\u001b[31mRED\u001b[0m \u001b]8;;https://evil.example/\u0007link\u001b]8;;\u0007 nul\u0000 bel\u0007';
const INVISIBLE = '\u202eevil\u200b\u2066x\u2069';

function seed(): SeedFile {
  return {
    users: [{ _id: 'user-w', firstName: 'W', lastName: 'Ritten' }],
    organizations: [{ _id: ORG, name: 'Written' } as SeedFile['organizations'][number]],
    apiKeys: [{ key: secrets.apiKey, user: 'user-w', organizations: [ORG] }],
    suites: [{ _id: 'suite-w', name: `Suite ${secrets.apiKey} ${INVISIBLE}`, organization: ORG }],
    tests: [
      {
        _id: 'w-pin',
        name: `Pin ${secrets.privateValue} ${ESCAPES} ${INVISIBLE}`,
        suite: 'suite-w',
        startUrl: 'https://shop.written.example/',
        steps: [
          { command: 'open', target: '/' },
          { command: 'click', target: '#pin-{{SESSION_TOKEN}}', notes: `typed ${secrets.privateValue}` },
          {
            command: 'assertElementPresent',
            target: [{ selector: '#pin-{{SESSION_TOKEN}}' }, { selector: '#x' }],
          },
        ],
        scenario: { outcome: 'fail', failingStep: 1, error: 'Element not found', runDurationMs: 50 },
      },
      {
        _id: 'w-login',
        name: 'Login GH-42 for @octocat',
        suite: 'suite-w',
        startUrl: 'https://shop.written.example/',
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

const { open } = useWorlds();
let emulator: Emulator;
let workspace: string;
let run: ActionRun;

beforeAll(async () => {
  const world = await open({ clock: 'scaled', timeScale: 0.01, seed: seed() });
  ({ emulator, workspace } = world);
  emulator.setFaults('route=GET /v1/*:signed-urls');
  run = await world.run({
    bundle: true,
    inputs: {
      ...secretInputs(secrets),
      'api-base-url': emulator.baseUrl,
      'suite-ids': 'suite-w',
      screenshots: 'all',
      'timeout-minutes': '1',
    },
  });
}, 60_000);

/** Every text the run wrote: stdout, the outputs, the summary and each file in the workspace. */
function written(): Array<[string, string]> {
  const files = listFiles(workspace).map(
    (f) => [f, readFileSync(path.join(workspace, f)).toString('utf8')] as [string, string],
  );
  return [
    ['stdout', run.stdout],
    ['outputs', JSON.stringify(run.outputs)],
    ['summary', run.summary],
    ...files,
  ];
}

describe('text the service sends is written only redacted and cleaned', () => {
  it('the run fails on the step whose target holds the private value', () => {
    expect(run.code, run.stdout + run.stderr).toBe(1);
    expect(run.outputs.failed).toBe('2');
    expect(emulator.requests().some((q) => q.fault === 'signed-urls')).toBe(true);
  });

  it('no secret in any form anywhere: targets, names, group titles, summary, JUnit, results.json', () => {
    expect(findSecrets(run, workspace, secrets)).toEqual([]);
    const results = readFileSync(path.join(workspace, FILES.results), 'utf8');
    expect(results).toContain('#pin-***');
    expect(readFileSync(path.join(workspace, FILES.junit), 'utf8')).toContain('#pin-***');
  });

  it('group titles carry no control character, terminal escape or link', () => {
    const titles = run.stdout.split('\n').filter((l) => l.startsWith('::group::'));
    expect(titles.length).toBeGreaterThan(0);
    for (const title of titles) {
      // eslint-disable-next-line no-control-regex
      expect(title).not.toMatch(/[\u0000-\u001f\u007f-\u009f]/);
      expect(title).not.toContain(']8;;');
    }
    expect(titles.filter((t) => t.includes(' Pin '))).toEqual([expect.stringContaining('***')]);
  });

  it('signed screenshot URLs are written without their query string', () => {
    const signature = SIGNED_URL_QUERY.slice(0, SIGNED_URL_QUERY.indexOf('&'));
    for (const [place, text] of written()) expect(text.includes(signature), place).toBe(false);
  });

  it('artifact entry names hold no bidi or zero-width character', () => {
    const entries = listFiles(path.join(workspace, FILES.artifacts));
    expect(entries.length).toBeGreaterThan(0);
    for (const entry of entries)
      expect(entry).not.toMatch(/[\u061c\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff]/);
  });

  it('the summary makes no issue reference of its own ("Step #2")', () => {
    expect(run.summary).toMatch(/Step 2/);
    expect(run.summary).not.toMatch(/Step #\d/);
  });

  it('the private value quoted base64-encoded or HTML-escaped is written nowhere', () => {
    const junit = readFileSync(path.join(workspace, FILES.junit), 'utf8');
    for (const text of [run.stdout, run.summary, junit]) {
      expect(text).not.toContain(BASIC.slice(4, -4));
      expect(text).not.toContain('Se&lt;c&amp;r');
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
    // Code spans and blocks keep the exact text (a copy gives the selector): GitHub's html-pipeline makes no
    // mention or reference inside them (`MentionFilter`: `IGNORE_PARENTS = %w(pre code a style script)`).
    const prose = run.summary.replace(/<(pre|code)>[^]*?<\/\1>/g, '');
    expect(prose).toContain('octocat');
    expect(prose).toContain('42');
    expect(prose).not.toMatch(/\bGH-\d/i);
    expect(prose).not.toMatch(/(^|[^&\w])#\d/m);
    expect(prose).not.toMatch(/@octocat/);
  });
});
