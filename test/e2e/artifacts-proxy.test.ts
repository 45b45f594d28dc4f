/**
 * The bundled action on a runner whose only way out is its proxy (`HTTP_PROXY`): the API, the screenshots,
 * the artifact service and GitHub's REST API are host names only the proxy resolves (`*.test`, which no DNS
 * answers), so a request that does not go through the proxy fails (ENOTFOUND). Every part of a step then
 * works: the run, its failed test's screenshot, the artifact (its blob storage on loopback goes through the
 * proxy as well), the pull-request comment.
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { unzipSync } from 'fflate';
import { beforeAll, describe, expect, it } from 'vitest';
import { startFakeArtifactService, type FakeArtifactService } from '../support/fakes/artifact-service.js';
import { FakeGitHub, TOKEN } from '../support/fakes/github.js';
import { startForwardProxy, startProxy, type ForwardProxy } from '../support/proxy.js';
import { useWorld, useWorlds } from '../support/world.js';

const world = useWorld({ clock: 'scaled', timeScale: 0.01 });
const { later } = useWorlds();

describe('behind a proxy, every request of a step goes through it', () => {
  let artifacts: FakeArtifactService;
  let github: FakeGitHub;
  let proxy: ForwardProxy;

  beforeAll(async () => {
    const { origin } = world.emulator;
    // The API's answers name the screenshots on a host of their own, as the service's storage is.
    const api = await startProxy(origin, undefined, (_request, body) =>
      JSON.parse(JSON.stringify(body).replaceAll(origin, 'http://shots.gi.test')),
    );
    later(() => api.close());
    artifacts = await startFakeArtifactService();
    later(() => artifacts.close());
    github = new FakeGitHub();
    await github.start();
    later(() => github.stop());
    proxy = await startForwardProxy({
      'api.gi.test': new URL(api.baseUrl).host,
      'shots.gi.test': new URL(origin).host,
      'results.gi.test': new URL(artifacts.url).host,
      'github.gi.test': new URL(github.baseUrl).host,
    });
    later(() => proxy.close());
  });

  it('the run, the screenshot, the artifact and the pull-request comment all get through', async () => {
    const event = path.join(world.workspace, 'event.json');
    await writeFile(event, JSON.stringify({ pull_request: { number: 7 } }));
    const run = await world.run({
      bundle: true,
      inputs: {
        'api-key': world.apiKey,
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
        RUNNER_TEMP: world.workspace,
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

    const failed = [...world.emulator.store.results.values()].filter(
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
