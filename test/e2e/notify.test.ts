/**
 * Push end to end (the action in-process, `run(deps)`, against the emulator on one virtual clock): with
 * `notify-url` the test executes carry the listener's secret URL as `webhook`, the emulator posts each ended
 * test run there, the run is noticed at once; the secret is in no report, output, summary or log line.
 * With a tunnel (the fake cloudflared of `test/support/fakes`, a loopback app) and `notify: auto`, the
 * webhooks ride the tunnel: the agent forwards to the step's listener, which hands the app's requests on.
 */
import { existsSync, readFileSync } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import { createServer } from 'node:net';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { useAgentAndApp } from '../support/fake-tunnel.js';
import { holdForWebhooks, useWorld } from '../support/world.js';

const setup = useWorld({ fixtures: true, visuals: false });
/** What the app behind the tunnel was asked. */
const appSeen: IncomingMessage[] = [];
const world = useAgentAndApp((req) => appSeen.push(req));
// A webhook through the tunnel crosses the agent's process too: time stands still a little longer.
beforeAll(() => holdForWebhooks(setup, 500));

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

  it('auto with a tunnel: the webhooks ride the tunnel to the step, the runs are read at once, the app is still reached', async () => {
    setup.emulator.resetLog();
    appSeen.length = 0;
    const r = await setup.run({
      inputs: { ...setup.connection(), 'test-ids': 'test-home,test-payment', tunnel: world.appUrl },
      env: { ...world.agent.env(), GITHUB_ACTIONS: 'true' },
    });
    expect(r.outputs.total, r.stdout).toBe('2');
    const tunnelUrl = r.outputs['tunnel-url']!;
    // The agent forwards to the step's listener; the app answered through it, with the tunnel's Host header.
    const { args } = await world.agent.started();
    expect(args.at(-1)).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(args.at(-1)).not.toBe(world.appUrl);
    expect(appSeen.some((req) => req.headers.host === new URL(tunnelUrl).host)).toBe(true);
    // Each run's webhook crossed the tunnel to the secret path and was taken (200); the app saw none of them.
    const hooks = (await world.agent.requests()).filter((line) => line.startsWith('POST '));
    expect(hooks).toHaveLength(2);
    for (const hook of hooks) expect(hook).toMatch(/^POST \/[0-9a-f]{48} 200$/);
    const secret = hooks[0]!.split(' ')[1]!.slice(1);
    expect(appSeen.some((req) => req.url?.includes(secret))).toBe(false);
    // Noticed at the webhook, not at a tick.
    const { finishedAt } = JSON.parse(file('ghost-inspector-results.json')) as { finishedAt: string };
    const lastFinishMs = Math.max(...setup.emulator.runs().map((x) => x.finishedAt));
    expect(Date.parse(finishedAt) - lastFinishMs).toBeLessThanOrEqual(100);
    expect(r.stdout.replace(`::add-mask::${secret}`, '')).not.toContain(secret);
  });

  it('auto with a tunnel and only suites: the agent forwards to the app itself, no listener', async () => {
    setup.emulator.resetLog();
    const r = await setup.run({
      inputs: { ...setup.connection(), 'suite-ids': 'suite-smoke', tunnel: world.appUrl },
      env: world.agent.env(),
    });
    expect(r.outputs.total, r.stdout).not.toBe('0');
    expect((await world.agent.started()).args.at(-1)).toBe(world.appUrl);
    expect(r.stdout).not.toContain('Push:');
  });

  it('auto without notify-url or tunnel polls: no listener, no secret', async () => {
    const r = await setup.run({
      inputs: { ...setup.connection(), 'test-ids': 'test-home' },
      env: { GITHUB_ACTIONS: 'true' },
    });
    expect(r.outputs.total, r.stdout).toBe('1');
    expect(r.stdout).not.toContain('Push:');
    expect(r.stdout).not.toMatch(/^::add-mask::[0-9a-f]{48}$/m);
  });
});
