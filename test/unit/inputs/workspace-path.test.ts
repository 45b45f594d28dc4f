/**
 * The rule for files an input names (`src/inputs/workspace-path.ts`): read only when the real path lies
 * inside the workspace. A real folder on disk; the workspace itself, its parent, a `../` path and a link out of
 * it are outside; a name that merely starts with two dots is inside.
 */
import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { realPathInside } from '../../../src/inputs/workspace-path.js';

let root: string;
let workspace: string;

beforeAll(async () => {
  root = await realpath(await mkdtemp(path.join(tmpdir(), 'gi-workspace-path-')));
  workspace = path.join(root, 'repo');
  await mkdir(path.join(workspace, 'data'), { recursive: true });
  await writeFile(path.join(workspace, 'data', 'rows.csv'), 'a\n1\n');
  await writeFile(path.join(workspace, '..rows.csv'), 'a\n1\n');
  await writeFile(path.join(root, 'outside.csv'), 'secret\n');
  await symlink(path.join(root, 'outside.csv'), path.join(workspace, 'data', 'link.csv'));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('realPathInside', () => {
  it('gives the real path of a file inside the workspace, a name starting with two dots included', async () => {
    expect(await realPathInside(workspace, 'data/rows.csv')).toBe(path.join(workspace, 'data', 'rows.csv'));
    expect(await realPathInside(workspace, '..rows.csv')).toBe(path.join(workspace, '..rows.csv'));
    expect(await realPathInside(workspace, path.join(workspace, 'data', 'rows.csv'))).toBe(
      path.join(workspace, 'data', 'rows.csv'),
    );
  });

  it('is null for the workspace itself, its parent, a ../ path and a link out of it', async () => {
    for (const file of ['.', '..', '../outside.csv', 'data/../../outside.csv', 'data/link.csv']) {
      expect(await realPathInside(workspace, file), file).toBeNull();
    }
  });

  it('throws the file-system error for a file that does not exist', async () => {
    await expect(realPathInside(workspace, 'data/missing.csv')).rejects.toMatchObject({ code: 'ENOENT' });
  });
});
