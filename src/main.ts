/**
 * The action, as a table of contents: inputs → push listener → tunnel → run → verdict → modules' names →
 * reports → outputs → pass or fail → extras (docs/architecture.md). The only place that fails the step for a verdict.
 */
import path from 'node:path';
import { readActionInputs } from './action/inputs.js';
import { processDeps, type ActionDeps } from './action/deps.js';
import { messageOf } from './common/log.js';
import { createRedactor } from './api/redact.js';
import { StepProgress } from './action/boundary.js';
import { ensureRunnerFiles } from './action/runner-files.js';
import { runTests } from './action/run-tests.js';
import { openPush, throughTunnel, type StepPush } from './action/notify.js';
import { listenForWorkflowCancel } from './action/stop.js';
import { killingAgentsOnForceExit, openTunnel, warnRunsAfterAgentExit } from './action/tunnel.js';
import { announceVerdict, decideRunVerdict } from './action/verdict.js';
import { runExtras } from './action/extras.js';
import { buildReport, buildStartedReport } from './report/model.js';
import { readModuleNames, withModuleNames } from './report/module-names.js';
import { writeReports } from './report/writers.js';
import { computeOutputs } from './run/outcome/outputs.js';
import type { Tunnel } from './tunnel/tunnel.js';

export type { ActionDeps } from './action/deps.js';

/** Runs the action in `world` (default {@link processDeps}); never throws. */
export async function run(world: ActionDeps = processDeps()): Promise<void> {
  const deps = { ...killingAgentsOnForceExit(world), progress: world.progress ?? new StepProgress() };
  const { sink, github, progress } = deps;
  const startedAtMs = deps.clock.now();
  const cancel = listenForWorkflowCancel(deps, progress);
  let interrupted = false;
  let tunnel: Tunnel | null = null;
  let push: StepPush | null = null;
  try {
    const inputs = await readActionInputs(deps);
    if (!inputs) return;
    // Before the redactors and the tunnel: the listener's secret joins the secrets; the tunnel may lead to it.
    push = await openPush(inputs, deps);
    progress.redact = createRedactor(inputs.secrets);
    progress.summary = { title: inputs.summaryTitle, enabled: inputs.summary };
    const resultsDir = path.dirname(inputs.resultsPath);
    try {
      await ensureRunnerFiles(resultsDir, github, sink);
    } catch (error) {
      sink.setFailed(`Could not create the directory of results-path (${resultsDir}): ${messageOf(error)}`);
      return;
    }

    if (inputs.tunnel) {
      progress.doing = 'opening the tunnel';
      tunnel = await openTunnel(
        { ...inputs, tunnel: inputs.tunnel },
        deps,
        startedAtMs + inputs.timeoutMs,
        cancel.signal,
        push?.tunnelVia ?? undefined,
      );
      if (!tunnel) return;
    }
    const listener = push?.tunnelVia && tunnel ? throughTunnel(push.listener, tunnel.url) : push?.listener;
    progress.doing = 'running the tests';
    const { summary, api } = await runTests(inputs, deps, startedAtMs, cancel.signal, tunnel?.url, listener);
    progress.doing = 'writing the reports';
    await tunnel?.stop();
    if (tunnel) warnRunsAfterAgentExit(tunnel, summary, deps);
    interrupted = summary.interrupted === 'signal';
    const verdict = decideRunVerdict(inputs, summary);
    const built = verdict.waited
      ? buildReport(summary, verdict)
      : buildStartedReport(summary, verdict.policy);
    const { redact } = progress;
    const moduleNames = await readModuleNames(api, built, {
      signal: cancel.signal,
      clock: deps.clock,
      redact,
      log: (line) => sink.info(redact(line)),
    });
    const report = withModuleNames(built, moduleNames);
    const tunnelInfo = tunnel ? { tunnel: { url: tunnel.url, address: tunnel.address } } : {};
    const context = { report, inputs, verdict, interrupted, github, sink, ...tunnelInfo };
    await writeReports(context);
    progress.reported = true;
    for (const [name, value] of Object.entries(computeOutputs(summary, verdict, inputs.resultsPath))) {
      sink.setOutput(name, value);
    }
    announceVerdict(sink, verdict);
    progress.passed = verdict.passing;
    progress.doing = 'posting the extras (screenshots, pull-request comment, failure issue)';
    await runExtras(context, {
      summary,
      moduleNames,
      api,
      env: deps.env,
      signal: cancel.signal,
      clock: deps.clock,
    });
  } catch (error) {
    sink.setFailed(`Unexpected error: ${messageOf(error)}`);
  } finally {
    await tunnel?.stop();
    await push?.listener.close();
    cancel.dispose();
    if (interrupted || cancel.signal.aborted) deps.exitAfterCancel();
  }
}
