import { mkdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  definitionFor,
  loadTestFiles,
  parseTestFile,
  TestFileError,
} from '../../../src/inputs/test-files.js';
import { makeWorkspace, SIDE_DOC } from '../../support/action-fixtures.js';

function nativeTest(value: unknown): string {
  return JSON.stringify({ name: 'Checkout', steps: [{ command: 'assign', target: '#q', value }] });
}

describe('parseTestFile: a native JSON test step value', () => {
  it('keeps text, writes numbers and booleans out, and reads no value as empty', () => {
    const values = ['shoes', 5, true, null, undefined].map(
      (value) => parseTestFile('tests/checkout.json', nativeTest(value))[0].steps[0].value,
    );
    expect(values).toEqual(['shoes', '5', 'true', '', '']);
  });

  it('refuses an object or an array, naming the file, the step and the expected form, not the value', () => {
    for (const [value, kind] of [
      [{ secret: 'hunter2' }, 'an object'],
      [['hunter2'], 'an array'],
    ] as const) {
      let error: unknown;
      try {
        parseTestFile('tests/checkout.json', nativeTest(value));
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(TestFileError);
      const message = (error as Error).message;
      expect(message).toContain('tests/checkout.json');
      expect(message).toContain(`step 1: "value" must be a string, a number or a boolean, not ${kind}`);
      expect(message).not.toContain('hunter2');
    }
  });
});

/** The reason `parseTestFile` gives for `text` as `file`, or undefined when it parses. */
function refusal(file: string, text: string): string | undefined {
  try {
    parseTestFile(file, text);
  } catch (error) {
    expect(error).toBeInstanceOf(TestFileError);
    return (error as TestFileError).reason;
  }
  return undefined;
}

describe('parseTestFile: a file that is not a test', () => {
  it('says where invalid JSON stops, or that it ends too early, without quoting the file', () => {
    expect(refusal('t.json', '{"name": "x", "steps": []} }')).toBe('is not valid JSON (at position 27)');
    expect(refusal('t.json', '{"name": "x", "steps": [')).toBe('is not valid JSON (it ends too early)');
    expect(refusal('t.json', '{"name": secret-1234}')).toBe('is not valid JSON');
  });

  it('refuses a .side document without tests with commands, or with no test', () => {
    const side = (tests: unknown) => JSON.stringify({ ...SIDE_DOC, tests });
    const home = SIDE_DOC.tests[0];
    const notSide = 'is not a recorder .side document (needs tests with commands)';
    for (const doc of [
      '{}',
      'null',
      side({}),
      side([home, null]),
      side([home, { id: 'x', commands: [] }]),
      side([home, { id: 'x', name: 'X', commands: {} }]),
      side([home, { id: 'x', name: 'X', commands: [{ target: '#a' }] }]),
      side([home, { id: 'x', name: 'X', commands: [null] }]),
      side([home, { id: 'x', name: 'X', commands: [{ command: 'open', target: '/' }, { target: '#a' }] }]),
    ]) {
      expect(refusal('flows.side', doc), doc).toBe(notSide);
    }
    expect(refusal('flows.side', side([]))).toBe('holds no test');
    expect(refusal('flows.SIDE', side([home]))).toBeUndefined();
  });

  it('refuses a native JSON document that is not a test, naming the item of an array', () => {
    const test = { name: 'Checkout', steps: [] };
    const cases: Array<[unknown, string]> = [
      [[], 'holds no test'],
      [null, 'is not a native JSON test: expected an object'],
      ['Checkout', 'is not a native JSON test: expected an object'],
      [[test, [test]], 'is not a native JSON test (item 2): expected an object'],
      [[test, 7], 'is not a native JSON test (item 2): expected an object'],
      [{ steps: [] }, 'is not a native JSON test: "name" must be a non-empty string'],
      [{ name: 5, steps: [] }, 'is not a native JSON test: "name" must be a non-empty string'],
      [
        [test, { name: '  ', steps: [] }],
        'is not a native JSON test (item 2): "name" must be a non-empty string',
      ],
      [{ name: 'X', steps: {} }, 'is not a native JSON test: "steps" must be an array'],
      [{ ...test, startUrl: 5 }, 'is not a native JSON test: "startUrl" must be a string or null'],
      [{ name: 'X', steps: [{ command: 'click' }, null] }, 'step 2 needs a "command" string'],
      [[test, { name: 'X', steps: ['click'] }], 'step 1 (item 2) needs a "command" string'],
      [{ name: 'X', steps: [{ target: '#a' }] }, 'step 1 needs a "command" string'],
      [{ name: 'X', steps: [{ command: 5 }] }, 'step 1 needs a "command" string'],
    ];
    for (const [doc, reason] of cases) expect(refusal('t.json', JSON.stringify(doc)), reason).toBe(reason);
    expect(refusal('t.JSON', JSON.stringify({ ...test, startUrl: null }))).toBeUndefined();
  });
});

describe('parseTestFile: the steps of a native JSON test', () => {
  it('keeps the fields a step may carry, and reads any other form as the default', () => {
    const [kept, other] = parseTestFile(
      'tests/checkout.json',
      JSON.stringify({
        name: 'Checkout',
        steps: [
          { command: 'extract', variableName: 'total', optional: true, private: true, notes: 'why' },
          { command: 'click', variableName: 5, optional: 'true', private: 1, notes: 7 },
        ],
      }),
    )[0]!.steps;
    expect(kept).toMatchObject({ variableName: 'total', optional: true, private: true, notes: 'why' });
    expect(other).toEqual({
      sequence: 1,
      command: 'click',
      target: '',
      value: '',
      variableName: '',
      condition: null,
      optional: false,
      private: false,
    });
  });
});

describe('loadTestFiles', () => {
  let cwd: string;

  beforeAll(async () => {
    cwd = await makeWorkspace('gi-test-files-');
    const own = JSON.parse(await readFile(path.join(cwd, 'own-site.side'), 'utf8')) as typeof SIDE_DOC;
    own.tests[0]!.commands.push({ command: 'open', target: 'https://example.test/cart', value: '' });
    await writeFile(path.join(cwd, 'two-opens.side'), JSON.stringify(own));
    await mkdir(path.join(cwd, 'many'));
    for (const n of [5, 3, 9, 1, 7, 2, 8, 4, 6]) {
      await writeFile(path.join(cwd, 'many', `t${n}.json`), JSON.stringify({ name: `T${n}`, steps: [] }));
    }
    await mkdir(path.join(cwd, '.hidden'));
    await writeFile(path.join(cwd, '.hidden', 'secret.json'), JSON.stringify({ name: 'Hidden', steps: [] }));
    await symlink('/etc/hostname', path.join(cwd, 'outside.json'));
  });

  afterAll(async () => {
    await rm(cwd, { recursive: true, force: true });
  });

  const reasonOf = async (patterns: string[]) => {
    const error = await loadTestFiles(patterns, cwd).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TestFileError);
    return `${(error as TestFileError).subject}: ${(error as TestFileError).reason}`;
  };

  it('matches files in path order, never a directory or a hidden one; each file once', async () => {
    const tests = await loadTestFiles(['many/*.json', 'many/t1.json'], cwd);
    expect(tests.map((t) => t.name)).toEqual(['T1', 'T2', 'T3', 'T4', 'T5', 'T6', 'T7', 'T8', 'T9']);
    expect((await loadTestFiles(['**/secret.json', 'many/t1.json'], cwd).catch(String)) as string).toContain(
      '**/secret.json: matches no file',
    );
    expect(await reasonOf(['many'])).toBe('many: matches no file');
    expect(tests.every((t) => t.byStartUrl === undefined)).toBe(true);
    expect(definitionFor(tests[0]!, 'https://staging.test/').name).toBe('T1');
  });

  it('does not read a file whose real path is outside the workspace', async () => {
    expect(await reasonOf(['outside.json'])).toBe(
      'outside.json: leads out of the workspace (its real path is outside it); not read',
    );
  });

  it('rebases the open commands to the own site onto each start URL, with one notice per file and URL', async () => {
    const notices: string[] = [];
    const startUrl = 'https://staging.test/v2';
    const [test] = await loadTestFiles(['two-opens.side'], cwd, {
      startUrls: [startUrl],
      notice: (line) => notices.push(line),
    });
    expect(notices).toHaveLength(1);
    expect(notices[0]).toMatch(
      /^two-opens\.side: 2 open commands to the file's own site now go to start-url https:\/\/staging\.test\/v2 \(e\.g\. https:\/\/example\.test\/account → https:\/\/staging\.test\/v2\/account\), as Selenium IDE runs/,
    );
    const opens = definitionFor(test!, startUrl).steps.filter((s) => s.command === 'open');
    expect(opens.map((s) => s.target)).toEqual([
      'https://staging.test/v2/account',
      'https://staging.test/v2/cart',
    ]);
    // Without start URLs, and without a receiver for the notices, the file's own site stays.
    const [own] = await loadTestFiles(['two-opens.side'], cwd, { notice: (line) => notices.push(line) });
    expect(notices).toHaveLength(1);
    expect(own!.definition.steps.filter((s) => s.command === 'open').map((s) => s.target)).toContain(
      'https://example.test/cart',
    );
    const [quiet] = await loadTestFiles(['two-opens.side'], cwd, { startUrls: [startUrl] });
    expect(definitionFor(quiet!, startUrl).startUrl).toBe('https://staging.test/v2/login');
  });
});
