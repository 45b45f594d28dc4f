/**
 * Screenshot artifacts benchmark: 500 screenshots of about 200 KB each, downloaded from a loopback
 * screenshot server and uploaded through the real `@actions/artifact` client to the local artifact-service
 * fake (test/support/fakes/artifact-service.ts). Reports MB/s for both legs and the peak RSS of the process doing
 * the work (sampled every 50 ms), which must stay under 150 MB.
 *
 * Run: `node --import tsx bench/artifacts.bench.ts [count] [concurrency]`. Not part of `npm test`.
 * `BENCH_NODE_FLAGS` passes flags to the worker (e.g. `--max-semi-space-size=1` to see the share of V8's
 * young generation in the peak).
 *
 * The measured work runs in a child `node` process without the TypeScript loader, as the bundled action
 * runs: this file and src/artifacts/ are transpiled with `typescript` into a temporary folder (the loader
 * alone costs some 60 MB of RSS, which would say nothing about the action). The parent runs the
 * screenshot server and the artifact-service fake, then checks the stored zip byte for byte.
 */
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import type { RunSummary, TestRun } from '../src/run/types.js';
import type { TestResult } from '../src/api/types.js';

const RSS_LIMIT_MB = 150;
const MB = 1024 * 1024;

/** What the worker reports on its last stdout line. */
interface WorkerFigures {
  downloadBytes: number;
  downloadMs: number;
  missing: number;
  uploadMs: number;
  artifactId?: number;
  warnings: string[];
  rssBaseline: number;
  /** Peak RSS during the download leg. */
  rssAfterDownload: number;
  rssPeak: number;
  /** V8 heap (committed) and external (Buffer) memory when RSS peaked, in bytes. */
  heapAtPeak: number;
  externalAtPeak: number;
}

/** Child process: download + upload, sampling its own RSS every 50 ms. */
async function worker(): Promise<void> {
  const { downloadScreenshots, selectScreenshots, uploadScreenshots } =
    await import('../src/artifacts/index.js');
  const count = Number(process.env.BENCH_COUNT);
  const base = process.env.BENCH_SHOTS_URL!;
  const dir = process.env.BENCH_DIR!;
  const tests: TestRun[] = Array.from({ length: count }, (_, i) => {
    const url = `${base}/shot/${i}.png`;
    const image = { defaultUrl: url, dims: { h: 224, w: 224 }, path: url, size: 0 };
    const result = {
      _id: `r${i}`,
      name: `Checkout step ${i}`,
      passing: false,
      screenshot: { original: image, small: image },
      screenshotComparePassing: null,
    } as unknown as TestResult;
    return { testId: `t${i}`, testName: result.name, state: 'failed', result, attempts: [] };
  });
  const summary: RunSummary = {
    runs: [
      {
        kind: 'suite',
        key: 's-0',
        suiteId: 's',
        suiteName: 'Bench suite',
        variant: {},
        triggeredAt: '',
        tests,
      },
    ],
    startedAt: '',
    finishedAt: '',
    appUrl: 'https://app.ghostinspector.com',
  };
  const jobs = selectScreenshots(summary, 'failed');

  const rssBaseline = process.memoryUsage.rss();
  let rssPeak = rssBaseline;
  let atPeak = process.memoryUsage();
  const sampler = setInterval(() => {
    const rss = process.memoryUsage.rss();
    if (rss > rssPeak) {
      rssPeak = rss;
      atPeak = process.memoryUsage();
    }
  }, 50);
  // The artifact client logs progress on stdout; keep stdout for the figures.
  const write = process.stdout.write.bind(process.stdout);
  process.stdout.write = (() => true) as typeof process.stdout.write;

  const t0 = performance.now();
  const downloaded = await downloadScreenshots(jobs, dir, {
    concurrency: Number(process.env.BENCH_CONCURRENCY),
  });
  const t1 = performance.now();
  const rssAfterDownload = rssPeak;
  const uploaded = await uploadScreenshots(downloaded.files, {
    name: 'bench-screenshots',
    rootDirectory: dir,
    artifactsDir: path.join(dir, '..', 'local'),
  });
  const t2 = performance.now();
  clearInterval(sampler);
  rssPeak = Math.max(rssPeak, process.memoryUsage.rss());
  process.stdout.write = write;
  const figures: WorkerFigures = {
    downloadBytes: downloaded.files.reduce((n, f) => n + f.bytes, 0),
    downloadMs: t1 - t0,
    missing: downloaded.missing.length,
    uploadMs: t2 - t1,
    artifactId: uploaded.artifactId,
    warnings: uploaded.warnings,
    rssBaseline,
    rssAfterDownload,
    rssPeak,
    heapAtPeak: atPeak.heapTotal,
    externalAtPeak: atPeak.external,
  };
  process.stdout.write(`${JSON.stringify(figures)}\n`);
}

