/**
 * Measures what the step's listener in front of the app adds to each request through the tunnel
 * (docs/tunnel.md, "Push through the tunnel"): two stand-in cloudflared tunnels (`test/support/fakes`) opened
 * with the action's own `startTunnel`, one to the app, one to the listener that hands requests on to the
 * same app; the same requests through each, in turn. Prints the per-request times (median, p95) of small
 * pages and of 1 MB pages, and what the listener adds.
 * Usage: `node --import tsx bench/measure-front.ts [requests]` (default 400).
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startPushListener } from '../src/run/follow/push.js';
import { forwardTo } from '../src/tunnel/forward.js';
import { startTunnel, type Tunnel } from '../src/tunnel/tunnel.js';
import { installFakeAgent } from '../test/support/fake-tunnel.js';
import { spread } from './lib/stats.js';

const requests = Number(process.argv[2] ?? 400);
const BIG = Buffer.alloc(1024 * 1024, 'x');
const app = createServer((req, res) => res.end(req.url === '/big' ? BIG : 'ok'));
await new Promise<void>((resolve) => app.listen(0, '127.0.0.1', resolve));
const appUrl = `http://127.0.0.1:${(app.address() as AddressInfo).port}`;
const front = await startPushListener({ port: 0, host: '127.0.0.1', forward: forwardTo(appUrl) });
const agent = await installFakeAgent();
const open = (via?: string): Promise<Tunnel> =>
  startTunnel({
    tunnel: { address: appUrl, provider: 'cloudflared', authtoken: '', urlVariable: 'u', hostHeader: '' },
    env: { ...process.env, ...agent.env() },
    log: () => undefined,
    signal: new AbortController().signal,
    ...(via ? { via } : {}),
  });
const [direct, fronted] = await Promise.all([open(), open(`http://127.0.0.1:${front.port}`)]);

/** ms of one GET of `path` through `tunnel`, the body read. */
async function timed(tunnel: Tunnel, path: string): Promise<number> {
  const started = performance.now();
  const res = await fetch(`${tunnel.url}${path}`);
  await res.arrayBuffer();
  return performance.now() - started;
}

try {
  for (const path of ['/page', '/big']) {
    const times = { direct: [] as number[], fronted: [] as number[] };
    const count = path === '/big' ? Math.ceil(requests / 4) : requests;
    // In turn, each first every other time: neither gains from going second.
    for (let i = 0; i < count; i++) {
      const pair = [direct, fronted] as const;
      for (const tunnel of i % 2 ? [...pair].reverse() : pair)
        (tunnel === direct ? times.direct : times.fronted).push(await timed(tunnel, path));
    }
    const line = (xs: number[]) =>
      `median ${spread(xs).p50.toFixed(2)} ms, p95 ${spread(xs).p95.toFixed(2)} ms`;
    console.log(`${path} × ${count}: tunnel to the app ${line(times.direct)}`);
    console.log(`${path} × ${count}: tunnel to the listener in front ${line(times.fronted)}`);
    const added = spread(times.fronted).p50 - spread(times.direct).p50;
    console.log(`${path}: the listener adds ${added.toFixed(2)} ms at the median`);
  }
} finally {
  await Promise.all([direct.stop(), fronted.stop()]);
  await front.close();
  app.close();
  await agent.remove();
}
