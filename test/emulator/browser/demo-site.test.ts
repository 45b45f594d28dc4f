/**
 * The demo site's files and the demo suites' design. The suites in Chromium, as designed step by step, with
 * the visual change caught, are in demo.test.ts (through `npm run demo`, and through the emulator's seed).
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEMO_SITE_FILES, demoSiteDir } from '../../../demo/site/index.js';
import { DEMO_BUG_ERROR, demoSuites } from '../../../demo/site/suites.js';

describe('demo site files', () => {
  it('are all present next to the module and use no external resources', async () => {
    const { readFileSync } = await import('node:fs');
    for (const name of Object.keys(DEMO_SITE_FILES)) {
      const path = join(demoSiteDir, name);
      expect(existsSync(path), path).toBe(true);
      expect(readFileSync(path, 'utf8')).not.toMatch(/(src|href)="(https?:)?\/\//);
    }
  });

  it('defines suites with numbered steps and a known failing step', () => {
    const [suite] = demoSuites('http://127.0.0.1:9/demo/');
    expect(suite?.tests.length).toBeGreaterThanOrEqual(5);
    for (const test of suite!.tests) {
      expect(test.startUrl.startsWith('http://127.0.0.1:9/demo/')).toBe(true);
      expect(test.steps.map((s) => s.sequence)).toEqual(test.steps.map((_, i) => i));
    }
    const failing = suite!.tests.filter((t) => !t.expected.passing);
    expect(failing).toHaveLength(1);
    expect(failing[0]?.expected.error).toBe(DEMO_BUG_ERROR);
    expect(suite!.tests.filter((t) => t.visualChange)).toHaveLength(1);
  });
});
