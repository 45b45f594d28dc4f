/**
 * The command line: starts with the default seed, prints the documented first line, answers the API, and
 * stops cleanly on SIGTERM and SIGINT. (Start-up time is printed for information only.)
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { afterEach, describe, expect, it } from 'vitest';

const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
});

/** Spawns the CLI; resolves with the process and its first stdout line. */
async function spawnCli(args: string[]): Promise<{ child: ChildProcess; firstLine: string; ms: number }> {
  const t0 = Date.now();
  const child = spawn(process.execPath, ['--import', 'tsx', 'emulator/cli.ts', ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let out = '';
  let err = '';
  child.stderr!.on('data', (c: Buffer) => (err += c.toString()));
  const firstLine = await new Promise<string>((resolve, reject) => {
    child.stdout!.on('data', (c: Buffer) => {
      out += c.toString();
      if (out.includes('\n')) resolve(out.split('\n')[0]);
    });
    child.on('exit', (code) => reject(new Error(`CLI exited with ${code}: ${err}`)));
  });
  return { child, firstLine, ms: Date.now() - t0 };
}

describe('npm run emulator', () => {
  it('prints the listening line first, serves the default seed and stops on SIGTERM', async () => {
    const { child, firstLine, ms } = await spawnCli(['--port', '0', '--time-scale', '0.01']);
    console.log(`emulator CLI first line after ${ms} ms (informative)`);
    const m = /^Ghost Inspector emulator listening on (http:\/\/127\.0\.0\.1:(\d+)\/v1)$/.exec(firstLine);
    expect(m, firstLine).not.toBeNull();
    expect(Number(m![2])).toBeGreaterThan(0);
    const res = await fetch(`${m![1]}/suites/?apiKey=demo-api-key`);
    const body = (await res.json()) as { code: string; data: Array<{ _id: string }> };
    expect(body.code).toBe('SUCCESS');
    expect(body.data.map((s) => s._id)).toContain('suite-smoke');
    child.kill('SIGTERM');
    const [code] = await once(child, 'exit');
    expect(code).toBe(0);
  });

  it('takes --host, --api-key and --faults, and stops on SIGINT', async () => {
    const { child, firstLine } = await spawnCli([
      '--port=0',
      '--host',
      '127.0.0.1',
      '--api-key',
      'cli-key',
      '--faults',
      'route=/v1/folders:503x1',
    ]);
    const base = /listening on (\S+)$/.exec(firstLine)![1];
    expect((await fetch(`${base}/folders/?apiKey=cli-key`)).status).toBe(503);
    const ok = (await (await fetch(`${base}/folders/?apiKey=cli-key`)).json()) as { code: string };
    expect(ok.code).toBe('SUCCESS');
    child.kill('SIGINT');
    const [code] = await once(child, 'exit');
    expect(code).toBe(0);
  });

  it('refuses bad options with exit code 2', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'emulator/cli.ts', '--executor', 'teleport'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.push(child);
    let err = '';
    child.stderr.on('data', (c: Buffer) => (err += c.toString()));
    const [code] = await once(child, 'exit');
    expect(code).toBe(2);
    expect(err).toContain('--executor');
  });

  it('takes --rate-limit and --not-found-window', async () => {
    const { child, firstLine } = await spawnCli([
      '--port=0',
      '--rate-limit',
      'burst=3,rate=0.01,retry-after=3',
      '--not-found-window',
      '60000',
    ]);
    const base = /listening on (\S+)$/.exec(firstLine)![1];
    const run = (await (
      await fetch(`${base}/tests/test-home/execute/?apiKey=demo-api-key&immediate=1`, { method: 'POST' })
    ).json()) as { data: { _id: string } };
    const read = async () =>
      (await (await fetch(`${base}/results/${run.data._id}/?apiKey=demo-api-key`)).json()) as {
        code: string;
        message?: string;
      };
    expect(await read()).toMatchObject({ code: 'ERROR', message: 'Result not found' });
    expect((await read()).code).toBe('ERROR');
    const limited = await fetch(`${base}/suites/?apiKey=demo-api-key`);
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('3');
    child.kill('SIGTERM');
    await once(child, 'exit');
  });

  it('prints its usage for --help and refuses unknown options with exit code 2', async () => {
    const run = async (args: string[]) => {
      const child = spawn(process.execPath, ['--import', 'tsx', 'emulator/cli.ts', ...args], {
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      children.push(child);
      let out = '';
      child.stdout.on('data', (c: Buffer) => (out += c.toString()));
      child.stderr.on('data', (c: Buffer) => (out += c.toString()));
      const [code] = (await once(child, 'exit')) as [number];
      return { code, out };
    };
    const [help, unknown, port] = await Promise.all([
      run(['--help']),
      run(['--fast']),
      run(['--port', 'many']),
    ]);
    expect(help.code).toBe(0);
    expect(help.out).toContain('--no-webhooks');
    expect(unknown.code).toBe(2);
    expect(unknown.out).toContain("'--fast'");
    expect(port.code).toBe(2);
    expect(port.out).toContain('--port must be 0..65535, got "many"');
  });

  it('refuses a bad --rate-limit naming it', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'emulator/cli.ts', '--rate-limit', 'speed=1'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.push(child);
    let err = '';
    child.stderr.on('data', (c: Buffer) => (err += c.toString()));
    const [code] = await once(child, 'exit');
    expect(code).toBe(2);
    expect(err).toContain('speed');
  });
});
