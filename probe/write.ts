/**
 * The probe's self-cleaning write sequence (`--write`): create a suite and a test in it, execute the test
 * and the suite immediately, poll until they end, cancel the ended results, read and export the new records,
 * then delete the test and the suite (the suite also when a step fails).
 */
import { first, idOf } from './calls.js';
import { probeCall, type CallSpec, type ProbeContext } from './http.js';

/** Names of the records the probe creates (so that anyone seeing them knows where they come from). */
export const PROBE_SUITE_NAME = 'Contract probe (deleted when done)';
export const PROBE_TEST_NAME = 'Contract probe test';

export interface WriteOptions {
  /** ms between polls (default 2000). */
  pollMs?: number;
  /** ms after which polling gives up and records the last answer (default 5 minutes). */
  pollTimeoutMs?: number;
}

/**
 * Polls `spec` until the answer has ended (`passing` not null, or a finish date for a cancelled suite
 * result); records only the last answer, under `spec.as`. "Not found" answers right after the trigger are
 * polled through (docs/api-contract.md).
 */
async function pollUntilEnded(ctx: ProbeContext, spec: CallSpec, options: WriteOptions): Promise<unknown> {
  const deadline = Date.now() + (options.pollTimeoutMs ?? 300_000);
  for (;;) {
    const scratch: ProbeContext = { ...ctx, records: [] };
    const data = (await probeCall(scratch, spec)) as Record<string, unknown> | undefined;
    const ended = data && (data.passing !== null || typeof data.dateExecutionFinished === 'string');
    if (ended || Date.now() >= deadline) {
      ctx.records.push(...scratch.records);
      return data;
    }
    await ctx.sleep(options.pollMs ?? 2000);
  }
}

async function runTest(ctx: ProbeContext, testId: string, options: WriteOptions): Promise<void> {
  const run = await probeCall(ctx, {
    method: 'POST',
    template: '/tests/{testId}/execute/',
    values: { testId },
    query: { immediate: '1' },
    as: 'POST /tests/{testId}/execute/ (immediate)',
  });
  const resultId = idOf(Array.isArray(run) ? first(run) : run);
  if (!resultId) return;
  const values = { resultId };
  await pollUntilEnded(
    ctx,
    { method: 'GET', template: '/results/{resultId}/', values, as: 'GET /results/{resultId}/ (ended)' },
    options,
  );
  await probeCall(ctx, {
    method: 'POST',
    template: '/results/{resultId}/cancel/',
    values,
    as: 'POST /results/{resultId}/cancel/ (ended)',
  });
}

async function runSuite(ctx: ProbeContext, suiteId: string, options: WriteOptions): Promise<void> {
  const run = await probeCall(ctx, {
    method: 'POST',
    template: '/suites/{suiteId}/execute/',
    values: { suiteId },
    query: { immediate: '1' },
    as: 'POST /suites/{suiteId}/execute/ (immediate)',
  });
  const suiteResultId = idOf(Array.isArray(run) ? first(run) : run);
  if (!suiteResultId) return;
  const values = { suiteResultId };
  await pollUntilEnded(
    ctx,
    {
      method: 'GET',
      template: '/suite-results/{suiteResultId}/',
      values,
      as: 'GET /suite-results/{suiteResultId}/ (ended)',
    },
    options,
  );
  await probeCall(ctx, {
    method: 'GET',
    template: '/suite-results/{suiteResultId}/results/',
    values,
    as: 'GET /suite-results/{suiteResultId}/results/ (ended)',
  });
  await probeCall(ctx, {
    method: 'POST',
    template: '/suite-results/{suiteResultId}/cancel/',
    values,
    as: 'POST /suite-results/{suiteResultId}/cancel/ (ended)',
  });
}

/** Runs the write sequence in `organization`; always deletes what it created. */
export async function probeWrites(
  ctx: ProbeContext,
  organization: string,
  options: WriteOptions = {},
): Promise<void> {
  const suite = await probeCall(ctx, {
    method: 'POST',
    template: '/suites/',
    body: { name: PROBE_SUITE_NAME, organization },
  });
  const suiteId = idOf(suite);
  if (!suiteId) return;
  try {
    const test = await probeCall(ctx, {
      method: 'POST',
      template: '/suites/{suiteId}/import-test/json',
      values: { suiteId },
      body: {
        name: PROBE_TEST_NAME,
        startUrl: 'https://example.com/',
        steps: [{ command: 'assertTextPresent', target: 'h1', value: 'Example Domain' }],
      },
    });
    const testId = idOf(test);
    if (!testId) return;
    await runTest(ctx, testId, options);
    await runSuite(ctx, suiteId, options);
    for (const template of ['/tests/{testId}/export/json/', '/tests/{testId}/export/recorder-html/']) {
      await probeCall(ctx, { method: 'GET', template, values: { testId }, as: `GET ${template} (created)` });
    }
    await probeCall(ctx, { method: 'DELETE', template: '/tests/{testId}/', values: { testId } });
  } finally {
    await probeCall(ctx, { method: 'DELETE', template: '/suites/{suiteId}/', values: { suiteId } });
  }
}
