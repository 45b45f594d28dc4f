/**
 * The action, as a table of contents: read inputs → run → verdict → screenshots → report writers →
 * outputs → pass or fail. The only place that fails the step for a verdict.
 *
 * Each step lives in its own module: `action/inputs.ts` (read and mask), `action/run-tests.ts` (the engine
 * under the deadline), `action/verdict.ts`, `artifacts/for-report.ts` (screenshots), `report/writers.ts`
 * (results.json, JUnit, job summary, annotations, PR comment), `run/outputs.ts`; the GitHub context is
 * `github.ts`, the signal and exit handling `action/stop.ts`, and every dependency on the world comes in
 * through `deps` (`action/deps.ts`), so a test can run the action in-process.
 *
 * Workflow cancel: on SIGINT or SIGTERM the remote runs are cancelled, the quick reports are written and
 * the process exits non-zero within 6.5 s of the signal (`action/stop.ts`, `run/deadline.ts`).
 */
import path from 'node:path';
import { readActionInputs } from './action/inputs.js';
import { processDeps, type ActionDeps } from './action/deps.js';
import { messageOf } from './common/log.js';
import { ensureRunnerFiles } from './action/runner-files.js';
import { runTests } from './action/run-tests.js';
import { listenForWorkflowCancel } from './action/stop.js';
import { announceVerdict, decideRunVerdict } from './action/verdict.js';
import { publishForReport } from './artifacts/for-report.js';
import { buildReport, buildStartedReport } from './report/model.js';
import { writeReports } from './report/writers.js';
import { computeOutputs } from './run/outputs.js';

export type { ActionDeps } from './action/deps.js';

/**
 * Runs the action. Sets outputs and the step's result through `deps.sink`; never throws. After a workflow
 * cancel it ends with `deps.exitAfterCancel()`.
 * @param deps the world the action runs in; default the real one ({@link processDeps})
 */
export async function run(deps: ActionDeps = processDeps()): Promise<void> {
  const { sink, github } = deps;
  const startedAtMs = deps.clock.now();
  const cancel = listenForWorkflowCancel(deps);
  let interrupted = false;
  try {
    const inputs = await readActionInputs(deps);
    if (!inputs) return;
    const resultsDir = path.dirname(inputs.resultsPath);
    try {
      await ensureRunnerFiles(resultsDir, github, sink);
    } catch (error) {
      sink.setFailed(`Could not create the directory of results-path (${resultsDir}): ${messageOf(error)}`);
      return;
    }

    const summary = await runTests(inputs, deps, startedAtMs, cancel.signal);
    interrupted = summary.interrupted === 'signal';
    const verdict = decideRunVerdict(inputs, summary);
    const waited = verdict.waited;
    const shots = await publishForReport(inputs, summary, { waited, interrupted, sink, env: deps.env });
    const report = waited
      ? buildReport(summary, verdict, shots.attachments)
      : buildStartedReport(summary, verdict.policy);
    const artifactUrl = shots.published?.artifactUrl;
    await writeReports({
      report,
      inputs,
      verdict,
      interrupted,
      github,
      sink,
      ...(artifactUrl ? { artifactUrl } : {}),
    });

    for (const [name, value] of Object.entries(computeOutputs(summary, verdict, inputs.resultsPath))) {
      sink.setOutput(name, value);
    }
    announceVerdict(sink, verdict);
  } catch (error) {
    sink.setFailed(`Unexpected error: ${messageOf(error)}`);
  } finally {
    cancel.dispose();
    if (interrupted || cancel.signal.aborted) deps.exitAfterCancel();
  }
}
