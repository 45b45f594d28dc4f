/**
 * The list of report writers (`src/report/writers.ts`): the order, the input each names, and a writer
 * that fails warning with its name while the next ones still run.
 */
import { describe, expect, it } from 'vitest';
import {
  failureIssue,
  pullRequestComment,
  REPORT_WRITERS,
  writeReports,
  type ReportContext,
  type ReportWriter,
} from '../../../src/report/writers.js';
import { RecordingSink } from '../../support/run-action.js';

describe('report writers', () => {
  it('results.json, JUnit, job summary, annotations; the PR comment comes later', () => {
    expect(REPORT_WRITERS.map((w) => w.what)).toEqual([
      'results.json (results-path)',
      'the JUnit report (junit-path)',
      'the job summary',
      'the annotations',
    ]);
    expect(pullRequestComment.what).toBe('the pull-request comment');
  });

  it('the failure issue is written for a failed or a passed verdict, never for a cancelled run or one without a verdict', () => {
    const wanted = (verdict: string, interrupted = false, on = true): boolean =>
      failureIssue.wanted({
        inputs: { failureIssue: on },
        interrupted,
        report: { verdict },
      } as unknown as ReportContext);
    expect(wanted('failed')).toBe(true);
    expect(wanted('passed')).toBe(true);
    expect(['cancelled', 'started', 'not-started'].map((v) => wanted(v))).toEqual([false, false, false]);
    expect(wanted('failed', true)).toBe(false);
    expect(wanted('failed', false, false)).toBe(false);
  });

  it('a writer that throws warns "Could not write <what>" and the next ones still run', async () => {
    const sink = new RecordingSink();
    const ran: string[] = [];
    const writer = (what: string, fail: boolean, wanted = true): ReportWriter => ({
      what,
      wanted: () => wanted,
      write: () => {
        ran.push(what);
        return fail ? Promise.reject(new Error('disk full')) : Promise.resolve();
      },
    });
    const context = { sink } as unknown as ReportContext;
    await writeReports(context, [writer('one', true), writer('skipped', false, false), writer('two', false)]);
    expect(ran).toEqual(['one', 'two']);
    expect(sink.stdout).toBe('::warning::Could not write one: disk full\n');
    expect(sink.failed).toBe(false);
  });
});
