/**
 * Answers at the edges, through the bundled action: an API answer over 64 MiB once decompressed (a gzip
 * bomb) whose reason must reach the warning, not only the debug lines; screenshot bodies that are not the
 * image their signature claims (a PNG signature followed by HTML, a body shorter than any image); a
 * screenshot on an `https` host that redirects to `http` while the API itself is `http` (so `http`
 * screenshot URLs are allowed, but never as a downgrade). Each case has its own emulator.
 */
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import type { Emulator } from '../../../emulator/index.js';
import { runAction, type ActionRun } from '../../support/harness.js';
import { startHoldProxy, startProxy } from '../../support/proxy.js';
import {
  closeAfterAll,
  FILES,
  listFiles,
  makeTempWorkspace,
  removeWorkspace,
  secretInputs,
  secretsFor,
  startReliabilityEmulator,
} from '../../support/reliability.js';
import { startScreenshotServer } from '../../support/screenshots.js';
import { startTlsRedirect, TEST_CA_FILE } from '../../support/tls.js';

const secrets = secretsFor('edges');
const later = closeAfterAll();

async function emulatorOfItsOwn(): Promise<Emulator> {
  const emulator = await startReliabilityEmulator(secrets);
  later(() => emulator.close());
  return emulator;
}

/** The emulator's API behind a proxy that points every screenshot URL at `imageBase` instead. */
async function withScreenshotsAt(emulator: Emulator, imageBase: string): Promise<string> {
  const files = `${emulator.origin}/_emulator/files/`;
  const proxy = await startHoldProxy(
    emulator.origin,
    () => 'forward',
    (body) => body.split(files).join(imageBase),
  );
  later(() => proxy.close());
  return proxy.baseUrl;
}

async function act(
  baseUrl: string,
  inputs: Record<string, string>,
  env: Record<string, string> = {},
): Promise<{ run: ActionRun; workspace: string }> {
  const workspace = await makeTempWorkspace('gi-rel-edges-');
  later(() => removeWorkspace(workspace));
  const run = await runAction({
    workspace,
    inputs: { ...secretInputs(secrets), 'api-base-url': baseUrl, timeout: '1', ...inputs },
    env,
  });
  return { run, workspace };
}

const warnings = (run: ActionRun): string[] =>
  run.stdout.split('\n').filter((l) => l.startsWith('::warning::') || l.startsWith('::error'));

describe.concurrent('answers at the edges', () => {
  it('an answer over 64 MiB once decompressed: the warning gives the reason', async () => {
    const emulator = await emulatorOfItsOwn();
    const bomb = gzipSync(Buffer.alloc(65 * 1024 * 1024, 0x20));
    let bombs = 0;
    const proxy = await startProxy(emulator.origin, (request) =>
      request.method === 'GET' && /^\/v1\/suite-results\/[^/]+\/\?/.test(request.url) && bombs++ < 2
        ? { status: 200, headers: { 'content-encoding': 'gzip' }, body: bomb }
        : 'forward',
    );
    later(() => proxy.close());
    const { run } = await act(proxy.baseUrl, { 'suite-ids': 'suite-green', screenshots: 'none' });
    expect(proxy.answered.length).toBeGreaterThan(0);
    expect(run.code, run.stdout + run.stderr).toBe(0);
    const seen = warnings(run).join('\n');
    expect(seen).toMatch(
      /::warning::GET \/v1\/suite-results\/\w+\/\?apiKey=\*\*\*: .*larger than 64 MiB; asked again/,
    );
  });

  it('a PNG signature followed by HTML, and a 3-byte JPEG signature, are not saved as screenshots', async () => {
    const emulator = await emulatorOfItsOwn();
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
    const baseUrl = await withScreenshotsAt(emulator, `${shots.url}/img/`);
    const { run, workspace } = await act(baseUrl, { 'suite-ids': 'suite-red', screenshots: 'all' });
    expect(run.code, run.stdout + run.stderr).toBe(1);
    expect(listFiles(path.join(workspace, FILES.artifacts))).toEqual([]);
    expect(served).toBeGreaterThanOrEqual(2);
    const missing = warnings(run).find((l) => l.includes('missing')) ?? '';
    expect(missing.split('not a PNG or JPEG image').length - 1).toBe(served);
  });

  it('an https screenshot redirected to http is refused although the API itself is http', async () => {
    const emulator = await emulatorOfItsOwn();
    const shots = await startScreenshotServer();
    later(() => shots.close());
    const tls = await startTlsRedirect(`${shots.url}/img/`);
    later(() => tls.close());
    const baseUrl = await withScreenshotsAt(emulator, `${tls.url}/`);
    const { run, workspace } = await act(
      baseUrl,
      { 'suite-ids': 'suite-red', screenshots: 'failed' },
      { NODE_EXTRA_CA_CERTS: TEST_CA_FILE },
    );
    expect(run.code, run.stdout + run.stderr).toBe(1);
    expect(tls.hits()).toBeGreaterThan(0);
    expect([...shots.hits.keys()]).toEqual([]);
    expect(listFiles(path.join(workspace, FILES.artifacts))).toEqual([]);
    expect(warnings(run).find((l) => l.includes('missing'))).toMatch(/redirected to http URL refused/);
  });
});
