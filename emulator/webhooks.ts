/**
 * Webhooks (docs/api-contract.md, "Webhooks"). When a test run ends, the documented envelope
 * `{"type": "result", "data": TEST_RESULT}` is POSTed as JSON, `data` being the test result with
 * `organization: {_id, name}` and `suite: {_id, name}` filled in, `deleted: false`, and the comparison baseline as
 * `{_id, screenshot}` (null without one), as in the service's documented sample. Its URLs: the test execute's (or on-demand
 * execute's) `webhook` parameter, and the notification webhooks that apply to the test: its own
 * `notifications.webhooks`, else its suite's ("use suite settings"), else its organization's ("use
 * organizational settings"), each URL with its condition. A suite run as a whole POSTs
 * `{"type": "suiteResult", "data": SUITE_RESULT}` to the suite execute's `webhook` URLs and the suite's
 * `notificationsSuite.webhooks`: a guess, as are the conditions' names (emulator/DEVIATIONS.md).
 * One attempt per URL with a short timeout; a failing receiver never affects the run.
 */
import type { NotificationChannel, Notifications } from './api-types.js';
import type { FinishRecord } from './run-records.js';
import type { ExecuteParams } from './params.js';
import type { Store } from './store.js';
import { clone } from './util.js';

/** How long one webhook POST may take, ms (real time). */
export const WEBHOOK_TIMEOUT_MS = 5_000;

/**
 * The condition of a notification URL (guessed names; the service's stored form is not public): null, `"all"`
 * or one not known here = every run; `"fail"` = failing runs only; `"change"` = "send once if the test
 * fails, then once when it passes".
 */
export type WebhookCondition = null | 'all' | 'fail' | 'change';

/** The webhooks channel that applies: the first level (test, suite, organization) that sets one. */
export function applyingChannel(
  levels: Array<Notifications | null | undefined>,
): NotificationChannel | undefined {
  for (const notifications of levels) {
    const channel = notifications?.webhooks;
    if (channel !== undefined && channel !== null) return channel;
  }
  return undefined;
}

/** Enabled URLs of a channel with their conditions. */
function channelUrls(channel: NotificationChannel | undefined): Array<{ url: string; condition: unknown }> {
  if (!channel?.enabled) return [];
  return (channel.options?.urls ?? []).filter((u) => typeof u?.url === 'string' && u.url !== '');
}

/** A run that ended as the conditions see it. */
interface Ended {
  /** The test or suite whose verdicts a "change" condition follows (a result id for on-demand runs). */
  subject: string;
  passing: boolean | null;
}

export class Webhooks {
  /** Execute parameters of the runs started: `webhook` URLs and `disableNotifications`, by result id. */
  private readonly runs = new Map<string, { urls: string[]; disabled: boolean }>();
  /** For "change" conditions: whether the subject's last notified run failed, by subject and URL. */
  private readonly failing = new Map<string, boolean>();

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

  /** Sends the webhooks of an ended run (in the background). */
  onFinish(record: FinishRecord): void {
    const run = this.runs.get(record.resultId);
    this.runs.delete(record.resultId);
    const suiteRun = record.suiteResultId ? this.runs.get(record.suiteResultId) : undefined;
    if (!this.enabled || run?.disabled || (record.kind === 'test-result' && suiteRun?.disabled)) return;
    const message = record.kind === 'suite-result' ? this.suiteMessage(record) : this.testMessage(record);
    if (!message) return;
    const ended: Ended = { subject: message.subject, passing: record.passing };
    const urls = new Set(run?.urls ?? []);
    for (const { url, condition } of message.configured)
      if (this.wanted(ended, url, condition)) urls.add(url);
    if (urls.size === 0) return;
    const body = JSON.stringify(message.body());
    for (const url of urls) void post(url, body);
  }

  /** The documented test-run webhook and the notification URLs that apply to the test. */
  private testMessage(record: FinishRecord) {
    const result = this.store.results.get(record.resultId);
    if (!result) return undefined;
    const test = record.testId ? this.store.tests.get(record.testId) : undefined;
    const suite = this.store.suites.get(result.test?.suite ?? '');
    const org = this.store.organizations.get(result.organization);
    const baseline = result.screenshotCompareBaselineResult
      ? this.store.results.get(result.screenshotCompareBaselineResult)
      : undefined;
    // The message is built only when some URL is to receive it (a suite of thousands sends none).
    const body = () => ({
      type: 'result',
      data: {
        ...clone(result),
        organization: { _id: result.organization, name: org?.name ?? '' },
        // An on-demand run has no suite: empty strings (guessed) keep receivers that read `data.suite` working.
        suite: { _id: suite?._id ?? '', name: suite?.name ?? '' },
        // As the documented sample: the result is not deleted, and the baseline is an object, not an id.
        deleted: false,
        screenshotCompareBaselineResult: baseline
          ? { _id: baseline._id, screenshot: clone(baseline.screenshot ?? null) }
          : null,
      },
    });
    const channel = applyingChannel([test?.notifications, suite?.notifications, org?.notifications]);
    return {
      subject: record.testId ?? record.resultId,
      body,
      configured: channelUrls(channel),
    };
  }

  /** A suite run's webhook (guessed envelope) and the suite's `notificationsSuite` URLs. */
  private suiteMessage(record: FinishRecord) {
    const suiteResult = this.store.suiteResults.get(record.resultId);
    if (!suiteResult) return undefined;
    const org = this.store.organizations.get(suiteResult.suite.organization);
    const suite = this.store.suites.get(suiteResult.suite._id);
    return {
      subject: suiteResult.suite._id,
      body: () => ({
        type: 'suiteResult',
        data: { ...clone(suiteResult), organization: { _id: org?._id ?? '', name: org?.name ?? '' } },
      }),
      configured: channelUrls(applyingChannel([suite?.notificationsSuite])),
    };
  }

  /** Whether a notification URL's condition lets this run's webhook go, keeping "change" state. */
  private wanted(ended: Ended, url: string, condition: unknown): boolean {
    if (condition === 'fail') return ended.passing === false;
    if (condition !== 'change') return true;
    if (ended.passing === null) return false;
    const key = `${ended.subject} ${url}`;
    const wasFailing = this.failing.get(key) === true;
    const failed = ended.passing === false;
    if (failed === wasFailing) return false;
    this.failing.set(key, failed);
    return true;
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
