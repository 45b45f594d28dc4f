/**
 * GitHub keeps 10 error annotations per step (docs/api-contract.md, "Annotations"), and a failing step
 * writes one of its own (`core.setFailed`). The action in-process (`run(deps)`) against suites of 9, 10
 * and 11 failing tests, it and the emulator on one virtual clock (`support/world.ts`): the step's error is always among the 10 kept, every failing test
 * has its own annotation while they fit (9), and past that the last slot counts the rest.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SeedFile } from '../../../emulator/index.js';
import { startWorld, type World } from '../../support/world.js';
import { ORG, reliabilitySeed, secretInputs, secretsFor } from '../../support/reliability.js';

const secrets = secretsFor('slots');
const SIZES = [9, 10, 11];

function seed(): SeedFile {
  const file = reliabilitySeed([secrets.apiKey]);
  for (const size of SIZES) {
    file.suites!.push({ _id: `suite-red-${size}`, name: `Red ${size}`, organization: ORG });
    for (let i = 0; i < size; i++) {
      file.tests!.push({
        _id: `red-${size}-${i}`,
        name: `Broken ${size}.${i}`,
        suite: `suite-red-${size}`,
        steps: [{ command: 'open', target: '/' }],
        // No case here reads a screenshot: without them the emulator renders no images.
        disableVisuals: true,
        scenario: { outcome: 'fail', failingStep: 0, error: 'Page did not load', runDurationMs: 50 },
      });
    }
  }
  return file;
}

let world: World;

beforeAll(async () => {
  world = await startWorld({ timeScale: 0.01, seed: seed() });
});

afterAll(async () => {
  await world?.close();
});

/** The error annotations (`::error ...::`) of a run of the suite with `size` failing tests. */
async function errorsOf(size: number): Promise<string[]> {
  const workspace = await world.newWorkspace();
  const run = await world.run({
    workspace,
    inputs: {
      ...secretInputs(secrets),
      'api-base-url': world.emulator.baseUrl,
      'suite-ids': `suite-red-${size}`,
      screenshots: 'none',
      'timeout-minutes': '1',
    },
  });
  expect(run.code).toBe(1);
  expect(run.outputs.failed, run.stdout).toBe(String(size));
  return run.stdout.split('\n').filter((l) => l.startsWith('::error'));
}

describe('error annotations within GitHub’s 10 per step', () => {
  it('9 failing tests: one annotation each, and the step’s own error', async () => {
    const errors = await errorsOf(9);
    expect(errors).toHaveLength(10);
    expect(errors.filter((l) => /Broken 9\.\d::Step 1 open/.test(l))).toHaveLength(9);
    expect(errors.some((l) => /more failing tests/.test(l))).toBe(false);
    expect(errors[9]).toMatch(/^::error::/);
  });

  for (const size of [10, 11]) {
    it(`${size} failing tests: 8 each, one counting the other ${size - 8}, and the step’s own error`, async () => {
      const errors = await errorsOf(size);
      expect(errors).toHaveLength(10);
      expect(errors.filter((l) => new RegExp(`Broken ${size}\\.\\d+::Step 1 open`).test(l))).toHaveLength(8);
      expect(errors[8]).toMatch(new RegExp(`title=${size - 8} more failing tests::`));
      expect(errors[9]).toMatch(/^::error::/);
    });
  }
});
