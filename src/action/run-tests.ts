/** The action's run: one request budget, the API client and the engine under the deadline's backstop. */
import type { GhostInspectorApi } from '../api/api.js';
import { createClient } from '../api/client.js';
import { createRedactor } from '../api/redact.js';
import type { ActionInputs } from '../inputs/index.js';
import { RateBudget } from '../api/budget.js';
import { consoleReporter } from '../report/console.js';
import { runPlan } from '../run/engine.js';
import { redactSummary } from '../run/outcome/redact-summary.js';
import type { RunSummary } from '../run/types.js';
import type { PushListener } from '../run/follow/push.js';
import type { ActionDeps } from './deps.js';
import { runLog } from './log.js';
import { runStateRecorder } from './post.js';
import { armDeadlineBackstop } from './stop.js';

/**
 * Triggers the runs the inputs ask for and waits for them (unless `wait: false`), until the deadline
 * (`startedAtMs`, ms since the epoch on `deps.clock`) or a workflow cancel (`signal`); test runs post their
 * webhooks to `push` when given (its secret already among `inputs.secrets`; the caller closes it).
 * @returns the run model without secrets, and the client it was read with
 */
export async function runTests(
  inputs: ActionInputs,
  deps: ActionDeps,
  startedAtMs: number,
  signal: AbortSignal,
  tunnelUrl?: string,
  push?: PushListener | null,
): Promise<{ summary: RunSummary; api: GhostInspectorApi }> {
  const redact = createRedactor(inputs.secrets);
  // One request budget for every request the client sends, retries included; it slows down on 429s.
  const budget = new RateBudget({ clock: deps.clock });
  const api = (deps.createApi ?? createClient)({
    apiKey: inputs.apiKey,
    baseUrl: inputs.apiBaseUrl,
    secrets: inputs.secrets,
    log: (line) => deps.sink.debug(redact(line)),
    budget,
    clock: deps.clock,
    onUnexpectedShape: (message) => deps.sink.warning(redact(message)),
  });
  const disarmBackstop = armDeadlineBackstop(
    deps,
    startedAtMs + inputs.timeoutMs - deps.clock.now(),
    deps.progress,
  );
  const appUrl = deps.env.GHOST_INSPECTOR_APP_URL;
  // The post step cancels what a killed main step left going; runs meant to go on are never recorded.
  const recorder = inputs.wait ? runStateRecorder(deps.sink) : null;
  try {
    const raw = await runPlan(
      {
        suiteIds: inputs.suiteIds,
        folderIds: inputs.folderIds,
        testIds: inputs.testIds,
        repoTests: inputs.repoTests,
        resultIds: inputs.resultIds,
        organizationId: inputs.organizationId,
        execute:
          inputs.tunnel && tunnelUrl
            ? {
                ...inputs.execute,
                variables: { ...inputs.execute.variables, [inputs.tunnel.urlVariable]: tunnelUrl },
              }
            : inputs.execute,
        startUrls: inputs.startUrls,
        wait: inputs.wait,
        timeoutMs: inputs.timeoutMs,
        cancelOnTimeout: inputs.cancelOnTimeout,
        cancelResultIds: inputs.cancelResultIds,
        retryFailed: inputs.retryFailed,
        failFast: inputs.failFast,
      },
      {
        ...deps.engine,
        api,
        clock: deps.clock,
        onEvent: consoleReporter(runLog(deps.sink, redact)),
        signal,
        startedAtMs,
        ...(appUrl ? { appUrl } : {}),
        onRemote: (remote) => {
          deps.progress?.onRemote(remote);
          recorder?.onRemote(remote);
        },
        ...(push ? { push } : {}),
      },
    );
    if (raw.interrupted === 'deadline' && !inputs.cancelOnTimeout) recorder?.clear();
    const summary = redactSummary(raw, {
      values: inputs.secrets,
      privateVariableNames: inputs.privateVariableNames,
    });
    return { summary, api };
  } finally {
    disarmBackstop();
  }
}
