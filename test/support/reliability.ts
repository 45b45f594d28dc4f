/**
 * Shared parts of the reliability and chaos suites: a small seed whose outcomes are known, recognisable
 * secrets, a workspace per action run, reading every report the action wrote, the secret scan, the
 * trigger count from the emulator's request log, XML validation with xmllint and the `::error` lines.
 *
 * A world with this seed: `startWorld({ secrets })` (`world.ts`).
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import type { RequestRecord, SeedFile } from '../../emulator/index.js';
import type { ActionRun } from './harness.js';

/** The organization of the reliability seed. */
export const ORG = 'org-rel';

/** Recognisable secrets: an action run must never show them anywhere. */
export interface Secrets {
  apiKey: string;
  httpAuthPassword: string;
  privateValue: string;
}

/** Secrets unique to `tag` (a seed number or a scenario name), easy to grep for. */
export function secretsFor(tag: string | number): Secrets {
  return {
    apiKey: `RELKEY-${tag}-k9Xq2`,
    httpAuthPassword: `RELPW-${tag}-p7Zt4`,
    privateValue: `RELPRIV-${tag}-v3Wm8`,
  };
}

/** The inputs that carry the secrets: API key, HTTP auth password and a private variable. */
export function secretInputs(secrets: Secrets): Record<string, string> {
  return {
    'api-key': secrets.apiKey,
    'http-auth-username': 'rel-user',
    'http-auth-password': secrets.httpAuthPassword,
    'private-variables': `SESSION_TOKEN=${secrets.privateValue}`,
    variables: 'PLAN=chaos',
  };
}

/** What a test of the reliability seed is expected to do. */
export type Expected = 'passed' | 'failed';

/** Test id → expected state, for every test of `reliabilitySeed()`. */
export const EXPECTED: Record<string, Expected> = {
  'rel-green-1': 'passed',
  'rel-green-2': 'passed',
  'rel-red-ok': 'passed',
  'rel-red-bad': 'failed',
};

/** Suite id → its test ids, in creation order. */
export const SUITE_TESTS: Record<string, string[]> = {
  'suite-green': ['rel-green-1', 'rel-green-2'],
  'suite-red': ['rel-red-ok', 'rel-red-bad'],
  'suite-empty': [],
};

const FAST = { stepDurationsMs: 200, runDurationMs: 600 };

function test(id: string, suite: string, name: string, scenario: Record<string, unknown>) {
  return {
    _id: id,
    name,
    suite,
    startUrl: 'https://shop.reliability.example/',
    steps: [
      { command: 'open', target: '/' },
      { command: 'click', target: 'a.next' },
      { command: 'assertTextPresent', target: '.done', value: 'Done' },
    ],
    scenario: { ...FAST, ...scenario },
  };
}

/**
 * A small seed: `suite-green` (two passing tests), `suite-red` (one passing, one failing test) and
 * `suite-empty` (no test). Durations are short; with a time scale of 0.01 a run takes a few ms.
 * @param apiKeys keys that may use the organization.
 */
export function reliabilitySeed(apiKeys: string[]): SeedFile {
  return {
    users: [{ _id: 'user-rel', firstName: 'Rel', lastName: 'Iability' }],
    organizations: [{ _id: ORG, name: 'Reliability' } as SeedFile['organizations'][number]],
    apiKeys: apiKeys.map((key) => ({ key, user: 'user-rel', organizations: [ORG] })),
    suites: [
      { _id: 'suite-green', name: 'Green suite', organization: ORG },
      { _id: 'suite-red', name: 'Red suite', organization: ORG },
      { _id: 'suite-empty', name: 'Empty suite', organization: ORG },
    ],
    tests: [
      test('rel-green-1', 'suite-green', 'Green one', { outcome: 'pass' }),
      test('rel-green-2', 'suite-green', 'Green two', { outcome: 'pass', consoleLogs: ['ready'] }),
      test('rel-red-ok', 'suite-red', 'Red but fine', { outcome: 'pass' }),
      test('rel-red-bad', 'suite-red', 'Red and broken', {
        outcome: 'fail',
        failingStep: 2,
        error: 'Element not found: .done',
      }),
    ],
  };
}

/** The files the action writes by default, relative to the workspace. */
export const FILES = {
  junit: 'ghost-inspector-junit.xml',
  results: 'ghost-inspector-results.json',
  artifacts: 'ghost-inspector-screenshots',
  outputs: '.runner-output.txt',
  summary: '.runner-summary.md',
} as const;

/** One entry of results.json's `runs`. */
export interface ResultsRun {
  key: string;
  kind: 'suite' | 'test' | 'file';
  suiteId: string | null;
  suiteResultId?: string;
  error?: string;
  timedOut: boolean;
  cancelled: boolean;
}

/** One entry of results.json's `results`. */
export interface ResultsTest {
  run: string;
  key: string;
  resultId: string | null;
  testId: string | null;
  name: string;
  state: string;
  error?: string;
}

