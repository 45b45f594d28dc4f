/**
 * Suites run without the `organization-id` input: a suite's immediate execute answer names no organization
 * (docs/api-contract.md "Resources"), so the running list had no organization to ask and every suite polled
 * on its own. The engine now reads the first suite once (`GET /suites/{id}/`) and watches them all through
 * the list. Engine and emulator on one virtual clock. Also which organization is known without a request
 * (`organizationOf`), and the one read of it (`readOrganization`): null, never a throw, when it cannot be had.
 */
import { describe, expect, it } from 'vitest';
import type { Handle } from '../../../../src/run/book.js';
import { runPlan } from '../../../../src/run/engine.js';
import { organizationOf, readOrganization } from '../../../../src/run/follow/organization.js';
import { runPlanOf } from '../../../support/run-factories.js';
import { useWorld } from '../../../support/world.js';

const API_KEY = 'organization-test-key';

const world = useWorld({ apiKey: API_KEY });

describe('the organization of suites run without organization-id', () => {
  it('is read once from a suite, and the running list then watches every suite', async () => {
    const plan = runPlanOf({
      suiteIds: ['suite-smoke', 'suite-checkout', 'suite-data'],
      organizationId: null,
    });
    expect(plan.organizationId ?? null).toBeNull();
    const summary = await runPlan(plan, { api: world.client({ apiKey: API_KEY }), clock: world.clock });
    expect(summary.runs).toHaveLength(3);
    expect(summary.runs.every((r) => r.endedAt && !r.error)).toBe(true);
    const paths = world.emulator.requests().map((q) => q.path);
    const suiteReads = paths.filter((p) => /^\/v1\/suites\/[^/]+\/$/.test(p));
    expect(suiteReads).toHaveLength(1);
    expect(paths.filter((p) => p === '/v1/organizations/org-acme/running/').length).toBeGreaterThan(0);
  });

  it('is not read for a lone suite (its own poll watches it) nor when the input names it', async () => {
    await runPlan(runPlanOf({ suiteIds: ['suite-smoke'], organizationId: null }), {
      api: world.client({ apiKey: API_KEY }),
      clock: world.clock,
    });
    await runPlan(runPlanOf({ suiteIds: ['suite-smoke', 'suite-checkout'], organizationId: 'org-acme' }), {
      api: world.client({ apiKey: API_KEY }),
      clock: world.clock,
    });
    const paths = world.emulator.requests().map((q) => q.path);
    expect(paths.filter((p) => /^\/v1\/suites\/[^/]+\/$/.test(p))).toEqual([]);
  });
});

/** A handle as the run book keeps it, with only the fields the organization is found from. */
function handleOf(fields: {
  suiteId?: string;
  suite?: unknown;
  lastResult?: { organization: string };
}): Handle {
  const suiteResult = 'suite' in fields ? { suite: fields.suite } : undefined;
  return {
    run: { suiteId: fields.suiteId, ...(suiteResult ? { suiteResult } : {}) },
    ...(fields.lastResult ? { lastResult: fields.lastResult } : {}),
  } as unknown as Handle;
}

describe('the organization known without a request', () => {
  it('is the input, else the first a test result or a suite result of the runs names', () => {
    const fromTest = handleOf({ lastResult: { organization: 'org-test' } });
    const fromSuite = handleOf({ suite: { _id: 's', organization: 'org-suite' } });
    expect(organizationOf('org-input', [fromTest])).toBe('org-input');
    expect(organizationOf(null, [fromTest, fromSuite])).toBe('org-test');
    expect(organizationOf(null, [fromSuite, fromTest])).toBe('org-suite');
  });

  it('skips runs without an answer, or whose suite result names its suite by id or not at all', () => {
    const named = handleOf({ suite: { _id: 's', organization: 'org-suite' } });
    const unnamed = [handleOf({}), handleOf({ suite: null }), handleOf({ suite: 'suite-id' })];
    expect(organizationOf(null, [...unnamed, named])).toBe('org-suite');
    expect(organizationOf(null, unnamed)).toBeNull();
  });
});

describe('the organization read from a suite', () => {
  it('is the first suite run’s suite’s; nothing is asked when no run has a suite, or after a stop', async () => {
    const api = world.client({ apiKey: API_KEY });
    const live = new AbortController().signal;
    const runs = [handleOf({}), handleOf({ suiteId: 'suite-smoke' })];
    expect(await readOrganization(api, runs, live)).toBe('org-acme');
    world.emulator.resetLog();
    expect(await readOrganization(api, [handleOf({})], live)).toBeNull();
    expect(await readOrganization(api, runs, AbortSignal.abort())).toBeNull();
    expect(world.emulator.requests()).toEqual([]);
  });

  it('is null when the suite cannot be read', async () => {
    const api = world.client({ apiKey: API_KEY, maxRetries: 0 });
    const runs = [handleOf({ suiteId: 'no-such-suite' })];
    expect(await readOrganization(api, runs, new AbortController().signal)).toBeNull();
  });
});
