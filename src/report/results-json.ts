/**
 * results.json (docs/results-json.md): the verdict, counts, policy and runs, then `"results":[` with one
 * ReportTest (plus `run` and `suite`) per line, so the file streams.
 */
import { createWriteStream } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import { once } from 'node:events';

import type { Report } from './model-types.js';
import { countValues, startedCountValues } from '../run/outcome/outputs.js';

/** Version of the results.json layout; raised on a breaking change. */
export const RESULTS_JSON_VERSION = 1;

/** Renders results.json (pure): JSON text, one result per line. */
export function renderResultsJson(report: Report): string {
  return [...resultsJsonChunks(report)].join('');
}

/** Writes results.json to `path`, one result per write. @throws the file system's error */
export async function writeResultsJson(report: Report, path: string): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  const stream = createWriteStream(path, { encoding: 'utf8' });
  const failed = once(stream, 'error').then(([err]) => Promise.reject(err as Error));
  failed.catch(() => undefined);
  for (const chunk of resultsJsonChunks(report)) {
    if (!stream.write(chunk)) await Promise.race([once(stream, 'drain'), failed]);
  }
  stream.end();
  await Promise.race([once(stream, 'finish'), failed]);
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
