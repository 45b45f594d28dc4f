/**
 * The bench's accounts (bench/lib/seed.ts): the clients of a case, and each of our lag runs, have rate-limit
 * buckets of their own on an emulator with the service's limit on, so one cannot spend another's allowance
 * (the official client answered with 429s when both shared one account's bucket).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type Emulator } from '../../../emulator/index.js';
import { laneAccount, SMOKE, seedCases } from '../../../bench/lib/cases.js';
import { account, SeedBuilder } from '../../../bench/lib/seed.js';

let emulator: Emulator;
const seed = new SeedBuilder();
seedCases(seed, SMOKE);

beforeAll(async () => {
  emulator = await startEmulator({ seed: seed.build(), quiet: true, rateLimit: { burst: 20, perSecond: 1 } });
});
afterAll(async () => {
  await emulator.close();
});

async function statuses(key: string, n: number): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const res = await fetch(`${emulator.baseUrl}/suites/?apiKey=${key}`);
    await res.arrayBuffer();
    out.push(res.status);
  }
  return out;
}

describe('bench: accounts', () => {
  it('gives the two clients of a lane, and each of our lag runs, an account of its own', () => {
    const names = [
      laneAccount('action', 3, 'hs'),
      laneAccount('action', 3, 'ht'),
      laneAccount('action', 3, 'fs'),
      laneAccount('action', 3, 'ft'),
      laneAccount('official', 3, 'hs'),
    ];
    expect(new Set(names).size).toBe(names.length);
    const built = seed.build();
    const users = new Set(names.map((n) => built.apiKeys?.find((k) => k.key === account(n).key)?.user));
    expect(users.size).toBe(names.length);
  });

  it("keeps one account's bucket when another account is over its limit", async () => {
    const official = account(laneAccount('official', 3, 'hs')).key;
    const ours = account(laneAccount('action', 3, 'hs')).key;
    expect(await statuses(official, 25)).toContain(429);
    expect(await statuses(ours, 5)).toEqual([200, 200, 200, 200, 200]);
  });
});
