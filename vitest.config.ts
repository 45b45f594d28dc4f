import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * Three projects, two speeds (test/README.md, "Two speeds"):
 * - `fast`: the in-process tests (`npm run test:fast`), the loop to run while changing code;
 * - `slow`: the whole action end to end (`test/e2e/`), the other files that start processes (the emulator's
 *   CLI, fake tunnel agents, other clients, the import lint), and the in-process files that take longest
 *   (virtual time over thousands of results, the official client's whole surface, real-time bounds);
 * - `chromium`: the files that drive Chromium, with longer time limits and waits for a condition scaled
 *   (`BROWSER_WAIT_SCALE`), since they share the cores with the slow files.
 * `npm test` runs all three at once.
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
 * The order files start in (vitest runs every project at once, each project's files longest first by the
 * durations it cached on an earlier run, else the largest files first; a worker takes the next file as
 * it becomes free). The Chromium files spend most of their time waiting on the browser and the slow files
 * keep the cores busy, so they run side by side: the two longest Chromium files first, then the slow
 * files with the other Chromium files spread among them, one at a time, then the fast ones. Most of the
 * time two browser files share the machine with two others.
 */
class ChromiumBesideSlow extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const of = (name: string) => sorted.filter((file) => file.project.name === name);
    const [browser, slow, fast] = [of('chromium'), of('slow'), of('fast')];
    const [first, rest] = [browser.slice(0, 2), browser.slice(2)];
    const every = Math.ceil(slow.length / (rest.length + 1));
    const spread = slow.flatMap((file, i) =>
      (i + 1) % every === 0 && rest.length > 0 ? [file, rest.shift()!] : [file],
    );
    return [...first, ...spread, ...rest, ...fast];
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
    // Each worker imports the modules once for all the files it runs, not once per file: most files take
    // less time to run than to import. No test file keeps module state another reads (the mutation runs,
    // which run the same way, rely on it too); each world, emulator and browser is the file's own.
    isolate: false,
    sequence: { sequencer: ChromiumBesideSlow },
    projects: [
      {
        extends: true,
        test: {
          name: 'fast',
          include: ['test/**/*.test.ts'],
          exclude: [...SLOW, ...CHROMIUM],
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