/** Transpiles this file and src/artifacts/ into `out`, mirroring the tree; links node_modules. */
async function buildWorker(root: string, out: string): Promise<string> {
  const ts = (await import('typescript')).default;
  const sources = [
    'bench/artifacts.bench.ts',
    ...(await readdir(path.join(root, 'src/artifacts')))
      .filter((f) => f.endsWith('.ts'))
      .map((f) => `src/artifacts/${f}`),
  ];
  for (const rel of sources) {
    const code = await readFile(path.join(root, rel), 'utf8');
    const js = ts.transpileModule(code, {
      compilerOptions: {
        module: ts.ModuleKind.ESNext,
        target: ts.ScriptTarget.ES2022,
        verbatimModuleSyntax: false,
        isolatedModules: true,
      },
      fileName: rel,
    }).outputText;
    const target = path.join(out, rel.replace(/\.ts$/, '.js'));
    await mkdir(path.dirname(target), { recursive: true });
    await writeFile(target, js);
  }
  await writeFile(path.join(out, 'package.json'), JSON.stringify({ type: 'module' }));
  await symlink(path.join(root, 'node_modules'), path.join(out, 'node_modules'), 'dir');
  return path.join(out, 'bench/artifacts.bench.js');
}

async function parent(): Promise<void> {
  const http = await import('node:http');
  const { randomBytes } = await import('node:crypto');
  const { PNG } = await import('pngjs');
  const { unzipSync } = await import('fflate');
  const { startFakeArtifactService } = await import('../test/support/fakes/artifact-service.js');

  const count = Number(process.argv[2] ?? 500);
  const concurrency = Number(process.argv[3] ?? 4);
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
  const tmp = await mkdtemp(path.join(os.tmpdir(), 'gi-artifacts-bench-'));

  // Sixteen distinct ~200 KB PNGs (224 x 224 random RGBA), served in turn.
  const pngs = Array.from({ length: 16 }, () => {
    const png = new PNG({ width: 224, height: 224 });
    randomBytes(224 * 224 * 4).copy(png.data);
    return PNG.sync.write(png);
  });
  const server = http.createServer((req, res) => {
    const n = Number((req.url ?? '').replace(/\D/g, '')) || 0;
    const body = pngs[n % pngs.length];
    res.writeHead(200, { 'content-type': 'image/png', 'content-length': String(body.length) });
    res.end(body);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const address = server.address() as { port: number };
  const fake = await startFakeArtifactService({ dir: path.join(tmp, 'service') });

  try {
    const entry = await buildWorker(root, path.join(tmp, 'worker'));
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      ...fake.env({ runId: 'bench-run', jobId: 'bench-job' }),
      GITHUB_REPOSITORY: 'bench/repo',
      GITHUB_RUN_ID: '1',
      BENCH_WORKER: '1',
      BENCH_COUNT: String(count),
      BENCH_CONCURRENCY: String(concurrency),
      BENCH_SHOTS_URL: `http://127.0.0.1:${address.port}`,
      BENCH_DIR: path.join(tmp, 'downloads'),
    };
    delete env.NODE_OPTIONS;
    const child = spawn(
      process.execPath,
      [...(process.env.BENCH_NODE_FLAGS ?? '').split(' ').filter(Boolean), entry],
      { env, stdio: ['ignore', 'pipe', 'inherit'] },
    );
    let stdout = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    const code = await new Promise<number | null>((r) => child.on('close', r));
    if (code !== 0) throw new Error(`worker exited with ${code}: ${stdout.slice(-2000)}`);
    const w = JSON.parse(stdout.trim().split('\n').at(-1)!) as WorkerFigures;

    const stored = fake.artifacts[0];
    let entries = 0;
    let intact = false;
    if (stored) {
      const files = Object.entries(unzipSync(new Uint8Array(await fake.readZip(stored)))).filter(
        ([name]) => !name.endsWith('/'),
      );
      entries = files.length;
      intact = files.every(([name, bytes]) => {
        const i = Number(/-r(\d+)\.png$/.exec(name)?.[1]);
        return Buffer.from(bytes).equals(pngs[i % pngs.length]);
      });
    }
    const figures = {
      screenshots: count,
      concurrency,
      averageKB: Math.round(w.downloadBytes / Math.max(1, count - w.missing) / 1024),
      missing: w.missing,
      download: {
        MB: +(w.downloadBytes / MB).toFixed(1),
        seconds: +(w.downloadMs / 1000).toFixed(2),
        MBps: +(w.downloadBytes / MB / (w.downloadMs / 1000)).toFixed(1),
      },
      upload: {
        zipMB: +((stored?.size ?? 0) / MB).toFixed(1),
        seconds: +(w.uploadMs / 1000).toFixed(2),
        MBps: +((stored?.size ?? 0) / MB / (w.uploadMs / 1000)).toFixed(1),
        artifactId: w.artifactId,
        warnings: w.warnings,
      },
      zipEntries: entries,
      zipIntact: intact,
      workerRssMB: {
        afterLoad: +(w.rssBaseline / MB).toFixed(1),
        peakDownload: +(w.rssAfterDownload / MB).toFixed(1),
        peak: +(w.rssPeak / MB).toFixed(1),
        heapAtPeak: +(w.heapAtPeak / MB).toFixed(1),
        externalAtPeak: +(w.externalAtPeak / MB).toFixed(1),
        limit: RSS_LIMIT_MB,
      },
      node: process.version,
      cpus: os.cpus().length,
    };
    console.log(JSON.stringify(figures, null, 2));
    const ok = w.rssPeak / MB < RSS_LIMIT_MB && entries === count && intact && w.missing === 0;
    if (!ok) {
      console.error('FAILED: peak RSS over the limit, missing files or a zip that does not match');
      process.exitCode = 1;
    }
  } finally {
    server.closeAllConnections();
    server.close();
    await fake.close();
    await rm(tmp, { recursive: true, force: true });
  }
}

if (process.env.BENCH_WORKER === '1') await worker();
else await parent();
