/**
 * Measures the watch's cost and lag in process, against the emulator, both on one virtual clock
 * (production durations and waits, figures exact and the same on every run): a lone 20 s run, rounds of 4 runs (a 3-test suite and a single test
 * with history, a new suite and a new test, durations ±30 % seeded) at 20 s and 45 s, both in one engine run
 * and as four engine runs at once (as four action processes), and 20 and 100 suites at once. Prints requests
 * per run next to the official client's (1 execute + one poll per started 5 s, + 1 page for a suite), the
 * request rate and lag. Usage: `npx tsx scripts/measure-watch.ts` (a few seconds). Not a benchmark:
 * bench/ is the reference; this is a quick check of the goals of docs/architecture.md, "run/follow: the watch".
 */
import { percentile } from '../bench/lib/stats.js';
import {
  officialRequests,
  runWatch,
  watchSeed,
  type RunSpec,
  type WatchFigures,
} from '../test/support/watch-scenario.js';
import { seededRandom } from '../emulator/util.js';
import { startWorld, type World } from '../test/support/world.js';

if (process.argv.length > 2) {
  console.log(
    'Usage: npx tsx scripts/measure-watch.ts\n' +
      'Prints the watch cost and lag (docs/architecture.md, "run/follow: the watch"), in process on virtual time; no options.',
  );
  process.exit(process.argv.includes('--help') || process.argv.includes('-h') ? 0 : 2);
}

const random = seededRandom(13);
const jittered = (ms: number): number => Math.round(ms * (0.7 + 0.6 * random()));

function round(d: number, r: number, tag: string): RunSpec[] {
  return [
    { kind: 'suite', id: `hs${d}${tag}`, durationsMs: [1, 2, 3].map(() => jittered(d * 1000)) },
    { kind: 'test', id: `ht${d}${tag}`, durationsMs: [jittered(d * 1000)] },
    { kind: 'suite', id: `fs${d}${tag}-${r}`, durationsMs: [1, 2, 3].map(() => jittered(d * 1000)) },
    { kind: 'test', id: `ft${d}${tag}-${r}`, durationsMs: [jittered(d * 1000)] },
  ];
}

function official(specs: RunSpec[]): number {
  const total = specs.reduce((n, s) => n + officialRequests(s.kind, Math.max(...s.durationsMs)), 0);
  return total / specs.length;
}

function line(name: string, specs: RunSpec[], f: WatchFigures): void {
  const kinds = Object.entries(f.byKind)
    .map(([k, n]) => `${k} ${n}`)
    .join(', ');
  console.log(
    `${name.padEnd(44)} runs ${String(f.runs).padStart(3)}  req/run ${f.perRun.toFixed(1).padStart(5)}` +
      ` (official ${official(specs).toFixed(1)})  rate ${f.ratePerSecond.toFixed(2)}/s  busiest 1 s ${f.busiestSecond}` +
      `  lag p50 ${(percentile(f.lagsMs, 50) / 1000).toFixed(2)} s p95 ${(percentile(f.lagsMs, 95) / 1000).toFixed(2)} s` +
      `  [${kinds}]`,
  );
}

async function lanes(bed: World, d: number, together: boolean): Promise<void> {
  for (let r = 1; r <= 3; r++) {
    const specs = round(d, r, together ? 'a' : 'b');
    const f = await runWatch(bed, specs, together);
    line(`${d} s round ${r} of 4 (${together ? 'one engine' : '4 engines'})`, specs, f);
  }
}

async function main(): Promise<void> {
  const all: RunSpec[] = [];
  for (const d of [20, 45]) for (let r = 1; r <= 3; r++) all.push(...round(d, r, 'a'), ...round(d, r, 'b'));
  const lone: RunSpec = { kind: 'test', id: 'lone', durationsMs: [20_000] };
  const loneSuite: RunSpec = { kind: 'suite', id: 'lone-s', durationsMs: [20_000, 20_000, 20_000] };
  const many = (n: number): RunSpec[] =>
    Array.from({ length: n }, (_, i) => ({
      kind: 'suite' as const,
      id: `c${n}-${i}`,
      durationsMs: [1, 2, 3].map(() => jittered(20_000)),
    }));
  const bed = await startWorld({ seed: watchSeed([...all, lone, loneSuite, ...many(20), ...many(100)]) });
  try {
    for (let r = 1; r <= 2; r++) {
      const specs = [{ ...lone, durationsMs: [jittered(20_000)] }];
      line(`lone 20 s test, round ${r}`, specs, await runWatch(bed, specs));
    }
    for (let r = 1; r <= 2; r++) {
      const specs = [{ ...loneSuite, durationsMs: loneSuite.durationsMs.map(() => jittered(20_000)) }];
      line(`lone 20 s suite, no organization id, round ${r}`, specs, await runWatch(bed, specs, true, false));
    }
    for (const d of [20, 45]) {
      await lanes(bed, d, true);
      await lanes(bed, d, false);
    }
    for (const n of [20, 100]) line(`${n} suites at once`, many(n), await runWatch(bed, many(n)));
  } finally {
    await bed.close();
  }
}

await main();
