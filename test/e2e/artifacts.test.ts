/**
 * The bundled action, as GitHub runs it, uploads the screenshots of failed tests as one workflow artifact
 * through the real `@actions/artifact` client against a local fake of the artifact service, and reports the
 * artifact in its outputs, its log and the JUnit attachment lines; on GitHub Enterprise Server, whose
 * artifact service the client does not support, it keeps them in `artifacts-dir` with one warning.
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeArtifactService, type FakeArtifactService } from '../support/fakes/artifact-service.js';
import { useWorld } from '../support/world.js';

const world = useWorld({ clock: 'scaled', timeScale: 0.01 });

describe('the action uploads screenshots as a workflow artifact', () => {
  let fake: FakeArtifactService;
  beforeAll(async () => void (fake = await startFakeArtifactService()));
  afterAll(() => fake?.close());

  it('uploads exactly the failed test’s screenshot, byte for byte, and sets artifact-id and artifact-url', async () => {
    const run = await world.run({
      bundle: true,
      inputs: {
        ...world.connection(),
        'suite-ids': 'suite-checkout',
        screenshots: 'failed',
        'artifact-name': 'checkout-shots',
      },
      env: {
        ...fake.env({ runId: 'run-9', jobId: 'job-3' }),
        RUNNER_TEMP: world.workspace,
        GITHUB_REPOSITORY: 'octo/shop',
        GITHUB_RUN_ID: '4242',
        GITHUB_RUN_ATTEMPT: '1',
        GITHUB_JOB: 'browser-tests',
      },
    });
    expect(run.outputs.failed).toBe('1');
    expect(run.code).toBe(1);

    expect(fake.artifacts).toHaveLength(1);
    const artifact = fake.artifacts[0]!;
    expect(artifact.name).toBe('checkout-shots');
    expect(run.outputs['artifact-id']).toBe(String(artifact.id));
    expect(run.outputs['artifact-url']).toMatch(
      new RegExp(`/octo/shop/actions/runs/4242/artifacts/${artifact.id}$`),
    );

    // The failed test result of the suite run, and its screenshot as the emulator serves it.
    const failed = [...world.emulator.store.results.values()].filter(
      (r) => r.suiteResult !== null && r.passing === false,
    );
    expect(failed).toHaveLength(1);
    const shot = failed[0]!.screenshot!.original.defaultUrl;
    const served = Buffer.from(await (await fetch(shot)).arrayBuffer());

    const entries = unzipSync(new Uint8Array(await fake.readZip(artifact)));
    const names = Object.keys(entries);
    expect(names).toHaveLength(1);
    expect(names[0]).toMatch(new RegExp(`${failed[0]!._id}\\.png$`));
    expect(Buffer.from(entries[names[0]!]!).equals(served)).toBe(true);

    const junit = await readFile(path.join(world.workspace, 'ghost-inspector-junit.xml'), 'utf8');
    expect(junit).toContain(`[[ATTACHMENT|`);
    expect(junit).toContain(`${failed[0]!._id}.png]]`);
  });

  it('on GitHub Enterprise Server: no upload is tried; one warning names the reason and the folder kept', async () => {
    const before = fake.requests.length;
    const kept = path.join(world.workspace, 'ghes-screenshots');
    const run = await world.run({
      bundle: true,
      inputs: {
        ...world.connection(),
        'suite-ids': 'suite-checkout',
        screenshots: 'failed',
        'artifacts-dir': kept,
      },
      env: {
        ...fake.env({ runId: 'run-10', jobId: 'job-4', serverUrl: 'https://ghes.acme.example' }),
        RUNNER_TEMP: world.workspace,
        GITHUB_REPOSITORY: 'octo/shop',
        GITHUB_RUN_ID: '4243',
        GITHUB_JOB: 'browser-tests',
      },
    });
    expect(run.code).toBe(1);
    expect(fake.requests.length).toBe(before);
    expect(run.outputs['artifact-id'] ?? '').toBe('');
    const warnings = run.stdout.split('\n').filter((line) => line.startsWith('::warning'));
    const about = warnings.filter((line) => /artifact|screenshot/i.test(line));
    expect(about).toHaveLength(1);
    expect(about[0]).toMatch(/https:\/\/ghes\.acme\.example is GitHub Enterprise Server/);
    expect(about[0]).toContain(`kept in ${kept}`);
    expect(about[0]).toContain('actions/upload-artifact@v3');
    expect(run.stdout).not.toMatch(/Errors can be temporary/);
    expect(await readdir(kept, { recursive: true })).toEqual(
      expect.arrayContaining([expect.stringMatching(/\.png$/)]),
    );
  });
});
