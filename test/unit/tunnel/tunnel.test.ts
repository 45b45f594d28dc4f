/**
 * `startTunnel` with the fake agents on loopback (they follow the agents' docs, see `test/support/fakes`):
 * the public URL from cloudflared's announcement and from ngrok's local API; the agents' own errors quoted
 * and ending the wait at once; the public URL checked as a browser sees it (ngrok's free-plan warning page
 * refused, ngrok's error answers not taken for the app); the allow-listed environment; an agent that
 * ignores SIGTERM killed; an agent that exits after the tunnel opened noticed; an agent forwarding to the
 * step's listener in front of the app, the app still given its own host by `rewrite`.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import type { TunnelInputs } from '../../../src/inputs/schema.js';
import { startPushListener } from '../../../src/run/follow/push.js';
import { forwardTo } from '../../../src/tunnel/forward.js';
import { systemClock } from '../../../src/common/clock.js';
import { agentMaySee } from '../../../src/tunnel/providers.js';
import { checkedPublicUrl, startTunnel, type StartTunnelOptions } from '../../../src/tunnel/tunnel.js';
import { useAgentAndApp } from '../../support/fake-tunnel.js';
import { until } from '../../support/harness.js';
import { ManualClock } from '../../support/manual-clock.js';

const hosts: string[] = [];
const TOKEN = 'ngrok-token-7Qx2Lm9Zr4Kp1Vb8';
/** Secrets a job's environment may hold, none of which the agent may see. */
const JOB_SECRETS = {
  AWS_SECRET_ACCESS_KEY: 'aws-secret-1',
  DB_PASSWORD: 'db-pw-2',
  'INPUT_API-KEY': 'gi-key-3',
  ACTIONS_RUNTIME_TOKEN: 'runtime-4',
  GITHUB_TOKEN: 'ghs_5',
};

const world = useAgentAndApp((request) => hosts.push(request.headers.host ?? ''));
const { tunnel } = world;

const ngrok = (over: Partial<TunnelInputs> = {}): Partial<TunnelInputs> => ({
  provider: 'ngrok',
  authtoken: TOKEN,
  ...over,
});

function start(over: Partial<TunnelInputs> = {}, timeoutMs = 20_000, more: Partial<StartTunnelOptions> = {}) {
  return startTunnel({
    tunnel: tunnel(over),
    env: { ...JOB_SECRETS, ...world.agent.env(), NGROK_AUTHTOKEN: '' },
    log: () => {},
    signal: new AbortController().signal,
    timeoutMs,
    ...more,
  });
}

/**
 * The clock and log of a start whose bound counts from the agent's announcement of its URL (its log line),
 * in real time: the tries through the tunnel get the whole bound, however long a busy machine takes to start
 * the agent.
 */
function boundFromAnnouncement(): Pick<StartTunnelOptions, 'clock' | 'log'> {
  let announced = (): void => {};
  const announcement = new Promise<void>((resolve) => (announced = resolve));
  return {
    log: () => announced(),
    clock: {
      ...systemClock,
      sleep: async (ms, signal) => {
        await announcement;
        await systemClock.sleep(ms, signal);
      },
    },
  };
}

describe('startTunnel with cloudflared (the default)', () => {
  it('opens a quick tunnel that leads to the app; the agent sees none of the job secrets', async () => {
    const open = await start();
    expect(await (await fetch(open.url)).text()).toBe('app');
    expect(hosts.at(-1)).toBe(new URL(open.url).host);
    const { args, env } = await world.agent.started();
    expect(args).toEqual(['tunnel', '--no-autoupdate', '--url', world.appUrl]);
    expect(env.filter((name) => !agentMaySee('cloudflared', name))).toEqual([]);
    expect(env).toContain('PATH');
    expect(await world.agent.alive()).toHaveLength(1);
    await open.stop();
    expect(await world.agent.alive()).toEqual([]);
    expect(open.exitedAt()).toBeNull();
  });

  it("ends the wait at once when it cannot get a quick tunnel, quoting cloudflared's error", async () => {
    await world.agent.behave({ failQuickTunnel: true });
    const startedAt = Date.now();
    await expect(start({}, 60_000)).rejects.toThrow(
      `The cloudflared agent failed to open the tunnel to ${world.appUrl}: failed to request quick Tunnel: Post "https://api.trycloudflare.com/tunnel": dial tcp: lookup api.trycloudflare.com: no such host`,
    );
    expect(Date.now() - startedAt).toBeLessThan(60_000);
    expect(await world.agent.alive()).toEqual([]);
  });

  it('kills an agent that ignores SIGTERM', async () => {
    await world.agent.behave({ ignoreSigterm: true });
    const open = await start();
    expect(await world.agent.alive()).toHaveLength(1);
    await open.stop();
    expect(await world.agent.alive()).toEqual([]);
  });

  it('notices the agent exiting after the tunnel opened', async () => {
    await world.agent.behave({ exitAfterRequests: 1 }); // the action's own check through the tunnel
    const open = await start();
    await until(() => open.exitedAt() !== null, 10_000);
    expect(open.exitedAt()).toBeLessThanOrEqual(Date.now());
    expect(await world.agent.alive()).toEqual([]);
    await open.stop();
  });
});

