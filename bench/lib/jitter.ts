/**
 * Run durations of the benchmark: each simulated run lasts its lane's nominal duration ±30 %, so no client
 * is flattered by durations that happen to be multiples of its poll interval (the official client sleeps
 * 5 s between polls: runs of exactly 20 or 45 s would be seen 0.02 s after their finish).
 *
 * Seeded and order-free: a duration depends only on the seed and a key naming the run (its lane, round and
 * test), not on the order the lanes ask in, so every bench run and both clients see the same durations.
 */
import { seededRandom } from '../../emulator/util.js';

/** Half-width of the spread around the nominal duration (0.3: ±30 %). */
export const JITTER = 0.3;
/** Seed of the durations (any fixed number; change it to draw another set). */
export const JITTER_SEED = 13;

/** FNV-1a hash of `text` (32 bits). */
function hash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/**
 * The duration of the run named `key`: `nominalMs` × (1 ± `spread`), uniform, in whole ms.
 * @param key names the run, the same for both clients (e.g. `s20-h-r2-t1`: lane, history suite, round, test).
 */
export function jittered(nominalMs: number, key: string, seed = JITTER_SEED, spread = JITTER): number {
  const r = seededRandom(hash(`${seed}:${key}`))();
  return Math.round(nominalMs * (1 + spread * (2 * r - 1)));
}
