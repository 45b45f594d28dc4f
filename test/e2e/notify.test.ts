/**
 * Push end to end (the action in-process, `run(deps)`, against the emulator on one virtual clock): with
 * `notify-url` the test executes carry the listener's secret URL as `webhook`, the emulator posts each ended
 * test run there, the run is noticed at once; the secret is in no report, output, summary or log line.
 */
import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { holdForWebhooks, useWorld } from '../support/world.js';

const setup = useWorld({ fixtures: true, visuals: false });
beforeAll(() => holdForWebhooks(setup));

/** A port free on loopback now. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
    server.once('error', reject);
  });
}

const file = (name: string) => {
  const p = path.join(setup.workspace, name);
  return existsSync(p) ? readFileSync(p, 'utf8') : '';
};

describe('notify', () => {
  it('push: the runs are noticed at their webhook; the secret path is nowhere in results, summary, outputs or logs', async () => {
    setup.emulator.resetLog();
    const base = `http://127.0.0.1:${await freePort()}/hooks`;
    const r = await setup.run({
      inputs: {
        ...setup.connection(),
        'test-ids': 'test-home,test-payment',
        notify: 'push',
        'notify-url': base,
      },
      env: { GITHUB_ACTIONS: 'true' },
    });
    expect(r.outputs.total, r.stdout).toBe('2');
    // The secret is masked: the runner is told it before any run, and only there does it appear.
    const masks = [...r.stdout.matchAll(/^::add-mask::(.*)$/gm)].map((m) => m[1]!);
    const secret = masks.find((m) => /^[0-9a-f]{32,}$/.test(m))!;
    expect(secret).toBeDefined();
    expect(r.stdout.indexOf(secret)).toBeLessThan(r.stdout.indexOf('/execute/'));
    // Noticed at the webhook, not at a tick: the runs are over within 0.1 s of the last finish.
    const { finishedAt } = JSON.parse(file('ghost-inspector-results.json')) as { finishedAt: string };
    const lastFinishMs = Math.max(...setup.emulator.runs().map((x) => x.finishedAt));
    expect(Date.parse(finishedAt) - lastFinishMs).toBeLessThanOrEqual(100);
    const everything = [
      r.stdout.replace(`::add-mask::${secret}`, ''),
      r.stderr,
      r.summary,
      JSON.stringify(r.outputs),
      file('ghost-inspector-results.json'),
      file('ghost-inspector-junit.xml'),
    ];
    for (const text of everything) expect(text).not.toContain(secret);
  });

  it('auto without notify-url polls: no webhook on the executes', async () => {
    setup.emulator.resetLog();
    const r = await setup.run({ inputs: { ...setup.connection(), 'test-ids': 'test-home' } });
    expect(r.outputs.total, r.stdout).toBe('1');
    const executes = setup.emulator.requests().filter((q) => q.path.endsWith('/execute/'));
    expect(executes.map((q) => new URLSearchParams(q.query).get('webhook'))).toEqual([null]);
  });
});
