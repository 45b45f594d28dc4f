import { defineConfig, mergeConfig } from 'vitest/config';
import base from './vitest.config.js';

/**
 * The tests `npm run mutate` (stryker.config.mjs) runs against each mutant: those that call `src/run`,
 * `src/artifacts`, `src/tunnel` and `src/action` in the test process. Tests of the bundle (`dist/index.js`
 * as a child process) are left out: a mutant of `src/` never reaches them.
 */
const IN_PROCESS = [
  'test/unit/run/**/*.test.ts',
  'test/unit/artifacts/**/*.test.ts',
  'test/unit/tunnel/**/*.test.ts',
  'test/unit/action/**/*.test.ts',
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
 * `MUTATE_TESTS` (comma-separated globs, each within the list) narrows the list for a quicker, lower-bound
 * measure of one folder by its own tests, e.g. `test/unit/tunnel/**`.
 */
const narrowed = process.env.MUTATE_TESTS?.split(',').map((glob) => glob.trim());

// mergeConfig joins arrays (the base's `test/**` would stay): the list is set after the merge.
const config = mergeConfig(base, defineConfig({ test: {} }));
config.test = { ...config.test, include: narrowed ?? IN_PROCESS };
export default config;