export interface ResultsFile {
  version: number;
  verdict: string;
  interrupted?: string;
  runs: ResultsRun[];
  results: ResultsTest[];
}

/** Reads results.json of a workspace; null when it is missing. Throws when it is not JSON. */
export function readResults(workspace: string): ResultsFile | null {
  const file = path.join(workspace, FILES.results);
  if (!existsSync(file)) return null;
  return JSON.parse(readFileSync(file, 'utf8')) as ResultsFile;
}

/** Every file under `dir` (relative paths); [] when it does not exist. */
export function listFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true })
    .map(String)
    .filter((f) => statSync(path.join(dir, f)).isFile());
}

/**
 * The forms a secret would take if it leaked: as is, percent-encoded, JSON-escaped, HTML-escaped,
 * base64-encoded (unpadded, as the first digits of a longer encoded text), and either half of it (a secret
 * cut by a truncation still leaks).
 */
export function leakForms(secret: string): string[] {
  const html = secret
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
  const base64 = Buffer.from(secret).toString('base64').replace(/=+$/, '').slice(0, -1);
  const half = Math.ceil(secret.length / 2);
  return [
    ...new Set([
      secret,
      encodeURIComponent(secret),
      new URLSearchParams({ s: secret }).toString().slice(2),
      JSON.stringify(secret).slice(1, -1),
      html,
      base64,
      secret.slice(0, half),
      secret.slice(secret.length - half),
    ]),
  ].filter((f) => f.length >= 6);
}

/**
 * Where the secrets show up (see `leakForms`): stdout, stderr, the outputs, the summary, and every file the
 * action wrote in the workspace (JUnit, results.json, the outputs file, the summary file, the artifact
 * folder: names and contents). Returns one line per finding, e.g. `stdout: apiKey`; [] when clean.
 */
export function findSecrets(run: ActionRun, workspace: string, secrets: Secrets): string[] {
  const values = Object.entries(secrets) as Array<[keyof Secrets, string]>;
  const places: Array<[string, string]> = [
    ['stdout', run.stdout],
    ['stderr', run.stderr],
    ['outputs', JSON.stringify(run.outputs)],
    ['summary', run.summary],
  ];
  for (const file of listFiles(workspace)) {
    places.push([`file name ${file}`, file]);
    places.push([`file ${file}`, readFileSync(path.join(workspace, file)).toString('utf8')]);
  }
  const found: string[] = [];
  for (const [place, text] of places) {
    for (const [name, value] of values) {
      const form = leakForms(value).find((f) => text.includes(f));
      if (form !== undefined) found.push(`${place}: ${name} (as "${form}")`);
    }
  }
  return found;
}

/** Fault kinds after which the emulator handled the request (its side effects happened). */
const HANDLED_FAULTS = new Set(['reset-after', 'slow', 'malformed-json', 'control-chars', 'signed-urls']);

/** Whether the emulator handled this request (no fault, or a fault that answers after handling). */
export function wasHandled(record: RequestRecord): boolean {
  return record.fault === undefined || HANDLED_FAULTS.has(record.fault);
}

/** Execute requests for a suite (`suite-x`) or test (`test:x`) target, handled or not. */
export function executesOf(requests: RequestRecord[], target: string): RequestRecord[] {
  const [type, id] = target.startsWith('test:') ? ['tests', target.slice(5)] : ['suites', target];
  return requests.filter(
    (r) => r.method === 'POST' && new RegExp(`^/v1/${type}/${id}/execute/?$`).test(r.path),
  );
}

/** One workflow command line the action printed (`::error title=x::message`). */
export interface Annotation {
  kind: 'error' | 'warning' | 'notice';
  properties: Record<string, string>;
  /** The message, workflow-command escapes undone (`%25`, `%0D`, `%0A`). */
  message: string;
}

function unescapeCommand(text: string): string {
  return text
    .replace(/%0D/g, '\r')
    .replace(/%0A/g, '\n')
    .replace(/%3A/g, ':')
    .replace(/%2C/g, ',')
    .replace(/%25/g, '%');
}

/** The `::error`, `::warning` and `::notice` lines of stdout. */
export function parseAnnotations(stdout: string): Annotation[] {
  const out: Annotation[] = [];
  for (const line of stdout.split('\n')) {
    const m = /^::(error|warning|notice)(?: ([^:]*))?::(.*)$/.exec(line);
    if (!m) continue;
    const properties: Record<string, string> = {};
    for (const pair of (m[2] ?? '').split(',').filter(Boolean)) {
      const eq = pair.indexOf('=');
      properties[pair.slice(0, eq)] = unescapeCommand(pair.slice(eq + 1));
    }
    out.push({ kind: m[1] as Annotation['kind'], properties, message: unescapeCommand(m[3] ?? '') });
  }
  return out;
}
