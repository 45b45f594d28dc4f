/** Removes secrets from the run model, field by field where one can be, before any report (docs/redaction.md). */
import { createRedactor, REDACTED } from '../../api/redact.js';
import type { ConsoleEntry, Step, SuiteResult, TestResult } from '../../api/types.js';
import type { RunSummary, SuiteRun, TestRun } from '../types.js';

export interface Secrets {
  /** Secret values: API key, HTTP auth password, private variable values, URL passwords. */
  values: ReadonlyArray<string>;
  /** Names of the private variables: their values are hidden wherever a result lists variables. */
  privateVariableNames: ReadonlyArray<string>;
}

type Redact = (text: string) => string;

function redactConsole(entry: ConsoleEntry, text: Redact): ConsoleEntry {
  return {
    ...entry,
    ...(typeof entry.output === 'string' ? { output: text(entry.output) } : {}),
    ...(typeof entry.url === 'string' ? { url: text(entry.url) } : {}),
  };
}

/** Strings anywhere inside `value` (free text the contract leaves open, a step's selectors), keys kept. */
function redactStrings(value: unknown, text: Redact): unknown {
  if (typeof value === 'string') return text(value);
  if (Array.isArray(value)) return value.map((v) => redactStrings(v, text));
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value as Record<string, unknown>)) out[k] = redactStrings(v, text);
    return out;
  }
  return value;
}

/** Private variables by name (however short the value); the others as free text (they may quote a secret). */
function redactVariables(
  variables: TestResult['variables'],
  text: Redact,
  privateNames: ReadonlySet<string>,
): TestResult['variables'] {
  const out = Object.create(null) as TestResult['variables'];
  for (const [name, value] of Object.entries(variables)) {
    out[name] = privateNames.has(name) ? REDACTED : typeof value === 'string' ? text(value) : value;
  }
  return out;
}

function redactTestResult(result: TestResult, text: Redact, privateNames: ReadonlySet<string>): TestResult {
  const out: TestResult = { ...result };
  if (typeof result.name === 'string') out.name = text(result.name);
  if (result.test && typeof result.test === 'object') {
    out.test = {
      ...result.test,
      ...(typeof result.test.name === 'string' ? { name: text(result.test.name) } : {}),
    };
  }
  for (const key of ['screenshot', 'screenshotCompare', 'video'] as const) {
    if (result[key] && typeof result[key] === 'object') out[key] = redactStrings(result[key], text) as never;
  }
  if (typeof result.startUrl === 'string') out.startUrl = text(result.startUrl);
  if (typeof result.endUrl === 'string') out.endUrl = text(result.endUrl);
  if (Array.isArray(result.urls)) out.urls = result.urls.map((u) => (typeof u === 'string' ? text(u) : u));
  if (Array.isArray(result.steps)) out.steps = result.steps.map((s) => redactStrings(s, text) as Step);
  if (Array.isArray(result.console)) out.console = result.console.map((c) => redactConsole(c, text));
  if (Array.isArray(result.comments)) {
    out.comments = result.comments.map((c) => ({ ...c, message: text(c.message) }));
  }
  if (result.error && typeof result.error === 'object') {
    out.error = redactStrings(result.error, text) as TestResult['error'];
  }
  if (result.extractions && typeof result.extractions === 'object') {
    out.extractions = redactStrings(result.extractions, text) as TestResult['extractions'];
  }
  if (result.variables && typeof result.variables === 'object') {
    out.variables = redactVariables(result.variables, text, privateNames);
  }
  return out;
}

function redactSuiteResult(result: SuiteResult, text: Redact): SuiteResult {
  const out: SuiteResult = { ...result };
  if (typeof result.name === 'string') out.name = text(result.name);
  if (result.suite && typeof result.suite === 'object' && typeof result.suite.name === 'string') {
    out.suite = { ...result.suite, name: text(result.suite.name) };
  }
  if (typeof result.startUrl === 'string') out.startUrl = text(result.startUrl);
  if (Array.isArray(result.comments)) {
    out.comments = result.comments.map((c) => ({ ...c, message: text(c.message) }));
  }
  return out;
}

function redactTestRun(test: TestRun, text: Redact, privateNames: ReadonlySet<string>): TestRun {
  return {
    ...test,
    testName: text(test.testName),
    result: test.result ? redactTestResult(test.result, text, privateNames) : null,
    attempts: test.attempts.map((a) => redactTestResult(a, text, privateNames)),
    ...(test.error !== undefined ? { error: text(test.error) } : {}),
  };
}

function redactSuiteRun(run: SuiteRun, text: Redact, privateNames: ReadonlySet<string>): SuiteRun {
  return {
    ...run,
    suiteName: text(run.suiteName),
    ...(run.file !== undefined ? { file: text(run.file) } : {}),
    variant: {
      ...run.variant,
      ...(run.variant.startUrl !== undefined ? { startUrl: text(run.variant.startUrl) } : {}),
    },
    ...(run.suiteResult ? { suiteResult: redactSuiteResult(run.suiteResult, text) } : {}),
    tests: run.tests.map((t) => redactTestRun(t, text, privateNames)),
    ...(run.error !== undefined ? { error: text(run.error) } : {}),
  };
}

/** A copy of the run model, secrets removed; URL user-info and `apiKey` values go even without secrets. */
export function redactSummary(summary: RunSummary, secrets: Secrets): RunSummary {
  const text = createRedactor(secrets.values);
  const privateNames = new Set(secrets.privateVariableNames);
  return { ...summary, runs: summary.runs.map((r) => redactSuiteRun(r, text, privateNames)) };
}
