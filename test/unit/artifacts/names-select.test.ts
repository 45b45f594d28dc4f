import { describe, expect, it } from 'vitest';

import {
  defaultArtifactName,
  isNameClash,
  sanitizeArtifactName,
  sanitizeSegment,
  screenshotPath,
  selectScreenshots,
  suffixedName,
  truncateUtf8,
  fileVariantLabel as variantLabel,
  artifactUrl,
  MAX_FILE_NAME_BYTES,
} from '../../../src/artifacts/index.js';
import { runSummary, suiteRun, testRun } from '../../support/run-factories.js';
import { makeResult } from '../../support/screenshots.js';

const ILLEGAL_IN_PATH = /[":<>|*?\r\n\\]/;

describe('names', () => {
  it('sanitizes every character GitHub refuses and keeps the rest readable', () => {
    expect(sanitizeSegment('a"b:c<d>e|f*g?h\ri\nj\\k/l', 100)).toBe('a_b_c_d_e_f_g_h i j_k_l');
    expect(sanitizeSegment('  Login   page\t test.  ', 100)).toBe('Login page test');
    expect(sanitizeSegment('', 100)).toBe('unnamed');
    expect(sanitizeSegment('...', 100)).toBe('unnamed');
    expect(sanitizeSegment('CON', 100)).toBe('_CON');
    expect(sanitizeSegment('nul.txt', 100)).toBe('_nul.txt');
    expect(sanitizeSegment('Ünïcödé ✓ 测试', 100)).toBe('Ünïcödé ✓ 测试');
  });

  it('truncates by UTF-8 bytes without splitting characters', () => {
    expect(truncateUtf8('测试测试', 7)).toBe('测试');
    expect(truncateUtf8('abc', 10)).toBe('abc');
    expect(truncateUtf8('😀😀', 5)).toBe('😀');
  });

  it('builds <suite>/<test> [<variant>]-<resultId>.png and the comparison name', () => {
    const variant = { browser: 'chrome', region: 'eu-west-1', viewport: '1280x800', dataRow: 2 };
    expect(variantLabel(variant)).toBe('chrome, eu-west-1, 1280x800, row 3');
    expect(variantLabel({})).toBe('');
    expect(screenshotPath('Shop', 'Checkout: pay?', variant, 'abc123', 'screenshot')).toBe(
      'Shop/Checkout_ pay_ [chrome, eu-west-1, 1280x800, row 3]-abc123.png',
    );
    expect(screenshotPath('tests/login.json', 'Login', {}, 'r1', 'comparison')).toBe(
      'tests_login.json/Login-r1-comparison.png',
    );
  });

  it('limits lengths but always keeps the result id and extension', () => {
    const p = screenshotPath(
      'S'.repeat(500),
      'T'.repeat(1000),
      { browser: 'b'.repeat(300) },
      'id-42',
      'comparison',
    );
    const [folder, file] = p.split('/');
    expect(Buffer.byteLength(folder)).toBeLessThanOrEqual(100);
    expect(Buffer.byteLength(file)).toBeLessThanOrEqual(MAX_FILE_NAME_BYTES);
    expect(file.endsWith('-id-42-comparison.png')).toBe(true);
    const wide = screenshotPath('套件'.repeat(200), '测'.repeat(400), {}, 'x', 'screenshot');
    expect(Buffer.byteLength(wide.split('/')[1])).toBeLessThanOrEqual(MAX_FILE_NAME_BYTES);
    expect(wide).not.toMatch(ILLEGAL_IN_PATH);
    expect(wide.endsWith('-x.png')).toBe(true);
  });

  it('default artifact name: job, attempt and a hash of step and inputs, never of secrets', () => {
    const env = {
      GITHUB_JOB: 'browser-tests',
      GITHUB_RUN_ATTEMPT: '3',
      GITHUB_ACTION: '__ghost',
      RUNNER_OS: 'Linux',
      'INPUT_SUITE-IDS': 'abc',
      INPUT_API_KEY: 'secret-1',
      'INPUT_PRIVATE-VARIABLES': 'PIN=4711',
    };
    const name = defaultArtifactName(env);
    expect(name).toMatch(/^ghost-inspector-screenshots-browser-tests-3-[0-9a-f]{8}$/);
    // Deterministic for the same leg, different for another matrix leg's inputs, independent of the API key.
    expect(defaultArtifactName({ ...env })).toBe(name);
    expect(defaultArtifactName({ ...env, INPUT_API_KEY: 'secret-2' })).toBe(name);
    expect(defaultArtifactName({ ...env, 'INPUT_PRIVATE-VARIABLES': 'PIN=4712' })).toBe(name);
    expect(defaultArtifactName({ ...env, 'INPUT_SUITE-IDS': 'def' })).not.toBe(name);
    expect(defaultArtifactName({ ...env, RUNNER_OS: 'Windows' })).not.toBe(name);
    expect(defaultArtifactName({ ...env, GITHUB_ACTION: '__ghost_2' })).not.toBe(name);
    expect(defaultArtifactName({ ...env, GITHUB_RUN_ATTEMPT: '4' })).toMatch(/-browser-tests-4-/);
    // Outside GitHub: random, so two local runs never clash.
    const local = defaultArtifactName({});
    expect(local).toMatch(/^ghost-inspector-screenshots-local-1-[0-9a-f]{8}$/);
  });

  it('artifact name sanitizing and suffixes', () => {
    expect(sanitizeArtifactName(' my/shots: "x" ')).toBe('my_shots_ _x_');
    expect(() => sanitizeArtifactName('   ')).toThrow(/artifact-name is empty/);
    expect(suffixedName('n', 1)).toBe('n');
    expect(suffixedName('n', 2)).toBe('n-2');
    expect(suffixedName('x'.repeat(200), 12).length).toBe(200);
  });

  it('recognises name clashes as the artifact client reports them', () => {
    expect(
      isNameClash(
        new Error(
          'Failed to CreateArtifact: Received non-retryable error: Failed request: (409) Conflict: x',
        ),
      ),
    ).toBe(true);
    expect(isNameClash(new Error('Failed request: (400) Bad Request'))).toBe(false);
  });

  it('artifact url from the run environment', () => {
    expect(
      artifactUrl(9, {
        GITHUB_SERVER_URL: 'https://x.ghe.com/',
        GITHUB_REPOSITORY: 'o/r',
        GITHUB_RUN_ID: '5',
      }),
    ).toBe('https://x.ghe.com/o/r/actions/runs/5/artifacts/9');
    expect(artifactUrl(9, { GITHUB_REPOSITORY: 'o/r', GITHUB_RUN_ID: '5' })).toBe(
      'https://github.com/o/r/actions/runs/5/artifacts/9',
    );
    expect(artifactUrl(9, {})).toBeUndefined();
  });
});

describe('selectScreenshots', () => {
  const shot = (id: string) => `https://storage.example/${id}.png?sig=s`;
  const passed = makeResult('p1', { passing: true, screenshotUrl: shot('p1') });
  const failed = makeResult('f1', { passing: false, screenshotUrl: shot('f1'), compareUrl: shot('f1c') });
  const flakyFirst = makeResult('k0', { passing: false, screenshotUrl: shot('k0') });
  const flakyFinal = makeResult('k1', { passing: true, screenshotUrl: shot('k1') });
  const errored = makeResult('e1', { passing: false, screenshotUrl: shot('e1') });
  const timedOut = makeResult('t1', { passing: null, screenshotUrl: shot('t1') });
  const runningNoShot = makeResult('t2', { passing: null });
  const compareFailed = makeResult('c1', {
    passing: true,
    screenshotUrl: shot('c1'),
    compareUrl: shot('c1c'),
    comparePassing: false,
  });
  const cancelled = makeResult('x1', { passing: null, screenshotUrl: shot('x1') });
  const summary = runSummary([
    suiteRun(
      [
        testRun('passed', passed),
        testRun('failed', failed),
        testRun('flaky', flakyFinal, [flakyFirst]),
        testRun('error', errored),
        testRun('error', null),
      ],
      { key: 's-0', suiteName: 'Suite A' },
    ),
    suiteRun(
      [
        testRun('timed-out', timedOut),
        testRun('timed-out', runningNoShot),
        testRun('passed', compareFailed),
        testRun('cancelled', cancelled),
      ],
      { key: 's-1', suiteName: 'Suite B', variant: { viewport: '375x667' } },
    ),
  ]);

  it('none selects nothing', () => {
    expect(selectScreenshots(summary, 'none')).toEqual([]);
  });

  it('failed: failed, error, timed-out with a screenshot, failing attempts of flaky tests, comparison failures', () => {
    const jobs = selectScreenshots(summary, 'failed');
    expect(jobs.map((j) => `${j.resultId}:${j.kind}`)).toEqual([
      'f1:screenshot',
      'f1:comparison',
      'k0:screenshot',
      'e1:screenshot',
      't1:screenshot',
      'c1:screenshot',
      'c1:comparison',
    ]);
    const f1c = jobs[1];
    expect(f1c.url).toBe(shot('f1c'));
    expect(f1c.relativePath).toBe('Suite A/Test f1-f1-comparison.png');
    expect(jobs.find((j) => j.resultId === 't1')!.relativePath).toBe('Suite B/Test t1 [375x667]-t1.png');
    expect(jobs.find((j) => j.resultId === 'k0')!.state).toBe('flaky');
  });

  it('all: every final result plus failed attempts of flaky tests, each once', () => {
    const jobs = selectScreenshots(summary, 'all');
    expect([...new Set(jobs.map((j) => j.resultId))]).toEqual([
      'p1',
      'f1',
      'k1',
      'k0',
      'e1',
      't1',
      'c1',
      'x1',
    ]);
    expect(new Set(jobs.map((j) => j.relativePath)).size).toBe(jobs.length);
  });

  it('the same result reached twice yields one job', () => {
    const twice = runSummary([suiteRun([testRun('failed', failed, [failed])], { key: 's', suiteName: 'S' })]);
    expect(selectScreenshots(twice, 'all').filter((j) => j.kind === 'screenshot')).toHaveLength(1);
  });
});
