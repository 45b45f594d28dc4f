export const id = 992;
export const ids = [992,914];
export const modules = {

/***/ 95992:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {


// EXPORTS
__webpack_require__.d(__webpack_exports__, {
  renderFailures: () => (/* binding */ renderFailures),
  trackFailureIssue: () => (/* binding */ trackFailureIssue)
});

// EXTERNAL MODULE: ./src/common/log.ts
var log = __webpack_require__(81095);
// EXTERNAL MODULE: ./src/common/words.ts
var words = __webpack_require__(73596);
// EXTERNAL MODULE: external "node:crypto"
var external_node_crypto_ = __webpack_require__(77598);
// EXTERNAL MODULE: ./src/report/pr-comment.ts
var pr_comment = __webpack_require__(71914);
// EXTERNAL MODULE: ./src/report/text.ts
var report_text = __webpack_require__(65655);
;// CONCATENATED MODULE: ./src/report/failure-issue-body.ts
/**
 * The failure issue's marker and body: the key's digest, and what the body remembers between runs in a hidden
 * comment (docs/reports.md, "Failure issue"; docs/api-contract.md, "Failure issues"). Pure.
 */




const STATE_PREFIX = '<!-- ghost-inspector-action-state ';
/**
 * The hidden marker of the key's issue: `<!-- ghost-inspector-action:failure-issue:<digest> -->`, the digest
 * (16 hex digits of SHA-256) of the key's parts as a JSON list, so that no two keys share a marker whatever
 * their parts hold.
 */
function issueMarker(key) {
    const parts = JSON.stringify([key.workflow, key.job, key.ref, key.commentKey]);
    const digest = (0,external_node_crypto_.createHash)('sha256').update(parts).digest('hex').slice(0, 16);
    return `<!-- ghost-inspector-action:failure-issue:${digest} -->`;
}
/** The key as people read it: `workflow Nightly · job e2e · refs/heads/main · comment-key chrome`, escaped. */
function keyLine(key) {
    const parts = [
        key.workflow && `workflow ${key.workflow}`,
        key.job && `job ${key.job}`,
        key.ref,
        key.commentKey && `comment-key ${key.commentKey}`,
    ].filter(Boolean);
    return `<sub>${(0,report_text/* escapeInline */.VV)((0,report_text/* truncate */.xv)(parts.join(' · '), 400))}</sub>`;
}
/** The issue's body: marker, hidden state, the story so far, `text` (failures or the passing line). */
function issueBody(marker, key, state, text) {
    // JSON inside an HTML comment: `-`, `<` and `>` escaped so that no `-->` can end it early.
    const json = JSON.stringify(state).replace(/[-<>]/g, (c) => `\\u00${c.charCodeAt(0).toString(16)}`);
    const date = state.since.slice(0, 10);
    const story = `Failing since ${date}, ${state.sinceRun}; last failed ${state.lastRun}; ${(0,words/* plural */.L)(state.failedRuns, 'failed run')}.`;
    return (0,report_text/* truncate */.xv)([
        marker,
        `${STATE_PREFIX}${json} -->`,
        keyLine(key),
        '',
        state.earlier ? `${story} Failed before in ${state.earlier}.` : story,
        '',
        text,
    ].join('\n'), pr_comment/* MAX_COMMENT_CHARS */.V);
}
/** The state in an own issue's body; what is missing (a body edited by hand) starts over at `now`. */
function readState(body, now) {
    const state = {
        since: now,
        sinceRun: '',
        lastRun: '',
        failedRuns: 0,
        seen: '',
        passedRun: '',
        earlier: '',
    };
    const start = body.indexOf(STATE_PREFIX);
    let saved = {};
    try {
        const parsed = start >= 0 ? JSON.parse(body.slice(start + STATE_PREFIX.length, body.indexOf(' -->', start))) : null;
        if (parsed !== null && typeof parsed === 'object')
            saved = parsed;
    }
    catch {
        // Not JSON any more: start over.
    }
    for (const key of Object.keys(state)) {
        if (typeof saved[key] === typeof state[key])
            Object.assign(state, { [key]: saved[key] });
    }
    return state;
}

// EXTERNAL MODULE: ./src/report/github-rest.ts
var github_rest = __webpack_require__(54614);
;// CONCATENATED MODULE: ./src/report/failure-issue-find.ts
/**
 * Finds the own issues of a failure issue's key (docs/reports.md, "Failure issue"): by the marker and the
 * writer, among the issues carrying the labels, else among all issues (GitHub may have dropped the labels).
 */


/**
 * The own issues of `marker`, oldest first (by number): those carrying the labels, else, when none does, any
 * (a person's token: created by its user). Pull requests skipped. At most 10 pages per list.
 * @throws the request error of a failed list, an Error for an answer of the wrong shape
 */
async function findOwnIssues(octokit, options) {
    const base = {
        owner: options.owner,
        repo: options.repo,
        state: options.state,
        per_page: 100,
    };
    const queries = options.labels.length > 0
        ? [
            { ...base, labels: options.labels.join(',') },
            { ...base, ...creator(options.login) },
        ]
        : [{ ...base, ...creator(options.login) }];
    for (const query of queries) {
        const listed = await (0,github_rest/* listOwn */.Zv)(octokit.paginate.iterator(octokit.rest.issues.listForRepo, query), {
            login: options.login,
            marker: options.marker,
            what: 'issues',
            ...(options.baseUrl ? { baseUrl: options.baseUrl } : {}),
            also: (item) => !('pull_request' in item) || item.pull_request == null,
        });
        if (listed.length > 0) {
            return listed.map((issue) => ownIssue(issue, options.now)).sort((a, b) => a.number - b.number);
        }
    }
    return [];
}
/** The `creator` filter for a person's login; none for an app's bot, which the docs do not name as a creator. */
function creator(login) {
    return login === null || login.endsWith('[bot]') ? {} : { creator: login };
}
function ownIssue(issue, now) {
    const { number, html_url: url, body, state, closed_at: closedAt } = issue;
    if (typeof number !== 'number' || typeof url !== 'string') {
        throw new Error(`the GitHub API answered an issue without a number or link`);
    }
    const closed = typeof closedAt === 'string' ? Date.parse(closedAt) : NaN;
    return {
        number,
        url,
        open: state !== 'closed',
        closedAt: Number.isNaN(closed) ? null : closed,
        state: readState(body, now),
    };
}

// EXTERNAL MODULE: ./src/report/history.ts
var report_history = __webpack_require__(34518);
// EXTERNAL MODULE: ./src/report/summary-failures.ts
var summary_failures = __webpack_require__(18296);
;// CONCATENATED MODULE: ./src/report/failure-issue.ts
/**
 * The opt-in failure issue: one issue per key (workflow, job, ref, `comment-key`) for the events that own it,
 * commented on by each failing run, closed by the first passed verdict, reopened by a failure soon after
 * (docs/reports.md, "Failure issue"; docs/api-contract.md, "Failure issues"); pull requests untouched.
 */









const DAY_MS = 86_400_000;
/**
 * The failures of `report` (pure), as in the job summary with history lines, as many as fit a comment; first
 * the tests that failed for the first time and the flaky ones (passed on a re-run), one line each.
 */
function renderFailures(report, history) {
    const groups = (0,summary_failures/* groupTests */.zV)(report, (t) => t.failing);
    const lineOf = (group) => history.get(group.matching[0].test.testId ?? '');
    const names = (list) => list.map((g) => (0,summary_failures/* titleHtml */.sB)(g.matching[0].test)).join(', ');
    const fresh = groups.filter((g) => (0,report_history/* isNewFailure */.$p)(lineOf(g)));
    const flaky = (0,summary_failures/* groupTests */.zV)(report, (t) => !t.failing && t.state === 'flaky');
    const note = (0,report_history/* noHistoryNote */.uT)(report);
    let text = [
        fresh.length > 0 ? `<p><b>New failures</b>: ${names(fresh)}.</p>` : '',
        flaky.length > 0 ? `<p><b>Flaky</b> (failed, then passed on a re-run): ${names(flaky)}.</p>` : '',
        note ? `<p>${(0,report_text/* escapeInline */.VV)(note)}</p>` : '',
    ].join('');
    if (text)
        text += '\n\n';
    for (const [i, group] of groups.entries()) {
        const line = lineOf(group);
        const block = (0,summary_failures/* groupBlock */.zX)(report, group) + (line ? `<p>History: ${(0,report_text/* escapeInline */.VV)(line)}</p>\n\n` : '');
        if (text.length + block.length > pr_comment/* MAX_COMMENT_CHARS */.V - 4_000) {
            return `${text}… and ${(0,words/* plural */.L)(groups.length - i, 'more failing test')}.\n`;
        }
        text += block;
    }
    return text;
}
/**
 * Opens, comments on, reopens or closes the own issue of `options.key` for this run's verdict.
 * @returns the issue touched (or already written by this run), null when none
 * @throws the Octokit `RequestError` of a failed request, an Error for an answer of the wrong shape, the
 *   abort error on `signal`
 */
async function trackFailureIssue(options) {
    const octokit = (0,github_rest/* githubRest */.U7)(options);
    const session = {
        octokit,
        marker: issueMarker(options.key),
        login: await (0,github_rest/* tokenLogin */.nu)(octokit),
        options,
    };
    const own = await find(session, options.failures === null ? 'open' : 'all');
    const [open, ...newer] = own.filter((i) => i.open);
    // Runs that raced and each kept their own: the newer ones are closed as duplicates of the oldest.
    for (const duplicate of newer)
        await closeDuplicate(session, duplicate, open);
    if (options.failures === null)
        return open ? failure_issue_close(session, open) : null;
    if (open)
        return comment(session, open, options.failures);
    const last = own
        .filter((i) => i.closedAt !== null)
        .sort((a, b) => b.closedAt - a.closedAt)
        .at(0);
    const reopenBefore = Date.parse(options.now) - options.reopenDays * DAY_MS;
    if (last && last.closedAt > reopenBefore)
        return reopen(session, last, options.failures);
    return create(session, options.failures, last);
}
function find(session, state) {
    const { options } = session;
    return findOwnIssues(session.octokit, {
        owner: options.owner,
        repo: options.repo,
        labels: options.labels,
        login: session.login,
        marker: session.marker,
        state,
        now: options.now,
        ...(options.baseUrl ? { baseUrl: options.baseUrl } : {}),
    });
}
function params(session, issue) {
    return { owner: session.options.owner, repo: session.options.repo, issue_number: issue.number };
}
/** Writes the body (and its `seen`) before the comment: a step run again never comments twice. */
async function write(session, issue, state, text, change) {
    const { octokit, marker, options } = session;
    const body = issueBody(marker, options.key, state, text);
    const patch = change === 'closed' ? { state: 'closed', state_reason: 'completed' } : {};
    const reopened = change === 'reopened' ? { state: 'open', state_reason: 'reopened' } : {};
    await octokit.rest.issues.update({ ...params(session, issue), body, ...patch, ...reopened });
    return { number: issue.number, url: issue.url, change };
}
async function failure_issue_close(session, issue) {
    const { run } = session.options;
    if (issue.state.seen === run.key)
        return { number: issue.number, url: issue.url, change: 'none' };
    const state = { ...issue.state, seen: run.key, passedRun: run.link };
    const result = await write(session, issue, state, `Passing again in ${run.link}.\n`, 'closed');
    await session.octokit.rest.issues.createComment({
        ...params(session, issue),
        body: `${session.marker}\n✅ Passing again in ${run.link}.\n`,
    });
    return result;
}
async function comment(session, issue, failures) {
    const { run } = session.options;
    if (issue.state.seen === run.key)
        return { number: issue.number, url: issue.url, change: 'none' };
    const state = { ...issue.state, lastRun: run.link, failedRuns: issue.state.failedRuns + 1, seen: run.key };
    const result = await write(session, issue, state, failures, 'commented');
    await session.octokit.rest.issues.createComment({
        ...params(session, issue),
        body: `${session.marker}\n### ❌ Failed again in ${run.link}\n\n${failures}`,
    });
    return result;
}
/** Reopens an own issue closed within the window; the count starts over when a run passed in between. */
async function reopen(session, issue, failures) {
    const { run, now } = session.options;
    if (issue.state.seen === run.key)
        return { number: issue.number, url: issue.url, change: 'none' };
    const passed = issue.state.passedRun;
    const state = {
        ...issue.state,
        ...(passed ? { since: now, sinceRun: run.link, failedRuns: 0 } : {}),
        lastRun: run.link,
        failedRuns: (passed ? 0 : issue.state.failedRuns) + 1,
        seen: run.key,
        passedRun: '',
    };
    const result = await write(session, issue, state, failures, 'reopened');
    const why = passed ? `it passed in ${passed}` : 'it was closed while failing';
    await session.octokit.rest.issues.createComment({
        ...params(session, issue),
        body: `${session.marker}\n### ❌ Failing again in ${run.link}: reopened (${why})\n\n${failures}`,
    });
    await failure_issue_assign(session, issue);
    return result;
}
/**
 * Opens the issue, then looks again: when another run opened one for the key first, this one is closed as
 * its duplicate and the run comments on the older.
 */
async function create(session, failures, last) {
    const { octokit, marker, options } = session;
    const { owner, repo, run } = options;
    const state = {
        since: options.now,
        sinceRun: run.link,
        lastRun: run.link,
        failedRuns: 1,
        seen: run.key,
        passedRun: '',
        earlier: last ? `<a href="${last.url}">#${last.number}</a>` : '',
    };
    const { data } = await octokit.rest.issues.create({
        owner,
        repo,
        title: (0,report_text/* truncate */.xv)(options.title, 200),
        body: issueBody(marker, options.key, state, failures),
        labels: options.labels,
    });
    const created = { number: data.number, url: data.html_url, open: true, closedAt: null, state };
    await label(session, created, data.labels);
    // The writer, as GitHub named it, is the one to look for from now on.
    const writer = data.user?.login;
    const again = await find({ ...session, login: writer ?? session.login }, 'open');
    const older = again.find((i) => i.number < created.number);
    if (older) {
        await closeDuplicate(session, created, older);
        return comment(session, older, failures);
    }
    await failure_issue_assign(session, created);
    return { number: created.number, url: created.url, change: 'opened' };
}
/** Closes `duplicate` (as not planned) with a link to the issue of its key kept open. */
async function closeDuplicate(session, duplicate, kept) {
    const { octokit, marker } = session;
    await octokit.rest.issues.update({
        ...params(session, duplicate),
        state: 'closed',
        state_reason: 'not_planned',
    });
    await octokit.rest.issues.createComment({
        ...params(session, duplicate),
        body: `${marker}\nDuplicate of <a href="${kept.url}">#${kept.number}</a>, opened for the same key by another run.\n`,
    });
}
/**
 * GitHub drops the labels of a new issue silently when the token has no push access; they are added on their
 * own ("Add labels to an issue" needs only issues: write). A refusal warns: the issue is found without them.
 */
async function label(session, issue, given) {
    const { labels } = session.options;
    const set = new Set(given.map((l) => (typeof l === 'string' ? l : l.name)));
    if (labels.every((l) => set.has(l)))
        return;
    try {
        await session.octokit.rest.issues.addLabels({ ...params(session, issue), labels });
    }
    catch (error) {
        if (session.options.signal?.aborted)
            throw error;
        session.options.warn(`failure-issue: GitHub did not add the labels ${labels.join(', ')}: ${(0,log/* messageOf */.bD)(error)}`);
    }
}
/** Assigns `failure-issue-assignees`; GitHub ignores logins it cannot assign: those are named in a warning. */
async function failure_issue_assign(session, issue) {
    const { assignees } = session.options;
    if (assignees.length === 0)
        return;
    try {
        const { data } = await session.octokit.rest.issues.addAssignees({ ...params(session, issue), assignees });
        const got = new Set((data.assignees ?? []).map((a) => a?.login));
        const missing = assignees.filter((a) => !got.has(a));
        if (missing.length > 0) {
            session.options.warn(`failure-issue-assignees: GitHub did not assign ${missing.join(', ')} to issue #${issue.number} (a login that cannot be assigned in this repository, or a token without push access)`);
        }
    }
    catch (error) {
        if (session.options.signal?.aborted)
            throw error;
        session.options.warn(`failure-issue-assignees: could not assign issue #${issue.number}: ${(0,log/* messageOf */.bD)(error)}`);
    }
}


/***/ }),

