/**
 * The names of the modules a report's failing steps came from (docs/reports.md, "Modules' names"):
 * the result step's `extra.source` names a module by its test id only, so each module's name is read with
 * `GET /v1/tests/{testId}/` (docs/api-contract.md, "Endpoints the action calls"), once per module, only for
 * the modules of failing steps. A name that cannot be read in time leaves the module named by its id.
 */
import type { GhostInspectorApi } from '../api/api.js';
import type { Clock } from '../common/clock.js';
import { messageOf } from '../common/log.js';
import { stopReason, withinTimeLimit } from '../common/time-limit.js';
import { plural } from '../common/words.js';
import type { FailingStep, Report } from './model-types.js';
import { cleanText } from './text.js';

/** Time the reports wait for the modules' names, every read together, ms. */
export const MODULE_NAMES_TIME_LIMIT_MS = 5_000;
/** Modules whose names are read (one request each); the others are named by their test ids. */
export const MAX_MODULE_NAMES = 20;

/** A module's name by its test id. */
export type ModuleNames = ReadonlyMap<string, string>;

/** The failing steps of `report`: each test's, then each of its earlier attempts', in report order. */
function* failingSteps(report: Report): Generator<FailingStep> {
  for (const run of report.runs) {
    for (const test of run.tests) {
      if (test.failingStep) yield test.failingStep;
      for (const attempt of test.attempts) if (attempt.failingStep) yield attempt.failingStep;
    }
  }
}

/** The test ids of the modules the failing steps of `report` came from: each once, in report order. */
export function failingModuleIds(report: Report): string[] {
  const ids = new Set<string>();
  for (const step of failingSteps(report)) if (step.module) ids.add(step.module.testId);
  return [...ids];
}

interface ModuleNamesOptions {
  /** The workflow cancel: no read starts after it, one under way ends. */
  signal: AbortSignal;
  /** The time of {@link MODULE_NAMES_TIME_LIMIT_MS}. */
  clock: Clock;
  /** Removes the secrets from a name (as the run model's names are). */
  redact: (text: string) => string;
  /** Told why names could not be read (redacted); the reports then name those modules by their ids. */
  log: (line: string) => void;
}

/**
 * Reads the names of the first {@link MAX_MODULE_NAMES} modules of `report`'s failing steps
 * ({@link failingModuleIds}), one `getTest` each, all within {@link MODULE_NAMES_TIME_LIMIT_MS} or until
 * the workflow cancel. No module, no request. Never throws: a module whose name cannot be read, or is empty,
 * is left out (after `log`).
 */
export async function readModuleNames(
  api: Pick<GhostInspectorApi, 'getTest'>,
  report: Report,
  options: ModuleNamesOptions,
): Promise<ModuleNames> {
  const ids = failingModuleIds(report);
  if (ids.length === 0 || options.signal.aborted) return new Map();
  const failed: string[] = [];
  const names = await withinTimeLimit(
    options.signal,
    MODULE_NAMES_TIME_LIMIT_MS,
    (signal) =>
      Promise.all(
        ids.slice(0, MAX_MODULE_NAMES).map(async (id) => {
          try {
            const test = await api.getTest(id, { signal });
            return [id, cleanText(options.redact(test.name))] as const;
          } catch (error) {
            failed.push(`${id}: ${signal.aborted ? `stopped: ${stopReason(signal)}` : messageOf(error)}`);
            return [id, ''] as const;
          }
        }),
      ),
    options.clock,
  );
  if (failed.length > 0) {
    const which = plural(failed.length, 'module');
    options.log(`Names of ${which} not read, the reports show their test ids: ${failed.join('; ')}`);
  }
  return new Map(names.filter(([, name]) => name !== ''));
}

/** `report` with each failing step of a module in `names` carrying the module's name (pure). */
export function withModuleNames(report: Report, names: ModuleNames): Report {
  if (names.size === 0) return report;
  const named = <T extends { failingStep?: FailingStep }>(item: T): T => {
    const module = item.failingStep?.module;
    const name = module && names.get(module.testId);
    return name ? { ...item, failingStep: { ...item.failingStep!, module: { ...module, name } } } : item;
  };
  return {
    ...report,
    runs: report.runs.map((run) => ({
      ...run,
      tests: run.tests.map((test) => ({ ...named(test), attempts: test.attempts.map(named) })),
    })),
  };
}
