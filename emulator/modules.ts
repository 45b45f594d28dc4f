/**
 * Modules: tests marked `importOnly`, which other tests pull in with an `execute` step whose value (or
 * target) is the module's test id. What the service does with them, as a client that measured the live
 * service reports it (emulator/DEVIATIONS.md): a module never runs on its own or in
 * its suite's runs, shows the status "Import Only", and a test result holds the imported steps expanded in
 * place, each result step carrying `extra.source {test, sequence}` (docs/api-contract.md, "Resources", Step:
 * `extra`, result steps only).
 *
 * The expansion happens here, once, before any executor runs: the simulated and the browser executors both
 * get the flat list and never see an `execute` step.
 */
import type { Step } from './api-types.js';
import type { Store, TestRecord } from './store.js';
import { invalid } from './util.js';

/** The step command that imports another test's steps (the service's name; JavaScript is `eval`). */
export const IMPORT_COMMAND = 'execute';
/** How deep imports may nest (a test importing a module importing a module is depth 2). Guessed. */
export const IMPORT_DEPTH_LIMIT = 10;
/** The status the service shows for a module instead of passing or failing. */
export const IMPORT_ONLY_STATUS = 'Import Only';

/** A step to run, in stored form, with the test and position it came from. */
export interface SourcedStep {
  step: Step;
  source: { test: string; sequence: number };
}

/**
 * Refuses a direct execute of a module with a VALIDATION_ERROR naming the test (the error text is guessed:
 * no public evidence shows the service's).
 */
export function refuseModuleExecute(test: TestRecord): void {
  if (test.importOnly)
    invalid(`Test "${test.name}" is import only: it runs only when imported by another test's execute step`);
}

/**
 * The tests a suite's runs execute, each with its steps expanded (`expandImports`): every test of the suite
 * but the modules, which the suite result neither runs nor counts.
 */
export function suiteRunTests(
  store: Store,
  suiteId: string,
): Array<{ test: TestRecord; steps: SourcedStep[] }> {
  return store
    .testsOf(suiteId)
    .filter((test) => !test.importOnly)
    .map((test) => ({ test, steps: expandImports(store, test, test.organization) }));
}

/**
 * The steps a run of `test` executes: its own steps, each `execute` step replaced by the imported test's
 * steps (recursively), each with its source. `orgId` is the organization whose tests may be imported (an
 * on-demand definition is not stored, so `test._id` may be absent from the store). Throws a VALIDATION_ERROR
 * before anything runs when an import names no test of the organization, imports itself again (a cycle) or
 * nests deeper than IMPORT_DEPTH_LIMIT (guessed texts).
 */
export function expandImports(store: Store, test: Pick<TestRecord, '_id' | 'name' | 'steps'>, orgId: string) {
  const out: SourcedStep[] = [];
  const walk = (current: Pick<TestRecord, '_id' | 'name' | 'steps'>, chain: string[]): void => {
    current.steps.forEach((step, sequence) => {
      if (step.command !== IMPORT_COMMAND) {
        out.push({ step, source: { test: current._id, sequence } });
        return;
      }
      const module = importedTest(store, step, orgId);
      if (!module)
        invalid(`Test "${current.name}" step ${sequence + 1} imports an unknown test: ${step.value}`);
      if (chain.includes(module._id))
        invalid(
          `Test "${current.name}" step ${sequence + 1} imports "${module.name}", which imports it back`,
        );
      if (chain.length > IMPORT_DEPTH_LIMIT)
        invalid(`Test "${test.name}" nests imports deeper than ${IMPORT_DEPTH_LIMIT} levels`);
      walk(module, [...chain, module._id]);
    });
  };
  walk(test, [test._id]);
  return out;
}

/** The test an import step names: its value, else its target, as a test id of the organization. */
export function importedTest(store: Store, step: Step, orgId: string): TestRecord | undefined {
  for (const ref of [step.value, typeof step.target === 'string' ? step.target : '']) {
    const found = store.tests.get(ref.trim());
    if (found && found.organization === orgId) return found;
  }
  return undefined;
}
