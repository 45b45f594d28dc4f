/**
 * Hostile service text: names, step errors, targets and console lines full of markup, script tags,
 * Markdown control characters, XML-invalid characters, emoji, workflow-command injections and
 * 10,000-character lines. The bundled action must still write JUnit XML that validates against the junit-10
 * schema, an escaped job summary, annotations within GitHub's limits, and no workflow command of the
 * service's making.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { SeedFile } from '../../../emulator/index.js';
import { counts, type ActionRun } from '../../support/harness.js';
import {
  FILES,
  findSecrets,
  ORG,
  parseAnnotations,
  readResults,
  secretInputs,
  secretsFor,
} from '../../support/reliability.js';
import { schemaErrors } from '../../support/junit.js';
import { useWorlds } from '../../support/world.js';

/** A workflow command smuggled into service text after a line break. */
const INJECTED = '::warning title=pwned::INJECTED';
const MARKUP = '<script>alert("x")</script><img src=x onerror=alert(1)><!-- c --></testcase>]]>';
const MARKDOWN =
  '| a | b |\n| --- | --- |\n# Heading\n**bold** _em_ `code` [link](javascript:alert(1)) @team ${{ x }}';
const XML_INVALID =
  'nul\u0000 bel\u0007 bs\u0008 vt\u000b ff\u000c esc\u001b fffe\uFFFE ffff\uFFFF lone\uD800 end';
const EMOJI = '🔥🚀 ✓ ✗ 👩‍💻 🇺🇸';
const LONG = `${'long console line '.repeat(555)}END`.slice(0, 10_000);
const HOSTILE = `${MARKUP} ${MARKDOWN} ${XML_INVALID} ${EMOJI}\n${INJECTED}\n::stop-commands::tok`;

const TESTS = 14;

/** The control characters in `text` other than tab and line breaks (XML 1.0 forbids them), as code points. */
function controlChars(text: string): number[] {
  const found: number[] = [];
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if ((c < 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d) || c === 0xfffe || c === 0xffff) found.push(c);
  }
  return found;
}

function hostileSeed(apiKey: string): SeedFile {
  return {
    users: [{ _id: 'user-h', firstName: 'H', lastName: 'Ostile' }],
    organizations: [{ _id: ORG, name: `Org ${MARKUP}` }],
    apiKeys: [{ key: apiKey, user: 'user-h', organizations: [ORG] }],
    suites: [{ _id: 'suite-hostile', name: `Suite ${HOSTILE}`, organization: ORG }],
    tests: Array.from({ length: TESTS }, (_, i) => ({
      _id: `hostile-${i}`,
      name: `Test ${i} ${HOSTILE}`,
      suite: 'suite-hostile',
      startUrl: 'https://hostile.example/?q=<b>&x="y"',
      steps: [
        { command: 'open', target: '/' },
        { command: 'click', target: `div[data-x="${MARKUP}"] ${EMOJI}` },
        { command: 'assertTextPresent', target: '.done', value: HOSTILE },
      ],
      scenario: {
        // Two pass, the rest fail at the second step: more failures than GitHub shows annotations.
        outcome: i < 2 ? 'pass' : 'fail',
        failingStep: 1,
        error: `Step error ${i}: ${HOSTILE} ${LONG}`,
        consoleErrors: [`${LONG}`, `console ${HOSTILE}`],
        consoleLogs: [LONG],
        stepDurationsMs: 100,
        runDurationMs: 300,
      },
    })),
  };
}

const secrets = secretsFor('hostile');
const { open } = useWorlds();
let workspace: string;
let run: ActionRun;

beforeAll(async () => {
  const world = await open({ clock: 'scaled', timeScale: 0.01, seed: hostileSeed(secrets.apiKey) });
  ({ workspace } = world);
  run = await world.run({
    bundle: true,
    inputs: {
      ...secretInputs(secrets),
      'api-base-url': world.emulator.baseUrl,
      'suite-ids': 'suite-hostile',
      'timeout-minutes': '0.5',
      screenshots: 'failed',
    },
  });
});

describe('hostile service text', () => {
  it('the run itself: right verdict and counts', () => {
    expect(run.code, run.stdout.slice(-2000)).toBe(1);
    expect(counts(run)).toMatchObject({ total: TESTS, passed: 2, failed: TESTS - 2 });
    expect(readResults(workspace)?.results).toHaveLength(TESTS);
  });

  it('JUnit XML validates against the junit-10 schema and keeps the text readable', async () => {
    const file = path.join(workspace, FILES.junit);
    const xml = readFileSync(file, 'utf8');
    expect(schemaErrors(xml)).toBe('');
    expect(xml.match(/<testcase /g)).toHaveLength(TESTS);
    expect(xml).toContain('🔥🚀');
    // No character XML 1.0 forbids, raw or as a character reference.
    expect(controlChars(xml)).toEqual([]);
    expect(xml).not.toMatch(/&#x0*(?:[0-8bcef]|1[0-9a-f]);|&#0*(?:[0-8]|1[1-2]|1[4-9]|2[0-9]|3[01]);/i);
    expect(xml).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])/);
  });

  it('the job summary escapes markup and stays under 1 MiB', () => {
    const summary = run.summary;
    expect(summary.length).toBeGreaterThan(0);
    expect(Buffer.byteLength(summary)).toBeLessThan(1024 * 1024);
    for (const raw of ['<script', '<img src=x', '</testcase>', '<!-- c -->']) {
      expect(summary).not.toContain(raw);
    }
    expect(summary).not.toMatch(/\]\(javascript:/);
    // Service text never starts a Markdown line of its own (a heading or a table row).
    expect(summary).not.toMatch(/^# Heading/m);
    expect(summary).not.toMatch(/^\| --- \| --- \|$/m);
    expect(controlChars(summary)).toEqual([]);
  });

  it('annotations: at most 10 per kind, each within 4096 characters', () => {
    const annotations = parseAnnotations(run.stdout);
    const errors = annotations.filter((a) => a.kind === 'error');
    expect(errors.length).toBeGreaterThan(0);
    for (const kind of ['error', 'warning', 'notice'] as const) {
      expect(annotations.filter((a) => a.kind === kind).length).toBeLessThanOrEqual(10);
    }
    for (const a of annotations) {
      expect(a.message.length).toBeLessThanOrEqual(4096);
      expect((a.properties.title ?? '').length).toBeLessThanOrEqual(4096);
    }
  });

  it('no workflow command of the service making: the injected lines never start a line', () => {
    const lines = run.stdout.split('\n');
    expect(lines.filter((l) => l.startsWith(INJECTED))).toEqual([]);
    expect(lines.filter((l) => l.startsWith('::stop-commands::'))).toEqual([]);
    expect(
      lines.filter(
        (l) => /^::(add-mask|set-output|set-env|add-path|save-state)::/.test(l) && /INJECTED|tok/.test(l),
      ),
    ).toEqual([]);
  });

  it('secrets stay out of everything', () => {
    expect(findSecrets(run, workspace, secrets)).toEqual([]);
  });
});
