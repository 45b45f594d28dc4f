/**
 * The import check of `npm run lint` (dependency-cruiser with `.dependency-cruiser.mjs`): run on small
 * projects written here, it fails on a cycle (type-only imports too) and on an arrow back up between the
 * rooms of src/ or of src/run/ (docs/architecture.md, "Floors"), and passes on arrows that point down.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const CLI = path.join(ROOT, 'node_modules/dependency-cruiser/bin/dependency-cruise.mjs');
const CONFIG = path.join(ROOT, '.dependency-cruiser.mjs');
const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** Writes `files` (path → source) into a fresh project and runs the check on its src/. */
function check(files: Record<string, string>): { code: number | null; output: string } {
  const dir = mkdtempSync(path.join(tmpdir(), 'imports-check-'));
  dirs.push(dir);
  const tsconfig = { compilerOptions: { module: 'NodeNext', moduleResolution: 'NodeNext', strict: true } };
  writeFileSync(path.join(dir, 'tsconfig.json'), JSON.stringify(tsconfig));
  for (const [file, source] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    writeFileSync(path.join(dir, file), source);
  }
  const r = spawnSync(process.execPath, [CLI, 'src', '--config', CONFIG], { cwd: dir, encoding: 'utf8' });
  return { code: r.status, output: `${r.stdout}${r.stderr}` };
}

describe('the import check', () => {
  // One project, one run (the check takes a few seconds to start): arrows down and five planted faults.
  const r = check({
    'src/run/follow/a.ts': "import { b } from '../read/b.js';\nexport const a = b + 1;\n",
    'src/run/read/b.ts': "import { c } from '../types.js';\nexport const b = c;\n",
    'src/run/types.ts': "import { d } from '../common/d.js';\nexport const c = d;\n",
    'src/common/d.ts': 'export const d = 1;\n',
    'src/run/context.ts': "import { e } from './stop/e.js';\nexport const ctx = e;\n",
    'src/run/stop/e.ts': 'export const e = 1;\n',
    'src/run/engine.ts': "import { f } from '../report/f.js';\nexport const engine = f;\n",
    'src/report/f.ts': 'export const f = 1;\n',
    'src/inputs/a.ts': "import { b } from './b.js';\nexport const a = () => b();\n",
    'src/inputs/b.ts': "import { a } from './a.js';\nexport const b = () => a();\n",
    'src/api/types.ts': "import type { Extra } from './extra.js';\nexport interface T { extra: Extra }\n",
    'src/api/extra.ts': "import type { T } from './types.js';\nexport interface Extra { of: T }\n",
    'src/report/writer.ts': "import { sink } from '../action/sink.js';\nexport const w = sink;\n",
    'src/action/sink.ts': 'export const sink = 1;\n',
  });

  it('fails the lint run', () => {
    expect(r.code).not.toBe(0);
    expect(r.output).toMatch(/5 dependency violations/);
  });

  it('names a cycle, and a cycle of type-only imports', () => {
    expect(r.output).toMatch(/no-circular: src\/inputs\/(a|b)\.ts/);
    expect(r.output).toMatch(/no-circular: src\/api\/(types|extra)\.ts/);
  });

  it('names an arrow back up between the rooms of src/', () => {
    expect(r.output).toMatch(
      /src\/report\/-imports-no-room-above: src\/report\/writer\.ts → src\/action\/sink\.ts/,
    );
    expect(r.output).toMatch(/src\/run\/-imports-no-room-above: src\/run\/engine\.ts → src\/report\/f\.ts/);
  });

  it('names an arrow back up between the rooms of src/run/', () => {
    expect(r.output).toMatch(
      /src\/run\/context\.ts-imports-no-room-above: src\/run\/context\.ts → src\/run\/stop\/e\.ts/,
    );
  });

  it('passes arrows that point down, inside src/run/ and out of it', () => {
    expect(r.output).not.toMatch(/src\/run\/(follow|read)\/|src\/run\/types\.ts/);
  });
});
