/**
 * The local mode of `scripts/check-agents.ts`, the script `.github/workflows/agents.yml` runs on GitHub's
 * runners: served from a loopback file server, the fake agents (`test/support/fakes`) as a bare executable
 * (cloudflared, as on Linux) and as a `.zip` (ngrok), each pinned by the SHA-256 this test computes; the
 * script downloads and checks each through the action's own code, takes the kept file again, opens a tunnel
 * to its app, reads the app back through the public URL and has the post step's check stop the agent. A
 * wrong pin fails the script, naming the file.
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { zipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../../support/harness.js';

const sha256 = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex');
/** A fake agent as the executable a download holds: a node script run by its shebang. */
const fakeAgent = (name: string): Uint8Array =>
  new TextEncoder().encode(
    `#!${process.execPath}\nimport(${JSON.stringify(pathToFileURL(path.join(ROOT, `test/support/fakes/${name}-agent.mjs`)).href)});\n`,
  );
const FILES: Record<string, Uint8Array> = {
  '/cloudflared-linux-amd64': fakeAgent('cloudflared'),
  '/ngrok-v3-9.9.9-linux-amd64.zip': zipSync({ ngrok: [fakeAgent('ngrok'), { os: 3, attrs: 0o755 << 16 }] }),
};
let server: Server;
let base: string;
let work: string;

beforeAll(async () => {
  work = await mkdtemp(path.join(tmpdir(), 'gi-check-agents-'));
  server = createServer((request, response) => {
    const body = FILES[request.url ?? ''];
    if (body) response.writeHead(200).end(body);
    else response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.close();
  await rm(work, { recursive: true, force: true });
});

/** Runs the script with `pins`, a tool cache and temp of its own; resolves with its exit code and output. */
async function checkAgents(pins: object, run: string) {
  const pinsFile = path.join(work, `${run}.json`);
  await writeFile(pinsFile, JSON.stringify(pins));
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', path.join(ROOT, 'scripts/check-agents.ts'), '--pins', pinsFile],
    {
      cwd: ROOT,
      env: {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        RUNNER_TOOL_CACHE: path.join(work, run, 'cache'),
        RUNNER_TEMP: path.join(work, run, 'temp'),
        NGROK_AUTHTOKEN: 'ngrok-token-check-7Qx2',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  child.stdout.on('data', (chunk) => (output += String(chunk)));
  child.stderr.on('data', (chunk) => (output += String(chunk)));
  const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
  return { code, output };
}

const pin = (file: string, over: object = {}) => ({
  url: `${base}${file}`,
  sha256: sha256(FILES[file] ?? new Uint8Array()),
  version: '9.9.9',
  ...over,
});

describe.skipIf(process.platform === 'win32')('scripts/check-agents.ts --pins (its local mode)', () => {
  it('downloads, checks, tunnels to its app through each agent and stops it by its executable', async () => {
    const { code, output } = await checkAgents(
      { cloudflared: pin('/cloudflared-linux-amd64'), ngrok: pin('/ngrok-v3-9.9.9-linux-amd64.zip') },
      'good',
    );
    expect(output).not.toContain('FAILED');
    expect(code).toBe(0);
    for (const name of ['cloudflared', 'ngrok']) {
      expect(output).toContain(`${name}: downloaded and checked: `);
      expect(output).toContain(`${name}: the kept file checked again, no download`);
      expect(output).toMatch(new RegExp(`${name}: the app answers through http://127\\.0\\.0\\.1:\\d+`));
      expect(output).toMatch(
        new RegExp(`${name}: the post step's check recognised pid \\d+ by its executable`),
      );
      expect(output).toContain(`${name}: passed on ${process.platform}/${process.arch}`);
    }
  }, 60_000);

  it('fails, naming the file, when a pin is not the SHA-256 of the file served', async () => {
    const wrong = sha256(new TextEncoder().encode('the executable inside'));
    const { code, output } = await checkAgents(
      {
        cloudflared: pin('/cloudflared-linux-amd64', { sha256: wrong }),
        ngrok: pin('/ngrok-v3-9.9.9-linux-amd64.zip'),
      },
      'wrong',
    );
    expect(code).toBe(1);
    expect(output).toContain(
      `FAILED: The download of ${base}/cloudflared-linux-amd64 has SHA-256 ${sha256(FILES['/cloudflared-linux-amd64']!)}, not the pinned ${wrong} (--pins)`,
    );
    expect(output).toContain('ngrok: passed');
  }, 60_000);
});
