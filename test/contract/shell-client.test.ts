/**
 * A client in shell (curl + jq, as the CircleCI orb runs one) against the emulator with its default
 * options: trigger with `immediate=1`, poll until `passing` is set, read the result and a suite result's
 * test results. jq must be installed (Debian package `jq`): without it this test fails.
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type Emulator } from '../../emulator/index.js';
import { ROOT } from '../support/harness.js';

const run = promisify(execFile);
const SCRIPT = path.join(ROOT, 'test', 'contract', 'clients', 'curl-jq.sh');

let em: Emulator;
beforeAll(async () => {
  // Runs a tenth of their usual length: fewer polls, each of which starts curl and jq.
  em = await startEmulator({ quiet: true, timeScale: 0.1 });
});
afterAll(async () => {
  await em?.close();
});

/** Runs the shell client; resolves with its exit code and output. */
async function client(kind: 'suite' | 'test', id: string) {
  try {
    const { stdout } = await run('bash', [SCRIPT, em.baseUrl, 'demo-api-key', kind, id]);
    return { code: 0, stdout };
  } catch (error) {
    const e = error as { code?: number; stdout?: string; stderr?: string };
    return { code: e.code ?? -1, stdout: `${e.stdout ?? ''}${e.stderr ?? ''}` };
  }
}

describe('curl + jq client', () => {
  it('jq and curl are installed', async () => {
    for (const tool of ['jq', 'curl']) {
      const found = await run('bash', ['-c', `command -v ${tool}`]).then(
        () => true,
        () => false,
      );
      expect(found, `${tool} is not installed (Debian package ${tool})`).toBe(true);
    }
  });

  it('runs a passing test, a passing suite and a failing test to their verdicts', async () => {
    const [test, suite, failing] = await Promise.all([
      client('test', 'test-home'),
      client('suite', 'suite-smoke'),
      client('test', 'test-payment'),
    ]);
    expect(test).toEqual({ code: 0, stdout: 'Home page loads passing=true\n' });
    expect(suite.code, suite.stdout).toBe(0);
    expect(suite.stdout.trim().split('\n')).toHaveLength(4);
    expect(suite.stdout).toMatch(/passing=true\n$/);
    expect(failing.code, failing.stdout).toBe(1);
    expect(failing.stdout).toBe('Pay by card passing=false\n');
    expect(em.requests().every((r) => r.status === 200 && r.code === 'SUCCESS')).toBe(true);
  }, 60_000);

  it('stops with an error naming the service message for an unknown test', async () => {
    const unknown = await client('test', 'no-such-test');
    expect(unknown.code).toBe(2);
    expect(unknown.stdout).toContain('Test not found');
  });
});
