/**
 * Repository test files (docs/api-contract.md, "Test definitions (repository test files)"): found by glob,
 * each parsed into native JSON tests for the on-demand execute; `.json` (a test or an array) or `.side`.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { glob } from 'tinyglobby';
import type { SideDocument, TestDefinition } from '../api/types.js';
import { redactUrl } from '../api/redact.js';
import { convertSideDocument, SideConversionError, type SideConversionOptions } from './side.js';
import { realPathInside } from './workspace-path.js';

/** One test found in a repository file. */
export interface RepoTest {
  /** Path relative to the workspace, with forward slashes. */
  file: string;
  /** Zero-based position of the test in its file. */
  index: number;
  name: string;
  definition: TestDefinition;
  /** The test under each `start-url` value: `open` targets rebased, or its `startUrl` replaced. */
  byStartUrl?: ReadonlyMap<string, TestDefinition>;
}

export interface LoadTestFilesOptions {
  /** The `start-url` values: each test also gets its definition under each (`RepoTest.byStartUrl`). */
  startUrls?: ReadonlyArray<string>;
  /** Receives one line per recorder file whose absolute `open` targets on its own site were rebased. */
  notice?: (line: string) => void;
}

/** The definition to execute for `test` under `startUrl` (a `start-url` value, or undefined: its own). */
export function definitionFor(test: RepoTest, startUrl: string | undefined): TestDefinition {
  return (startUrl !== undefined ? test.byStartUrl?.get(startUrl) : undefined) ?? test.definition;
}

/** A problem with one pattern or one file; `subject` is the pattern or the file path. */
export class TestFileError extends Error {
  constructor(
    readonly subject: string,
    readonly reason: string,
  ) {
    super(`${subject}: ${reason}`);
  }
}

/** Fields of an exported test that a definition must not carry (identifiers, dates, outcomes). */
const DROPPED_FIELDS = [
  '_id',
  'organization',
  'suite',
  'user',
  'passing',
  'screenshotComparePassing',
  'dateCreated',
  'dateUpdated',
  'dateExecutionStarted',
  'dateExecutionFinished',
  'dateExecutionTriggered',
];

/**
 * Expands glob patterns (relative to `cwd`) and parses every matched file once, in pattern then path order.
 * @throws TestFileError when a pattern matches no file, or a file has another extension, cannot be read or
 *   parsed, or holds no test
 */
export async function loadTestFiles(
  patterns: string[],
  cwd: string,
  options: LoadTestFilesOptions = {},
): Promise<RepoTest[]> {
  const files = new Set<string>();
  for (const pattern of patterns) {
    const matches = await glob(pattern, { cwd, onlyFiles: true, dot: false, expandDirectories: false });
    if (matches.length === 0) throw new TestFileError(pattern, 'matches no file');
    for (const match of matches.sort()) files.add(match.split(path.sep).join('/'));
  }
  const tests: RepoTest[] = [];
  for (const file of files) {
    const text = await readText(cwd, file);
    const definitions = parseTestFile(file, text);
    const byStartUrl = definitions.map(() => new Map<string, TestDefinition>());
    for (const startUrl of options.startUrls ?? []) {
      const moved: Array<[string, string]> = [];
      const rebased = parseTestFile(file, text, {
        startUrl,
        onRebase: (_test, from, to) => moved.push([from, to]),
      });
      rebased.forEach((definition, i) => byStartUrl[i]?.set(startUrl, definition));
      const [first] = moved;
      if (first) {
        options.notice?.(
          redactUrl(
            `${file}: ${moved.length} open command${moved.length === 1 ? '' : 's'} to the file's own site ` +
              `now go to start-url ${startUrl} (e.g. ${first[0]} → ${first[1]}), as Selenium IDE runs a ` +
              'recorder file against another base URL.',
          ),
        );
      }
    }
    definitions.forEach((definition, index) =>
      tests.push({
        file,
        index,
        name: definition.name,
        definition,
        ...(options.startUrls?.length ? { byStartUrl: byStartUrl[index] } : {}),
      }),
    );
  }
  return tests;
}

/**
 * The text of `file` (relative to `cwd`), read only when its real path (symbolic links resolved) lies inside
 * the real path of `cwd`: a link out of the workspace would send an outside file to the service.
 * @throws TestFileError when the file leads out of the workspace or cannot be read
 */
