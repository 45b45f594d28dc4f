/**
 * results.json: every normalized result in one file, so that the action's outputs stay small (docs/github-platform.md,
 * "Outputs": about 1 MiB of outputs per job) while a later step can read everything.
 *
 * Shape (version 1), one schema whether the action waited or not (`wait: false`):
 * ```
 * {"version":1,"waited":true,"verdict":"failed","passing":false,"reasons":["1 test failed."],
 *  "counts":{…the `counts` output…},"policy":{…},"appUrl":"…","startedAt":"…","finishedAt":"…",
 *  "totals":{…},"runs":[{key, kind, name, suiteName, suiteId, variant, variantLabel, suiteResultId,
 *  suiteResultUrl, startedAt, endedAt, durationMs, error, timedOut, cancelled, totals}, …],
 *  "results":[
 * {"run":"<suite run key>","suite":"<suite run name>", …every ReportTest field…},
 * …
 * ]}
 * ```
 * `verdict`, `passing`, `reasons`, `counts` and `totals` are the one verdict (`run/outcome.ts`): the step
 * fails exactly when `passing` is false. With `wait: false`, `verdict` is `started` (or `not-started`),
 * `counts` has only `total` and `error` (the rest null), and `results` holds one entry per run that could
 * not be started.
 * One result per line, so the file streams: a reader can split lines between `"results":[` and `]}`, and
 * the writer never holds the whole text in memory.
 */
import { createWriteStream } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import { once } from 'node:events';

import type { Report } from './model.js';
import { countValues, startedCountValues } from '../run/outcome/outputs.js';

/** Version of the results.json layout; raised on a breaking change. */
export const RESULTS_JSON_VERSION = 1;

/**
 * Renders results.json (pure).
 * @param report the report model
 * @returns JSON text, one result per line
 */
export function renderResultsJson(report: Report): string {
  return [...resultsJsonChunks(report)].join('');
}

/**
 * Writes results.json chunk by chunk (one result per write), creating the folder when needed.
 * @param report the report model
 * @param path file path (relative to the working directory, or absolute)
 * @throws the file system's error when the file cannot be written
 */
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
export function* resultsJsonChunks(report: Report): Generator<string> {
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
