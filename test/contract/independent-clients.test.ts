/**
 * Clients written for the live service by others (`clients/`, no project code), against the emulator with
 * its default options: a webhook receiver that validates the documented envelope (`type: "result"`,
 * `data.suite`, `data.organization`), the official CLI's on-demand run (`--immediate`: the answer comes at
 * once, running, whatever the run's length), and a test-import script fed a web-app export with nulls
 * (`"notifications": null`, `"startUrl": null`, `httpHeaders`, `importOnly`) that round-trips through
 * import and export.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type Emulator } from '../../emulator/index.js';
import { data, ISO, KEY } from '../support/emulator.js';
import { until } from '../support/harness.js';
import { ROOT } from '../support/harness.js';
import { startWorld, type World } from '../support/world.js';

const run = promisify(execFile);
const CLIENTS = path.join(ROOT, 'test', 'contract', 'clients');
const EXPORT = path.join(CLIENTS, 'exported-test.json');
const tmp = mkdtempSync(path.join(tmpdir(), 'gi-clients-'));

/** Runs a client script with Node; resolves with its exit code and output. */
async function client(script: string, args: string[], env: Record<string, string> = {}) {
  try {
    const { stdout } = await run(process.execPath, [path.join(CLIENTS, script), ...args], {
      env: { ...process.env, ...env },
    });
    return { code: 0, stdout, stderr: '' };
  } catch (error) {
    const e = error as { code?: number; stdout?: string; stderr?: string };
    return { code: e.code ?? -1, stdout: e.stdout ?? '', stderr: e.stderr ?? '' };
  }
}

describe('a webhook receiver written for live webhooks', () => {
  let em: Emulator;
  let receiver: ChildProcess;
  const lines: string[] = [];
  let hookUrl: string;

  beforeAll(async () => {
    em = await startEmulator({ quiet: true });
    receiver = spawn(process.execPath, [path.join(CLIENTS, 'webhook-receiver.mjs')], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    createInterface({ input: receiver.stdout! }).on('line', (line) => lines.push(line));
    const listening = await until(() => lines.find((l) => l.startsWith('listening ')));
    hookUrl = listening!.slice('listening '.length);
  });
  afterAll(async () => {
    receiver?.kill('SIGTERM');
    await em?.close();
  });

  it('accepts every test-run webhook: alone, in a suite, on demand, from the organization and the execute', async () => {
    // The organization's notification webhook, which suites and tests use by default.
    const set = await fetch(`${em.origin}/_emulator/organizations/org-acme/notifications`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        webhooks: { enabled: true, options: { urls: [{ condition: null, url: hookUrl }] } },
      }),
    });
    expect(set.status).toBe(200);
    const [alone, failing, suiteRun, onDemand, withParam] = await Promise.all([
      data(em, 'POST', '/tests/test-home/execute/'),
      data(em, 'POST', '/tests/test-payment/execute/'),
      data(em, 'POST', '/suites/suite-smoke/execute/'),
      data(em, 'POST', '/organizations/org-acme/on-demand/execute/', {
        body: {
          name: 'On demand',
          startUrl: 'https://a.example/',
          steps: [{ command: 'click', target: '#x' }],
        },
      }),
      data(em, 'POST', '/tests/test-cart/execute/', { query: { webhook: hookUrl } }),
    ]);
    const ids = [alone, failing, ...suiteRun, onDemand, withParam].map((r: { _id: string }) => r._id);
    expect(ids).toHaveLength(7);
    const accepted = () => lines.filter((l) => l.startsWith('accepted '));
    await until(() => ids.every((id) => accepted().some((l) => l.startsWith(`accepted ${id} `))), 30_000);
    expect(lines.filter((l) => l.startsWith('rejected '))).toEqual([]);
    expect(accepted().find((l) => l.startsWith(`accepted ${failing._id} `))).toBe(
      `accepted ${failing._id} passing=false suite=Checkout`,
    );
    // The execute's URL and the organization's are the same: one POST.
    expect(accepted().filter((l) => l.startsWith(`accepted ${withParam._id} `))).toHaveLength(1);
  }, 60_000);
});

