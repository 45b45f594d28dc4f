/**
 * Measures what opening the tunnel adds to the time to the first trigger: the built action
 * (`dist/index.js`, as the runner starts it) against the emulator, the time from spawning the action to its
 * first execute request as the emulator logs it, without tunnel, with the stand-in cloudflared (the default)
 * and with the stand-in ngrok (`test/support/fakes`) in front of a loopback app, in turn. The bound is 1 s
 * (docs/tunnel.md, "Cost"). Prints each time, the medians and what each agent adds.
 * Usage: `npm run build && node --import tsx bench/measure-tunnel.ts [rounds]` (default 7).
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { installFakeAgent } from '../test/support/fake-tunnel.js';
import { startWorld } from '../test/support/world.js';

const rounds = Number(process.argv[2] ?? 7);
const KEY = 'measure-tunnel-key';
const world = await startWorld({ clock: 'scaled', apiKey: KEY, timeScale: 0.01, rateLimit: false });
const { emulator } = world;
const app = createServer((_req, res) => res.end('ok'));
await new Promise<void>((resolve) => app.listen(0, '127.0.0.1', resolve));
const appUrl = `http://127.0.0.1:${(app.address() as AddressInfo).port}`;
const agent = await installFakeAgent();
const suiteId = [...emulator.store.suites.keys()][0];

type Mode = 'none' | 'cloudflared' | 'ngrok';
const TUNNEL_INPUTS: Record<Mode, Record<string, string>> = {
  none: {},
  cloudflared: { tunnel: appUrl },
  ngrok: { tunnel: appUrl, 'tunnel-provider': 'ngrok', 'ngrok-authtoken': 'ngrok-token-7Qx2Lm9Zr4Kp1Vb8' },
};

/** ms from spawning the action to the emulator receiving its first execute. */
async function firstTrigger(mode: Mode): Promise<number> {
  emulator.resetLog();
  const spawnedAt = Date.now();
  const run = await world.run({
    bundle: true,
    inputs: {
      ...world.connection(),
      'suite-ids': suiteId,
      screenshots: 'none',
      ...TUNNEL_INPUTS[mode],
    },
    env: agent.env(),
  });
  const execute = emulator.requests().find((r) => r.path.includes('/execute'));
  if (!execute) throw new Error(`no execute:\n${run.stdout}`);
  return execute.time - spawnedAt;
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;
const times: Record<Mode, number[]> = { none: [], cloudflared: [], ngrok: [] };
for (let i = 0; i < rounds; i++) {
  for (const mode of ['none', 'cloudflared', 'ngrok'] as const) times[mode].push(await firstTrigger(mode));
}
for (const mode of ['none', 'cloudflared', 'ngrok'] as const) {
  console.log(`${mode}: ${times[mode].join(', ')} ms; median ${median(times[mode])} ms`);
}
for (const mode of ['cloudflared', 'ngrok'] as const) {
  const added = median(times[mode]) - median(times.none);
  console.log(
    `added by the ${mode} stand-in (medians): ${added} ms (bound 1000 ms: ${added <= 1000 ? 'met' : 'NOT met'})`,
  );
}
await Promise.all([world.close(), agent.remove()]);
app.close();
