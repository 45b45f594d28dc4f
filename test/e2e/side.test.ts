/**
 * Recorder (.side) files under `start-url`, end to end: the action in-process (`run(deps)`) against the emulator. Relative `open`
 * targets resolve against the start URL as Selenium IDE's base-URL override does (the first one included),
 * absolute ones to the file's own site are rebased with a notice; without `start-url` nothing changes.
 */
import { rm } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type Emulator } from '../../emulator/index.js';
import type { TestResult } from '../../src/api/types.js';
import { makeWorkspace } from '../support/action-fixtures.js';
import { runActionInProcess as runAction } from '../support/run-action.js';
import { NOT_FOUND_WINDOW_MS_AT_10X, scaledClock } from '../support/scaled-clock.js';
import type { ActionRun } from '../support/harness.js';

const API_KEY = 'e2e-side-key-0042';
let emulator: Emulator;
let workspace: string;

beforeAll(async () => {
  emulator = await startEmulator({
    timeScale: 0.02,
    apiKey: API_KEY,
    quiet: true,
    notFoundWindowMs: NOT_FOUND_WINDOW_MS_AT_10X,
  });
  workspace = await makeWorkspace('gi-e2e-side-');
});

afterAll(async () => {
  await emulator?.close();
  if (workspace) await rm(workspace, { recursive: true, force: true });
});

function run(inputs: Record<string, string>): Promise<ActionRun> {
  return runAction({
    workspace,
    inputs: {
      'api-key': API_KEY,
      'api-base-url': emulator.baseUrl,
      'organization-id': 'org-acme',
      'test-files': 'own-site.side',
      timeout: '2',
      ...inputs,
    },
    clock: scaledClock(10),
  });
}

/** Where each test result started and which pages its open steps went to, as the service ran it. */
async function ranAt(r: ActionRun): Promise<Array<{ start: string; opens: string[] }>> {
  const ids = r.outputs['test-result-ids']!.split(',');
  return Promise.all(
    ids.map(async (id) => {
      const res = await fetch(`${emulator.baseUrl}/results/${id}/?apiKey=${API_KEY}`);
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
  });
});
