export const id = 914;
export const ids = [914];
export const modules = {

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
