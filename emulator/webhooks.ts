/**
 * Webhooks: when a run ends, its result (a test result or a suite result, in the API's envelope
 * `{code: "SUCCESS", data}`) is POSTed as JSON to the `webhook` URLs given at execute and to the enabled
 * `notifications.webhooks` URLs of the test (a test run) or the suite (a suite run). One attempt per URL with
 * a short timeout; a failing receiver never affects the run. `disableNotifications` skips them.
 */
import type { Notifications } from '../src/api/types.js';
import type { FinishRecord } from './engine.js';
import type { ExecuteParams } from './params.js';
import type { Store } from './store.js';

/** How long one webhook POST may take, ms (real time). */
export const WEBHOOK_TIMEOUT_MS = 5_000;

/** Enabled webhook URLs of a notifications setting. */
function notificationUrls(notifications: Notifications | undefined): string[] {
  const channel = notifications?.webhooks;
  if (!channel?.enabled) return [];
  return (channel.options?.urls ?? []).map((u) => u.url).filter((u) => typeof u === 'string' && u !== '');
}

export class Webhooks {
  /** Execute parameters of the runs started: `webhook` URLs and `disableNotifications`, by result id. */
  private readonly runs = new Map<string, { urls: string[]; disabled: boolean }>();

  constructor(
    private readonly store: Store,
    private enabled: boolean,
  ) {}

  /** Sends no more webhooks (the emulator is closing: its runs are cancelled, not ended). */
  stop(): void {
    this.enabled = false;
  }

  /** Records the execute's webhooks for the results it started (test results or suite results). */
  register(resultIds: string[], params: ExecuteParams): void {
    for (const id of resultIds)
      this.runs.set(id, { urls: params.webhooks, disabled: params.disableNotifications === true });
  }

  /** Sends the webhooks of an ended run (in the background). A test run of a suite run sends none. */
  onFinish(record: FinishRecord): void {
    const run = this.runs.get(record.resultId);
    this.runs.delete(record.resultId);
    if (!this.enabled || run?.disabled) return;
    const isSuite = record.kind === 'suite-result';
    if (!isSuite && record.suiteResultId) return;
    const result = isSuite
      ? this.store.suiteResults.get(record.resultId)
      : this.store.results.get(record.resultId);
    const configured = isSuite
      ? this.store.suites.get(record.suiteId ?? '')?.notifications
      : this.store.tests.get(record.testId ?? '')?.notifications;
    const urls = [...new Set([...(run?.urls ?? []), ...notificationUrls(configured)])];
    if (!result || urls.length === 0) return;
    const body = JSON.stringify({ code: 'SUCCESS', data: result });
    for (const url of urls) {
      void post(url, body);
    }
  }
}

/** One POST of `body` to `url`; never throws (a bad URL, a refused connection or a timeout is ignored). */
async function post(url: string, body: string): Promise<void> {
  try {
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
      signal: AbortSignal.timeout(WEBHOOK_TIMEOUT_MS),
    });
    await res.body?.cancel();
  } catch {
    // A failing receiver never affects the run.
  }
}
