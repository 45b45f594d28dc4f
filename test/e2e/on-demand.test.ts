/**
 * Repository test files through the bundle (`dist/index.js`) against the emulator, whose on-demand execute
 * answers as the service's does: at once, with the created result running (`passing: null`). The action
 * follows each run with GET /results/{id} to its end, and runs a test exported from the web app as it is,
 * nulls included (`"notifications": null`, `"startUrl": null`: "the default").
 */
import { copyFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { counts, ROOT } from '../support/harness.js';
import { useWorld } from '../support/world.js';

const API_KEY = 'e2e-on-demand-key';
const STEPS = 60;
const world = useWorld({ clock: 'scaled', fixtures: true, apiKey: API_KEY, timeScale: 0.05 });

beforeAll(async () => {
  copyFileSync(
    path.join(ROOT, 'test', 'contract', 'clients', 'exported-test.json'),
    path.join(world.workspace, 'tests', 'exported.json'),
  );
  const steps = Array.from({ length: STEPS }, () => ({ command: 'click', target: '#next' }));
  await writeFile(
    path.join(world.workspace, 'tests', 'long.json'),
    JSON.stringify({ name: 'Long flow', startUrl: 'https://shop.acme.example/', steps }),
  );
});

describe('repository test files on demand', () => {
  it('each answer comes at once, running; the action follows the run to its verdict; a web-app export with nulls runs', async () => {
    const r = await world.run({
      bundle: true,
      inputs: {
        'api-key': API_KEY,
        'api-base-url': world.emulator.baseUrl,
        'organization-id': 'org-acme',
        'test-files': 'tests/exported.json\ntests/long.json',
        'timeout-minutes': '2',
      },
    });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(counts(r)).toMatchObject({ total: 2, passed: 2, failed: 0, error: 0 });

    const ids = r.outputs['test-result-ids']!.split(',');
    const results = ids.map((id) => world.emulator.store.results.get(id)!);
    expect(results.map((t) => t.name).sort()).toEqual(['Checkout shows the order total', 'Long flow']);
    const long = results.find((t) => t.name === 'Long flow')!;
    expect(long.passing).toBe(true);
    expect(long.executionTime).toBeGreaterThanOrEqual(STEPS * 1500 * 0.05);

    // Both answers came before the long run ended (the emulator's clock), and the action read that run
    // again after its end: it followed the run rather than taking the answer as final.
    const ended = world.emulator.runs().find((f) => f.resultId === long._id)!;
    const log = world.emulator.requests();
    const executes = log.filter((q) => q.path.endsWith('/organizations/org-acme/on-demand/execute'));
    expect(executes).toHaveLength(2);
    for (const q of executes) expect(q.time + q.durationMs).toBeLessThan(ended.finishedAt);
    const reads = log.filter((q) => q.method === 'GET' && q.path.includes(`/results/${long._id}`));
    expect(reads.some((q) => q.time + q.durationMs >= ended.finishedAt)).toBe(true);
  }, 120_000);
});
