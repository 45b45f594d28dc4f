import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * Three projects, two speeds (test/README.md, "Two speeds"):
 * - `fast`: the in-process tests (`npm run test:fast`), the loop to run while changing code;
 * - `slow`: the whole action end to end (`test/e2e/`), the other files that start processes (the emulator's
 *   CLI, fake tunnel agents, other clients, the import lint), and the in-process files that take longest
 *   (virtual time over thousands of results, the official client's whole surface, real-time bounds);
 * - `chromium`: the files that drive Chromium, two at a time once the others are done, so that only the
 *   browser files share the cores (one browser file per core).
 * `npm test` runs all three.
 */
const CHROMIUM = ['test/emulator/browser/**/*.test.ts', 'test/e2e/tunnel.test.ts'];

const SLOW = [
  'test/e2e/**/*.test.ts',
  'test/contract/independent-clients.test.ts',
  'test/contract/shell-client.test.ts',
  'test/emulator/cli.test.ts',
  'test/unit/action/tunnel.test.ts',
  'test/unit/lint/imports.test.ts',
  'test/unit/tunnel/agent.test.ts',
  'test/unit/tunnel/check-agents.test.ts',
  'test/unit/tunnel/left-agent.test.ts',
  'test/unit/tunnel/tunnel-failures.test.ts',
  'test/unit/run/follow/share.test.ts',
  'test/unit/run/follow/watch.test.ts',
  'test/unit/run/follow/watch-failures.test.ts',
  'test/unit/run/follow/retry.test.ts',
  'test/unit/run/follow/tails.test.ts',
  'test/unit/run/follow/push.test.ts',
  'test/unit/tunnel/tunnel.test.ts',
  'test/unit/action/readme.test.ts',
  'test/contract/official-client.test.ts',
  'test/emulator/runs.test.ts',
];

/**
 * vitest runs the projects of one group in the order of their names, each project's files longest first
 * (by the durations it cached on an earlier run, else the largest files first): the `slow` project's files
 * start first here, so that its longest files (minutes with a busy CPU) do not start last and decide the wall
 * time of `npm test` while the short `fast` ones fill the gaps.
 */
class SlowProjectFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const slow = (file: TestSpecification) => file.project.name === 'slow';
    return [...sorted.filter(slow), ...sorted.filter((file) => !slow(file))];
  }
}

export default defineConfig({
  test: {
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Most test files spend their time waiting (on emulator runs, child processes, deadlines), not
    // computing: four files at once keeps a 2-core machine busy without straining the tests' time bounds.
    // vitest's own `VITEST_MAX_WORKERS` variable overrides it.
    maxWorkers: 4,
    sequence: { sequencer: SlowProjectFirst },
    projects: [
      {
        extends: true,
        test: {
          name: 'fast',
          include: ['test/**/*.test.ts'],
          exclude: [...SLOW, ...CHROMIUM],
          // Each worker imports the modules once for all its files, not once per file: most of these files
          // take less time to run than to import. Their tests share no module state (as the mutation runs,
          // which run this way too, rely on).
          isolate: false,
        },
      },
      {
        extends: true,
        test: {
          name: 'slow',
          include: SLOW,
          exclude: CHROMIUM,
        },
      },
      {
        extends: true,
        test: {
          name: 'chromium',
          include: CHROMIUM,
          maxWorkers: 2,
          sequence: { groupOrder: 1 },
          // A bound against a hang, not a speed goal: with both cores busy a file's start-up (a browser, a
          // whole demo run) takes minutes.
          testTimeout: 180_000,
          hookTimeout: 180_000,
          // Waits for a condition (an element, an assertion) three times as long as the suites ask: a step
          // that passes on a quiet machine passes on a busy one; a designed failure fails the same, later.
          env: { BROWSER_WAIT_SCALE: '3' },
        },
      },
    ],
  },
});
