import { statSync } from 'node:fs';
import { configDefaults, defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * Two speeds (test/README.md, "Two speeds"):
 * - `npm run test:fast` (`vitest run --mode fast`): the in-process tests, the loop to run while changing code;
 * - `npm test`: every file, in one pool of workers: the files of `SLOW` first, in its order, then the others.
 *
 * `SLOW`: the whole action end to end (`test/e2e/`), the other files that start processes (the emulator's CLI,
 * fake tunnel agents, other clients, the import lint), the files that drive Chromium, and the in-process files
 * that take longest (virtual time over thousands of results, the official client's whole surface, real-time
 * bounds). Longest first, by their time with the whole suite running, a file that mostly waits (on a deadline,
 * a child process, a slow answer) next to one that mostly computes (a browser, a simulation, many runs of the
 * action): both kinds at once keep both cores busy, and the short files fill the end.
 */
const SLOW = [
  'test/e2e/reliability/post.test.ts',
  'test/emulator/browser/run.test.ts',
  'test/e2e/chaos.test.ts',
  'test/emulator/browser/steps.test.ts',
  'test/unit/run/follow/tails.test.ts',
  'test/e2e/reliability/adoption.test.ts',
  'test/unit/run/follow/share.test.ts',
  'test/contract/official-client.test.ts',
  'test/e2e/reliability/stop.test.ts',
  'test/e2e/tunnel-agent.test.ts',
  'test/e2e/reliability/boundary.test.ts',
  'test/emulator/browser/demo.test.ts',
  'test/e2e/reliability/cancel.test.ts',
  'test/unit/tunnel/tunnel.test.ts',
  'test/contract/independent-clients.test.ts',
  'test/e2e/failure-issue.test.ts',
  'test/e2e/modules.test.ts',
  'test/unit/run/follow/push.test.ts',
  'test/e2e/reliability/backstop.test.ts',
  'test/e2e/tunnel.test.ts',
  'test/e2e/fail-fast.test.ts',
  'test/e2e/demo.test.ts',
  'test/e2e/control.test.ts',
  'test/unit/run/follow/watch.test.ts',
  'test/emulator/runs.test.ts',
  'test/e2e/action.test.ts',
  'test/e2e/reliability/secrets.test.ts',
  'test/e2e/reliability/extras.test.ts',
  'test/e2e/on-demand.test.ts',
  'test/e2e/verdict.test.ts',
  'test/e2e/artifacts-upload.test.ts',
  'test/emulator/cli.test.ts',
  'test/e2e/verdict-before-timing.test.ts',
  'test/emulator/browser/modules.test.ts',
  'test/unit/artifacts/publish.test.ts',
  'test/contract/probe.test.ts',
  'test/unit/report/summary.test.ts',
  'test/unit/tunnel/check-agents.test.ts',
  'test/unit/tunnel/left-agent.test.ts',
  'test/e2e/artifacts.test.ts',
  'test/e2e/notify.test.ts',
  'test/unit/tunnel/tunnel-failures.test.ts',
  'test/e2e/artifacts-proxy.test.ts',
  'test/e2e/reliability/lies.test.ts',
  'test/unit/run/follow/retry.test.ts',
  'test/e2e/junit.test.ts',
  'test/contract/shell-client.test.ts',
  'test/unit/action/tunnel.test.ts',
  'test/unit/action/readme.test.ts',
  'test/unit/run/follow/watch-failures.test.ts',
  'test/unit/tunnel/agent.test.ts',
  'test/unit/lint/imports.test.ts',
  'test/e2e/**/*.test.ts',
];

/**
 * The order files start in: those of `SLOW` in its order (a file matched only by a folder's pattern after
 * the named ones), then the others, largest first. Fixed, so a fresh clone (no durations cached by an earlier
 * run) packs the files as well as a warm one. One pool runs them all: vitest keeps a worker, with the
 * modules it imported, only while the next file belongs to the same project.
 */
class SlowFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (file: TestSpecification): number => {
      const named = SLOW.indexOf(file.moduleId.slice(file.project.config.root.length + 1));
      return named >= 0 ? named : SLOW.length;
    };
    const size = (file: TestSpecification): number => statSync(file.moduleId).size;
    return [...files].sort((a, b) => rank(a) - rank(b) || size(b) - size(a));
  }
}

export default defineConfig(({ mode }) => ({
  test: {
    include: ['test/**/*.test.ts'],
    exclude: [...configDefaults.exclude, ...(mode === 'fast' ? SLOW : [])],
    // A bound against a hang, not a speed goal; the Chromium files set a longer one.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Most test files spend their time waiting (on emulator runs, child processes, a browser, deadlines),
    // not computing: five files at once keep a 2-core machine busy without straining the tests' time
    // bounds. vitest's own `VITEST_MAX_WORKERS` variable overrides it.
    maxWorkers: 5,
    // Each worker imports the modules once for all the files it runs, not once per file: most files take
    // less time to run than to import. No test file keeps module state another reads (the mutation runs,
    // which run the same way, rely on it too); each world, emulator and browser is the file's own.
    isolate: false,
    sequence: { sequencer: SlowFirst },
    // The demo's Chromium executor multiplies its waits for a condition (an element, an assertion) by it:
    // three times as long as the suites ask, so a step that passes on a quiet machine passes on a busy one
    // and a designed failure fails the same, later. Nothing else reads it.
    env: { BROWSER_WAIT_SCALE: '3' },
    // vitest keeps each test file and module as it transformed it (under node_modules/), so a run after
    // the first transforms only what changed.
    experimental: { fsModuleCache: true },
  },
}));
