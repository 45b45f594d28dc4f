/**
 * Secrets never leak: every scenario runs the bundled action with a recognisable API key, HTTP auth
 * password and private variable value, makes requests fail on purpose (faults, a wrong key, a service that
 * echoes the request in its errors), then scans stdout, stderr, the outputs, the summary, the JUnit file,
 * results.json, the outputs file and the artifact folder for any form of them (`leakForms`).
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, it, type ExpectStatic } from 'vitest';
import { type Emulator, type FaultSpec } from '../../../emulator/index.js';
import { FAULT_KINDS } from '../../../emulator/faults.js';
import type { ActionRun } from '../../support/harness.js';
import { echoEnvelope, startProxy, type Proxy, type SeenRequest } from '../../support/proxy.js';
import {
  findSecrets,
  listFiles,
  reliabilitySeed,
  secretInputs,
  type Secrets,
  secretsFor,
} from '../../support/reliability.js';
import { useWorlds } from '../../support/world.js';

const { open, later, newWorkspace } = useWorlds();

interface Scenario {
  run: ActionRun;
  workspace: string;
  emulator: Emulator;
  secrets: Secrets;
}

/** Runs the action with `secrets` against a fresh emulator (or `baseUrl` when given). */
async function scenario(
  tag: string,
  options: {
    faults?: FaultSpec;
    inputs?: Record<string, string>;
    secrets?: Secrets;
    /** Keys the emulator knows; default the scenario's API key. */
    keys?: string[];
    proxy?: (request: SeenRequest) => ReturnType<typeof echoEnvelope> | null;
  } = {},
): Promise<Scenario & { proxy?: Proxy }> {
  const secrets = options.secrets ?? secretsFor(tag);
  const world = await open({
    clock: 'scaled',
    timeScale: 0.01,
    seed: reliabilitySeed(options.keys ?? [secrets.apiKey]),
    ...(options.faults ? { faults: options.faults } : {}),
  });
  const { emulator, workspace } = world;
  let proxy: Proxy | undefined;
  if (options.proxy) {
    const started = await startProxy(emulator.origin, options.proxy);
    later(() => started.close());
    proxy = started;
  }
  const run = await world.run({
    bundle: true,
    inputs: {
      ...secretInputs(secrets),
      'api-base-url': proxy?.baseUrl ?? emulator.baseUrl,
      'suite-ids': 'suite-red,suite-green',
      'test-ids': 'rel-red-bad',
      'timeout-minutes': '0.5',
      screenshots: 'all',
      ...options.inputs,
    },
  });
  return { run, workspace, emulator, secrets, ...(proxy ? { proxy } : {}) };
}

function expectNoLeak(s: Scenario, expect: ExpectStatic): void {
  expect(findSecrets(s.run, s.workspace, s.secrets)).toEqual([]);
}

describe('the secret scan itself', () => {
  it('finds a planted secret in any form and place', async ({ expect }) => {
    const secrets = secretsFor('planted');
    const workspace = await newWorkspace();
    const base: ActionRun = {
      code: 0,
      signal: null,
      stdout: '',
      stderr: '',
      outputs: {},
      summary: '',
      state: {},
    };
    expect(findSecrets(base, workspace, secrets)).toEqual([]);
    const half = secrets.apiKey.slice(0, Math.ceil(secrets.apiKey.length / 2));
    expect(findSecrets({ ...base, stdout: `key=${half}…` }, workspace, secrets)).toHaveLength(1);
    expect(findSecrets({ ...base, outputs: { x: secrets.privateValue } }, workspace, secrets)).toHaveLength(
      1,
    );
    await mkdir(path.join(workspace, 'ghost-inspector-screenshots'));
    await writeFile(
      path.join(workspace, 'ghost-inspector-screenshots', 'a.txt'),
      encodeURIComponent(`&p=${secrets.httpAuthPassword}`),
    );
    expect(findSecrets(base, workspace, secrets)).toEqual([
      'file ghost-inspector-screenshots/a.txt: httpAuthPassword (as "' + secrets.httpAuthPassword + '")',
    ]);
  });
});

