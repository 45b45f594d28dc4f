/** The first step: read every input, mask the secrets, fail the step on bad input before any remote call. */
import { InputError, readInputs, type ActionInputs } from '../inputs/index.js';
import { InputReader } from '../inputs/parse.js';
import type { ActionDeps } from './deps.js';

/**
 * Reads and validates the inputs from `deps.env`.
 * @returns the inputs, or null when an input is bad (the step has then failed with every problem listed)
 */
export async function readActionInputs(deps: ActionDeps): Promise<ActionInputs | null> {
  const { sink, github } = deps;
  // Not masked outside GitHub: nobody consumes the mask command there, which would print the secret.
  const raw = new InputReader(deps.env, deps.inputDefaults);
  const rawSecrets = [raw.text('api-key'), raw.text('ngrok-authtoken'), deps.env.NGROK_AUTHTOKEN?.trim()];
  for (const secret of rawSecrets) if (secret && github.onRunner) sink.setSecret(secret);
  let inputs: ActionInputs;
  try {
    inputs = await readInputs({ env: deps.env, defaults: deps.inputDefaults });
  } catch (error) {
    if (!(error instanceof InputError)) throw error;
    sink.setFailed(error.message);
    return null;
  }
  if (github.onRunner) for (const secret of inputs.secrets) sink.setSecret(secret);
  for (const warning of inputs.warnings) sink.warning(warning);
  for (const notice of inputs.notices) sink.notice(notice);
  return inputs;
}
