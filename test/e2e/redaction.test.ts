/**
 * Redaction end to end (the action in-process, `run(deps)`, against the emulator): secrets go where they can be, and the action's own
 * data (ids, result links, dates, screenshot downloads) is never rewritten, however short a private value
 * is; names are redacted like any service text. User-info of a URL is written nowhere. The action and the
 * emulator share one virtual clock (`useWorld`): production durations in
 * milliseconds of real time. Its emulator renders screenshots: the first case reads them.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import type { ActionRun } from '../support/harness.js';
import { useWorld } from '../support/world.js';

const setup = useWorld({ fixtures: true });
const API_KEY = setup.apiKey;

beforeEach(async () => {
  setup.emulator.resetLog();
  for (const name of [
    'ghost-inspector-junit.xml',
    'ghost-inspector-results.json',
    'ghost-inspector-screenshots',
  ]) {
    await rm(path.join(setup.workspace, name), { recursive: true, force: true });
  }
});

function run(inputs: Record<string, string>): Promise<ActionRun> {
  return setup.run({
    inputs: { ...setup.connection(), 'timeout-minutes': '2', ...inputs },
  });
}

function file(name: string): string {
  const p = path.join(setup.workspace, name);
  return existsSync(p) ? readFileSync(p, 'utf8') : '';
}

/** Every string in `value` with its path (`runs.0.tests.1.result._id`). */
function strings(value: unknown, at = ''): Array<[string, string]> {
  if (typeof value === 'string') return [[at, value]];
  if (Array.isArray(value)) return value.flatMap((v, i) => strings(v, `${at}.${i}`));
  if (value && typeof value === 'object') {
    return Object.entries(value).flatMap(([k, v]) => strings(v, `${at}.${k}`));
  }
  return [];
}

describe('redaction never alters the action’s data', () => {
  it('private-variables PIN=1: ids, links, dates, screenshots and names intact; PIN hidden; a warning', async () => {
    const r = await run({ 'suite-ids': 'suite-checkout', 'private-variables': 'PIN=1' });
    expect(r.code, r.stdout + r.stderr).toBe(1);
    expect(r.outputs.failed).toBe('1');
    for (const name of ['suite-result-ids', 'test-result-ids', 'result-urls', 'failed-test-ids']) {
      expect(r.outputs[name], name).toBeTruthy();
      expect(r.outputs[name], name).not.toContain('***');
    }
    // The ids are the emulator's own.
    const ended = setup.emulator.runs().map((x) => x.resultId);
    for (const id of [
      ...r.outputs['test-result-ids']!.split(','),
      ...r.outputs['suite-result-ids']!.split(','),
    ]) {
      expect(ended).toContain(id);
    }
    // The log links every test result, ids intact.
    for (const id of r.outputs['test-result-ids']!.split(',')) expect(r.stdout).toContain(`/results/${id}`);
    // Only the private variable's value may be hidden in results.json (when the report lists variables).
    const results = JSON.parse(file('ghost-inspector-results.json')) as unknown;
    const hidden = strings(results).filter(([, v]) => v.includes('***'));
    for (const [at, v] of hidden) {
      expect(at, `${at} = ${v}`).toMatch(/\.variables\.PIN$/);
    }
    for (const [at, v] of strings(results)) {
      if (/(^|\.)(date\w*|\w+At)$/.test(at)) expect(Number.isNaN(Date.parse(v)), `${at} = ${v}`).toBe(false);
    }
    const shots = readdirSync(path.join(setup.workspace, 'ghost-inspector-screenshots'), {
      recursive: true,
    }).map(String);
    expect(shots.some((f) => f.endsWith('.png') && f.includes('Pay by card'))).toBe(true);
    expect(r.stdout).toMatch(/::warning::private-variables PIN: the value is shorter than 4 characters/);
    expect(r.stdout).not.toContain('Could not download');
    expect(file('ghost-inspector-junit.xml')).not.toContain('***');
    expect(r.summary).not.toContain('***');
  });

  it('a private value that is part of test names: redacted alike in annotations, reports and the log', async () => {
    const r = await run({ 'suite-ids': 'suite-checkout', 'private-variables': 'CARD=card' });
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/::error[^\n]*Pay by \*\*\*/);
    expect(r.stdout).toMatch(/::group::❌ Failed {2}Pay by \*\*\*/);
    expect(r.summary).toContain('Pay by &#42;&#42;&#42;');
    expect(file('ghost-inspector-junit.xml')).toContain('Pay by ***');
    expect(file('ghost-inspector-results.json')).toContain('Pay by ***');
    for (const text of [
      r.stdout,
      r.summary,
      file('ghost-inspector-junit.xml'),
      file('ghost-inspector-results.json'),
    ]) {
      expect(text).not.toContain('Pay by card');
    }
    expect(r.stdout).not.toMatch(/::warning::private-variables CARD/);
  });
});

describe('URL user-info is written nowhere', () => {
  it('a start URL with credentials: sent to the service, absent from log, files and outputs', async () => {
    const r = await run({
      'suite-ids': 'suite-smoke',
      'start-url': 'https://qa-user:url-pass-77@staging.test/\nhttps://other.test/',
    });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    // The service got the credentials (the run's start URL keeps them).
    const suiteResults = r.outputs['suite-result-ids']!.split(',');
    const startUrls = await Promise.all(
      suiteResults.map(async (id) => {
        const res = await fetch(`${setup.emulator.baseUrl}/suite-results/${id}/?apiKey=${API_KEY}`);
        return ((await res.json()) as { data: { startUrl: string } }).data.startUrl;
      }),
    );
    expect(startUrls).toContain('https://qa-user:url-pass-77@staging.test/');
    const written = [
      r.stdout,
      r.stderr,
      r.summary,
      JSON.stringify(r.outputs),
      file('ghost-inspector-junit.xml'),
      file('ghost-inspector-results.json'),
    ];
    for (const text of written) {
      expect(text).not.toContain('url-pass-77');
      expect(text).not.toContain('qa-user');
    }
    expect(file('ghost-inspector-results.json')).toContain('https://***@staging.test/');
  });
});
