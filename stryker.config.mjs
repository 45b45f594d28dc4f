// @ts-check
/**
 * Mutation testing (StrykerJS with its vitest runner): how many small faults planted in `src/run`,
 * `src/artifacts`, `src/tunnel` and `src/action` the in-process tests notice. `npm run mutate`; one folder
 * with `npm run mutate -- --mutate 'src/artifacts/**\/*.ts'`. Not part of CI: it takes long. The bundle's
 * tests (`dist/index.js` as a child process) cannot see a mutant, so `vitest.mutate.config.ts` runs only the
 * tests that call `src/` in the test process. Reports go to `reports/mutation/` (ignored by git).
 * @type {import('@stryker-mutator/api/core').PartialStrykerOptions}
 */
export default {
  testRunner: 'vitest',
  plugins: ['@stryker-mutator/vitest-runner'],
  // `related` would walk each test file's imports on every mutant: per-test coverage already names the tests.
  vitest: { configFile: 'vitest.mutate.config.ts', related: false },
  mutate: ['src/run/**/*.ts', 'src/artifacts/**/*.ts', 'src/tunnel/**/*.ts', 'src/action/**/*.ts'],
  coverageAnalysis: 'perTest',
  // Mutants of module-level constants would need every test again; they are reported, not run.
  ignoreStatic: true,
  // The in-process tests still wait on real time in part: four runners keep two cores busy.
  concurrency: 4,
  timeoutMS: 30_000,
  // The first run of all tests takes minutes on a busy 2-core machine.
  dryRunTimeoutMinutes: 20,
  // Reruns test only the mutants whose code or covering tests changed (`--force` tests them all again).
  incremental: true,
  incrementalFile: 'reports/mutation/stryker-incremental.json',
  reporters: ['clear-text', 'progress', 'html', 'json'],
  htmlReporter: { fileName: 'reports/mutation/mutation.html' },
  jsonReporter: { fileName: 'reports/mutation/mutation.json' },
  tempDirName: '.stryker-tmp',
  cleanTempDir: 'always',
  thresholds: { high: 90, low: 80, break: null },
};
