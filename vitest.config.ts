import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Most test files spend their time waiting (on emulator runs, child processes, deadlines), not
    // computing: on a 2-core machine vitest's default (cores - 1 = one file at a time) leaves the CPU idle.
    // Three files at once keeps it busy; the slowest files (chaos, stop) start first. vitest's own
    // `VITEST_MAX_WORKERS` variable overrides it (e.g. 1 to run the files one after the other).
    maxWorkers: 3,
  },
});
