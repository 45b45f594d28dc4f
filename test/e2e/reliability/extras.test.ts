/**
 * Reports first, extras after: the bundled action writes results.json, JUnit, the job summary and its
 * outputs before the screenshots and the pull-request comment, so that a GitHub API that never answers (that
 * case in-process, `run(deps)`, on virtual time: the time limit is the action's clock's), a
 * screenshot host that hangs, a workflow cancel during the downloads, a hostile screenshot URL or another
 * user's comment quoting the marker never costs a report, an output or someone else's text. Also hosts at
 * the edges: an API answer over 64 MiB once decompressed (its reason in a warning), screenshot bodies that
 * only start like an image, an `https` screenshot redirected to `http` while the API itself is `http`. Each
 * case has its own emulator and the cases run at once.
 */
import { existsSync, readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { FakeGitHub, TOKEN } from '../../support/fakes/github.js';
import { counts, until, type ActionRun } from '../../support/harness.js';
import { startProxy } from '../../support/proxy.js';
import { FILES, listFiles, readResults, secretInputs, secretsFor } from '../../support/reliability.js';
import { startScreenshotServer } from '../../support/screenshots.js';
import { useWorlds, type ScaledWorld } from '../../support/world.js';

const secrets = secretsFor('extras');

const { open, later, newWorkspace } = useWorlds();

const worldOfItsOwn = (): Promise<ScaledWorld> => open({ clock: 'scaled', secrets });

/** The emulator's API behind a proxy that points every screenshot URL at `imageBase` instead. */
async function withScreenshotsAt({ emulator }: ScaledWorld, imageBase: string): Promise<string> {
  const files = `${emulator.origin}/_emulator/files/`;
  const proxy = await startProxy(emulator.origin, undefined, (_request, body) =>
    JSON.parse(JSON.stringify(body).split(files).join(imageBase)),
  );
  later(() => proxy.close());
  return proxy.baseUrl;
}

async function fakeGitHub(): Promise<FakeGitHub> {
  const github = new FakeGitHub();
  await github.start();
  later(() => github.stop());
  return github;
}

/** The environment of a pull request event (pull request 7, its event file in `workspace`) with `github`'s API. */
async function pullRequestEnv(workspace: string, github: FakeGitHub): Promise<Record<string, string>> {
  const event = path.join(workspace, 'event.json');
  await writeFile(event, JSON.stringify({ pull_request: { number: 7 } }));
  return {
    GITHUB_REPOSITORY: 'acme/shop',
    GITHUB_JOB: 'ghost',
    GITHUB_EVENT_PATH: event,
    GITHUB_API_URL: github.baseUrl,
  };
}

interface Timed {
  run: ActionRun;
  workspace: string;
  afterSignalMs: number;
}

/**
 * Runs the bundle in `world` against `baseUrl` with the reliability secrets; a pull request event when
 * `github` is given; `signal` is sent once `ready` holds.
 */
async function act(
  world: ScaledWorld,
  baseUrl: string,
  inputs: Record<string, string>,
  options: {
    github?: FakeGitHub;
    signal?: NodeJS.Signals;
    ready?: () => boolean;
    env?: Record<string, string>;
  } = {},
): Promise<Timed> {
  const workspace = await newWorkspace();
  const env: Record<string, string> = {
    GITHUB_REPOSITORY: 'acme/shop',
    GITHUB_JOB: 'ghost',
    ...options.env,
  };
  if (options.github) Object.assign(env, await pullRequestEnv(workspace, options.github));
  const { cancel, kill, done } = await world.start({
    bundle: true,
    workspace,
    inputs: {
      ...secretInputs(secrets),
      'api-base-url': baseUrl,
      'timeout-minutes': '1',
      ...(options.github ? { 'pr-comment': 'true', 'github-token': TOKEN } : {}),
      ...inputs,
    },
    env,
  });
  let signalledAt = NaN;
  if (options.signal) {
    await until(options.ready ?? (() => true), 30_000);
    signalledAt = Date.now();
    cancel(options.signal);
  }
  const hang = setTimeout(kill, 90_000);
  const run = await done;
  clearTimeout(hang);
  const exitedAt = Date.now();
  return { run, workspace, afterSignalMs: exitedAt - signalledAt };
}

/** Every report and output of a run whose verdict is known: results.json, JUnit, summary, outputs. */
function expectEveryReport(t: Pick<Timed, 'run' | 'workspace'>, verdict: 'passed' | 'failed'): void {
  expect(readResults(t.workspace)?.verdict).toBe(verdict);
  expect(existsSync(path.join(t.workspace, FILES.junit))).toBe(true);
  expect(t.run.summary).toContain(`Ghost Inspector: ${verdict}`);
  expect(t.run.outputs.passing).toBe(String(verdict === 'passed'));
  expect(t.run.outputs['results-json']).toBe(path.join(t.workspace, FILES.results));
  expect(counts(t.run).total).toBeGreaterThan(0);
}

const annotationsOf = (run: ActionRun): string[] =>
  run.stdout.split('\n').filter((l) => l.startsWith('::warning::') || l.startsWith('::error'));

describe.concurrent('reports first, extras after', () => {
  it('a GitHub API that never answers: the step ends at the comment’s time limit with every report and output', async () => {
    // In-process on virtual time: the 20 s time limit is the action's clock's, no real wait.
    const github = await fakeGitHub();
    github.hang = /./;
    const world = await open({ secrets, github });
    const workspace = await newWorkspace();
    const run = await world.run({
      workspace,
      inputs: {
        ...secretInputs(secrets),
        'api-base-url': world.emulator.baseUrl,
        'timeout-minutes': '1',
        'pr-comment': 'true',
        'github-token': TOKEN,
        'suite-ids': 'suite-green',
        screenshots: 'none',
      },
      env: await pullRequestEnv(workspace, github),
    });
    const endedAt = world.clock.now();
    expect(run.code, run.stdout).toBe(0);
    expectEveryReport({ run, workspace }, 'passed');
    expect(run.stdout).toMatch(
      /::warning::Could not write the pull-request comment: stopped: time limit of 20 s reached/,
    );
    expect(github.requests.length).toBeGreaterThan(0);
    console.log(
      `extras figures: GitHub API never answers, step ended ${endedAt - github.requests[0]!.at} ms after`,
    );
    expect(endedAt - github.requests[0]!.at).toBeGreaterThanOrEqual(20_000);
    expect(endedAt - github.requests[0]!.at).toBeLessThan(20_000 + 5_000);
  });

  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    it(`${signal} while a screenshot host hangs: results.json, JUnit, summary and outputs are all there`, async () => {
      const world = await worldOfItsOwn();
      const shots = await startScreenshotServer();
      later(() => shots.close());
      const baseUrl = await withScreenshotsAt(world, `${shots.url}/hang/`);
      const t = await act(
        world,
        baseUrl,
        { 'suite-ids': 'suite-red', screenshots: 'failed' },
        { signal, ready: () => [...shots.hits.keys()].some((p) => p.startsWith('/hang/')) },
      );
      console.log(`extras figures: ${signal} during downloads, exit ${t.afterSignalMs} ms after the signal`);
      expect(t.afterSignalMs).toBeLessThan(7_500);
      expect(t.run.signal).toBeNull();
      expect(t.run.code).not.toBe(0);
      expectEveryReport(t, 'failed');
      expect(listFiles(path.join(t.workspace, FILES.artifacts)).filter((f) => f.endsWith('.png'))).toEqual(
        [],
      );
    });
  }

  it('a screenshot URL of another scheme (file:) is refused with a warning naming the screenshot', async () => {
    const world = await worldOfItsOwn();
    const baseUrl = await withScreenshotsAt(world, 'file:///etc/');
    const t = await act(world, baseUrl, { 'suite-ids': 'suite-red', screenshots: 'failed' });
    expect(t.run.code, t.run.stdout + t.run.stderr).toBe(1);
    expectEveryReport(t, 'failed');
    const warning = t.run.stdout
      .split('\n')
      .find((l) => l.startsWith('::warning::') && l.includes('screenshot(s) not downloaded'));
    expect(warning).toMatch(/Red suite\/Red and broken-[0-9a-f]+\.png \(URL scheme file refused/);
    expect(listFiles(path.join(t.workspace, FILES.artifacts))).toEqual([]);
  });

  it('another user’s comment quoting the marker is left untouched; the action keeps its own comment', async () => {
    const world = await worldOfItsOwn();
    const github = await fakeGitHub();
    const marker = '<!-- ghost-inspector-action:ghost -->';
    const quoted = github.add(7, `${marker}\n### ✅ Ghost Inspector: passed (forged)`, 'mallory');
    const first = await act(
      world,
      world.emulator.baseUrl,
      { 'suite-ids': 'suite-green', screenshots: 'none' },
      { github },
    );
    const second = await act(
      world,
      world.emulator.baseUrl,
      { 'suite-ids': 'suite-green', screenshots: 'none' },
      { github },
    );
    for (const t of [first, second]) {
      expect(t.run.code, t.run.stdout + t.run.stderr).toBe(0);
      expect(t.run.stdout).not.toContain('Could not write');
    }
    expect(quoted.body).toBe(`${marker}\n### ✅ Ghost Inspector: passed (forged)`);
    const own = github.comments.filter((c) => c.user.login === 'github-actions[bot]');
    expect(own).toHaveLength(1);
    expect(own[0]!.body.startsWith(`${marker}\n## ✅ Ghost Inspector: passed`)).toBe(true);
    expect(github.requests.filter((q) => q.method === 'PATCH').map((q) => q.url)).toEqual([
      `/repos/acme/shop/issues/comments/${own[0]!.id}`,
    ]);
  });

  it('an answer over 64 MiB once decompressed: the warning gives the reason', async () => {
    const world = await worldOfItsOwn();
    const bomb = gzipSync(Buffer.alloc(65 * 1024 * 1024, 0x20));
    let bombs = 0;
    const proxy = await startProxy(world.emulator.origin, (request) =>
      request.method === 'GET' && /^\/v1\/suite-results\/[^/]+\/\?/.test(request.url) && bombs++ < 2
        ? { status: 200, headers: { 'content-encoding': 'gzip' }, body: bomb }
        : 'forward',
    );
    later(() => proxy.close());
    const { run } = await act(world, proxy.baseUrl, { 'suite-ids': 'suite-green', screenshots: 'none' });
    expect(proxy.answered.length).toBeGreaterThan(0);
    expect(run.code, run.stdout + run.stderr).toBe(0);
    const seen = annotationsOf(run).join('\n');
    expect(seen).toMatch(
      /::warning::GET \/v1\/suite-results\/\w+\/\?apiKey=\*\*\*: .*larger than 64 MiB; asked again/,
    );
  });

  it('a PNG signature followed by HTML, and a 3-byte JPEG signature, are not saved as screenshots', async () => {
    const world = await worldOfItsOwn();
    const lookAlikes = [
      Buffer.concat([
        Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
        Buffer.from('<!DOCTYPE html><html><body>Please sign in</body></html>'),
      ]),
      Buffer.from([0xff, 0xd8, 0xff]),
    ];
    let served = 0;
    const shots = await startScreenshotServer({ image: () => lookAlikes[served++ % 2]! });
    later(() => shots.close());
    const baseUrl = await withScreenshotsAt(world, `${shots.url}/img/`);
    const { run, workspace } = await act(world, baseUrl, { 'suite-ids': 'suite-red', screenshots: 'all' });
    expect(run.code, run.stdout + run.stderr).toBe(1);
    expect(listFiles(path.join(workspace, FILES.artifacts))).toEqual([]);
    expect(served).toBeGreaterThanOrEqual(2);
    const missing = annotationsOf(run).find((l) => l.includes('screenshot(s) not downloaded')) ?? '';
    // The warning counts the screenshots by cause, then lists each one with its reason.
    const listed = missing.slice(missing.indexOf('): ') + 3);
    expect(listed.split('not a PNG or JPEG image').length - 1).toBe(served);
  });

  it('an https screenshot redirected to http is refused although the API itself is http', async () => {
    const world = await worldOfItsOwn();
    const shots = await startScreenshotServer();
    later(() => shots.close());
    // An https host on 127.0.0.1 that answers every request with a 302 to the screenshot server. Its
    // certificate (`tls/`) is made for this: self-signed for IP 127.0.0.1, valid until 2126, its key public,
    // trusted only by a process told to with NODE_EXTRA_CA_CERTS; made with `openssl req -x509 -newkey ec
    // -subj '/CN=127.0.0.1 test screenshot host' -addext subjectAltName=IP:127.0.0.1
    // -addext basicConstraints=critical,CA:TRUE`.
    const tlsDir = path.join(path.dirname(fileURLToPath(import.meta.url)), 'tls');
    const cert = path.join(tlsDir, 'loopback-cert.pem');
    let hits = 0;
    const key = readFileSync(path.join(tlsDir, 'loopback-key.pem'));
    const tls = https.createServer({ cert: readFileSync(cert), key }, (req, res) => {
      hits++;
      res.writeHead(302, { location: `${shots.url}/img${req.url ?? '/'}` }).end();
    });
    await new Promise<void>((resolve) => tls.listen(0, '127.0.0.1', resolve));
    later(() => new Promise((resolve) => tls.close(resolve).closeAllConnections()));
    const { port } = tls.address() as AddressInfo;
    const baseUrl = await withScreenshotsAt(world, `https://127.0.0.1:${port}/`);
    const { run, workspace } = await act(
      world,
      baseUrl,
      { 'suite-ids': 'suite-red', screenshots: 'failed' },
      { env: { NODE_EXTRA_CA_CERTS: cert } },
    );
    expect(run.code, run.stdout + run.stderr).toBe(1);
    expect(hits).toBeGreaterThan(0);
    expect([...shots.hits.keys()]).toEqual([]);
    expect(listFiles(path.join(workspace, FILES.artifacts))).toEqual([]);
    expect(annotationsOf(run).find((l) => l.includes('screenshot(s) not downloaded'))).toMatch(
      /redirected to http URL refused/,
    );
  });
});