/***/ 54614:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   U7: () => (/* binding */ githubRest),
/* harmony export */   Zv: () => (/* binding */ listOwn),
/* harmony export */   gq: () => (/* binding */ findOwn),
/* harmony export */   nu: () => (/* binding */ tokenLogin),
/* harmony export */   vJ: () => (/* binding */ describeShape)
/* harmony export */ });
/* harmony import */ var _actions_github__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(61351);
/**
 * GitHub's REST API for the pull-request comment and the failure issue: one client, its identity, "own",
 * bounded paging (docs/api-contract.md).
 */

/** Pages of one list read at most (issues, comments): a list longer than that is read no further. */
const MAX_PAGES = 10;
/** A REST client whose every request carries `signal` and is refused when it would leave the API's origin. */
function githubRest(options) {
    const octokit = (0,_actions_github__WEBPACK_IMPORTED_MODULE_0__/* .getOctokit */ .Q)(options.token, options.baseUrl ? { baseUrl: options.baseUrl } : {});
    const origin = new URL(options.baseUrl ?? 'https://api.github.com').origin;
    octokit.hook.before('request', (request) => {
        const url = new URL(request.url, `${request.baseUrl}/`);
        if (url.origin !== origin)
            throw new Error(`the GitHub API pointed the action to ${url.origin}; refused`);
        request.request = { ...request.request, ...(options.signal ? { signal: options.signal } : {}) };
    });
    return octokit;
}
/**
 * The login of the token's identity; null when `GET /user` is refused (403): a GitHub App installation token
 * (`GITHUB_TOKEN` or another app's), which writes as its app's bot, `<app slug>[bot]`.
 * @throws the request error of any other failure, an Error for an answer without a login
 */
