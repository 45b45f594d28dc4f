/**
 * The action's first step (`readActionInputs` of `src/action/inputs.ts`, docs/architecture.md): on a
 * runner every secret is masked before anything is said, the raw API key and ngrok authtokens even when an
 * input is bad; outside a runner nothing is masked (no runner reads the mask command there, which would
 * print the secret). Bad input fails the step with every problem; any other error is not taken for one.
 */
import { rm } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readActionInputs } from '../../../src/action/inputs.js';
import { makeWorkspace, ORG, SUITE } from '../../support/action-fixtures.js';
import { RecordingSink, stepDeps } from '../../support/run-action.js';
import { projectDefaults, runnerInputs } from '../../support/runner-inputs.js';

let workspace: string;

beforeAll(async () => {
  workspace = await makeWorkspace('gi-action-inputs-');
});
afterAll(async () => {
  await rm(workspace, { recursive: true, force: true });
});

const KEY = 'gi-key-4Hq8Zt2';
const NGROK_INPUT = 'ngrok-input-7Vd3';
const NGROK_ENV = 'ngrok-env-9Kw5';

function depsFor(given: Record<string, string>, options: { onRunner: boolean; env?: NodeJS.ProcessEnv }) {
  const env: NodeJS.ProcessEnv = {
    GITHUB_WORKSPACE: workspace,
    ...(options.onRunner ? { GITHUB_ACTIONS: 'true' } : {}),
    ...options.env,
    ...runnerInputs({ 'api-key': KEY, ...given }),
  };
  const sink = new RecordingSink();
  const deps = stepDeps(env, sink, { inputDefaults: projectDefaults() });
  return { deps, sink };
}

/** The values masked (`::add-mask::`), in order. */
const masked = (sink: RecordingSink) => [...sink.stdout.matchAll(/^::add-mask::(.*)$/gm)].map((m) => m[1]);

describe('readActionInputs', () => {
  it('bad input on a runner: the API key and both ngrok authtokens masked first, then the step fails', async () => {
    const { deps, sink } = depsFor(
      { 'suite-ids': SUITE, browser: 'safari', 'ngrok-authtoken': NGROK_INPUT },
      { onRunner: true, env: { NGROK_AUTHTOKEN: `  ${NGROK_ENV}\n` } },
    );
    expect(await readActionInputs(deps)).toBeNull();
    expect(masked(sink)).toEqual([KEY, NGROK_INPUT, NGROK_ENV]);
    expect(sink.failed).toBe(true);
    expect(sink.stdout).toMatch(/\n::error::.*Input "browser" has value "safari"/);
  });

  it('on a runner every secret of the inputs is masked; warnings and notices follow', async () => {
    const { deps, sink } = depsFor(
      {
        'organization-id': ORG,
        'test-files': 'own-site.side',
        'start-url': 'https://staging.test/v2',
        'http-auth-username': 'qa',
        'http-auth-password': 'pw',
        'private-variables': 'TOKEN=tok-3Jd8x',
      },
      { onRunner: true },
    );
    const inputs = await readActionInputs(deps);
    expect(inputs).not.toBeNull();
    expect(masked(sink)).toEqual([KEY, ...inputs!.secrets]);
    expect(masked(sink)).toEqual(expect.arrayContaining(['pw', 'tok-3Jd8x']));
    expect(sink.stdout).toMatch(/\n::warning::http-auth-password: the value is shorter than 4 characters/);
    expect(sink.stdout).toMatch(/\n::notice::own-site\.side: 1 open command/);
    expect(sink.failed).toBe(false);
  });

  it('outside a runner nothing is masked, good input or bad', async () => {
    const good = depsFor(
      { 'suite-ids': SUITE, 'http-auth-username': 'qa', 'http-auth-password': 'pass-5Gh2' },
      { onRunner: false, env: { NGROK_AUTHTOKEN: NGROK_ENV } },
    );
    expect(await readActionInputs(good.deps)).not.toBeNull();
    const bad = depsFor({ 'suite-ids': SUITE, browser: 'safari' }, { onRunner: false });
    expect(await readActionInputs(bad.deps)).toBeNull();
    expect(good.sink.stdout + bad.sink.stdout).not.toContain('::add-mask::');
    expect(bad.sink.failed).toBe(true);
  });

  it('an error other than bad input is thrown, not reported as one', async () => {
    const { deps, sink } = depsFor({ 'suite-ids': SUITE }, { onRunner: true });
    const broken = new Error('environment unreadable');
    deps.env = new Proxy(deps.env, {
      get: (target, name, receiver) => {
        if (name === 'INPUT_WAIT') throw broken;
        return Reflect.get(target, name, receiver) as unknown;
      },
    });
    await expect(readActionInputs(deps)).rejects.toBe(broken);
    expect(sink.failed).toBe(false);
  });
});
