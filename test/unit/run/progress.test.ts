/**
 * Short log lines whatever the number of runs: folded id lists, one grouped warning per kind of trigger
 * failure; what a trigger that never happened stands for; timeouts in words.
 */
import { describe, expect, it } from 'vitest';
import { formatDuration } from '../../../src/common/words.js';
import { runPlan } from '../../../src/run/engine.js';
import { csvDataRows, expectedVariants } from '../../../src/run/plan/execute.js';
import { foldIds, problemLines } from '../../../src/run/progress.js';
import type { TriggerProblem } from '../../../src/run/events.js';
import { useWorld } from '../../support/world.js';
import { collectingLog } from '../../support/run-factories.js';
import { consoleReporter } from '../../../src/report/console.js';

const API_KEY = 'progress-test-key';

// The emulator and the engine on one virtual clock (`test/support/world.ts`).
const world = useWorld({ apiKey: API_KEY });

describe('log lines', () => {
  it('foldIds: up to 5 ids in full, then "and N more"', () => {
    expect(foldIds(['a', 'b'])).toBe('a, b');
    expect(foldIds(['a', 'b', 'c', 'd', 'e'])).toBe('a, b, c, d, e');
    expect(foldIds(Array.from({ length: 12 }, (_, i) => `r${i}`))).toBe('r0, r1, r2, r3, r4 and 7 more');
  });

  it('problemLines: one warning per kind, the full message for a single problem', () => {
    const problems: TriggerProblem[] = Array.from({ length: 40 }, (_, i) => ({
      kind: 'VALIDATION_ERROR',
      label: `test t${i}`,
      id: `t${i}`,
      message: 'not found',
    }));
    problems.push({ kind: 'NETWORK_ERROR', label: 'suite s', id: 's', message: 'refused' });
    expect(problemLines(problems)).toEqual([
      'Could not start 40 runs (VALIDATION_ERROR): t0, t1, t2, t3, t4 and 35 more. First: test t0: not found',
      'Could not start suite s: refused',
    ]);
  });

  it('many bad test ids: one grouped warning, not one line each; every run is still in the summary', async () => {
    const api = world.client({ apiKey: API_KEY });
    const log = collectingLog();
    const testIds = Array.from({ length: 30 }, (_, i) => `no-such-test-${i}`);
    const summary = await runPlan(
      {
        suiteIds: [],
        folderIds: [],
        testIds,
        repoTests: [],
        organizationId: 'org-acme',
        execute: {},
        startUrls: [],
        wait: true,
        timeoutMs: 60_000,
        cancelOnTimeout: true,
        retryFailed: 0,
      },
      { api, onEvent: consoleReporter(log), clock: world.clock },
    );
    expect(summary.runs).toHaveLength(30);
    expect(summary.runs.every((r) => r.error)).toBe(true);
    const warnings = log.lines.filter((l) => l.startsWith('warning:'));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(
      /^warning: Could not start 30 runs \(\w+\): no-such-test-\d+, .* and 25 more\. First: /,
    );
  });

  it('the "Started" line folds its result ids past 5', async () => {
    const api = world.client({ apiKey: API_KEY });
    const log = collectingLog();
    const csv = ['name', ...Array.from({ length: 8 }, (_, i) => `row${i}`)].join('\n');
    await runPlan(
      {
        suiteIds: [],
        folderIds: [],
        testIds: ['test-home'],
        repoTests: [],
        organizationId: 'org-acme',
        execute: { disableVisuals: true, dataFile: { name: 'rows.csv', content: Buffer.from(csv) } },
        startUrls: [],
        wait: false,
        timeoutMs: 60_000,
        cancelOnTimeout: true,
        retryFailed: 0,
      },
      { api, onEvent: consoleReporter(log), clock: world.clock },
    );
    const started = log.lines.find((l) => l.startsWith('Started test test-home'));
    expect(started).toMatch(/^Started test test-home: 8 runs \((\w+, ){4}\w+ and 3 more\)\.$/);
  });

  it('formatDuration (a timeout in words): seconds under a minute, never "0 min"', () => {
    expect(formatDuration(12_000)).toBe('12.0 s');
    expect(formatDuration(300_000)).toBe('5 min 00 s');
  });
});

describe('what a trigger never sent stands for', () => {
  it('csvDataRows: records after the header, quoted line breaks kept, blank lines skipped', () => {
    expect(csvDataRows('a,b\n1,2\n3,4\n')).toBe(2);
    expect(csvDataRows('a,b\r\n"x\ny",2\r\n\r\n3,4')).toBe(2);
    expect(csvDataRows('a,b\n')).toBe(0);
  });

  it('expectedVariants: data rows × browsers × viewports, in the answer order', () => {
    const variants = expectedVariants(
      {
        browser: ['chrome', 'firefox'],
        viewport: ['800x600'],
        dataFile: { name: 'd.csv', content: 'h\n1\n2\n3' },
      },
      'https://start/',
    );
    expect(variants).toHaveLength(6);
    expect(variants[0]).toEqual({
      browser: 'chrome',
      viewport: '800x600',
      startUrl: 'https://start/',
      dataRow: 0,
    });
    expect(variants[5]).toEqual({
      browser: 'firefox',
      viewport: '800x600',
      startUrl: 'https://start/',
      dataRow: 2,
    });
    expect(expectedVariants({})).toEqual([{}]);
  });
});