async function tokenLogin(octokit) {
    try {
        const { data } = await octokit.rest.users.getAuthenticated();
        const login = data?.login;
        if (typeof login !== 'string') {
            throw new Error(`the GitHub API answered GET /user with ${describeShape(login)} as the login`);
        }
        return login;
    }
    catch (error) {
        if (error.status === 403)
            return null;
        throw error;
    }
}
/**
 * True when `user` is the token's identity: `login` when known, else any app's bot (a login ending in
 * `[bot]`, which GitHub keeps for apps: no person can take it).
 */
function isWriter(user, login) {
    const name = user?.login;
    return typeof name === 'string' && (login === null ? name.endsWith('[bot]') : name === login);
}
/**
 * The listed comments or issues that are the action's own and pass `also`, page by page, in list order,
 * over at most {@link MAX_PAGES} pages ({@link boundedPages}); with `first`, the first one alone.
 * @throws an Error naming `what` and `baseUrl` when a page is not a list
 */
async function listOwn(pages, own, first = false) {
    const found = [];
    for await (const { data } of boundedPages(pages)) {
        if (!Array.isArray(data)) {
            throw new Error(`the GitHub API answered the list of ${own.what} with ${describeShape(data)} instead of a list; is GITHUB_API_URL (${own.baseUrl ?? 'https://api.github.com'}) the REST API?`);
        }
        for (const c of data) {
            if (!c || !isWriter(c.user, own.login) || typeof c.body !== 'string')
                continue;
            if (!c.body.startsWith(own.marker) || !(own.also?.(c) ?? true))
                continue;
            found.push(c);
            if (first)
                return found;
        }
    }
    return found;
}
/** The first own listed comment or issue ({@link listOwn}). */
async function findOwn(pages, own) {
    return (await listOwn(pages, own, true))[0];
}
/**
 * The pages of `pages`, at most {@link MAX_PAGES}, ending early where a page's `rel="next"` link names a page
 * already read or linked (a server whose links go round). Pagination:
 * https://docs.github.com/en/rest/using-the-rest-api/using-pagination-in-the-rest-api
 */
