import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The files that take longest, in the order they should start: vitest sorts by the durations it cached on an
 * earlier run, but a clean clone (CI) has none, and a long file that starts last decides the wall time of the
 * whole run. The longest first (virtual time over thousands of results), then the files that mostly wait
 * (on deadlines, production run durations, child processes), the CPU-bound Chromium files last of them, so
 * that they do not all share the cores at once.
 */
const SLOW_FIRST = [
  'test/unit/run/watch.test.ts',
  'test/e2e/reliability/',
  'test/contract/official-client.test.ts',
  'test/e2e/chaos.test.ts',
  'test/emulator/runs.test.ts',
  'test/e2e/tunnel.test.ts',
  'test/e2e/demo.test.ts',
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
    // computing: four files at once, the slowest first, keeps a 2-core machine busy without straining the
    // tests' time bounds. vitest's own `VITEST_MAX_WORKERS` variable overrides it.
    maxWorkers: 4,
    sequence: { sequencer: SlowFirstSequencer },
  },
});
