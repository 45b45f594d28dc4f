/**
 * The process boundary through the bundle (`dist/index.js`, docs/architecture.md, "The process boundary"):
 * the process exits 0 only after a verdict that passed is written. A fault planted before the bundle loads
 * (`support/fakes/planted-fault.mjs`, through `NODE_OPTIONS`) leaves the engine waiting on a read that never
 * settles with nothing else to wait for, or throws where nobody catches: the process ends non-zero, with an
 * `::error` saying what was left unfinished and the job summary saying so.
 */
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../../support/harness.js';
import { secretInputs, secretsFor } from '../../support/reliability.js';
import { useWorlds } from '../../support/world.js';

const secrets = secretsFor('boundary');
const { open } = useWorlds();
const PLANT = pathToFileURL(path.join(ROOT, 'test/support/fakes/planted-fault.mjs')).href;

/**
 * Runs the bundle on `suite-green` (its first test runs until the emulator cuts it, long after the deadline)
 * with `fault` planted, `timeout-minutes: 0.05` (3 s).
 */
async function withFault(fault: string) {
  const world = await open({ clock: 'scaled', secrets });
  world.emulator.setScenario('rel-green-1', { hang: true });
  const started = Date.now();
  const run = await world.run({
    bundle: true,
    inputs: {
      ...world.connection(),
      ...secretInputs(secrets),
      'suite-ids': 'suite-green',
      screenshots: 'none',
      'timeout-minutes': '0.05',
    },
    env: { NODE_OPTIONS: `--import=${PLANT}`, PLANTED_FAULT: fault },
  });
  return { run, ms: Date.now() - started };
}

describe.concurrent('the process boundary', () => {
  it('a never-settling wait in the engine: ends non-zero within the deadline + 30 s, saying so in the summary', async () => {
    const { run, ms } = await withFault('never-answered-lists');
    console.log(`boundary figures: never-settling read, process ended after ${ms} ms (deadline 3,000 ms)`);
    expect(run.code).not.toBe(0);
    expect(run.code ?? run.signal).toBeTruthy();
    expect(ms).toBeLessThan(3_000 + 30_000);
    expect(run.stdout).toMatch(
      /::error::The run did not stop at the timeout\. Stopped while running the tests; .*no verdict was reached\./,
    );
    expect(run.summary).toMatch(
      /did not finish\n\nThe run did not stop at the timeout\. Stopped while running the tests/,
    );
    expect(run.stdout).not.toContain(secrets.apiKey);
  }, 90_000);

  it.each([
    ['uncaught-error', /::error::Uncaught error: planted uncaught error\. Stopped while /],
    ['unhandled-rejection', /::error::Unhandled rejection: planted unhandled rejection\. Stopped while /],
  ])(
    '%s: ends with exit code 1, an error saying what was left unfinished, and the summary',
    async (fault, said) => {
      const { run } = await withFault(fault);
      expect(run.code, run.stdout + run.stderr).toBe(1);
      expect(run.stdout).toMatch(said);
      expect(run.summary).toContain('did not finish');
    },
    60_000,
  );
});
