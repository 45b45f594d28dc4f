/**
 * results.json (docs/results-json.md): the verdict, counts, policy and runs, then `"results":[` with one
 * ReportTest (plus `run` and `suite`) per line, so the file streams.
 */
import type { Report } from './model-types.js';
import { writeTextFile } from './text-file.js';
import { countValues, startedCountValues } from '../run/outcome/outputs.js';

/** Version of the results.json layout; raised on a breaking change. */
export const RESULTS_JSON_VERSION = 1;

/** Renders results.json (pure): JSON text, one result per line. */
export function renderResultsJson(report: Report): string {
  return [...resultsJsonChunks(report)].join('');
}

/** Writes results.json to `path`, one result per write. @throws the file system's error */
export function writeResultsJson(report: Report, path: string): Promise<void> {
  return writeTextFile(path, resultsJsonChunks(report));
}

/** The pieces of results.json in order: the head, one line per result, the tail. */
function* resultsJsonChunks(report: Report): Generator<string> {
  const head = {
    version: RESULTS_JSON_VERSION,
    waited: report.waited,
    verdict: report.verdict,
    passing: report.passing,
    reasons: report.reasons,
    counts: report.waited ? countValues(report.totals) : startedCountValues(report.totals),
    policy: report.policy,
    appUrl: report.appUrl,
    startedAt: report.startedAt,
    finishedAt: report.finishedAt,
    ...(report.interrupted ? { interrupted: report.interrupted } : {}),
    totals: report.totals,
    runs: report.runs.map(({ tests: _tests, ...run }) => run),
  };
  const headText = JSON.stringify(head);
  yield `${headText.slice(0, -1)},"results":[`;
  let first = true;
  for (const run of report.runs) {
    for (const test of run.tests) {
      yield `${first ? '\n' : ',\n'}${JSON.stringify({ run: run.key, suite: run.name, ...test })}`;
      first = false;
    }
  }
  yield '\n]}\n';
}
