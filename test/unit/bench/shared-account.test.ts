/**
 * The bench's "several processes on one account" case runs only when the emulator limits the request
 * rate: the probe against a real emulator on loopback, without and with 429 answers.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type Emulator } from '../../../emulator/index.js';
import { SMOKE, type Context } from '../../../bench/lib/cases.js';
import { SeedBuilder } from '../../../bench/lib/seed.js';
import { probeRateLimit, runSharedAccount } from '../../../bench/lib/shared-account.js';

let emulator: Emulator;
let ctx: Context;

beforeAll(async () => {
  emulator = await startEmulator({ seed: new SeedBuilder().build(), quiet: true, rateLimit: false });
  ctx = {
    emulator,
    official: undefined as never,
    entry: 'unused',
    log: () => undefined,
    claimed: new Set(),
    failures: [],
  };
});
afterAll(async () => {
  await emulator.close();
});

describe('bench: the rate-limit probe', () => {
  it('finds no limit on an emulator that never answers 429, so the case is skipped and says why', async () => {
    expect(await probeRateLimit(ctx)).toBe(false);
    const result = await runSharedAccount(ctx, SMOKE);
    expect(result).toEqual(
      SMOKE.sharedShapes.map(() => ({ skipped: expect.stringMatching(/no rate limit on/) as unknown })),
    );
    // Its requests are accounted for (not reported as stray).
    expect(emulator.requests().every((q) => ctx.claimed.has(q.seq))).toBe(true);
  });

  it('finds the limit when the emulator answers 429', async () => {
    emulator.setFaults('rate=1,kinds=429,retry-after=1');
    try {
      expect(await probeRateLimit(ctx)).toBe(true);
    } finally {
      emulator.setFaults('');
    }
  });

  it("finds the emulator's own rate limit, on by default (burst 300, then 10/s)", async () => {
    const limited = await startEmulator({ seed: new SeedBuilder().build(), quiet: true });
    try {
      expect(await probeRateLimit({ ...ctx, emulator: limited, claimed: new Set() })).toBe(true);
    } finally {
      await limited.close();
    }
  });
});
