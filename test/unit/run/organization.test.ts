/**
 * Suites run without the `organization-id` input: a suite's immediate execute answer names no organization
 * (docs/api-contract.md "Resources"), so the running list had no organization to ask and every suite polled
 * on its own. The engine now reads the first suite once (`GET /suites/{id}/`) and watches them all through
 * the list. Engine and emulator on one virtual clock.
 */
import { describe, expect, it } from 'vitest';
import { runPlan } from '../../../src/run/engine.js';
import { runPlanOf } from '../../support/run-factories.js';
import { useVirtualWorld } from '../../support/virtual-world.js';

const API_KEY = 'organization-test-key';

const world = useVirtualWorld({ apiKey: API_KEY });

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
