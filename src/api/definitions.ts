/** Test definitions as files and request bodies: native JSON and recorder `.side` (docs/api-contract.md). */
import type { Step, Test } from './types.js';

/** A test in the native JSON format: the Test fields minus ids, dates, owners and outcomes. */
export type TestDefinition = Partial<
  Omit<
    Test,
    | '_id'
    | 'organization'
    | 'suite'
    | 'user'
    | 'passing'
    | 'screenshotComparePassing'
    | 'dateCreated'
    | 'dateUpdated'
    | 'dateExecutionStarted'
    | 'dateExecutionFinished'
    | 'dateExecutionTriggered'
    | 'steps'
  >
> & {
  name: string;
  steps: Array<Omit<Step, '_id' | 'passing' | 'dateExecuted' | 'url' | 'extra' | 'error'>>;
};

/** The recorder .side document (docs/api-contract.md, "Test definitions (repository test files)"). */
export interface SideDocument {
  id: string;
  version: string;
  name: string;
  url: string;
  tests: Array<{
    id: string;
    name: string;
    commands: Array<{ id?: string; command: string; target: string; value: string; comment?: string }>;
  }>;
  suites: Array<{
    id: string;
    name: string;
    persistSession: boolean;
    parallel: boolean;
    timeout: number;
    tests: string[];
  }>;
  plugins: unknown[];
}
