/**
 * The post step (`runs.post` of action.yml): after a main step killed with SIGKILL mid-run, it cancels the
 * runs the main step had started, so none is left going in the emulator; after a main step that ended by
 * itself, or with `wait: false`, it does nothing. Both steps run the bundle the way the runner does: the
 * main step's state file becomes the post step's `STATE_<name>` variables.
 */
import { describe, expect, it } from 'vitest';
import type { Emulator, RequestRecord } from '../../../emulator/index.js';
import { postStepEnv, until } from '../../support/harness.js';
import { RecordingSink, stepDeps } from '../../support/run-action.js';
import { runnerInputs } from '../../support/runner-inputs.js';
import { POST_STEP_LIMIT_MS, runPost } from '../../../src/action/post.js';
import { findSecrets, ORG, secretInputs, secretsFor } from '../../support/reliability.js';
import { useWorlds, type ScaledWorld } from '../../support/world.js';

const secrets = secretsFor('post');

const { open } = useWorlds();

async function setUp(): Promise<{ world: ScaledWorld; emulator: Emulator; inputs: Record<string, string> }> {
  // A hanging test is cut by the emulator at 10 min × 0.05 = 30 s: long after the post step.
  const world = await open({ clock: 'scaled', secrets });
  const { emulator } = world;
  const inputs = {
    ...secretInputs(secrets),
    'api-base-url': emulator.baseUrl,
    'suite-ids': 'suite-green',
    'test-ids': 'rel-green-1',
  };
  return { world, emulator, inputs };
}

/** Test results the emulator's organization is running now (its running list). */
async function running(emulator: Emulator): Promise<string[]> {
  const url = `${emulator.baseUrl}/organizations/${ORG}/running/?apiKey=${encodeURIComponent(secrets.apiKey)}`;
  const body = (await (await fetch(url)).json()) as { data: Array<{ _id: string }> };
  return body.data.map((r) => r._id);
}

const isCancel = (q: RequestRecord) => q.method === 'POST' && /\/cancel\/?$/.test(q.path);
const isPoll = (q: RequestRecord) => q.method === 'GET' && /^\/v1\/(suite-)?results\/[^/]+\/?$/.test(q.path);

describe.concurrent('the post step', () => {
  it('cancels the runs of a main step killed mid-run; none is left going', async () => {
    const { world, emulator, inputs } = await setUp();
    const { workspace } = world;
    emulator.setScenario('rel-green-1', { hang: true });
    emulator.setScenario('rel-green-2', { hang: true });
    const { kill, done } = await world.start({ bundle: true, inputs });
    // Both runs started and followed (one poll each) before the kill.
    await until(
      () =>
        new Set(
          emulator
            .requests()
            .filter(isPoll)
            .map((q) => q.path),
        ).size >= 2,
      20_000,
    );
    kill();
    const main = await done;
    expect(main.signal).toBe('SIGKILL');
    expect(emulator.requests().filter(isCancel)).toEqual([]);
    expect((await running(emulator)).length).toBeGreaterThanOrEqual(2);

    const post = await world.run({ bundle: true, inputs, env: postStepEnv(main.state) });
    expect(post.code).toBe(0);
    expect(
      emulator
        .requests()
        .filter(isCancel)
        .map((q) => q.path.split('/')[2])
        .sort(),
    ).toEqual(['results', 'suite-results']);
    expect(await running(emulator)).toEqual([]);
    expect(post.stdout).toContain('Cancelling 2 Ghost Inspector runs');
    expect(findSecrets(main, workspace, secrets)).toEqual([]);
    expect(findSecrets(post, workspace, secrets)).toEqual([]);
  });

  it('ends within its 30 s whatever the service does: 40 runs left going, each cancel answered after 60 s', async () => {
    const { world, emulator, inputs } = await setUp();
    emulator.setFaults('delay=60000,route=POST /v1/*/cancel*:slow');
    const ids = Array.from({ length: 40 }, (_, i) => `5a1b2c3d4e5f6071829300${String(i).padStart(2, '0')}`);
    const state = Object.fromEntries(ids.map((id, i) => [`run-${id}`, i % 2 ? 'suite' : 'test']));
    const started = Date.now();
    const post = await world.run({ bundle: true, inputs, env: postStepEnv({ isPost: 'true', ...state }) });
    const ms = Date.now() - started;
    emulator.setFaults('');
    console.log(`post step figures: 40 hanging cancels, ended after ${ms} ms`);
    expect(post.code, post.stdout).toBe(0);
    expect(ms).toBeLessThan(POST_STEP_LIMIT_MS);
    expect(post.stdout).toContain('Cancelling 40 Ghost Inspector runs');
    // Every run is named as not cancelled: by its own warning, or in the one for the runs left at the limit.
    for (const id of ids) expect(post.stdout).toContain(` result ${id}`);
  }, 150_000);

  it('does nothing after a main step that ended by itself', async () => {
    const { world, emulator, inputs } = await setUp();
    const main = await world.run({ bundle: true, inputs });
    expect(main.code).toBe(0);
    emulator.resetLog();
    const post = await world.run({ bundle: true, inputs, env: postStepEnv(main.state) });
    expect(post.code).toBe(0);
    expect(emulator.requests()).toEqual([]);
    expect(post.stdout).toBe('');
  });

  it('leaves the runs of wait: false going', async () => {
    const { world, emulator, inputs } = await setUp();
    emulator.setScenario('rel-green-1', { hang: true });
    const main = await world.run({ bundle: true, inputs: { ...inputs, wait: 'false' } });
    expect(main.code).toBe(0);
    const post = await world.run({ bundle: true, inputs, env: postStepEnv(main.state) });
    expect(post.code).toBe(0);
    expect(emulator.requests().filter(isCancel)).toEqual([]);
    expect((await running(emulator)).length).toBeGreaterThanOrEqual(1);
  });

  it('in-process: runs left going at the deadline under cancel-on-timeout: false are cleared from the state, left for no post step to cancel', async () => {
    const { world, emulator, inputs } = await setUp();
    emulator.setScenario('rel-green-1', { hang: true });
    const main = await world.run({
      inputs: {
        ...inputs,
        'suite-ids': '',
        'timeout-minutes': '0.05',
        'cancel-on-timeout': 'false',
        'fail-on-timeout': 'false',
      },
    });
    expect(main.code, main.stdout).toBe(0);
    // The post step would cancel every run- entry still set.
    expect(Object.entries(main.state).filter(([n, v]) => n.startsWith('run-') && v)).toEqual([]);
    expect(emulator.requests().filter(isCancel)).toEqual([]);
  });

  it('in-process: the post step on a runner masks the API key before it cancels', async () => {
    const { world, emulator, inputs } = await setUp();
    emulator.setScenario('rel-green-1', { hang: true });
    const started = await world.run({
      inputs: { ...inputs, 'suite-ids': '', wait: 'false' },
    });
    const id = started.outputs['test-result-ids']!;
    const env: NodeJS.ProcessEnv = {
      GITHUB_ACTIONS: 'true',
      ...postStepEnv({ isPost: 'true', [`run-${id}`]: 'test' }),
      ...runnerInputs(inputs),
    };
    const post = new RecordingSink();
    await runPost(stepDeps(env, post));
    const mask = post.stdout.indexOf(`::add-mask::${secrets.apiKey}`);
    expect(mask).toBeGreaterThanOrEqual(0);
    expect(mask).toBeLessThan(post.stdout.indexOf('Cancelling 1 Ghost Inspector run'));
    expect(emulator.requests().filter(isCancel)).toHaveLength(1);
  });
});
