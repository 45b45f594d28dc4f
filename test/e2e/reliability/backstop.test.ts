/**
 * The deadline's backstop: an engine that does not stop at the deadline (its client ignores the abort) is
 * ended by the process's own real-time timer (docs/architecture.md, "Time bounds"). The action runs
 * in-process (`run(deps)`) against its own emulator behind a proxy that holds the list of test results. The
 * backstop is a real-time timer whatever the clock does, so this case spends real seconds; it is left out of
 * `npm run mutate`, where `test/unit/action/stop.test.ts` proves the timer on fake timers.
 */
import { expect, it } from 'vitest';
import type { GhostInspectorApi } from '../../../src/api/api.js';
import { createClient } from '../../../src/api/client.js';
import { startProxy } from '../../support/proxy.js';
import { secretInputs, secretsFor } from '../../support/reliability.js';
import { useWorlds } from '../../support/world.js';

const secrets = secretsFor('backstop');

const { open, later } = useWorlds();

it('an engine that does not stop at the deadline is ended by the backstop within timeout + 10 s', async () => {
  const world = await open({ clock: 'scaled', secrets });
  const { emulator } = world;
  emulator.setScenario('rel-green-1', { hang: true });
  // The suite result is read (still running); its list of tests hangs, and the client that lists it
  // ignores the abort of the deadline.
  const hold = await startProxy(emulator.origin, ({ method, url }) =>
    method === 'GET' && /\/suite-results\/[^/]+\/results/.test(url) ? 'hold-before' : 'forward',
  );
  later(() => hold.close());
  const deaf = (api: GhostInspectorApi): GhostInspectorApi =>
    new Proxy(api, {
      get: (target, name) => {
        const value = Reflect.get(target, name) as unknown;
        if (typeof value !== 'function' || !/^(get|list)/.test(String(name))) return value;
        return (...args: unknown[]) => (value as (...a: unknown[]) => unknown)(...args.slice(0, -1), {});
      },
    });
  const started = Date.now();
  const run = await world.run({
    inputs: {
      ...secretInputs(secrets),
      'api-base-url': hold.baseUrl,
      screenshots: 'none',
      'suite-ids': 'suite-green',
      'timeout-minutes': '0.05',
    },
    // On a runner: the secrets are masked first thing, so the first output marks the action's start, from
    // which the bound counts.
    env: { GITHUB_ACTIONS: 'true' },
    createApi: (options) => deaf(createClient(options)),
  });
  expect(run.signal).toBe('SIGKILL');
  expect(run.stdout).toMatch(/did not stop at the timeout/);
  expect(Date.now() - (run.firstOutputAt ?? started)).toBeLessThan(3_000 + 10_000);
});
