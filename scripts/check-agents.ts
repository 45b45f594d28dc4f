/**
 * Checks the pinned tunnel agents on the machine it runs on, through the action's own code
 * (docs/tunnel.md, "Checked on the platforms themselves"); `.github/workflows/agents.yml` runs it on each
 * kind of GitHub-hosted runner:
 *
 * 1. `findAgent` downloads the pinned file for this OS and architecture into the tool cache and checks its
 *    SHA-256; a second `findAgent` takes the kept file, checked again, without a download;
 * 2. a small app is started on loopback; `startTunnel` runs the agent and opens a real tunnel to it, then
 *    fetches the public URL as a browser would until the app answers; the app's own answer is read back
 *    through the public URL;
 * 3. the post step's check recognises the running agent by the executable its pid runs, and stops it.
 *
 * cloudflared always (a quick tunnel, no account); ngrok only when `NGROK_AUTHTOKEN` is set.
 *
 *   node --import tsx scripts/check-agents.ts [--pins FILE]
 *
 * `--pins FILE` (the local mode, for the tests): JSON `{"cloudflared": {"url", "sha256", "version"}, ...}`
 * replacing the pinned download of each agent named, for this OS and architecture. Exits 1 naming what
 * failed.
 */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { chmod, copyFile, mkdir, mkdtemp } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TunnelProviderName } from '../src/inputs/schema.js';
import { findAgent } from '../src/tunnel/agent.js';
import { seeAsBrowser } from '../src/tunnel/browser-check.js';
import { stopLeftAgent } from '../src/tunnel/left-agent.js';
import { tunnelProvider, type AgentAsset, type TunnelProvider } from '../src/tunnel/providers.js';
import { startTunnel, type AgentProcess } from '../src/tunnel/tunnel.js';

type LocalPins = Partial<Record<TunnelProviderName, Pick<AgentAsset, 'url' | 'sha256' | 'version'>>>;

/** The provider of `name`, its download replaced by `pins` when they name it. */
function providerFor(name: TunnelProviderName, pins: LocalPins): TunnelProvider {
  const provider = tunnelProvider(name);
  const pin = pins[name];
  if (!pin) return provider;
  const file = new URL(pin.url).pathname.split('/').pop() ?? '';
  const kind = file.endsWith('.zip') ? 'zip' : file.endsWith('.tgz') ? 'tgz' : 'binary';
  return { ...provider, asset: () => ({ ...pin, file, kind, source: '--pins' }) };
}

/** Steps 1 to 3 for one agent; throws naming the step that failed. */
async function checkAgent(provider: TunnelProvider, log: (line: string) => void): Promise<void> {
  const name = provider.name;
  const lines: string[] = [];
  const exe = await findAgent(provider, '', (line) => lines.push(line));
  lines.forEach(log);
  if (!lines.some((line) => line.startsWith('Downloading')))
    throw new Error(`${name}: it was not downloaded`);
  log(`${name}: downloaded and checked: ${exe}`);
  const again: string[] = [];
  await findAgent(provider, '', (line) => again.push(line));
  if (again.length > 0) throw new Error(`${name}: the kept file was not used: ${again.join('; ')}`);
  log(`${name}: the kept file checked again, no download`);

  // The agent under its own name, alone on PATH: startTunnel finds it there, as a job's own install.
  const bin = await mkdtemp(path.join(process.env.RUNNER_TEMP ?? tmpdir(), `${name}-bin-`));
  const onPath = path.join(bin, process.platform === 'win32' ? `${name}.exe` : name);
  await copyFile(exe, onPath);
  await chmod(onPath, 0o755);

  const answer = randomUUID();
  const app = createServer((_request, response) => response.end(answer));
  await new Promise<void>((resolve) => app.listen(0, '127.0.0.1', resolve));
  const address = `http://127.0.0.1:${(app.address() as AddressInfo).port}`;
  let saved: AgentProcess | undefined;
  try {
    const tunnel = await startTunnel({
      tunnel: {
        address,
        provider: name,
        authtoken: process.env.NGROK_AUTHTOKEN ?? '',
        urlVariable: 'ngrokUrl',
        hostHeader: '',
      },
      env: { ...withoutPath(process.env), PATH: bin },
      log,
      signal: new AbortController().signal,
      onSpawn: (agent) => (saved = agent),
    });
    try {
      const seen = await seeAsBrowser(tunnel.url, AbortSignal.timeout(30_000));
      if (seen.kind !== 'app') throw new Error(`${name}: a browser sees ${JSON.stringify(seen)}`);
      const body = await (await fetch(tunnel.url, { signal: AbortSignal.timeout(30_000) })).text();
      if (body !== answer)
        throw new Error(`${name}: ${tunnel.url} answers ${JSON.stringify(body.slice(0, 200))}`);
      log(`${name}: the app answers through ${tunnel.url}`);
      const stopped = saved ? await stopLeftAgent(saved) : null;
      if (stopped !== saved?.pid) {
        throw new Error(`${name}: the post step's check did not recognise ${JSON.stringify(saved)}`);
      }
      log(`${name}: the post step's check recognised pid ${stopped} by its executable ${saved?.path}`);
    } finally {
      await tunnel.stop();
    }
  } finally {
    app.closeAllConnections();
    app.close();
  }
}

/** `env` without its search path, whatever its case (`Path` on Windows). */
function withoutPath(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(env).filter(([key]) => key.toUpperCase() !== 'PATH'));
}

async function main(): Promise<void> {
  const at = process.argv.indexOf('--pins');
  const pins = at > 0 ? (JSON.parse(readFileSync(process.argv[at + 1] ?? '', 'utf8')) as LocalPins) : {};
  await mkdir(process.env.RUNNER_TEMP ?? tmpdir(), { recursive: true });
  const names: TunnelProviderName[] = ['cloudflared'];
  if (process.env.NGROK_AUTHTOKEN) names.push('ngrok');
  else console.log('ngrok: skipped (no NGROK_AUTHTOKEN)');
  const failed: string[] = [];
  for (const name of names) {
    try {
      await checkAgent(providerFor(name, pins), (line) => console.log(line));
      console.log(`${name}: passed on ${process.platform}/${process.arch}`);
    } catch (error) {
      failed.push(error instanceof Error ? error.message : String(error));
    }
  }
  for (const message of failed) console.error(`FAILED: ${message}`);
  process.exitCode = failed.length > 0 ? 1 : 0;
}

await main();
