/**
 * Bad inputs: each gives its message, a failed step, and not a single request to the service (the
 * emulator's request log stays empty). The action runs in-process (`run(deps)`): input checking is the
 * same code in the bundle, which `e2e.test.ts` proves. Cases refused before any request keep the 10x
 * clock: they wait on no time, and a virtual clock would only watch their file reads. The runs that reach
 * the service (output files) share one virtual clock with an emulator of their own
 * (`useWorld`), and take milliseconds of real time. No case reads a
 * screenshot: the emulators render none (`visuals: false`).
 */
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { BAD_INPUTS, makeWorkspace } from '../support/action-fixtures.js';
import { useWorld } from '../support/world.js';

const setup = useWorld({ clock: 'scaled', timeScale: 0.02, speed: 10, fixtures: true, visuals: false });
const API_KEY = setup.apiKey;

describe('bad inputs', () => {
  it('has at least 30 cases', () => {
    expect(BAD_INPUTS.length).toBeGreaterThanOrEqual(30);
  });

  it.concurrent.each(BAD_INPUTS.map((c) => [c.name, c] as const))('%s', async (_name, c) => {
    const r = await setup.run({
      inputs: {
        ...setup.connection(),
        'suite-ids': 'suite-smoke',
        ...c.inputs,
      },
    });
    expect(r.code).toBe(1);
    expect(r.stdout).toContain(`Input "${c.input}"`);
    expect(r.stdout).toContain(c.message);
    expect(r.stdout).not.toContain(API_KEY);
    expect(r.stdout).not.toContain('secret-value');
    expect(r.stdout).not.toContain('pw-secret');
    expect(setup.emulator.requests()).toEqual([]);
  });

  it('sent no request at all', () => {
    // Runs after every case above (they share the setup.emulator).
    expect(setup.emulator.requests()).toEqual([]);
  });
});

describe('output files', () => {
  const reports = useWorld({ fixtures: true, visuals: false });

  it('a report that cannot be written is named by its input, and the run still reports', async () => {
    const own = await makeWorkspace('gi-e2e-write-');
    try {
      await writeFile(path.join(own, 'blocker'), 'a file where a directory is expected');
      const r = await reports.run({
        workspace: own,
        inputs: {
          ...reports.connection(),
          'suite-ids': 'suite-smoke',
          'junit-path': 'blocker/junit.xml',
          'timeout-minutes': '2',
        },
      });
      expect(r.code, r.stdout).toBe(0);
      expect(r.stdout).toMatch(/::warning::Could not write the JUnit report \(junit-path\): /);
      expect(r.outputs.passed).toBe('3');
      const unusable = await reports.run({
        workspace: own,
        inputs: {
          ...reports.connection(),
          'suite-ids': 'suite-smoke',
          'results-path': 'blocker/results.json',
        },
      });
      expect(unusable.code).toBe(1);
      expect(unusable.stdout).toMatch(/::error::Could not create the directory of results-path \(/);
    } finally {
      await rm(own, { recursive: true, force: true });
    }
  });
});

describe('data-file stays in the workspace', () => {
  it('a path out of it (../) or a symbolic link to a file outside it is refused before any run', async () => {
    const parent = await mkdtemp(path.join(os.tmpdir(), 'gi-e2e-data-'));
    const own = path.join(parent, 'workspace');
    await mkdir(own);
    const requestsBefore = setup.emulator.requests().length;
    try {
      await writeFile(path.join(parent, 'x.csv'), 'PRIVATE_ROW\nPRIVATE-abc123\n');
      await writeFile(path.join(own, 'inside.csv'), 'name\nrow\n');
      await symlink(path.join(parent, 'x.csv'), path.join(own, 'linked.csv'));
      for (const file of ['../x.csv', 'linked.csv', path.join(parent, 'x.csv')]) {
        const r = await setup.run({
          workspace: own,
          inputs: { ...setup.connection(), 'suite-ids': 'suite-data', 'data-file': file },
        });
        expect(r.code, file).toBe(1);
        expect(r.stdout).toContain(
          `Input "data-file" has value "${file}"; expected the path of a readable CSV file inside the workspace (it leads out of the workspace`,
        );
        expect(r.stdout).not.toContain('PRIVATE');
      }
      // Nothing was sent (a straggling read of an earlier test's run may still arrive: only sends count).
      expect(
        setup.emulator
          .requests()
          .slice(requestsBefore)
          .filter((q) => q.method !== 'GET'),
      ).toEqual([]);
    } finally {
      await rm(parent, { recursive: true, force: true });
    }
  });
});

describe('test-files stay in the workspace', () => {
  it('a symbolic link out of the workspace is refused, and no file content appears in the error', async () => {
    const own = await makeWorkspace('gi-e2e-links-');
    const outside = await mkdtemp(path.join(os.tmpdir(), 'gi-e2e-outside-'));
    const requestsBefore = setup.emulator.requests().length;
    try {
      const test = { name: 'Outside test', startUrl: 'https://outside.example', steps: [] };
      await writeFile(path.join(outside, 'outside.json'), JSON.stringify(test));
      await writeFile(path.join(outside, 'notes.txt'), 'PRIVATE-NOTES-abc123 and more');
      await mkdir(path.join(own, 'linked'), { recursive: true });
      await symlink(path.join(outside, 'outside.json'), path.join(own, 'linked', 'outside.json'));
      await symlink(path.join(outside, 'notes.txt'), path.join(own, 'linked', 'notes.json'));
      await symlink(outside, path.join(own, 'linked-dir'));
      for (const pattern of ['linked/outside.json', 'linked/notes.json', 'linked-dir/*.json']) {
        const r = await setup.run({
          workspace: own,
          inputs: { ...setup.connection(), 'organization-id': 'org-acme', 'test-files': pattern },
        });
        expect(r.code, pattern).toBe(1);
        expect(r.stdout).toMatch(/Input "test-files".*leads out of the workspace/);
        expect(r.stdout).not.toContain('PRIVATE-NOTES');
        expect(r.stdout).not.toContain('Outside test');
      }
      // Nothing was sent (a straggling read of an earlier test's run may still arrive: only sends count).
      expect(
        setup.emulator
          .requests()
          .slice(requestsBefore)
          .filter((q) => q.method !== 'GET'),
      ).toEqual([]);
    } finally {
      await rm(own, { recursive: true, force: true });
      await rm(outside, { recursive: true, force: true });
    }
  });

  it('a file that is not JSON is named without quoting its content', async () => {
    const own = await makeWorkspace('gi-e2e-notjson-');
    try {
      await writeFile(path.join(own, 'broken.json'), 'PRIVATE-NOTES-abc123 is not a test');
      const r = await setup.run({
        workspace: own,
        inputs: { ...setup.connection(), 'organization-id': 'org-acme', 'test-files': 'broken.json' },
      });
      expect(r.code).toBe(1);
      expect(r.stdout).toMatch(/Input "test-files".*broken\.json.*is not valid JSON/);
      expect(r.stdout).not.toContain('PRIVATE');
    } finally {
      await rm(own, { recursive: true, force: true });
    }
  });
});