async function* boundedPages(pages) {
    const seen = new Set();
    let read = 0;
    for await (const page of pages) {
        yield page;
        read += 1;
        if (page.url)
            seen.add(page.url);
        const next = /<([^>]+)>;\s*rel="next"/.exec(page.headers?.link ?? '')?.[1];
        if (!next || read >= MAX_PAGES || seen.has(next))
            return;
        seen.add(next);
    }
}
/** `an object`, `a string`, `null`: what an unexpected API answer was, for an error message. */
function describeShape(value) {
    if (value === null)
        return 'null';
    if (value === undefined)
        return 'nothing';
    if (Array.isArray(value))
        return 'a list';
    return `${typeof value === 'object' ? 'an' : 'a'} ${typeof value}`;
}


/***/ }),

/***/ 71914:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   V: () => (/* binding */ MAX_COMMENT_CHARS),
/* harmony export */   renderPullRequestComment: () => (/* binding */ renderPullRequestComment),
/* harmony export */   upsertPullRequestComment: () => (/* binding */ upsertPullRequestComment)
/* harmony export */ });
/* unused harmony export commentMarker */
/* harmony import */ var node_crypto__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(77598);
/* harmony import */ var node_crypto__WEBPACK_IMPORTED_MODULE_0___default = /*#__PURE__*/__webpack_require__.n(node_crypto__WEBPACK_IMPORTED_MODULE_0__);
/* harmony import */ var _model_js__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(96867);
/* harmony import */ var _phrases_js__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(64792);
/* harmony import */ var _summary_js__WEBPACK_IMPORTED_MODULE_3__ = __webpack_require__(57994);
/* harmony import */ var _github_rest_js__WEBPACK_IMPORTED_MODULE_4__ = __webpack_require__(54614);
/* harmony import */ var _summary_failures_js__WEBPACK_IMPORTED_MODULE_5__ = __webpack_require__(18296);
/* harmony import */ var _text_js__WEBPACK_IMPORTED_MODULE_6__ = __webpack_require__(65655);
/** The opt-in sticky pull-request comment (docs/api-contract.md, "Pull-request comments"). */