describe("the official CLI's on-demand run (--immediate) at production durations", () => {
  let world: World;
  beforeAll(async () => {
    world = await startWorld();
  });
  afterAll(() => world?.close());

  /** A test file of `steps` steps (1.5 s each at production durations in the simulated executor). */
  const testFile = (steps: number) => {
    const file = path.join(tmp, `on-demand-${steps}.json`);
    const list = Array.from({ length: steps }, () => ({ command: 'click', target: '#next' }));
    writeFileSync(
      file,
      JSON.stringify({ name: `${steps} steps`, startUrl: 'https://a.example/', steps: list }),
    );
    return file;
  };

  it.each([1, 250])(
    'a %i-step run: answered at once (under 1 s) with passing null, before the run ends; GET follows it',
    async (steps) => {
      const em = world.emulator;
      const out = await client('on-demand.mjs', [em.baseUrl, KEY, 'org-acme', testFile(steps)], {
        REQUEST_TIMEOUT_S: '60',
      });
      expect(out.code, out.stderr).toBe(0);
      const answer = JSON.parse(out.stdout) as { _id: string; passing: null; executionTime: null };
      expect(answer).toEqual({
        _id: expect.any(String),
        passing: null,
        executionTime: null,
        dateExecutionStarted: expect.stringMatching(ISO),
      });
      const request = em
        .requests()
        .find((r) => r.method === 'POST' && r.path.includes('/on-demand/execute'))!;
      // Virtual ms on the emulator's clock, the run going at production durations.
      expect(request.durationMs).toBeLessThan(1000);
      const ended = await until(() => em.runs().find((r) => r.resultId === answer._id), 30_000);
      expect(ended!.finishedAt).toBeGreaterThan(request.time + request.durationMs);
      const done = await data(em, 'GET', `/results/${answer._id}/`);
      expect(done.passing).toBe(true);
      expect(done.executionTime).toBeGreaterThanOrEqual(steps * 1500);
      em.resetLog();
    },
    60_000,
  );
});

describe('a test-import script fed a web-app export with nulls', () => {
  let em: Emulator;
  beforeAll(async () => {
    em = await startEmulator({ quiet: true });
  });
  afterAll(() => em?.close());

  const importFile = async (file: string) => {
    const out = await client('import-test.mjs', ['import', em.baseUrl, KEY, 'suite-smoke', file]);
    expect(out.code, out.stderr).toBe(0);
    return out.stdout.trim();
  };
  const exportTest = async (id: string) => {
    const out = await client('import-test.mjs', ['export', em.baseUrl, KEY, id]);
    expect(out.code, out.stderr).toBe(0);
    return JSON.parse(out.stdout) as Record<string, unknown>;
  };

  it('imports it (null = the default) and the export imports back to the same document', async () => {
    const original = JSON.parse(readFileSync(EXPORT, 'utf8')) as Record<string, unknown>;
    expect(original).toMatchObject({
      notifications: null,
      startUrl: null,
      httpHeaders: [],
      importOnly: false,
    });
    const first = await exportTest(await importFile(EXPORT));
    expect(first).toMatchObject({
      name: original.name,
      notifications: {},
      startUrl: '',
      httpHeaders: [],
      importOnly: false,
      screenshotCompareThreshold: 0.1,
      browser: null,
      viewportSize: null,
    });
    expect(first.steps).toEqual([
      expect.objectContaining({ sequence: 0, command: 'open', value: 'https://shop.acme.example/cart' }),
      expect.objectContaining({
        sequence: 1,
        target: [{ selector: '#total' }, { selector: '.order-total' }],
        condition: { statement: 'return true;' },
      }),
    ]);
    const again = path.join(tmp, 'exported-again.json');
    writeFileSync(again, JSON.stringify(first));
    expect(await exportTest(await importFile(again))).toEqual(first);
  }, 30_000);
});
