export const id = 422;
export const ids = [422,914];
export const modules = {

/***/ 17422:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   renderFailures: () => (/* binding */ renderFailures),
/* harmony export */   trackFailureIssue: () => (/* binding */ trackFailureIssue)
/* harmony export */ });
/* harmony import */ var _common_words_js__WEBPACK_IMPORTED_MODULE_4__ = __webpack_require__(73596);
/* harmony import */ var _pr_comment_js__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(71914);
/* harmony import */ var _github_rest_js__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(54614);
/* harmony import */ var _summary_failures_js__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(18296);
/* harmony import */ var _text_js__WEBPACK_IMPORTED_MODULE_3__ = __webpack_require__(65655);
/**
 * The opt-in failure issue: one open issue per key while the verdict fails, a comment per failing run,
 * closed on the first passed verdict (docs/github-platform.md, "Failure issues"); pull requests untouched.
 */





const STATE_PREFIX = '<!-- ghost-inspector-action-state ';
/** The failures of `report` (pure), as in the job summary with history lines, as many as fit a comment. */
function renderFailures(report, history) {
    const groups = (0,_summary_failures_js__WEBPACK_IMPORTED_MODULE_2__/* .groupTests */ .zV)(report, (t) => t.failing);
    let text = '';
    for (const [i, group] of groups.entries()) {
        const line = history.get(group.matching[0].test.testId ?? '');
        const block = (0,_summary_failures_js__WEBPACK_IMPORTED_MODULE_2__/* .groupBlock */ .zX)(report, group) + (line ? `<p>History: ${(0,_text_js__WEBPACK_IMPORTED_MODULE_3__/* .escapeInline */ .VV)(line)}</p>\n\n` : '');
        if (text.length + block.length > _pr_comment_js__WEBPACK_IMPORTED_MODULE_0__/* .MAX_COMMENT_CHARS */ .V - 4_000) {
            return `${text}… and ${(0,_common_words_js__WEBPACK_IMPORTED_MODULE_4__/* .plural */ .L)(groups.length - i, 'more failing test')}.\n`;
        }
        text += block;
    }
    return text;
}
/**
 * Opens, comments on or closes the own open issue of `options.key` for this run's verdict.
 * @returns the issue touched (or already written by this run), null when none
 * @throws the Octokit `RequestError` of a failed request, an Error for an answer of the wrong shape, the
 *   abort error on `signal`
 */
async function trackFailureIssue(options) {
    const octokit = (0,_github_rest_js__WEBPACK_IMPORTED_MODULE_1__/* .githubRest */ .U7)(options);
    const marker = (0,_pr_comment_js__WEBPACK_IMPORTED_MODULE_0__/* .commentMarker */ .Q)(`failure-issue:${options.key}`);
    const login = await (0,_github_rest_js__WEBPACK_IMPORTED_MODULE_1__/* .tokenLogin */ .nu)(octokit);
    const found = await findOwnIssue(octokit, options, login, marker);
    const { owner, repo, run } = options;
    if (!found) {
        if (options.failures === null)
            return null;
        const state = {
            since: options.now,
            sinceRun: run.link,
            lastRun: run.link,
            failedRuns: 1,
            seen: run.key,
        };
        const { data } = await octokit.rest.issues.create({
            owner,
            repo,
            title: (0,_text_js__WEBPACK_IMPORTED_MODULE_3__/* .truncate */ .xv)(options.title, 200),
            body: issueBody(marker, state, options.failures),
            labels: options.labels,
        });
        // GitHub drops the labels of a new issue silently when the token has no push access; the next run finds
        // the issue by them, so they are added on their own ("Add labels to an issue" needs only issues: write).
        const set = new Set(data.labels.map((l) => (typeof l === 'string' ? l : l.name)));
        if (options.labels.some((l) => !set.has(l))) {
            await octokit.rest.issues.addLabels({ owner, repo, issue_number: data.number, labels: options.labels });
        }
        return { number: data.number, url: data.html_url, change: 'opened' };
    }
    const result = { number: found.number, url: found.url };
    if (found.state.seen === run.key)
        return { ...result, change: 'none' };
    const params = { owner, repo, issue_number: found.number };
    // The body (and its `seen`) is written before the comment: a step run again never comments twice.
    if (options.failures === null) {
        const state = { ...found.state, seen: run.key };
        const body = issueBody(marker, state, `Passing again in ${run.link}.\n`);
        await octokit.rest.issues.update({ ...params, body, state: 'closed', state_reason: 'completed' });
        await octokit.rest.issues.createComment({
            ...params,
            body: `${marker}\n✅ Passing again in ${run.link}.\n`,
        });
        return { ...result, change: 'closed' };
    }
    const state = { ...found.state, lastRun: run.link, failedRuns: found.state.failedRuns + 1, seen: run.key };
    await octokit.rest.issues.update({ ...params, body: issueBody(marker, state, options.failures) });
    await octokit.rest.issues.createComment({
        ...params,
        body: `${marker}\n### ❌ Failed again in ${run.link}\n\n${options.failures}`,
    });
    return { ...result, change: 'commented' };
}
/** The oldest-listed open own issue of `marker` among the issues carrying the labels; pull requests skipped. */
async function findOwnIssue(octokit, options, login, marker) {
    const query = {
        owner: options.owner,
        repo: options.repo,
        state: 'open',
        per_page: 100,
        ...(options.labels.length > 0 ? { labels: options.labels.join(',') } : {}),
    };
    const issue = await (0,_github_rest_js__WEBPACK_IMPORTED_MODULE_1__/* .findOwn */ .gq)(octokit.paginate.iterator(octokit.rest.issues.listForRepo, query), {
        login,
        marker,
        what: 'issues',
        baseUrl: options.baseUrl,
        also: (item) => !('pull_request' in item),
    });
    if (!issue)
        return undefined;
    const { number, html_url: url, body } = issue;
    if (typeof number !== 'number' || typeof url !== 'string') {
        throw new Error(`the GitHub API answered an issue without a number or link`);
    }
    return { number, url, state: readState(body, options.now) };
}
function issueBody(marker, state, failures) {
    // JSON inside an HTML comment: `-`, `<` and `>` escaped so that no `-->` can end it early.
    const json = JSON.stringify(state).replace(/[-<>]/g, (c) => `\\u00${c.charCodeAt(0).toString(16)}`);
    const date = state.since.slice(0, 10);
    return (0,_text_js__WEBPACK_IMPORTED_MODULE_3__/* .truncate */ .xv)([
        marker,
        `${STATE_PREFIX}${json} -->`,
        `Failing since ${date}, ${state.sinceRun}; last failed ${state.lastRun}; ${(0,_common_words_js__WEBPACK_IMPORTED_MODULE_4__/* .plural */ .L)(state.failedRuns, 'failed run')}.`,
        '',
        failures,
    ].join('\n'), _pr_comment_js__WEBPACK_IMPORTED_MODULE_0__/* .MAX_COMMENT_CHARS */ .V);
}
/** The state in an own issue's body; what is missing (a body edited by hand) starts over at `now`. */
function readState(body, now) {
    const state = { since: now, sinceRun: '', lastRun: '', failedRuns: 0, seen: '' };
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


/***/ }),

