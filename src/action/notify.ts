/**
 * The step's webhooks' listener, when `notify` asks for push (docs/architecture.md, "Push"): at `notify-url`'s port,
 * or on loopback in front of the app when the tunnel carries the webhooks (docs/tunnel.md, "Push through the
 * tunnel").
 */
import type { ActionInputs } from '../inputs/index.js';
import { messageOf } from '../common/log.js';
import { startPushListener, type PushListener } from '../run/follow/push.js';
import { forwardTo } from '../tunnel/forward.js';
import type { ActionDeps } from './deps.js';

/** The step's push: its listener, and the local address the tunnel agent is to forward to when push rides it. */
export interface StepPush {
  listener: PushListener;
  /** The listener's loopback address, which then answers for the app too; null when the tunnel plays no part. */
  tunnelVia: string | null;
}

/**
 * Starts the listener when the step waits and `notify` is `push`, or `auto` with a `notify-url` (all
 * interfaces, that URL's port) or with a tunnel to an http address and test runs to notify (loopback, any
 * port, in front of the app; its URL is the tunnel's once open: {@link throughTunnel}). Its secret joins
 * `inputs.secrets` (masked, redacted everywhere) before any run. Null (the step polls) otherwise, or with a
 * warning when the port cannot be listened on.
 */
export async function openPush(
  inputs: ActionInputs,
  deps: Pick<ActionDeps, 'sink' | 'github'>,
): Promise<StepPush | null> {
  const { notifyUrl, tunnel } = inputs;
  if (!inputs.wait || inputs.notify === 'poll') return null;
  const tests = inputs.testIds.length > 0 || inputs.repoTests.length > 0;
  const viaTunnel = !notifyUrl && tests && tunnel !== null && new URL(tunnel.address).protocol === 'http:';
  if (!notifyUrl && !viaTunnel) return null;
  const port = notifyUrl ? Number(new URL(notifyUrl).port) : 0;
  try {
    const listener = notifyUrl
      ? await startPushListener({ publicUrl: notifyUrl, port })
      : await startPushListener({ port, host: '127.0.0.1', forward: forwardTo(tunnel!.address) });
    inputs.secrets.push(listener.secret);
    if (deps.github.onRunner) deps.sink.setSecret(listener.secret);
    deps.sink.info(
      notifyUrl
        ? `Push: test runs post their webhook to ${notifyUrl} (a secret path), listened on port ${port}.`
        : `Push: test runs post their webhook through the tunnel (a secret path); the tunnel leads to this step, which hands every other request on to ${tunnel!.address}.`,
    );
    return { listener, tunnelVia: notifyUrl ? null : `http://127.0.0.1:${listener.port}` };
  } catch (error) {
    deps.sink.warning(
      `notify: could not listen on port ${port}${notifyUrl ? ' of notify-url' : ''} (${messageOf(error)}); polling instead.`,
    );
    return null;
  }
}

/** `listener` as the service reaches it through the open tunnel at `tunnelUrl` (an origin): its secret path there. */
export function throughTunnel(listener: PushListener, tunnelUrl: string): PushListener {
  return { ...listener, url: `${tunnelUrl}/${listener.secret}` };
}
