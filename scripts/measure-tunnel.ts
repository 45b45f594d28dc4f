/**
 * Measures what the tunnel adds before the first run starts: the built action (`dist/index.js`, as the
 * runner starts it) against the emulator, the time from spawning the action to its first execute request as
 * the emulator logs it, without tunnel and with the fake ngrok agent (`test/support/fakes/ngrok-agent.mjs`)
 * in front of a loopback app, alternately. Prints each time and the medians. docs/tunnel.md quotes it.
 * Usage: `npm run build && npx tsx scripts/measure-tunnel.ts [rounds]` (default 7).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startEmulator } from '../emulator/index.js';
import { installFakeAgent } from '../test/support/fake-tunnel.js';
import { runAction } from '../test/support/harness.js';

const rounds = Number(process.argv[2] ?? 7);
const KEY = 'measure-tunnel-key';
const emulator = await startEmulator({ apiKey: KEY, quiet: true, timeScale: 0.01, rateLimit: false });
const app = createServer((_req, res) => res.end('ok'));
await new Promise<void>((resolve) => app.listen(0, '127.0.0.1', resolve));
const appUrl = `http://127.0.0.1:${(app.address() as AddressInfo).port}`;
const agent = await installFakeAgent();
const workspace = await mkdtemp(path.join(tmpdir(), 'gi-measure-tunnel-'));
const suiteId = [...emulator.store.suites.keys()][0];

/** ms from spawning the action to the emulator receiving its first execute. */
async function firstTrigger(tunnel: boolean): Promise<number> {
  emulator.resetLog();
  const spawnedAt = Date.now();
  const run = await runAction({
    workspace,
    inputs: {
      'api-key': KEY,
      'api-base-url': emulator.baseUrl,
      'suite-ids': suiteId,
      screenshots: 'none',
      ...(tunnel ? { tunnel: appUrl, 'ngrok-authtoken': 'ngrok-token-7Qx2Lm9Zr4Kp1Vb8' } : {}),
    },
    env: agent.env(),
  });
  const execute = emulator.requests().find((r) => r.path.includes('/execute'));
  if (!execute) throw new Error(`no execute:\n${run.stdout}`);
  return execute.time - spawnedAt;
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const without: number[] = [];
const withTunnel: number[] = [];
for (let i = 0; i < rounds; i++) {
  without.push(await firstTrigger(false));
  withTunnel.push(await firstTrigger(true));
}
console.log(`without tunnel: ${without.join(', ')} ms; median ${median(without)} ms`);
console.log(`with the fake agent: ${withTunnel.join(', ')} ms; median ${median(withTunnel)} ms`);
console.log(`added by the tunnel (medians): ${median(withTunnel) - median(without)} ms`);
await Promise.all([emulator.close(), agent.remove(), rm(workspace, { recursive: true, force: true })]);
app.close();