async function readText(cwd: string, file: string): Promise<string> {
  try {
    const real = await realPathInside(cwd, file);
    if (!real)
      throw new TestFileError(file, 'leads out of the workspace (its real path is outside it); not read');
    return await readFile(real, 'utf8');
  } catch (error) {
    if (error instanceof TestFileError) throw error;
    throw new TestFileError(file, `cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
  }
}

/** Where `JSON.parse` stopped (`at position 2`), without the text it quotes: a file's content stays out of errors. */
function jsonErrorPlace(error: unknown): string {
  const { message } = error as SyntaxError;
  const place = /at position \d+/.exec(message)?.[0];
  if (place) return ` (${place})`;
  return /Unexpected end of JSON input/.test(message) ? ' (it ends too early)' : '';
}

/**
 * Parses the text of one test file by its extension, under `options.startUrl` when set.
 * @throws TestFileError for another extension, invalid JSON, or a document that is not a test
 */
export function parseTestFile(
  file: string,
  text: string,
  options: SideConversionOptions = {},
): TestDefinition[] {
  const ext = path.extname(file).toLowerCase();
  if (ext !== '.json' && ext !== '.side') {
    throw new TestFileError(file, 'is neither a native JSON test (.json) nor a recorder file (.side)');
  }
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (error) {
    throw new TestFileError(file, `is not valid JSON${jsonErrorPlace(error)}`);
  }
  if (ext === '.side') {
    if (!isSideDocument(doc)) {
      throw new TestFileError(file, 'is not a recorder .side document (needs tests with commands)');
    }
    if (doc.tests.length === 0) throw new TestFileError(file, 'holds no test');
    try {
      return convertSideDocument(doc, options);
    } catch (error) {
      if (error instanceof SideConversionError) throw new TestFileError(file, error.message);
      throw error;
    }
  }
  const items = Array.isArray(doc) ? doc : [doc];
  if (items.length === 0) throw new TestFileError(file, 'holds no test');
  const tests = items.map((item, i) => toDefinition(file, item, Array.isArray(doc) ? i : undefined));
  const { startUrl } = options;
  return startUrl === undefined ? tests : tests.map((t) => ({ ...t, startUrl }));
}

function isSideDocument(doc: unknown): doc is SideDocument {
  type Loose = { name?: unknown; commands?: unknown[]; command?: unknown } | null;
  const tests = (doc as { tests?: Loose[] } | null)?.tests;
  return (
    Array.isArray(tests) &&
    tests.every(
      (t) =>
        typeof t?.name === 'string' &&
        Array.isArray(t.commands) &&
        t.commands.every((c) => typeof (c as Loose)?.command === 'string'),
    )
  );
}

function toDefinition(file: string, item: unknown, position: number | undefined): TestDefinition {
  const where = position === undefined ? '' : ` (item ${position + 1})`;
  const notATest = (reason: string) =>
    new TestFileError(file, `is not a native JSON test${where}: ${reason}`);
  if (!item || typeof item !== 'object' || Array.isArray(item)) throw notATest('expected an object');
  const record = { ...(item as Record<string, unknown>) };
  if (typeof record.name !== 'string' || record.name.trim() === '') {
    throw notATest('"name" must be a non-empty string');
  }
  if (!Array.isArray(record.steps)) throw notATest('"steps" must be an array');
  // null is "the default", as in the web app's own exports (docs/api-contract.md, "Test definitions (repository test files)").
  if (record.startUrl != null && typeof record.startUrl !== 'string') {
    throw notATest('"startUrl" must be a string or null');
  }
  for (const field of DROPPED_FIELDS) delete record[field];
  const steps = (record.steps as unknown[]).map((raw, i) => {
    if (typeof (raw as { command?: unknown } | null)?.command !== 'string') {
      throw new TestFileError(file, `step ${i + 1}${where} needs a "command" string`);
    }
    const s = raw as Record<string, unknown>;
    const value = s.value as string | number | boolean | null | undefined;
    // The value itself stays out of the message: a private step's value may be a password.
    if (value != null && !['string', 'number', 'boolean'].includes(typeof value)) {
      throw new TestFileError(
        file,
        `step ${i + 1}${where}: "value" must be a string, a number or a boolean, not ${Array.isArray(value) ? 'an array' : 'an object'}`,
      );
    }
    return {
      sequence: i,
      command: s.command as string,
      target: (typeof s.target === 'string' || Array.isArray(s.target) ? s.target : '') as string,
      // Text, as the service stores it: numbers and booleans written out, none as ''.
      value: value == null ? '' : String(value),
      variableName: typeof s.variableName === 'string' ? s.variableName : '',
      condition: (s.condition ?? null) as TestDefinition['steps'][number]['condition'],
      optional: s.optional === true,
      private: s.private === true,
      ...(typeof s.notes === 'string' ? { notes: s.notes } : {}),
    };
  });
  return { ...(record as Partial<TestDefinition>), name: record.name, steps };
}
