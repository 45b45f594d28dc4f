/**
 * The contract probe against the emulator: its own report diffs clean against a fresh emulator, a report
 * holds no value (no id, name or key), and a deliberately changed emulator yields a diff naming the change.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type Emulator } from '../../emulator/index.js';
import { parseProbeArgs, probeMain } from '../../probe/cli.js';
import { compareReports, runProbe, type ProbeReport } from '../../probe/report.js';

const KEY = 'demo-api-key';
const fast = { pollMs: 20, sleep: (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)) };
const fresh = () => startEmulator({ timeScale: 0.01, quiet: true, notFoundWindowMs: 50 });

let saved: ProbeReport;
let dir: string;
const emulators: Emulator[] = [];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'gi-probe-'));
  const em = await fresh();
  emulators.push(em);
  saved = await runProbe({ baseUrl: em.baseUrl, apiKey: KEY, write: true, ...fast });
});
afterAll(async () => {
  await Promise.all(emulators.map((em) => em.close()));
  rmSync(dir, { recursive: true, force: true });
});

describe('contract probe', () => {
  it('records every read endpoint and the write sequence as shapes: status, media type, envelope, fields', () => {
    const names = saved.calls.map((c) => c.name);
    for (const name of [
      'GET /organizations/',
      'GET /suites/{suiteId}/export/json/',
      'GET /tests/{testId}/export/selenium-json/',
      'GET /test-runner-ip-addresses',
      'POST /suites/{suiteId}/execute/ (immediate)',
      'GET /results/{resultId}/ (ended)',
      'POST /suite-results/{suiteResultId}/cancel/ (ended)',
      'DELETE /suites/{suiteId}/',
    ])
      expect(names).toContain(name);
    const suite = saved.calls.find((c) => c.name === 'GET /suites/{suiteId}/')!;
    expect(suite).toMatchObject({
      status: 200,
      mediaType: 'application/json',
      envelope: 'SUCCESS',
      body: 'json',
    });
    expect(suite.shape!.fields!.name).toEqual({ types: ['string'] });
    const immediate = saved.calls.find((c) => c.name === 'POST /suites/{suiteId}/execute/ (immediate)')!;
    expect(immediate.shape!.fields!.suite.types).toEqual(['string']);
    const zip = saved.calls.find((c) => c.name === 'GET /suites/{suiteId}/export/json/')!;
    expect(zip).toMatchObject({ body: 'zip', envelope: 'none', mediaType: 'application/zip' });
    const unknown = saved.calls.find((c) => c.name === 'GET /suites/{suiteId}/ (unknown id)')!;
    expect(unknown).toMatchObject({ envelope: 'ERROR', errorType: 'VALIDATION_ERROR' });
    const csv = saved.calls.find((c) => c.name === 'GET /tests/{testId}/results/csv/')!;
    expect(csv.csvColumns?.[0]).toBe('Test Result ID');
  });

  it('redacts every value: no API key, id, name, URL or date in the report', () => {
    const text = JSON.stringify(saved);
    for (const value of [
      KEY,
      'org-acme',
      'suite-smoke',
      'Smoke tests',
      'Acme',
      'https://',
      '127.0.0.1',
      '2026',
    ])
      expect(text).not.toContain(value);
  });

  it("the emulator's own report diffs clean against a fresh emulator (through the CLI)", async () => {
    const em = await fresh();
    emulators.push(em);
    const file = join(dir, 'saved.json');
    await probeMain(
      parseProbeArgs(['--api-key', KEY, '--base-url', em.baseUrl, '--out', file, '--write']),
      () => {},
    );
    const other = await fresh();
    emulators.push(other);
    const lines: string[] = [];
    const code = await probeMain(
      parseProbeArgs(['--base-url', other.baseUrl, '--compare', file], { GHOST_INSPECTOR_API_KEY: KEY }),
      (line) => lines.push(line),
    );
    expect(lines).toEqual([expect.stringMatching(/^No differences in \d+ calls\.$/)]);
    expect(code).toBe(0);
    expect(readFileSync(file, 'utf8')).not.toContain(KEY);
  });

  it('a deliberately changed emulator yields a diff naming the change', async () => {
    const em = await fresh();
    emulators.push(em);
    // A field the service would not send, and a route answering HTTP 503.
    Object.assign(em.store.folders.get('folder-web')!, { color: 'red' });
    em.setFaults('route=/v1/test-runner-ip-addresses:503');
    const now = await runProbe({ baseUrl: em.baseUrl, apiKey: KEY, write: true, ...fast });
    const diff = compareReports(saved, now);
    expect(diff).toContain('GET /folders/{folderId}/: data.color: missing in the saved report, present now');
    expect(diff).toContain('GET /test-runner-ip-addresses: status 200 in the saved report, 503 now');
    expect(diff.every((line) => /folders|test-runner-ip-addresses/.test(line))).toBe(true);
  });

  it('refuses a missing API key and a bad base URL naming them', () => {
    expect(() => parseProbeArgs([], {})).toThrow(/--api-key/);
    expect(() => parseProbeArgs(['--api-key', 'k', '--base-url', 'ftp://x'], {})).toThrow(/ftp:\/\/x/);
  });
});
