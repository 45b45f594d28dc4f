import path from 'node:path';
import { configDefaults, defineConfig, mergeConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import baseConfig from './vitest.config.js';

/**
 * The tests `npm run mutate` (stryker.config.mjs) runs against each mutant: those that call `src/run`,
 * `src/artifacts`, `src/tunnel` and `src/action` in the test process, and the unit tests of `src/inputs`,
 * `src/api/redact.ts` and `src/report/history.ts` (for a run of `--mutate` on those). Tests of the bundle (`dist/index.js`
 * as a child process) are left out: a mutant of `src/` never reaches them.
 */
const IN_PROCESS = [
  'test/unit/run/**/*.test.ts',
  'test/unit/artifacts/**/*.test.ts',
  'test/unit/tunnel/**/*.test.ts',
  'test/unit/action/**/*.test.ts',
  'test/unit/inputs/**/*.test.ts',
  'test/unit/api/redact.test.ts',
  'test/unit/report/history.test.ts',
  'test/e2e/artifacts-upload.test.ts',
  'test/e2e/browser-versions.test.ts',
  'test/e2e/inputs.test.ts',
  'test/e2e/junit.test.ts',
  'test/e2e/redaction.test.ts',
  'test/e2e/result-ids.test.ts',
  'test/e2e/side.test.ts',
  'test/e2e/verdict.test.ts',
  'test/e2e/reliability/consistency.test.ts',
  'test/e2e/reliability/edge-states.test.ts',
  'test/e2e/reliability/read-stop.test.ts',
  'test/e2e/reliability/annotation-slots.test.ts',
  'test/e2e/reliability/lies.test.ts',
];

/**
 * Stryker stops a mutant's run at its first failing test: the quickest files first (by the durations vitest
 * cached on an earlier run, else the smallest files) let a killed mutant end soonest.
 */
class QuickFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const cost = (file: TestSpecification): number => {
      const key = `${file.project.name}:${path.relative(file.project.config.root, file.moduleId)}`;
      return (
        this.ctx.cache.getFileTestResults(key)?.duration ??
        this.ctx.cache.getFileStats(key)?.size ??
        Number.MAX_SAFE_INTEGER
      );
    };
    return [...files].sort((a, b) => cost(a) - cost(b));
  }
}

/**
 * `MUTATE_TESTS` (comma-separated globs, each within the list) narrows the list for a quicker, lower-bound
 * measure of one folder by its own tests, e.g. `test/unit/tunnel/**`.
 */
const narrowed = process.env.MUTATE_TESTS?.split(',').map((glob) => glob.trim());

/** Tests that read the source as text (docs against code): an instrumented copy is not the text they expect. */
const SOURCE_TEXT = ['test/unit/action/readme.test.ts', 'test/unit/action/docs-paths.test.ts'];

// The base config as `vitest run` sees it. mergeConfig joins arrays: the list is set after the merge.
const base = baseConfig({ command: 'serve', mode: 'test' });
const config = mergeConfig(base, defineConfig({ test: {} }));
const shared = config.test ?? {};
config.test = {
  ...shared,
  include: narrowed ?? IN_PROCESS,
  exclude: [...configDefaults.exclude, ...SOURCE_TEXT],
  // Each mutant's run imports `src/` once instead of once per file; Stryker activates a mutant at run
  // time (`ignoreStatic`), so no module needs a fresh import. The whole list passes this way too.
  isolate: false,
  sequence: { ...shared.sequence, sequencer: QuickFirstSequencer },
};
export default config;
