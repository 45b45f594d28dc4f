/**
 * A test result's `browser` names the version the service ran (`chrome-142`) while the action asks for a
 * family (`chrome`) or a version (`firefox-120`): runs whose execute answer was lost are still found and
 * adopted by their browser, and every report names a run by the browser asked for, the version ran shown
 * per test. In-process on one virtual clock with the emulator.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { counts } from '../support/harness.js';
import { useWorld } from '../support/world.js';

const setup = useWorld({ fixtures: true });

interface ResultsJson {
  runs: Array<{ variant: { browser?: string }; error?: string }>;
  results: Array<{ name: string; browser?: string }>;
}

describe('browsers asked by family or version, results naming versions', () => {
  it('a lost execute answer: both runs adopted; names as asked, the version ran per test', async () => {
    setup.emulator.setFaults('route=POST /v1/tests/test-home/execute:reset-afterx1');
    const r = await setup.run({
      inputs: {
        ...setup.connection(),
        'test-ids': 'test-home',
        browser: 'chrome, firefox-120',
        screenshots: 'none',
      },
    });
    const executes = setup.emulator.requests().filter((q) => /\/execute\/?$/.test(q.path));
    expect(executes).toHaveLength(1);
    expect(r.code, r.stdout).toBe(0);
    expect(r.stdout).toContain('Found the run');
    expect(counts(r)).toMatchObject({ total: 2, passed: 2, error: 0 });

    const results = JSON.parse(readFileSync(r.outputs['results-json']!, 'utf8')) as ResultsJson;
    expect(results.runs.map((run) => run.error)).toEqual([undefined, undefined]);
    expect(results.runs.map((run) => run.variant.browser).sort()).toEqual(['chrome', 'firefox-120']);
    expect(results.results.map((t) => t.browser).sort()).toEqual([
      expect.stringMatching(/^chrome-\d+$/),
      'firefox-120',
    ]);
    const chromeRan = results.results.find((t) => t.browser?.startsWith('chrome-'))!.browser!;

    const junit = readFileSync(path.join(setup.workspace, 'ghost-inspector-junit.xml'), 'utf8');
    expect(junit).toContain('name="Home page loads [chrome]"');
    expect(junit).toContain('name="Home page loads [firefox-120]"');
    expect(junit).toContain(`Run on: ${chromeRan}`);
    expect(r.summary).toContain('chrome');
    expect(r.summary).not.toContain(chromeRan);
  });
});
