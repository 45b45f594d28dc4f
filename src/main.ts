import * as core from '@actions/core';

/**
 * Entry point of the action: reads inputs, runs, reports, and sets the verdict.
 * The only place that calls `core.setFailed`.
 */
export async function run(): Promise<void> {
  try {
    const apiKey = core.getInput('api-key', { required: true });
    core.setSecret(apiKey);
    core.info('ghost-inspector-action: skeleton');
  } catch (error) {
    core.setFailed(error instanceof Error ? error.message : String(error));
  }
}
