/**
 * The failure issue's pure parts: the key's marker (a digest of its parts), the state kept in the body, the
 * failures with new and flaky tests named first.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  issueBody,
  issueMarker,
  readState,
  type IssueState,
} from '../../../src/report/failure-issue-body.js';
import { renderFailures, trackFailureIssue } from '../../../src/report/failure-issue.js';
import { FakeGitHub, TOKEN } from '../../support/fakes/github.js';
import { Fixtures, summaryOf, suiteRun } from './fixtures.js';
import { reportOf } from './scenarios.js';

const key = { workflow: 'nightly', job: 'e2e-chrome', ref: 'refs/heads/main', commentKey: '' };

describe('issueMarker', () => {
  it('one marker per key, whatever its parts hold: parts that join alike stay apart', () => {
    const marker = issueMarker(key);
    expect(marker).toMatch(/^<!-- ghost-inspector-action:failure-issue:[0-9a-f]{16} -->$/);
    expect(issueMarker({ ...key })).toBe(marker);
    const others = [
      { ...key, workflow: 'nightly-e2e', job: 'chrome' },
      { ...key, job: 'e2e', commentKey: 'chrome' },
      { ...key, ref: 'refs/heads/next' },
      { ...key, commentKey: 'x'.repeat(500) },
      { ...key, commentKey: `${'x'.repeat(499)}y` },
    ];
    const all = new Set([marker, ...others.map(issueMarker)]);
    expect(all.size).toBe(others.length + 1);
    for (const m of all) expect(m.length).toBe(marker.length);
  });
});

describe('issue body', () => {
  it('keeps its state through a round trip, a hand-edited body starts over', () => {
    const state: IssueState = {
      since: '2026-03-01T03:00:00.000Z',
      sinceRun: '<a href="https://github.com/acme/shop/actions/runs/1">run 1</a>',
      lastRun: '<a href="https://github.com/acme/shop/actions/runs/2">run 2 --></a>',
      failedRuns: 2,
      seen: '2.1',
      passedRun: '',
      earlier: '<a href="https://github.com/acme/shop/issues/3">#3</a>',
    };
    const body = issueBody(issueMarker(key), key, state, '<p>failures</p>');
    expect(body.startsWith(issueMarker(key))).toBe(true);
    expect(body).toContain('workflow nightly · job e2e-chrome · refs/heads/main');
    expect(body).toContain(
      '2 failed runs. Failed before in <a href="https://github.com/acme/shop/issues/3">#3</a>.',
    );
    expect(readState(body, 'now')).toEqual(state);
    expect(readState('edited by hand', '2026-03-05')).toMatchObject({ since: '2026-03-05', failedRuns: 0 });
  });
});

describe('renderFailures', () => {
  it('names the new failures and the flaky tests first, each on its own line', () => {
    const fx = new Fixtures();
    const run = suiteRun(fx, {
      key: 'suite-a-0',
      suiteId: 'suite-a',
      suiteName: 'Shop',
      suiteResultId: 'sr-1',
      tests: [
        { name: 'Checkout', outcome: 'failed', testId: 't-new' },
        { name: 'Search', outcome: 'failed', testId: 't-old' },
        {
          name: 'Login',
          outcome: 'passed',
          testId: 't-flaky',
          attempts: [{ name: 'Login', outcome: 'failed' }],
        },
      ],
    });
    const report = reportOf(summaryOf([run]), { failOnScreenshotCompare: false, failOnTimeout: true });
    const history = new Map([
      ['t-new', 'new failure after 10 passing runs'],
      ['t-old', 'failed 4 of its last 10 runs'],
    ]);
    const text = renderFailures(report, history);
    expect(text).toMatch(/<p><b>New failures<\/b>: Shop › Checkout\.<\/p>/);
    expect(text).toMatch(/<p><b>Flaky<\/b> \(failed, then passed on a re-run\): Shop › Login\.<\/p>/);
    expect(text).toContain('History: failed 4 of its last 10 runs');
    expect(renderFailures(report, new Map())).not.toContain('New failures');
  });
});

describe('trackFailureIssue', () => {
  const fake = new FakeGitHub();
  beforeAll(() => fake.start());
  afterAll(() => fake.stop());

  it('two own open issues of one key (runs that raced and each kept theirs): the newer is closed as a duplicate', async () => {
    const marker = issueMarker(key);
    const labels = [{ name: 'ghost-inspector' }];
    const older = fake.addIssue({ body: `${marker}\nfirst`, labels }, 'github-actions[bot]');
    const newer = fake.addIssue({ body: `${marker}\nsecond`, labels }, 'github-actions[bot]');
    const warnings: string[] = [];
    const result = await trackFailureIssue({
      token: TOKEN,
      baseUrl: fake.baseUrl,
      owner: 'acme',
      repo: 'shop',
      key,
      labels: ['ghost-inspector'],
      assignees: [],
      reopenDays: 7,
      title: 'Ghost Inspector failing',
      run: { key: '9.1', link: 'run 9' },
      now: new Date().toISOString(),
      failures: '<p>failures</p>',
      warn: (message) => warnings.push(message),
    });
    expect(result).toEqual({ number: older.number, url: older.html_url, change: 'commented' });
    expect(newer.state).toBe('closed');
    expect(newer.state_reason).toBe('not_planned');
    expect(fake.comments.find((c) => c.issue === newer.number)!.body).toContain(
      `Duplicate of <a href="${older.html_url}">#1</a>`,
    );
    expect(older.state).toBe('open');
    expect(warnings).toEqual([]);
  });
});
