/**
 * The bundled action on a runner whose only way out is its proxy (`HTTP_PROXY`): the API, the screenshots,
 * the artifact service and GitHub's REST API are host names only the proxy resolves (`*.test`, which no DNS
 * answers), so a request that does not go through the proxy fails (ENOTFOUND). Every part of a step then
 * works: the run, its failed test's screenshot, the artifact (its blob storage on loopback goes through the
 * proxy as well), the pull-request comment.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type Emulator } from '../../emulator/index.js';
import { startFakeArtifactService, type FakeArtifactService } from '../support/fakes/artifact-service.js';
import { FakeGitHub, TOKEN } from '../support/fakes/github.js';
import { runAction } from '../support/harness.js';
import { startForwardProxy, startProxy, type ForwardProxy, type Proxy } from '../support/proxy.js';

describe('behind a proxy, every request of a step goes through it', () => {
  let emulator: Emulator;
  let api: Proxy;
  let artifacts: FakeArtifactService;
  let github: FakeGitHub;
  let proxy: ForwardProxy;
  let workspace: string;

  beforeAll(async () => {
    emulator = await startEmulator({ timeScale: 0.01, quiet: true });
    // The API's answers name the screenshots on a host of their own, as the service's storage is.
    api = await startProxy(emulator.origin, undefined, (_request, body) =>
      JSON.parse(JSON.stringify(body).replaceAll(emulator.origin, 'http://shots.gi.test')),
    );
    artifacts = await startFakeArtifactService();
    github = new FakeGitHub();
    await github.start();
    proxy = await startForwardProxy({
      'api.gi.test': new URL(api.baseUrl).host,
      'shots.gi.test': new URL(emulator.origin).host,
      'results.gi.test': new URL(artifacts.url).host,
      'github.gi.test': new URL(github.baseUrl).host,
    });
    workspace = await mkdtemp(path.join(os.tmpdir(), 'gi-action-proxy-'));
  });

  afterAll(async () => {
    await proxy?.close();
    await api?.close();
    await emulator?.close();
    await artifacts?.close();
    await github?.stop();
    if (workspace) await rm(workspace, { recursive: true, force: true });
  });

  it('the run, the screenshot, the artifact and the pull-request comment all get through', async () => {
    const event = path.join(workspace, 'event.json');
    await writeFile(event, JSON.stringify({ pull_request: { number: 7 } }));
    const run = await runAction({
      workspace,
      inputs: {
        'api-key': 'demo-api-key',
        'api-base-url': 'http://api.gi.test/v1',
        'suite-ids': 'suite-checkout',
        screenshots: 'failed',
        'artifact-name': 'proxy-shots',
        'pr-comment': 'true',
        'github-token': TOKEN,
      },
      env: {
        ...artifacts.env({ runId: 'run-5', jobId: 'job-5' }),
        ACTIONS_RESULTS_URL: 'http://results.gi.test/',
        HTTP_PROXY: proxy.url,
        RUNNER_TEMP: workspace,
        GITHUB_EVENT_PATH: event,
        GITHUB_REPOSITORY: 'octo/shop',
        GITHUB_API_URL: 'http://github.gi.test',
        GITHUB_RUN_ID: '77',
        GITHUB_RUN_ATTEMPT: '1',
        GITHUB_JOB: 'browser-tests',
      },
    });
    expect(run.stdout).not.toMatch(/ENOTFOUND|not downloaded/);
    expect(run.outputs.failed).toBe('1');
    expect(run.code).toBe(1);

    const failed = [...emulator.store.results.values()].filter(
      (r) => r.suiteResult !== null && r.passing === false,
    );
    expect(failed).toHaveLength(1);
    const served = await (await fetch(failed[0]!.screenshot!.original.defaultUrl)).arrayBuffer();
    expect(artifacts.artifacts).toHaveLength(1);
    const entries = Object.values(
      unzipSync(new Uint8Array(await artifacts.readZip(artifacts.artifacts[0]!))),
    );
    expect(entries).toHaveLength(1);
    expect(Buffer.from(entries[0]!).equals(Buffer.from(served))).toBe(true);

    expect(github.comments.filter((c) => c.issue === 7)).toHaveLength(1);
    const hosts = new Set(proxy.seen.map((line) => line.replace(/^CONNECT /, '')));
    for (const host of ['api.gi.test', 'shots.gi.test', 'results.gi.test', 'github.gi.test']) {
      expect(hosts, host).toContain(`${host}:80`);
    }
    // The artifact's blob storage (the Azure SDK) goes through the proxy too, in absolute form.
    expect(proxy.seen).toContainEqual(expect.stringMatching(`^PUT ${artifacts.url}/devstoreaccount1/`));
  });
});
