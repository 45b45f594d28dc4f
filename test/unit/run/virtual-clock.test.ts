/**
 * The virtual clock of the engine tests (`test/support/virtual-clock.ts`): time jumps to the next due wait
 * only when nothing is in flight, in the order real timers would fire.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { VirtualClock } from '../../support/virtual-clock.js';
import { startWorld } from '../../support/world.js';

const START = Date.parse('2026-01-01T00:00:00Z');
let clock: VirtualClock;
afterEach(async () => {
  await clock?.stop();
});

const turns = async (n: number) => {
  for (let i = 0; i < n; i++) await new Promise((r) => setImmediate(r));
};
const realMs = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('VirtualClock', () => {
  it('a 60 s wait ends at exactly +60 s of virtual time, in milliseconds of real time', async () => {
    clock = new VirtualClock({ start: START }).start();
    const began = performance.now();
    await clock.sleep(60_000);
    expect(clock.now()).toBe(START + 60_000);
    expect(performance.now() - began).toBeLessThan(20_000);
    // 60 one-second polls: 60 jumps of 1 s.
    for (let i = 0; i < 60; i++) await clock.sleep(1_000);
    expect(clock.now()).toBe(START + 120_000);
    expect(clock.stats.jumps).toBe(61);
  });

  it('wakes waits in the order of their due times, each at its exact time; equal times in registration order', async () => {
    clock = new VirtualClock({ start: START });
    const woken: Array<[string, number]> = [];
    const wait = (name: string, ms: number) =>
      clock.sleep(ms).then(() => woken.push([name, clock.now() - START]));
    const all = Promise.all([wait('c', 3_000), wait('a', 1_000), wait('b1', 2_000), wait('b2', 2_000)]);
    clock.start();
    await all;
    expect(woken).toEqual([
      ['a', 1_000],
      ['b1', 2_000],
      ['b2', 2_000],
      ['c', 3_000],
    ]);
  });

  it('work woken by a wait reaches its next wait before time moves on (a few event-loop turns later)', async () => {
    clock = new VirtualClock({ start: START }).start();
    const events: Array<[string, number]> = [];
    const at = (name: string) => events.push([name, clock.now() - START]);
    const a = (async () => {
      await clock.sleep(1_000);
      at('a woken');
      await turns(3); // e.g. an answer being read
      await clock.sleep(10);
      at('a again');
    })();
    const b = clock.sleep(1_050).then(() => at('b woken'));
    await Promise.all([a, b]);
    // Had time jumped while `a` was between its waits, `b` would have come first and `a` at 1060.
    expect(events).toEqual([
      ['a woken', 1_000],
      ['a again', 1_010],
      ['b woken', 1_050],
    ]);
  });

  it('stands still while tracked work is in flight, however long it takes in real time', async () => {
    clock = new VirtualClock({ start: START }).start();
    let woken = false;
    void clock.sleep(1).then(() => (woken = true));
    const answer = clock.track(realMs(50).then(() => clock.now()));
    expect(await answer).toBe(START);
    expect(woken).toBe(false);
    await clock.sleep(1);
    expect(woken).toBe(true);
  });

  it('a tracked call that waits on the clock (untracked) lets time move; a rejection passes through', async () => {
    clock = new VirtualClock({ start: START }).start();
    const call = clock.track(
      (async () => {
        await clock.untracked(clock.sleep(5_000));
        throw new Error('gave up');
      })(),
    );
    await expect(call).rejects.toThrow('gave up');
    expect(clock.now()).toBe(START + 5_000);
  });

  it('a busy probe holds time until it says idle', async () => {
    clock = new VirtualClock({ start: START });
    let busy = 1;
    clock.addProbe(() => busy);
    clock.start();
    let woken = false;
    const waited = clock.sleep(100).then(() => (woken = true));
    await realMs(30);
    expect(woken).toBe(false);
    busy = 0;
    await waited;
    expect(clock.now()).toBe(START + 100);
    // A negative count discounts tracked work (a request parked on the clock elsewhere).
    busy = -1;
    const parked = clock.track(clock.sleep(200));
    await parked;
    expect(clock.now()).toBe(START + 300);
  });

  it('an aborted wait ends at once, leaves no wait behind, and time does not move to it', async () => {
    clock = new VirtualClock({ start: START }).start();
    const controller = new AbortController();
    const long = clock.sleep(600_000, controller.signal);
    expect(clock.pending).toBe(1);
    controller.abort();
    await long;
    expect(clock.pending).toBe(0);
    await turns(20);
    expect(clock.now()).toBe(START);
    expect(await clock.sleep(0).then(() => clock.now())).toBe(START);
  });

  it('without waits, time stays; stop ends the loop with waits still pending', async () => {
    clock = new VirtualClock({ start: START }).start();
    await turns(20);
    expect(clock.now()).toBe(START);
    await clock.stop();
    let woken = false;
    void clock.sleep(10).then(() => (woken = true));
    await turns(20);
    expect(woken).toBe(false);
    expect(clock.pending).toBe(1);
  });

  it('random: seeded by default, the same sequence on every run', () => {
    clock = new VirtualClock();
    const other = new VirtualClock();
    const a = [clock.random(), clock.random()];
    expect([other.random(), other.random()]).toEqual(a);
    expect(a[0]).toBeGreaterThanOrEqual(0);
    expect(a[0]).toBeLessThan(1);
  });
});

describe('the virtual world', () => {
  it('stands still while this process waits on the file system (an action run writing its reports)', async () => {
    const world = await startWorld({ rateLimit: false });
    const dir = await mkdtemp(path.join(tmpdir(), 'virtual-world-'));
    try {
      const { clock } = world;
      const t0 = clock.now();
      const woke = clock.sleep(1_000).then(() => clock.now());
      const file = path.join(dir, 'results.json');
      for (let i = 0; i < 5; i++) {
        await writeFile(file, 'x'.repeat(4_000_000));
        await readFile(file);
      }
      expect(clock.now()).toBe(t0);
      expect(await woke).toBe(t0 + 1_000);
    } finally {
      await world.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