/** The marker's base; a key (e.g. the job name) gives one comment per key. */
const COMMENT_MARKER_BASE = 'ghost-inspector-action';
/** GitHub rejects comment bodies above 65536 characters; stay under with a margin. */
const MAX_COMMENT_CHARS = 60_000;
/** Failures listed in the comment before "N more". */
const MAX_LISTED_FAILURES = 20;
/** The hidden marker of the sticky comment: `<!-- ghost-inspector-action[:KEY] -->`, the key cleaned. */
function commentMarker(key) {
    let clean = key ? key.replace(/[^A-Za-z0-9._-]/g, '_') : '';
    // A long key (e.g. every matrix value) keeps its start and a digest of the whole, so keys stay distinct.
    if (clean.length > 100)
        clean = `${clean.slice(0, 80)}-${(0,node_crypto__WEBPACK_IMPORTED_MODULE_0__.createHash)('sha256').update(key).digest('hex').slice(0, 16)}`;
    return clean ? `<!-- ${COMMENT_MARKER_BASE}:${clean} -->` : `<!-- ${COMMENT_MARKER_BASE} -->`;
}
/** Renders the pull-request comment (pure), at most {@link MAX_COMMENT_CHARS} characters, marker first. */
function renderPullRequestComment(report, options = {}) {
    const lines = [];
    const failing = [...(0,_model_js__WEBPACK_IMPORTED_MODULE_1__/* .allTests */ .DD)(report)].filter(({ test }) => test.failing);
    for (const { run, test } of failing.slice(0, MAX_LISTED_FAILURES)) {
        const name = (0,_text_js__WEBPACK_IMPORTED_MODULE_6__/* .escapeInline */ .VV)((0,_text_js__WEBPACK_IMPORTED_MODULE_6__/* .truncate */ .xv)((0,_phrases_js__WEBPACK_IMPORTED_MODULE_2__/* .withVariant */ .YA)(test.title, run.variantLabel), 400));
        const history = test.testId ? options.history?.get(test.testId) : undefined;
        lines.push(`- ${(0,_summary_failures_js__WEBPACK_IMPORTED_MODULE_5__/* .link */ .nf)(test.resultUrl, name)}: ${(0,_text_js__WEBPACK_IMPORTED_MODULE_6__/* .escapeInline */ .VV)((0,_text_js__WEBPACK_IMPORTED_MODULE_6__/* .truncate */ .xv)((0,_phrases_js__WEBPACK_IMPORTED_MODULE_2__/* .failureMessage */ .oh)(test), 500))}${history ? ` (${history})` : ''}`);
    }
    if (failing.length > MAX_LISTED_FAILURES)
        lines.push(`- … and ${failing.length - MAX_LISTED_FAILURES} more`);
    const runHref = options.runUrl ? (0,_text_js__WEBPACK_IMPORTED_MODULE_6__/* .safeUrl */ .Pl)(options.runUrl) : '';
    if (runHref)
        lines.push('', `<a href="${runHref}">Details in the job summary</a>`);
    const head = `${commentMarker(options.key)}\n${(0,_summary_js__WEBPACK_IMPORTED_MODULE_3__/* .headline */ .Pl)(report, { title: options.title })}`;
    return (0,_text_js__WEBPACK_IMPORTED_MODULE_6__/* .truncate */ .xv)(`${(head + lines.join('\n')).trimEnd()}\n`, MAX_COMMENT_CHARS);
}
/**
 * Creates the sticky comment on a pull request, or updates the oldest own one; requests stay on the API's
 * origin.
 * @returns the comment id and whether it was created
 * @throws the Octokit `RequestError` of a failed request, an Error for a wrong answer, the abort error
 */
