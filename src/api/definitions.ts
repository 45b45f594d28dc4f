/** Test definitions as files and request bodies: native JSON and recorder `.side` (docs/api-contract.md). */
import type { Step } from './types.js';

/** A step of a test definition: a step without its result-only fields. */
type StepDefinition = Omit<Step, 'passing' | 'url' | 'error'>;

/** What the action reads of a test in the native JSON format (the Test fields minus ids, dates, outcomes). */
export interface TestDefinition {
  name: string;
  startUrl?: string;
  steps: StepDefinition[];
}

/** What the action reads of a recorder .side document (docs/api-contract.md, "Test definitions"). */
export interface SideDocument {
  url: string;
  tests: Array<{ name: string; commands: Array<{ command: string; target: string; value: string }> }>;
}
