/**
 * A finished result whose verdict lands one read before its timing fields (`passing` set while
 * `executionTime` and `dateExecutionFinished` are still null; the emulator's `verdictBeforeTiming` fault),
 * end to end through the bundle (`dist/index.js`): the run ends on the verdict, the reports are written and
 * the duration shows as unknown or as measured, never as a bogus figure.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { counts } from '../support/harness.js';
import { useWorld } from '../support/world.js';

const API_KEY = 'e2e-verdict-timing-key';
const world = useWorld({
  clock: 'scaled',
  fixtures: true,
  apiKey: API_KEY,
  timeScale: 0.02,
  verdictBeforeTiming: true,
});

describe('verdict before timing fields', () => {
  it('a passing and a failing test: verdicts, counts and every report written; durations sensible', async () => {
    const r = await world.run({
      bundle: true,
      inputs: {
        'api-key': API_KEY,
        'api-base-url': world.emulator.baseUrl,
        'test-ids': 'test-home,test-payment',
        screenshots: 'none',
        'timeout-minutes': '5',
      },
    });
    expect(r.code, r.stdout + r.stderr).toBe(1);
    expect(counts(r)).toMatchObject({ total: 2, passed: 1, failed: 1, error: 0 });
    // The action read a result while its timing fields were still null.
    const reads = world.emulator
      .requests()
      .filter((q) => q.method === 'GET' && q.path.startsWith('/v1/results/'));
    expect(reads.length).toBeGreaterThanOrEqual(2);

    const results = JSON.parse(readFileSync(r.outputs['results-json']!, 'utf8')) as {
      results: Array<{ name: string; state: string; durationMs: number | null }>;
    };
    expect(results.results.map((t) => [t.name, t.state]).sort()).toEqual([
      ['Home page loads', 'passed'],
      ['Pay by card', 'failed'],
    ]);
    // Unknown durations are null, never 0 or negative; the summary shows them as a dash.
    for (const t of results.results) expect(t.durationMs === null || t.durationMs > 0).toBe(true);
    // The null-duration path was taken: the action ended on a verdict read without timing fields.
    expect(results.results.some((t) => t.durationMs === null)).toBe(true);
    expect(r.summary).toMatch(/<td>Home page loads<\/td><td>(–|\d[\d.]* m?s)<\/td>/);
    expect(r.summary).not.toMatch(/NaN|Invalid Date|-\d+(\.\d+)? s\b/);
    const junit = readFileSync(path.join(world.workspace, 'ghost-inspector-junit.xml'), 'utf8');
    expect(junit).toMatch(/<testcase [^>]*name="Home page loads"/);
    expect(junit).not.toMatch(/time="(NaN|-)/);
    expect(junit).toContain('Pay by card');
  });
});
