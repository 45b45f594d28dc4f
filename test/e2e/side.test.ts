/**
 * Recorder (.side) files under `start-url`, end to end: the action in-process (`run(deps)`) against the emulator. Relative `open`
 * targets resolve against the start URL as Selenium IDE's base-URL override does (the first one included),
 * absolute ones to the file's own site are rebased with a notice; without `start-url` nothing changes.
 * The action and the emulator share one virtual clock (`useWorld`): production
 * durations in milliseconds of real time.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { TestResult } from '../../src/api/types.js';
import type { ActionRun } from '../support/harness.js';
import { useWorld } from '../support/world.js';
import { xpath } from '../support/junit.js';

const setup = useWorld({ fixtures: true });
const API_KEY = setup.apiKey;

function run(inputs: Record<string, string>): Promise<ActionRun> {
  return setup.run({
    inputs: {
      ...setup.connection(),
      'organization-id': 'org-acme',
      'test-files': 'own-site.side',
      'timeout-minutes': '2',
      ...inputs,
    },
  });
}

/** Where each test result started and which pages its open steps went to, as the service ran it. */
async function ranAt(r: ActionRun): Promise<Array<{ start: string; opens: string[] }>> {
  const ids = r.outputs['test-result-ids']!.split(',');
  return Promise.all(
    ids.map(async (id) => {
      const res = await fetch(`${setup.emulator.baseUrl}/results/${id}/?apiKey=${API_KEY}`);
      const result = ((await res.json()) as { data: TestResult }).data;
      return {
        start: result.startUrl,
        opens: result.steps.filter((s) => s.command === 'open').map((s) => String(s.target)),
      };
    }),
  );
}

describe('.side files with start-url', () => {
  it('start at START/login, later opens on START, with a notice for the rebased absolute open', async () => {
    const r = await run({ 'start-url': 'https://staging.test/v2/' });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(await ranAt(r)).toEqual([
      { start: 'https://staging.test/v2/login', opens: ['https://staging.test/v2/account'] },
    ]);
    expect(r.stdout).toMatch(/::notice::own-site\.side: 1 open command to the file's own site now go/);
  });

  it('without start-url the file runs against its own url, as before', async () => {
    const r = await run({});
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(await ranAt(r)).toEqual([
      { start: 'https://example.test/login', opens: ['https://example.test/account'] },
    ]);
    expect(r.stdout).not.toContain('::notice::');
    // The JUnit test case names its repository file, relative to the workspace.
    const junit = readFileSync(path.join(setup.workspace, 'ghost-inspector-junit.xml'), 'utf8');
    expect(xpath(junit, 'string(//testcase[1]/@file)')).toBe('own-site.side');
  });
});
