/** Removes secrets from the run model, field by field where one can be, before any report (docs/redaction.md). */
import { createRedactor, REDACTED } from '../../api/redact.js';
import type { ConsoleEntry, SuiteResult } from '../../api/types.js';
import type { KeptTestResult } from '../kept-result.js';
import type { RunSummary, SuiteRun, TestRun } from '../types.js';

export interface Secrets {
  /** Secret values: API key, HTTP auth password, private variable values, URL passwords. */
  values: ReadonlyArray<string>;
  /** Names of the private variables: their values are hidden wherever a result lists variables. */
  privateVariableNames: ReadonlyArray<string>;
}

type Redact = (text: string) => string;

function redactConsole(entry: ConsoleEntry, text: Redact): void {
  if (typeof entry.output === 'string') entry.output = text(entry.output);
  if (typeof entry.url === 'string') entry.url = text(entry.url);
}

/** Strings anywhere inside `value` (free text the contract leaves open, a step's selectors), keys kept. */
function redactStrings(value: unknown, text: Redact): unknown {
  if (typeof value === 'string') return text(value);
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) value[i] = redactStrings(value[i], text);
  } else if (value && typeof value === 'object') {
    const record = value as Record<string, unknown>;
    for (const k of Object.keys(record)) record[k] = redactStrings(record[k], text);
  }
  return value;
}

/** Private variables by name (however short the value); the others as free text (they may quote a secret). */
function redactVariables(
  variables: KeptTestResult['variables'],
  text: Redact,
  privateNames: ReadonlySet<string>,
): void {
  for (const [name, value] of Object.entries(variables)) {
    variables[name] = privateNames.has(name) ? REDACTED : typeof value === 'string' ? text(value) : value;
  }
}

function redactComments(comments: unknown, text: Redact): void {
  if (!Array.isArray(comments)) return;
  for (const c of comments as Array<{ message: string }>) c.message = text(c.message);
}

function redactTestResult(result: KeptTestResult, text: Redact, privateNames: ReadonlySet<string>): void {
  if (typeof result.name === 'string') result.name = text(result.name);
  if (result.test && typeof result.test === 'object' && typeof result.test.name === 'string') {
    result.test.name = text(result.test.name);
  }
  for (const key of ['screenshot', 'screenshotCompare', 'video', 'error'] as const) {
    if (result[key] && typeof result[key] === 'object') redactStrings(result[key], text);
  }
  if (typeof result.startUrl === 'string') result.startUrl = text(result.startUrl);
  if (typeof result.endUrl === 'string') result.endUrl = text(result.endUrl);
  if (Array.isArray(result.steps)) redactStrings(result.steps, text);
  if (Array.isArray(result.console)) for (const c of result.console) redactConsole(c, text);
  if (result.variables && typeof result.variables === 'object') {
    redactVariables(result.variables, text, privateNames);
  }
}

function redactSuiteResult(result: SuiteResult, text: Redact): void {
  if (typeof result.name === 'string') result.name = text(result.name);
  if (result.suite && typeof result.suite === 'object' && typeof result.suite.name === 'string') {
    result.suite.name = text(result.suite.name);
  }
  if (typeof result.startUrl === 'string') result.startUrl = text(result.startUrl);
  redactComments(result.comments, text);
}

function redactTestRun(test: TestRun, text: Redact, privateNames: ReadonlySet<string>): void {
  test.testName = text(test.testName);
  if (test.result) redactTestResult(test.result, text, privateNames);
  for (const attempt of test.attempts) redactTestResult(attempt, text, privateNames);
  if (test.error !== undefined) test.error = text(test.error);
}

function redactSuiteRun(run: SuiteRun, text: Redact, privateNames: ReadonlySet<string>): void {
  run.suiteName = text(run.suiteName);
  if (run.file !== undefined) run.file = text(run.file);
  if (run.variant.startUrl !== undefined) run.variant.startUrl = text(run.variant.startUrl);
  if (run.suiteResult) redactSuiteResult(run.suiteResult, text);
  for (const test of run.tests) redactTestRun(test, text, privateNames);
  if (run.error !== undefined) run.error = text(run.error);
}

/**
 * Removes the secrets from the run model in place and returns it: no second copy of thousands of results
 * is made (docs/performance.md, "Memory"), so nothing may read the model's secrets after this. URL user-info
 * and `apiKey` values go even without secrets.
 */
export function redactSummary(summary: RunSummary, secrets: Secrets): RunSummary {
  const text = createRedactor(secrets.values);
  const privateNames = new Set(secrets.privateVariableNames);
  for (const run of summary.runs) redactSuiteRun(run, text, privateNames);
  return summary;
}