/***/ 54614:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   U7: () => (/* binding */ githubRest),
/* harmony export */   gq: () => (/* binding */ findOwn),
/* harmony export */   nu: () => (/* binding */ tokenLogin),
/* harmony export */   vJ: () => (/* binding */ describeShape)
/* harmony export */ });
/* harmony import */ var _actions_github__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(61351);
/** GitHub's REST API for the pull-request comment and the failure issue: one client, its identity, "own". */

/** The login of comments and issues written with `GITHUB_TOKEN` (the GitHub Actions app's bot). */
const ACTIONS_BOT_LOGIN = 'github-actions[bot]';
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
 * The login of the token's identity; {@link ACTIONS_BOT_LOGIN} when `GET /user` is refused (403).
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
            return ACTIONS_BOT_LOGIN;
        throw error;
    }
}
/**
 * The first listed comment or issue that is the action's own (written by `login`, its body starting with
 * `marker`) and passes `also`, page by page.
 * @throws an Error naming `what` and `baseUrl` when a page is not a list
 */
async function findOwn(pages, own) {
    for await (const { data } of pages) {
        if (!Array.isArray(data)) {
            throw new Error(`the GitHub API answered the list of ${own.what} with ${describeShape(data)} instead of a list; is GITHUB_API_URL (${own.baseUrl ?? 'https://api.github.com'}) the REST API?`);
        }
        const found = data.find((c) => c?.user?.login === own.login &&
            typeof c.body === 'string' &&
            c.body.startsWith(own.marker) &&
            (own.also?.(c) ?? true));
        if (found)
            return found;
    }
    return undefined;
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
/* harmony export */   Q: () => (/* binding */ commentMarker),
/* harmony export */   V: () => (/* binding */ MAX_COMMENT_CHARS),
/* harmony export */   renderPullRequestComment: () => (/* binding */ renderPullRequestComment),
/* harmony export */   upsertPullRequestComment: () => (/* binding */ upsertPullRequestComment)
/* harmony export */ });
/* harmony import */ var node_crypto__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(77598);
/* harmony import */ var node_crypto__WEBPACK_IMPORTED_MODULE_0___default = /*#__PURE__*/__webpack_require__.n(node_crypto__WEBPACK_IMPORTED_MODULE_0__);
/* harmony import */ var _model_js__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(96867);
/* harmony import */ var _phrases_js__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(64792);
/* harmony import */ var _summary_js__WEBPACK_IMPORTED_MODULE_3__ = __webpack_require__(57994);
/* harmony import */ var _github_rest_js__WEBPACK_IMPORTED_MODULE_4__ = __webpack_require__(54614);
/* harmony import */ var _summary_failures_js__WEBPACK_IMPORTED_MODULE_5__ = __webpack_require__(18296);
/* harmony import */ var _text_js__WEBPACK_IMPORTED_MODULE_6__ = __webpack_require__(65655);
/** The opt-in sticky pull-request comment (docs/github-platform.md, "Pull-request comments"). */







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
