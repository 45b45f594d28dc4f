/**
 * What the run model keeps of a test result (`src/run/kept-result.ts`): every report made from kept results
 * is the report made from the results as the service answered them, and what no report, verdict or re-run
 * reads is not kept.
 */
import { describe, expect, it } from 'vitest';
import { renderJUnit } from '../../../src/report/junit.js';
import { renderResultsJson } from '../../../src/report/results-json.js';
import { keptResult } from '../../../src/run/kept-result.js';
import type { RunSummary } from '../../../src/run/types.js';
import { testResult } from '../../support/run-factories.js';
import { reportOf, SCENARIOS } from '../report/scenarios.js';

/** `summary` with each test result and attempt as the run model keeps it. */
function kept(summary: RunSummary): RunSummary {
  return {
    ...summary,
    runs: summary.runs.map((run) => ({
      ...run,
      tests: run.tests.map((t) => ({
        ...t,
        result: t.result && keptResult(t.result),
        attempts: t.attempts.map(keptResult),
      })),
    })),
  };
}

describe.each(Object.keys(SCENARIOS))('kept results, scenario %s', (name) => {
  it('give the same report model, JUnit file and results.json as the whole results', () => {
    const scenario = SCENARIOS[name]!();
    const whole = reportOf(scenario.summary, scenario.policy, scenario.attachments);
    const fromKept = reportOf(kept(scenario.summary), scenario.policy, scenario.attachments);
    expect(fromKept).toEqual(whole);
    expect(renderJUnit(fromKept)).toBe(renderJUnit(whole));
    expect(renderResultsJson(fromKept)).toBe(renderResultsJson(whole));
  });
});

describe('keptResult', () => {
  it('keeps neither what nothing reads of a result nor of its steps', () => {
    // What the reports read of a step; the service also answers the fields added to it below.
    const keptStep = {
      sequence: 0,
      command: 'click',
      target: '#buy',
      value: '',
      condition: null,
      optional: false,
      private: false,
      passing: true,
      url: 'https://shop.test/',
      extra: { source: { test: 't1', sequence: 0 } },
    };
    const whole = testResult({
      steps: [
        {
          ...keptStep,
          variableName: 'total',
          ...{ _id: 's1', notes: 'a note', dateExecuted: '2026-01-01T00:00:00.000Z' },
        },
      ],
      variables: { ROW: '3' },
    });
    const result = keptResult(whole) as unknown as Record<string, unknown>;
    for (const dropped of ['uuid', 'organization', 'urls', 'comments', 'dateCreated', 'extractions']) {
      expect(whole).toHaveProperty(dropped);
      expect(result).not.toHaveProperty(dropped);
    }
    expect(result.test).toEqual({ _id: refOf(whole.test)._id, name: refOf(whole.test).name });
    // A re-run of a data row sends the row's variables again.
    expect(result.variables).toEqual({ ROW: '3' });
    expect(result.steps).toEqual([keptStep]);
  });

  it('takes odd service data as it is: a test by id, no test, no steps', () => {
    const byId = testResult({ test: 't1' });
    expect(keptResult(byId).test).toBe('t1');
    expect(keptResult(testResult({ test: null })).test).toBeNull();
    const stepless = { ...testResult() } as Partial<ReturnType<typeof testResult>>;
    delete stepless.steps;
    expect(keptResult(stepless as ReturnType<typeof testResult>).steps).toBeUndefined();
  });
});

function refOf(ref: ReturnType<typeof testResult>['test']): { _id: string; name: string } {
  if (!ref || typeof ref !== 'object') throw new Error('the factory gives a test object');
  return ref;
}
