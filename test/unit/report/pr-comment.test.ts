/**
 * The sticky pull-request comment against a local fake of the GitHub REST endpoints it calls, served on
 * 127.0.0.1 and reached through the client's baseUrl:
 * GET /repos/{o}/{r}/issues/{n}/comments (paged with Link headers, at most PAGE_CAP per page),
 * POST /repos/{o}/{r}/issues/{n}/comments, PATCH /repos/{o}/{r}/issues/comments/{id}.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';

import {
  commentMarker,
  renderPullRequestComment,
  upsertPullRequestComment,
} from '../../../src/report/pr-comment.js';
import { FakeGitHub, TOKEN } from '../../support/fakes/github.js';
import { allTests } from '../../../src/report/model.js';
import { reportOf, SCENARIOS } from './scenarios.js';

const fake = new FakeGitHub();
beforeAll(() => fake.start());
afterAll(() => fake.stop());
beforeEach(() => {
  fake.comments = [];
  fake.requests = [];
  fake.forbid = false;
  fake.listAnswer = undefined;
  fake.tokenUser = null;
  fake.appLogin = 'github-actions[bot]';
  fake.hang = null;
  fake.nextPageUrl = null;
});

const base = () => ({ token: TOKEN, owner: 'acme', repo: 'shop', baseUrl: fake.baseUrl });
const marked = (issue: number, marker = commentMarker()) =>
  fake.comments.filter((c) => c.issue === issue && c.body.includes(marker));

describe('upsertPullRequestComment', () => {
  it('creates the comment first, then updates the same comment', async () => {
    fake.add(7, 'LGTM');
    const s = SCENARIOS.failures!();
    const body = renderPullRequestComment(reportOf(s.summary, s.policy));
    const first = await upsertPullRequestComment({ ...base(), issueNumber: 7, body });
    expect(first.created).toBe(true);
    expect(marked(7)).toHaveLength(1);
    expect(marked(7)[0]!.body).toBe(body);

    const second = await upsertPullRequestComment({ ...base(), issueNumber: 7, body: 'second run' });
    expect(second).toEqual({ id: first.id, created: false });
    expect(marked(7)).toHaveLength(1);
    expect(marked(7)[0]!.body).toBe(`${commentMarker()}\nsecond run`);
    expect(fake.requests.filter((r) => r.method === 'POST')).toHaveLength(1);
    expect(fake.requests.filter((r) => r.method === 'PATCH')).toHaveLength(1);
    expect(fake.requests.every((r) => r.auth === `token ${TOKEN}`)).toBe(true);
  });

  it('finds the marker on a later page and never duplicates the comment', async () => {
    for (let i = 0; i < 4; i += 1) fake.add(9, `review comment ${i}`);
    const existing = fake.add(9, `${commentMarker()}\nold report`, 'github-actions[bot]');
    for (let i = 0; i < 5; i += 1) fake.add(9, `later comment ${i}`);
    fake.add(10, `${commentMarker()}\nanother pull request`);

    const result = await upsertPullRequestComment({ ...base(), issueNumber: 9, body: 'new report' });
    expect(result).toEqual({ id: existing.id, created: false });
    expect(marked(9)).toHaveLength(1);
    expect(existing.body).toBe(`${commentMarker()}\nnew report`);
    const gets = fake.requests.filter((r) => r.method === 'GET' && r.url.includes('/comments'));
    expect(gets.length).toBe(2); // page 1 (3 comments), page 2 holds the marker: no further page read
    expect(gets[1]!.url).toContain('page=2');
    expect(fake.requests.some((r) => r.method === 'POST')).toBe(false);
  });

  it('keeps one comment per key', async () => {
    await upsertPullRequestComment({ ...base(), issueNumber: 11, body: 'default' });
    const keyed = await upsertPullRequestComment({ ...base(), issueNumber: 11, body: 'job a', key: 'job a' });
    expect(keyed.created).toBe(true);
    const again = await upsertPullRequestComment({
      ...base(),
      issueNumber: 11,
      body: 'job a 2',
      key: 'job a',
    });
    expect(again).toEqual({ id: keyed.id, created: false });
    expect(fake.comments.filter((c) => c.issue === 11)).toHaveLength(2);
    expect(commentMarker('job a')).toBe('<!-- ghost-inspector-action:job_a -->');
    // Matrix legs: the job and the matrix values (comment-key) give each leg its own comment, even when long.
    const leg = (browser: string) =>
      commentMarker(
        `e2e-${JSON.stringify({ browser, viewport: '1280x800', region: 'eu-west-1', site: 'x'.repeat(80) })}`,
      );
    expect(leg('chrome')).not.toBe(leg('firefox'));
    expect(leg('chrome').length).toBeLessThanOrEqual('<!-- ghost-inspector-action: -->'.length + 100);
    // A long key cut to its start keeps a digest of the whole: keys alike in their first 100 characters differ.
    const long = (end: string) => commentMarker(`e2e-${'matrix-value-'.repeat(10)}${end}`);
    expect(long('chrome')).not.toBe(long('firefox'));
    expect(long('chrome')).toMatch(/-[0-9a-f]{16} -->$/);
    expect(long('chrome').length).toBeLessThanOrEqual('<!-- ghost-inspector-action: -->'.length + 100);
  });

  it('names an answer of the wrong shape instead of failing on it', async () => {
    fake.listAnswer = { message: 'a proxy page', comments: [] };
    await expect(upsertPullRequestComment({ ...base(), issueNumber: 13, body: 'x' })).rejects.toThrow(
      /answered the list of comments of pull request #13 with an object instead of a list;/,
    );
    fake.listAnswer = [{ id: 'not-a-number', body: commentMarker(), user: { login: 'github-actions[bot]' } }];
    await expect(upsertPullRequestComment({ ...base(), issueNumber: 13, body: 'x' })).rejects.toThrow(
      /a comment without a numeric id/,
    );
    expect(fake.requests.some((r) => r.method === 'POST' || r.method === 'PATCH')).toBe(false);
  });

  it('adopts only its own comment: by the token’s identity and starting with the marker', async () => {
    const quoted = fake.add(15, `${commentMarker()}\nforged ✅ by a reviewer`, 'mallory');
    const inside = fake.add(15, `see ${commentMarker()} above`, 'github-actions[bot]');
    const result = await upsertPullRequestComment({ ...base(), issueNumber: 15, body: 'report' });
    expect(result.created).toBe(true);
    expect(quoted.body).toBe(`${commentMarker()}\nforged ✅ by a reviewer`);
    expect(inside.body).toBe(`see ${commentMarker()} above`);
    const own = fake.comments.find((c) => c.id === result.id)!;
    expect(own).toMatchObject({ body: `${commentMarker()}\nreport`, user: { login: 'github-actions[bot]' } });
    expect(fake.requests.some((r) => r.method === 'PATCH')).toBe(false);
  });

  it('with a personal token, its user’s marked comment is its own, and the bot’s is not', async () => {
    fake.tokenUser = 'octo-dev';
    const bot = fake.add(16, `${commentMarker()}\nby the workflow token`, 'github-actions[bot]');
    const mine = fake.add(16, `${commentMarker()}\nold`, 'octo-dev');
    const result = await upsertPullRequestComment({ ...base(), issueNumber: 16, body: 'new' });
    expect(result).toEqual({ id: mine.id, created: false });
    expect(mine.body).toBe(`${commentMarker()}\nnew`);
    expect(bot.body).toBe(`${commentMarker()}\nby the workflow token`);
  });

  it('with another GitHub App’s token (GET /user refused), its bot’s comment is found again; a person’s never', async () => {
    fake.appLogin = 'my-app[bot]';
    const forged = fake.add(19, `${commentMarker()}\nforged`, 'mallory');
    const first = await upsertPullRequestComment({ ...base(), issueNumber: 19, body: 'first' });
    const second = await upsertPullRequestComment({ ...base(), issueNumber: 19, body: 'second' });
    expect(second).toEqual({ id: first.id, created: false });
    expect(fake.comments.filter((c) => c.issue === 19 && c.user.login === 'my-app[bot]')).toHaveLength(1);
    expect(forged.body).toBe(`${commentMarker()}\nforged`);
  });

  it('among several own marked comments, updates the oldest and leaves the others', async () => {
    const oldest = fake.add(17, `${commentMarker()}\nfirst`, 'github-actions[bot]');
    for (let i = 0; i < 4; i += 1) fake.add(17, `review ${i}`);
    const newer = fake.add(17, `${commentMarker()}\nsecond`, 'github-actions[bot]');
    const result = await upsertPullRequestComment({ ...base(), issueNumber: 17, body: 'third' });
    expect(result).toEqual({ id: oldest.id, created: false });
    expect(oldest.body).toBe(`${commentMarker()}\nthird`);
    expect(newer.body).toBe(`${commentMarker()}\nsecond`);
  });

  it('refuses a next-page link to another origin and never sends the token there', async () => {
    const elsewhere = new FakeGitHub();
    await elsewhere.start();
    try {
      fake.add(18, 'first page');
      fake.nextPageUrl = `${elsewhere.baseUrl}/repos/acme/shop/issues/18/comments?page=2`;
      await expect(upsertPullRequestComment({ ...base(), issueNumber: 18, body: 'x' })).rejects.toThrow(
        /pointed the action to http:\/\/127\.0\.0\.1:\d+; refused/,
      );
      expect(elsewhere.requests).toEqual([]);
    } finally {
      await elsewhere.stop();
    }
  });

  it('stops on its signal when the API never answers', async () => {
    fake.hang = /\/comments$/;
    const started = Date.now();
    await expect(
      upsertPullRequestComment({ ...base(), issueNumber: 19, body: 'x', signal: AbortSignal.timeout(300) }),
    ).rejects.toThrow(/abort/i);
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('throws the request error when the token may not write', async () => {
    fake.forbid = true;
    await expect(upsertPullRequestComment({ ...base(), issueNumber: 12, body: 'x' })).rejects.toMatchObject({
      status: 403,
    });
  });
});

describe('renderPullRequestComment', () => {
  it('is short: the verdict, counts and failures with their step and link', () => {
    const s = SCENARIOS.failures!();
    const body = renderPullRequestComment(reportOf(s.summary, s.policy), {
      key: 'e2e',
      runUrl: 'https://github.com/acme/shop/actions/runs/1',
    });
    expect(body.startsWith('<!-- ghost-inspector-action:e2e -->\n## ❌ Ghost Inspector: failed')).toBe(true);
    // A zero-width space keeps "#5" from linking to an issue or pull request.
    expect(body).toContain('Step 5 assertTextPresent .confirmation');
    expect(body).toContain(
      '<a href="https://github.com/acme/shop/actions/runs/1">Details in the job summary</a>',
    );
    expect(body.split('\n').length).toBeLessThan(20);
  });

  it("adds a failed test's history line after its reason, and none to a test without one", () => {
    const s = SCENARIOS.failures!();
    const report = reportOf(s.summary, s.policy);
    const failing = [...allTests(report)].filter(({ test }) => test.failing && test.testId);
    expect(failing.length).toBeGreaterThan(0);
    const [first] = failing;
    const history = new Map([[first!.test.testId!, 'failed 3 of its last 10 runs']]);
    const lines = renderPullRequestComment(report, { history }).split('\n');
    const withHistory = lines.filter((l) => l.endsWith(' (failed 3 of its last 10 runs)'));
    const sameTest = failing.filter(({ test }) => test.testId === first!.test.testId).length;
    expect(withHistory).toHaveLength(sameTest);
    expect(withHistory[0]).toContain(first!.test.name);
  });
});
