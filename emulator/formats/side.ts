/**
 * The browser recorder's `.side` JSON document, both ways (docs/api-contract.md, "Test definitions (repository test files)":
 * `import-test/recorder-side` and `export/recorder-side/`). Command and locator mapping: `recorder-commands.ts`.
 *
 * Export: each test becomes a `.side` test whose first command opens its start URL, followed by one command
 * per step; one `.side` suite lists every test. Import: each `.side` test becomes one test; its start URL is
 * the first `open` command (resolved against the document's `url`) or, without one, the document's `url`.
 * Step conditions and the optional flag have no recorder form and are not carried.
 */
import { randomUUID } from 'node:crypto';
import type { Step } from '../api-types.js';
import type { SideDocument } from '../api-types.js';
import {
  commandToStep,
  stepToCommand,
  type PortableStep,
  type RecorderCommand,
} from './recorder-commands.js';

/** The `.side` format version written on export. */
export const SIDE_VERSION = '2.0';

/** A test as `testsToSide` reads it. */
export interface SideExportTest {
  _id?: string;
  name: string;
  startUrl: string;
  steps: Step[];
}

/** A test as `sideToTests` returns it: steps in import form (no `_id`), zero-based `sequence`. */
export interface SideImportedTest {
  name: string;
  startUrl: string;
  steps: PortableStep[];
}

/**
 * Builds a `.side` document named `name` with base `url` from `tests` (steps in `sequence` order).
 * Ids are the tests' `_id` when given, otherwise fresh UUIDs.
 */
export function testsToSide(name: string, url: string, tests: SideExportTest[]): SideDocument {
  const sideTests = tests.map((test) => {
    const steps = [...test.steps].sort((a, b) => a.sequence - b.sequence);
    const commands: RecorderCommand[] = [{ command: 'open', target: test.startUrl, value: '' }];
    for (const step of steps) commands.push(stepToCommand(step));
    return {
      id: test._id ?? randomUUID(),
      name: test.name,
      commands: commands.map((cmd) => ({ id: randomUUID(), ...cmd, comment: cmd.comment ?? '' })),
    };
  });
  return {
    id: randomUUID(),
    version: SIDE_VERSION,
    name,
    url,
    tests: sideTests,
    suites: [
      {
        id: randomUUID(),
        name,
        persistSession: false,
        parallel: false,
        timeout: 300,
        tests: sideTests.map((t) => t.id),
      },
    ],
    plugins: [],
  };
}

function fail(field: string, problem: string): never {
  throw new Error(`Invalid .side document: ${field} ${problem}`);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Reads the tests of a `.side` document (one test per entry of `tests`, in order).
 * Throws an Error naming the missing or invalid field (e.g. `tests[0].commands[2].command must be a string`),
 * an unsupported command, or a test whose start URL cannot be determined.
 */
export function sideToTests(doc: SideDocument): SideImportedTest[] {
  const input: unknown = doc;
  if (!isRecord(input)) fail('the document', 'must be a JSON object');
  if (input.url !== undefined && typeof input.url !== 'string') fail('"url"', 'must be a string');
  const baseUrl = typeof input.url === 'string' ? input.url : '';
  if (!Array.isArray(input.tests)) fail('"tests"', 'is missing or not an array');
  if (input.tests.length === 0) fail('"tests"', 'is empty: the document holds no test');
  return input.tests.map((raw: unknown, t) => {
    const at = `tests[${t}]`;
    if (!isRecord(raw)) fail(at, 'must be an object');
    if (typeof raw.name !== 'string' || raw.name.trim() === '')
      fail(`${at}.name`, 'must be a non-empty string');
    if (!Array.isArray(raw.commands)) fail(`${at}.commands`, 'is missing or not an array');
    const commands: RecorderCommand[] = raw.commands.map((c: unknown, i) => {
      const cat = `${at}.commands[${i}]`;
      if (!isRecord(c)) fail(cat, 'must be an object');
      if (typeof c.command !== 'string') fail(`${cat}.command`, 'must be a string');
      if (c.target !== undefined && typeof c.target !== 'string') fail(`${cat}.target`, 'must be a string');
      if (c.value !== undefined && typeof c.value !== 'string') fail(`${cat}.value`, 'must be a string');
      if (c.targets !== undefined && !Array.isArray(c.targets)) fail(`${cat}.targets`, 'must be an array');
      return {
        command: c.command,
        target: c.target ?? '',
        value: c.value ?? '',
        comment: typeof c.comment === 'string' ? c.comment : undefined,
        targets: c.targets as string[][] | undefined,
      };
    });
    const testName = raw.name;
    const steps: PortableStep[] = [];
    let startUrl = '';
    commands.forEach((cmd, i) => {
      const step = commandToStep(cmd, steps.length, baseUrl, `${at}.commands[${i}] (test "${testName}")`);
      if (!step) return;
      if (step.command === 'open' && startUrl === '' && steps.length === 0) {
        startUrl = step.value; // the first open is the test's start URL
        return;
      }
      steps.push(step);
    });
    if (startUrl === '') startUrl = baseUrl;
    if (startUrl === '') fail(`"url"`, `is empty and test "${testName}" has no open command: no start URL`);
    return { name: testName, startUrl, steps };
  });
}
