/** The step's webhooks' listener, when `notify` and `notify-url` ask for push (docs/architecture.md, "Push"). */
import type { ActionInputs } from '../inputs/index.js';
import { messageOf } from '../common/log.js';
import { startPushListener, type PushListener } from '../run/follow/push.js';
import type { ActionDeps } from './deps.js';

/**
 * Starts the listener on all interfaces at the port of `notify-url` when the step waits and `notify` is
 * `push` or `auto` with a `notify-url`; its secret joins `inputs.secrets` (masked, redacted everywhere) before
 * any run. Null (the step polls) otherwise, or with a warning when the port cannot be listened on.
 */
export async function openPush(
  inputs: ActionInputs,
  deps: Pick<ActionDeps, 'sink' | 'github'>,
): Promise<PushListener | null> {
  const { notifyUrl } = inputs;
  if (!inputs.wait || inputs.notify === 'poll' || !notifyUrl) return null;
  const port = Number(new URL(notifyUrl).port);
  try {
    const push = await startPushListener({ publicUrl: notifyUrl, port });
    inputs.secrets.push(push.secret);
    if (deps.github.onRunner) deps.sink.setSecret(push.secret);
    deps.sink.info(
      `Push: test runs post their webhook to ${notifyUrl} (a secret path), listened on port ${port}.`,
    );
    return push;
  } catch (error) {
    deps.sink.warning(
      `notify: could not listen on port ${port} of notify-url (${messageOf(error)}); polling instead.`,
    );
    return null;
  }
}