// Every scenario has its own emulator and workspace: they run at once.
describe.concurrent('secrets stay out of every log, output and file', () => {
  let clean: Scenario;
  beforeAll(async () => {
    clean = await scenario('clean');
  });

  it('a run that works, screenshots of every test kept', ({ expect }) => {
    expect(clean.run.code).toBe(1);
    expect(listFiles(`${clean.workspace}/ghost-inspector-screenshots`).length).toBeGreaterThan(0);
    // The run really sent them: the emulator got the password and the private variable.
    expect(clean.emulator.requests().some((q) => q.path.endsWith('/execute/'))).toBe(true);
    expectNoLeak(clean, expect);
  });

  it('requests failing in every way the emulator can: 5xx, 429, resets, malformed and control characters', async ({
    expect,
  }) => {
    const s = await scenario('faults', {
      faults: {
        rate: 0.35,
        seed: 7,
        delayMs: 100,
        retryAfterS: 0,
        // Every kind of the chaos suite (all but signed URLs) but slow answers.
        kinds: FAULT_KINDS.filter((kind) => kind !== 'slow' && kind !== 'signed-urls'),
        routes: [
          { method: 'POST', pattern: '/v1/suites/suite-green/execute', kind: '502' },
          { method: 'POST', pattern: '/v1/tests/*/execute', kind: 'reset-after' },
        ],
      },
    });
    expect(s.emulator.requests().filter((q) => q.fault).length).toBeGreaterThanOrEqual(3);
    // The 502 may have come after the service received the execute: looked up, not found, never re-sent.
    expect(s.run.stdout).toMatch(/suite suite-green: .*may have started; not found.*HTTP 502/);
    expectNoLeak(s, expect);
  });

  it('reads failing: retried 5xx polls, then a listing that stays unreadable; errors reported without the key', async ({
    expect,
  }) => {
    const s = await scenario('reads', {
      inputs: { 'suite-ids': 'suite-green', 'test-ids': '' },
      faults: {
        routes: [
          { method: 'GET', pattern: '/v1/suite-results/*/results', kind: 'malformed-json' },
          { method: 'GET', pattern: '/v1/suite-results/*', kind: '503', times: 2 },
        ],
      },
    });
    expect(s.run.code).toBe(1);
    expect(s.emulator.requests().filter((q) => q.fault === '503')).toHaveLength(2);
    expect(s.run.stdout).toMatch(/could not be listed/);
    expectNoLeak(s, expect);
  });

  it('a wrong API key (AUTHENTICATION_ERROR)', async ({ expect }) => {
    const s = await scenario('wrongkey', { keys: ['some-other-key'] });
    expect(s.run.code).toBe(1);
    expect(s.run.stdout).toMatch(/AUTHENTICATION_ERROR/);
    expectNoLeak(s, expect);
  });

  it('a service that echoes the whole request (URL, body, headers) in its error messages', async ({
    expect,
  }) => {
    let polls = 0;
    const s = await scenario('echo', {
      proxy: (request) => {
        if (request.method === 'POST' && request.url.startsWith('/v1/suites/suite-red/execute')) {
          return echoEnvelope(request);
        }
        if (request.method === 'GET' && request.url.startsWith('/v1/results/') && polls++ < 2) {
          return { status: 500, contentType: 'text/plain', body: `Upstream failed for ${request.url}` };
        }
        if (request.method === 'GET' && /^\/v1\/suites\/[^/]+\/results/.test(request.url)) {
          return echoEnvelope(request, 'SERVER_ERROR');
        }
        return null;
      },
    });
    expect(s.proxy!.answered.length).toBeGreaterThanOrEqual(3);
    // The echoed request reached the service and the action's logs, without the secrets.
    expect(s.proxy!.answered[0]!.body).toContain(s.secrets.httpAuthPassword);
    expect(s.run.stdout).toMatch(/Rejected POST/);
    expectNoLeak(s, expect);
  });

  it('secrets with characters that need escaping, echoed back by the service', async ({ expect }) => {
    const secrets: Secrets = {
      apiKey: 'RELKEY-esc-k9Xq2',
      httpAuthPassword: 'RELPW <&> "q" + 100%/é-p7Zt4',
      privateValue: "RELPRIV 'x' & <y> \\ z-v3Wm8",
    };
    const s = await scenario('escape', {
      secrets,
      proxy: (request) =>
        request.method === 'POST' && request.url.startsWith('/v1/tests/') ? echoEnvelope(request) : null,
    });
    expect(s.proxy!.answered.length).toBe(1);
    expect(s.run.stdout).toMatch(/Rejected POST/);
    expectNoLeak(s, expect);
  });
});
