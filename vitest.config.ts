import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The files that take longest (measured in CI: chaos about 70 s, the Chromium tests 20–25 s each, the stop
 * and edge-state tests about 15 s; the engine tests, watch-cost included, are on virtual time and take 1-3 s
 * each), in the order they should start. vitest sorts by the durations it cached on an earlier run, but a
 * clean clone (CI) has none, and a 70 s file that starts last decides the wall time of the whole run.
 */
const SLOW_FIRST = [
  'test/e2e/chaos.test.ts',
  'test/e2e/reliability/',
  'test/emulator/runs.test.ts',
  // Chromium is CPU-bound: its files start after the waiting-bound ones, so that they do not all share the
  // two cores with the chaos run at once (a cancelled browser run missed its 60 s bound once that way).
  'test/emulator/browser/',
];

class SlowFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (file: TestSpecification): number => {
      const index = SLOW_FIRST.findIndex((part) => file.moduleId.includes(part));
      return index < 0 ? SLOW_FIRST.length : index;
    };
    return sorted
      .map((file, position) => ({ file, position }))
      .sort((a, b) => rank(a.file) - rank(b.file) || a.position - b.position)
      .map(({ file }) => file);
  }
}

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Most test files spend their time waiting (on emulator runs, child processes, deadlines), not
    // computing: on a 2-core machine vitest's default (cores - 1 = one file at a time) leaves the CPU idle.
    // Three files at once, the slowest first, keeps it busy (measured on 2 cores in a clean clone: 3 files
    // 180 s, 3 files slowest first 135 s; 4 files 119 s, but the signal tests' time bounds then failed once
    // in four runs). vitest's own `VITEST_MAX_WORKERS` variable overrides it (e.g. 1 to run the files one
    // after the other).
    maxWorkers: 3,
    sequence: { sequencer: SlowFirstSequencer },
  },
});