async function upsertPullRequestComment(options) {
    const marker = commentMarker(options.key);
    const body = options.body.startsWith(marker) ? options.body : `${marker}\n${options.body}`;
    const octokit = (0,_github_rest_js__WEBPACK_IMPORTED_MODULE_4__/* .githubRest */ .U7)(options);
    const login = await (0,_github_rest_js__WEBPACK_IMPORTED_MODULE_4__/* .tokenLogin */ .nu)(octokit);
    const params = { owner: options.owner, repo: options.repo, issue_number: options.issueNumber };
    const found = await (0,_github_rest_js__WEBPACK_IMPORTED_MODULE_4__/* .findOwn */ .gq)(octokit.paginate.iterator(octokit.rest.issues.listComments, { ...params, per_page: 100 }), { login, marker, what: `comments of pull request #${options.issueNumber}`, baseUrl: options.baseUrl });
    if (found) {
        if (typeof found.id !== 'number') {
            throw new Error(`the GitHub API answered a comment without a numeric id (${(0,_github_rest_js__WEBPACK_IMPORTED_MODULE_4__/* .describeShape */ .vJ)(found.id)})`);
        }
        const { owner, repo } = options;
        await octokit.rest.issues.updateComment({ owner, repo, comment_id: found.id, body });
        return { id: found.id, created: false };
    }
    const created = await octokit.rest.issues.createComment({ ...params, body });
    return { id: created.data.id, created: true };
}


/***/ })

};