describe('startTunnel with ngrok', () => {
  it('takes the URL its local API lists, rewrites the Host header, keeps the token off the command line', async () => {
    const open = await start(ngrok({ hostHeader: 'rewrite' }));
    await fetch(open.url);
    expect(hosts.at(-1)).toBe(new URL(world.appUrl).host);
    const { args, env } = await world.agent.started();
    expect(args.join(' ')).not.toContain(TOKEN);
    expect(env.filter((name) => !agentMaySee('ngrok', name))).toEqual([]);
    await open.stop();
    expect(await world.agent.alive()).toEqual([]);
  });

  it("forwards to the step in front of the app when asked: the Host rewrite is still the app's own host", async () => {
    const front = await startPushListener({ port: 0, host: '127.0.0.1', forward: forwardTo(world.appUrl) });
    try {
      const via = `http://127.0.0.1:${front.port}`;
      const open = await start(ngrok({ hostHeader: 'rewrite' }), 20_000, { via });
      expect(await (await fetch(open.url)).text()).toBe('app');
      expect(hosts.at(-1)).toBe(new URL(world.appUrl).host);
      const { args } = await world.agent.started();
      expect(args.slice(0, 2)).toEqual(['http', via]);
      await open.stop();
    } finally {
      await front.close();
    }
  });

  it('prefers the URL its local API lists to the one in its log', async () => {
    await world.agent.behave({ staleLogUrl: true });
    const open = await start(ngrok());
    expect(open.url).not.toBe('http://127.0.0.1:9');
    expect(await (await fetch(open.url)).text()).toBe('app');
    await open.stop();
  });

  it('falls back to the URL in its log when its API does not answer', async () => {
    await world.agent.behave({ noApi: true });
    const open = await start(ngrok());
    expect(await (await fetch(open.url)).text()).toBe('app');
    await open.stop();
  });

  it("quotes ngrok's error line when it exits before the tunnel opens", async () => {
    await expect(start(ngrok({ authtoken: '' }))).rejects.toThrow(
      /The ngrok agent failed to open the tunnel to http:\/\/127\.0\.0\.1:\d+: command failed: authentication failed: Usage of ngrok requires a verified account and authtoken\.[\s\S]*ERR_NGROK_4018/,
    );
    expect(await world.agent.alive()).toEqual([]);
  });

  it("refuses the free plan's browser warning page at once, naming it and the ways out", async () => {
    await world.agent.behave({ plan: 'free' });
    const failure = start(ngrok(), 60_000);
    await expect(failure).rejects.toThrow(
      /Ghost Inspector's browsers would see ngrok's browser warning page \(ERR_NGROK_6024[^)]*\) at http:\/\/127\.0\.0\.1:\d+, not the app at http:\/\/127\.0\.0\.1:\d+\. Ways out: tunnel-provider: cloudflared .*ngrok paid plan/,
    );
    expect(await world.agent.alive()).toEqual([]);
  });

  it('does not take an ngrok error answer (ERR_NGROK_3200, 404) for the app', async () => {
    await world.agent.behave({ tunnelNotFound: true });
    await expect(start(ngrok(), 4_000, boundFromAnnouncement())).rejects.toThrow(
      /The app did not answer through the tunnel \(.*; last: HTTP 404 ERR_NGROK_3200\): the app answers at/,
    );
    expect(await world.agent.alive()).toEqual([]);
  });

  it('ends at the bound even when garbage collection runs during the wait', async () => {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    // A full collection four times a second: each takes the whole worker's heap, which holds every module.
    const collecting = setInterval(gc, 250);
    try {
      await world.agent.behave({ tunnelNotFound: true });
      await expect(start(ngrok(), 4_000, boundFromAnnouncement())).rejects.toThrow(
        /last: HTTP 404 ERR_NGROK_3200/,
      );
    } finally {
      clearInterval(collecting);
    }
  });

  it('fails at the bound naming the local address when nothing answers there', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const address = `http://127.0.0.1:${(closed.address() as AddressInfo).port}`;
    closed.close();
    // The bound (on a clock of the test's) ends once the agent has announced its URL, the tries begun.
    const clock = new ManualClock();
    let announced = false;
    const ending = start(ngrok({ address }), 4_000, { clock, log: () => (announced = true) });
    await until(() => announced);
    await clock.advance(4_000);
    await expect(ending).rejects.toThrow(`nothing answers at ${address} (ECONNREFUSED)`);
    expect(await world.agent.alive()).toEqual([]);
  });
});

describe('checkedPublicUrl', () => {
  it('keeps http(s)://host[:port] and refuses anything that could carry a secret, without showing it', () => {
    expect(checkedPublicUrl('ngrok', 'https://a1b2.ngrok-free.app')).toBe('https://a1b2.ngrok-free.app');
    expect(checkedPublicUrl('ngrok', 'http://127.0.0.1:4100/')).toBe('http://127.0.0.1:4100');
    for (const bad of [
      'https://user:tok3n@a.ngrok.app',
      'https://@a.ngrok.app', // an empty user: the parsed URL drops the `@`
      'https://a.ngrok.app/?token=tok3n',
      'https://a.ngrok.app/tok3n',
      'https://a.ngrok.app#tok3n',
      'ftp://a.ngrok.app',
      'not a url tok3n',
    ]) {
      expect(() => checkedPublicUrl('ngrok', bad)).toThrow(/not of the form https:\/\/host\[:port\]/);
      expect(() => checkedPublicUrl('ngrok', bad)).not.toThrow(/tok3n/);
    }
  });
});
