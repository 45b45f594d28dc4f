/**
 * Virtual time for tests that run the action's engine against the emulator in one process: both wait on one
 * `VirtualClock` (the engine through `Clock`, the emulator through its `clock` option), and time jumps to the
 * next due wait only when the whole system is idle. A 60 s run polled every second takes milliseconds of
 * real time, and the order of events is that of production: every wake-up happens at its exact virtual time,
 * after everything due earlier has run to its next wait.
 *
 * Idle means all of:
 * - no tracked work in flight (`track`): the API calls of the client under test, from the call until its
 *   answer is decoded (the HTTP exchange, gunzip on the thread pool, JSON), less the parts spent waiting on
 *   this clock (`untracked`: a retry's back-off);
 * - no probe saying busy (`addProbe`): e.g. the emulator's requests being answered, file-system requests;
 * - nothing new (a wait registered or ended, tracked work started or settled) for `QUIET_TURNS` turns of the
 *   event loop (`setImmediate`), so that work woken by a wait reaches its next wait or request first.
 *
 * Wake-ups due at the same virtual ms run one after the other in the order they were registered, each
 * followed by an event-loop turn, as real timers do. A tracked call that never settles (a request held by a
 * proxy) stops time; do not track such calls.
 */
import type { Clock } from '../../src/common/clock.js';
import { seededRandom } from '../../emulator/util.js';

interface Sleeper {
  at: number;
  resolve: () => void;
}

export interface VirtualClockOptions {
  /** Virtual time at the start, ms since the epoch (default: the real time now). */
  start?: number;
  /** Random source of `random()` (default: a PRNG seeded with 1, so jitter is the same on every run). */
  random?: () => number;
}

const turn = () => new Promise<void>((resolve) => setImmediate(resolve));
/** Event-loop turns of quiet before time moves. */
const QUIET_TURNS = 5;

export class VirtualClock implements Clock {
  private time: number;
  private sleepers: Sleeper[] = [];
  /** Tracked work in flight (less the parts in `untracked`). */
  private tracked = 0;
  private readonly probes: Array<() => number> = [];
  /** Bumped by every change the idleness check must see. */
  private changes = 0;
  private notify: (() => void) | undefined;
  private running = false;
  private loop: Promise<void> | undefined;
  private readonly rand: () => number;
  /** Virtual ms jumped over so far and the number of jumps (for figures). */
  readonly stats = { jumps: 0, advancedMs: 0 };

  constructor(options: VirtualClockOptions = {}) {
    this.time = options.start ?? Date.now();
    this.rand = options.random ?? seededRandom(1);
  }

  now(): number {
    return this.time;
  }

  random(): number {
    return this.rand();
  }

  /** Waits `ms` virtual ms; resolves early (never rejects) when `signal` fires. A non-positive `ms` resolves at once. */
  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    if (signal?.aborted || !(ms > 0)) return Promise.resolve();
    return new Promise<void>((resolve) => {
      const onAbort = (): void => {
        const at = this.sleepers.indexOf(entry);
        if (at >= 0) this.sleepers.splice(at, 1);
        this.changed();
        resolve();
      };
      const entry: Sleeper = {
        at: this.time + ms,
        resolve: () => {
          signal?.removeEventListener('abort', onAbort);
          resolve();
        },
      };
      this.sleepers.splice(this.insertionPoint(entry.at), 0, entry);
      signal?.addEventListener('abort', onAbort, { once: true });
      this.changed();
    });
  }

  /** Counts `work` as activity until it settles (time stands still meanwhile); resolves or rejects as it does. */
  track<T>(work: Promise<T>): Promise<T> {
    this.tracked += 1;
    this.changed();
    return work.finally(() => {
      this.tracked -= 1;
      this.changed();
    });
  }

  /** Inside tracked work, lets time move while `wait` is pending (a wait on this clock); settles as it does. */
  untracked<T>(wait: Promise<T>): Promise<T> {
    this.tracked -= 1;
    this.changed();
    return wait.finally(() => {
      this.tracked += 1;
      this.changed();
    });
  }

  /**
   * Adds a busy count read before every jump (e.g. the emulator's requests being answered); the system is
   * busy while the tracked work plus every probe's count is above zero. A probe may return a negative count
   * to discount tracked work that waits on this clock elsewhere (a request parked at the emulator).
   */
  addProbe(probe: () => number): void {
    this.probes.push(probe);
  }

  /** Pending waits. */
  get pending(): number {
    return this.sleepers.length;
  }

  /** Starts moving time (idempotent). */
  start(): this {
    if (!this.running) {
      this.running = true;
      this.loop = this.run();
    }
    return this;
  }

  /** Stops moving time; pending waits stay pending. Resolves once the loop has ended. */
  async stop(): Promise<void> {
    this.running = false;
    this.changed();
    await this.loop;
  }

  private changed(): void {
    this.changes += 1;
    const notify = this.notify;
    this.notify = undefined;
    notify?.();
  }

  /** The next change (or a stop), or `realMs` of real time when given, whichever comes first. */
  private nextChange(realMs?: number): Promise<void> {
    return new Promise<void>((resolve) => {
      const timer = realMs === undefined ? undefined : setTimeout(done, realMs);
      function done(): void {
        clearTimeout(timer);
        resolve();
      }
      this.notify = done;
    });
  }

  private busy(): boolean {
    return this.probes.reduce((sum, probe) => sum + probe(), this.tracked) > 0;
  }

  private async run(): Promise<void> {
    while (this.running) {
      await this.settle();
      if (!this.running) return;
      const next = this.sleepers[0];
      if (!next) {
        await this.nextChange();
        continue;
      }
      if (next.at > this.time) {
        this.stats.jumps += 1;
        this.stats.advancedMs += next.at - this.time;
        this.time = next.at;
      }
      await this.wakeDue();
    }
  }

  /** Where a wait due at `at` goes in `sleepers` (in waking order): after every wait due at or before `at`. */
  private insertionPoint(at: number): number {
    let [low, high] = [0, this.sleepers.length];
    while (low < high) {
      const mid = (low + high) >>> 1;
      if (this.sleepers[mid]!.at <= at) low = mid + 1;
      else high = mid;
    }
    return low;
  }

  /** Wakes every wait due by now, in order, one event-loop turn apart. */
  private async wakeDue(): Promise<void> {
    for (let next = this.sleepers[0]; next && next.at <= this.time; next = this.sleepers[0]) {
      this.sleepers.shift();
      this.changes += 1;
      next.resolve();
      await turn();
    }
  }

  /** Resolves once nothing is busy and nothing changed for `QUIET_TURNS` turns (or on a stop). */
  private async settle(): Promise<void> {
    let quiet = 0;
    let seen = this.changes;
    while (quiet < QUIET_TURNS && this.running) {
      if (this.busy()) {
        quiet = 0;
        // Tracked work tells when it settles (no spinning while a request is out); a probe does not (a
        // request parked at the emulator): look again after a real ms (turns without a pause would spin).
        await this.nextChange(this.tracked > 0 ? 2 : 1);
        seen = this.changes;
        continue;
      }
      await turn();
      if (this.changes !== seen) {
        quiet = 0;
        seen = this.changes;
      } else {
        quiet += 1;
      }
    }
  }
}
