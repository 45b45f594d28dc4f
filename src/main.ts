/**
 * The action, as a table of contents: read inputs → tunnel → run → verdict → reports → outputs → pass or fail →
 * extras (screenshots, PR comment). The only place that fails the step for a verdict.
 *
 * Each step lives in its own module: `action/inputs.ts` (read and mask), `action/tunnel.ts`
 * (the tunnel to the app started in the job, stopped once the runs end), `action/run-tests.ts` (the engine
 * under the deadline), `action/verdict.ts`, `report/writers.ts` (results.json, JUnit, job summary,
 * annotations), `run/outputs.ts`, `action/extras.ts` (screenshots and the PR comment, each with a time
 * limit); the GitHub context is `github.ts`, the signal and exit handling `action/stop.ts`, and every
 * dependency on the world comes in through `deps` (`action/deps.ts`), so a test can run it in-process.
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
import { killingAgentsOnForceExit, openTunnel } from './action/tunnel.js';
import { announceVerdict, decideRunVerdict } from './action/verdict.js';
import { runExtras } from './action/extras.js';
import { buildReport, buildStartedReport } from './report/model.js';
import { writeReports } from './report/writers.js';
import { computeOutputs } from './run/outcome/outputs.js';
import type { Tunnel } from './tunnel/tunnel.js';

export type { ActionDeps } from './action/deps.js';

/**
 * Runs the action. Sets outputs and the step's result through `deps.sink`; never throws. After a workflow
 * cancel it ends with `deps.exitAfterCancel()`.
 * @param deps the world the action runs in; default the real one ({@link processDeps})
 */
export async function run(world: ActionDeps = processDeps()): Promise<void> {
  const deps = killingAgentsOnForceExit(world);
  const { sink, github } = deps;
  const startedAtMs = deps.clock.now();
  const cancel = listenForWorkflowCancel(deps);
  let interrupted = false;
  let tunnel: Tunnel | null = null;
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

    if (inputs.tunnel) {
      tunnel = await openTunnel(
        { ...inputs, tunnel: inputs.tunnel },
        deps,
        startedAtMs + inputs.timeoutMs,
        cancel.signal,
      );
      if (!tunnel) return;
    }
    const summary = await runTests(inputs, deps, startedAtMs, cancel.signal, tunnel?.url);
    await tunnel?.stop();
    interrupted = summary.interrupted === 'signal';
    const verdict = decideRunVerdict(inputs, summary);
    const report = verdict.waited
      ? buildReport(summary, verdict)
      : buildStartedReport(summary, verdict.policy);
    const tunnelInfo = tunnel ? { tunnel: { url: tunnel.url, address: tunnel.address } } : {};
    const context = { report, inputs, verdict, interrupted, github, sink, ...tunnelInfo };
    await writeReports(context);
    for (const [name, value] of Object.entries(computeOutputs(summary, verdict, inputs.resultsPath))) {
      sink.setOutput(name, value);
    }
    announceVerdict(sink, verdict);
    await runExtras(context, { summary, env: deps.env, signal: cancel.signal });
  } catch (error) {
    sink.setFailed(`Unexpected error: ${messageOf(error)}`);
  } finally {
    await tunnel?.stop();
    cancel.dispose();
    if (interrupted || cancel.signal.aborted) deps.exitAfterCancel();
  }
}
