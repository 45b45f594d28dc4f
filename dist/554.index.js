export const id = 554;
export const ids = [554];
export const modules = {

/***/ 16554:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {


// EXPORTS
__webpack_require__.d(__webpack_exports__, {
  publishScreenshots: () => (/* binding */ publishScreenshots)
});

// UNUSED EXPORTS: DOWNLOAD_TIME_LIMIT_MS, MAX_ARTIFACT_NAME_LENGTH, MAX_FILE_NAME_BYTES, MAX_SUITE_SEGMENT_BYTES, SCREENSHOT_MODES, UPLOAD_TIME_LIMIT_MS, artifactUrl, defaultArtifactName, displayUrl, downloadScreenshots, fileVariantLabel, isNameClash, runPool, sanitizeArtifactName, sanitizeSegment, screenshotPath, selectScreenshots, suffixedName, truncateUtf8, uploadScreenshots

// EXTERNAL MODULE: external "node:crypto"
var external_node_crypto_ = __webpack_require__(77598);
// EXTERNAL MODULE: external "node:os"
var external_node_os_ = __webpack_require__(48161);
var external_node_os_default = /*#__PURE__*/__webpack_require__.n(external_node_os_);
// EXTERNAL MODULE: external "node:path"
var external_node_path_ = __webpack_require__(76760);
var external_node_path_default = /*#__PURE__*/__webpack_require__.n(external_node_path_);
// EXTERNAL MODULE: ./src/common/time-limit.ts
var time_limit = __webpack_require__(51418);
// EXTERNAL MODULE: ./src/github.ts
var src_github = __webpack_require__(69248);
// EXTERNAL MODULE: ./node_modules/p-limit/index.js + 1 modules
var p_limit = __webpack_require__(70370);
// EXTERNAL MODULE: external "node:fs"
var external_node_fs_ = __webpack_require__(73024);
// EXTERNAL MODULE: external "node:fs/promises"
var promises_ = __webpack_require__(51455);
// EXTERNAL MODULE: external "node:stream/promises"
var external_node_stream_promises_ = __webpack_require__(46466);
// EXTERNAL MODULE: ./node_modules/@actions/http-client/lib/index.js + 1 modules
var lib = __webpack_require__(44942);
// EXTERNAL MODULE: ./src/api/backoff.ts
var backoff = __webpack_require__(50304);
// EXTERNAL MODULE: ./src/run/clock.ts
var clock = __webpack_require__(54219);
// EXTERNAL MODULE: external "node:stream"
var external_node_stream_ = __webpack_require__(57075);
;// CONCATENATED MODULE: ./src/artifacts/image-guard.ts
/**
 * What a screenshot download accepts: the URL's scheme (`https`, or `http` when the API itself is served
 * over `http`), where a redirect may lead, how many bytes, and that the body is a PNG or JPEG image. The
 * checks run on the URL before each request and on the body while it streams, before anything is saved.
 */

/** Largest screenshot kept, bytes (20 MiB); a larger one is refused while it streams. */
const MAX_SCREENSHOT_BYTES = 20 * 1024 * 1024;
/** Redirects followed for one screenshot. */
const MAX_REDIRECTS = 3;
/** A download refused by a check: not retried, reported as the screenshot's reason. */
class RefusedDownload extends Error {
    constructor(message) {
        super(message);
        this.name = 'RefusedDownload';
    }
}
/**
 * Checks a URL before it is requested: `https`, or `http` when `allowHttp` (the API base URL is `http`);
 * a redirect (`from` set) never goes from `https` to `http`. Any host may serve a screenshot: no credential
 * is sent with it.
 * @throws RefusedDownload naming the scheme
 */
function checkImageUrl(url, allowHttp, from) {
    let protocol;
    try {
        protocol = new URL(url).protocol;
    }
    catch {
        throw new RefusedDownload('not a valid URL');
    }
    const allowed = protocol === 'https:' || (protocol === 'http:' && allowHttp);
    const downgrade = protocol === 'http:' && from !== undefined && new URL(from).protocol === 'https:';
    if (!allowed || downgrade) {
        const scheme = protocol.replace(/:$/, '');
        throw new RefusedDownload(`${from ? 'redirected to' : 'URL scheme'} ${scheme}${from ? ' URL' : ''} refused (only https${allowHttp ? ' or http' : ''})`);
    }
}
const SIGNATURES = [
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), // PNG
    Buffer.from([0xff, 0xd8, 0xff]), // JPEG
];
const SIGNATURE_BYTES = 8;
function isImage(head) {
    return SIGNATURES.some((s) => head.length >= s.length && head.subarray(0, s.length).equals(s));
}
/**
 * A pass-through stream that refuses a body larger than `maxBytes` (as soon as it passes the cap) or not
 * starting with a PNG or JPEG signature (before the first byte is passed on).
 * @throws (as a stream error) RefusedDownload
 */
function imageGuard(maxBytes = MAX_SCREENSHOT_BYTES) {
    let seen = 0;
    let head = Buffer.alloc(0);
    const tooLarge = () => new RefusedDownload(`larger than ${Math.round(maxBytes / 1024 / 1024)} MiB`);
    const notImage = () => new RefusedDownload('not a PNG or JPEG image');
    return new external_node_stream_.Transform({
        transform(chunk, _encoding, done) {
            seen += chunk.length;
            if (seen > maxBytes)
                return done(tooLarge());
            if (head === null)
                return done(null, chunk);
            head = Buffer.concat([head, chunk]);
            if (head.length < SIGNATURE_BYTES)
                return done();
            if (!isImage(head))
                return done(notImage());
            const all = head;
            head = null;
            done(null, all);
        },
        flush(done) {
            if (head === null)
                return done();
            // An empty body passes: the caller retries it.
            if (head.length === 0 || isImage(head))
                return done(null, head);
            done(notImage());
        },
    });
}

;// CONCATENATED MODULE: ./src/artifacts/download.ts
/**
 * Streams screenshots from object storage to disk: a bounded number at once, each request with its own
 * deadline, retried on 5xx, 429 and network errors with jittered exponential backoff. Files are never held
 * in memory whole: the HTTP response is piped into a temporary file that is renamed once complete.
 */










/**
 * The longest `Retry-After` a screenshot download waits for, ms: shorter than the API client's 2 minutes,
 * because a screenshot is worth less than the run's outcome (a missing one is reported, not fatal).
 */
const MAX_RETRY_AFTER_MS = 30_000;
/** A failure of one attempt; `retryable` decides whether another attempt is made. */
class AttemptError extends Error {
    retryable;
    retryAfterMs;
    constructor(message, retryable, retryAfterMs) {
        super(message);
        this.retryable = retryable;
        this.retryAfterMs = retryAfterMs;
        this.name = 'AttemptError';
    }
}
const NETWORK_CODES = new Set([
    'ECONNRESET',
    'ECONNREFUSED',
    'ETIMEDOUT',
    'EPIPE',
    'ENOTFOUND',
    'EAI_AGAIN',
    'EHOSTUNREACH',
    'ENETUNREACH',
    'ECONNABORTED',
    'ERR_STREAM_PREMATURE_CLOSE',
    'UND_ERR_SOCKET',
]);
/** The URL as it may be shown: no query string or fragment (object storage signatures live there). */
function displayUrl(url) {
    try {
        const u = new URL(url);
        return `${u.protocol}//${u.host}${u.pathname}`;
    }
    catch {
        return '(invalid URL)';
    }
}
/**
 * One attempt: GET `url` (following at most {@link MAX_REDIRECTS} redirects, each checked by
 * `checkImageUrl`), stream the body through the image guard into `tmp`, check status and length.
 * @throws AttemptError on any failure (retryable for 5xx, 429, timeouts and network errors)
 */
async function attemptDownload(client, url, tmp, rules) {
    const { timeoutMs, signal } = rules;
    let timer;
    let stopped = false;
    let response;
    let onAbort;
    const timeout = () => new AttemptError(`no complete answer within ${timeoutMs} ms`, true);
    const deadline = new Promise((_, reject) => {
        const stop = (error) => {
            stopped = true;
            response?.message.destroy(new Error(error.message));
            reject(error);
        };
        timer = setTimeout(() => stop(timeout()), timeoutMs);
        onAbort = () => stop(new AttemptError(`stopped: ${(0,time_limit/* stopReason */.P)(signal)}`, false));
        if (signal?.aborted)
            onAbort();
        else
            signal?.addEventListener('abort', onAbort, { once: true });
    });
    deadline.catch(() => undefined);
    try {
        const work = (async () => {
            let current = url;
            for (let hop = 0;; hop++) {
                checkImageUrl(current, rules.allowHttp, hop > 0 ? url : undefined);
                try {
                    response = await client.get(current, { Accept: 'image/png,image/*;q=0.9,*/*;q=0.5' });
                }
                catch (e) {
                    throw toAttemptError(e, timeoutMs);
                }
                if (stopped) {
                    response.message.destroy();
                    throw timeout();
                }
                const status = response.message.statusCode ?? 0;
                const location = response.message.headers.location;
                if (status < 300 || status >= 400 || !location)
                    break;
                response.message.resume();
                if (hop >= MAX_REDIRECTS)
                    throw new RefusedDownload(`more than ${MAX_REDIRECTS} redirects`);
                current = new URL(location, current).href;
            }
            const status = response.message.statusCode ?? 0;
            if (status < 200 || status >= 300) {
                response.message.resume();
                const retryable = status >= 500 || status === 429 || status === 408;
                throw new AttemptError(`HTTP ${status}`, retryable, retryable
                    ? (0,backoff/* parseRetryAfter */.mu)(response.message.headers['retry-after'], Date.now(), MAX_RETRY_AFTER_MS)
                    : undefined);
            }
            const declared = Number(response.message.headers['content-length']);
            const hasLength = Number.isFinite(declared) && !!response.message.headers['content-length'];
            if (hasLength && declared > rules.maxBytes) {
                response.message.destroy();
                throw new RefusedDownload(`larger than ${Math.round(rules.maxBytes / 1024 / 1024)} MiB`);
            }
            const out = (0,external_node_fs_.createWriteStream)(tmp);
            try {
                await (0,external_node_stream_promises_.pipeline)(response.message, imageGuard(rules.maxBytes), out);
            }
            catch (e) {
                if (stopped && !(e instanceof RefusedDownload))
                    throw timeout();
                throw toAttemptError(e, timeoutMs);
            }
            if (hasLength && declared !== out.bytesWritten) {
                throw new AttemptError(`body cut short: ${out.bytesWritten} of ${declared} bytes`, true);
            }
            if (out.bytesWritten === 0)
                throw new AttemptError('empty body', true);
            return out.bytesWritten;
        })();
        return await Promise.race([work, deadline]);
    }
    finally {
        clearTimeout(timer);
        if (onAbort)
            signal?.removeEventListener('abort', onAbort);
    }
}
function toAttemptError(e, timeoutMs) {
    if (e instanceof AttemptError)
        return e;
    if (e instanceof RefusedDownload)
        return new AttemptError(e.message, false);
    const err = e;
    const message = err?.message ?? String(e);
    if (/^Request timeout/.test(message))
        return new AttemptError(`no answer within ${timeoutMs} ms`, true);
    if (err?.code && NETWORK_CODES.has(err.code))
        return new AttemptError(`network error ${err.code}`, true);
    if (/aborted|socket hang up|premature close/i.test(message))
        return new AttemptError('connection lost', true);
    if (err?.code && /^E[A-Z]+$/.test(err.code))
        return new AttemptError(`error ${err.code}`, err.code !== 'ENOSPC');
    return new AttemptError(message.replace(/https?:\/\/\S+/g, (u) => displayUrl(u)), false);
}
/**
 * Runs `worker` over `items` with at most `limit` in flight (`p-limit`, the one concurrency limiter of the
 * action); resolves when all are done, rejects with the first error of a worker.
 */
async function runPool(items, limit, worker) {
    const pool = (0,p_limit/* default */.A)(Math.max(1, Math.floor(limit)));
    await Promise.all(items.map((item) => pool(() => worker(item))));
}
/**
 * Downloads screenshots into `dir`, each at `dir/<job.relativePath>` (folders are made as needed).
 *
 * Each request has a deadline of `timeoutMs` from sending to the last byte, so a URL that never answers
 * fails in bounded time: at most `(retries + 1) * timeoutMs` plus backoff; `signal` stops them all at once.
 * A URL, a redirect or a body the image guard refuses (`image-guard.ts`: scheme, more than 3 redirects, over
 * `maxBytes`, not a PNG or JPEG) fails at once and nothing is saved. 5xx, 408, 429, timeouts,
 * cut-short bodies and network errors are retried with jittered exponential backoff (`backoffMs` doubled per
 * retry, capped at 10 s; a `Retry-After` header up to 30 s wins). Other 4xx fail at once. A body is piped
 * to `<file>.part` and renamed when complete, so a failed download leaves no file behind.
 *
 * Never throws for a download problem: every job ends in `files` or in `missing` (with a reason), in the
 * order of `jobs`. Each missing file is logged with `log.info` (the caller gives one warning for all, to spare
 * GitHub's 10 warnings per step); URLs are shown without their query string and passed through `redact`.
 * @param jobs from {@link selectScreenshots}
 * @param dir absolute target folder (created if missing)
 * @param options concurrency (default 4), retries (3), timeoutMs (30000), backoffMs (500), allowHttp (false),
 *   maxBytes (20 MiB), signal, sleep, redact, log
 * @throws Error only when `dir` cannot be created
 */
async function downloadScreenshots(jobs, dir, options = {}) {
    const concurrency = Math.max(1, Math.floor(options.concurrency ?? 4));
    const retries = Math.max(0, Math.floor(options.retries ?? 3));
    const timeoutMs = Math.max(1, options.timeoutMs ?? 30_000);
    const baseMs = Math.max(0, options.backoffMs ?? 500);
    const signal = options.signal;
    const sleep = options.sleep ?? ((ms) => clock/* systemClock */.ml.sleep(ms, signal));
    const redact = options.redact ?? ((s) => s);
    const log = options.log;
    const rules = {
        timeoutMs,
        allowHttp: options.allowHttp ?? false,
        maxBytes: options.maxBytes ?? MAX_SCREENSHOT_BYTES,
        ...(signal ? { signal } : {}),
    };
    await (0,promises_.mkdir)(dir, { recursive: true });
    const client = new lib/* HttpClient */.Qq(options.userAgent ?? 'ghost-inspector-action', [], {
        socketTimeout: timeoutMs,
        keepAlive: true,
        allowRetries: false,
        allowRedirects: false,
        maxSockets: concurrency,
    });
    const outcomes = new Map();
    try {
        await runPool(jobs, concurrency, async (job) => {
            const target = external_node_path_default().join(dir, ...job.relativePath.split('/'));
            const tmp = `${target}.part`;
            let lastError = 'not attempted';
            for (let attempt = 1; attempt <= retries + 1; attempt++) {
                try {
                    await (0,promises_.mkdir)(external_node_path_default().dirname(target), { recursive: true });
                    const bytes = await attemptDownload(client, job.url, tmp, rules);
                    await (0,promises_.rename)(tmp, target);
                    outcomes.set(job, { job, path: target, bytes, attempts: attempt });
                    log?.debug?.(`Downloaded ${job.relativePath} (${bytes} bytes, attempt ${attempt})`);
                    return;
                }
                catch (e) {
                    await (0,promises_.rm)(tmp, { force: true }).catch(() => undefined);
                    const err = e instanceof AttemptError ? e : toAttemptError(e, timeoutMs);
                    lastError = err.message;
                    if (!err.retryable || attempt > retries)
                        break;
                    const wait = err.retryAfterMs ?? (0,backoff/* backoffMs */.jo)(attempt - 1, Math.random, { baseMs });
                    log?.debug?.(redact(`Screenshot ${displayUrl(job.url)}: ${err.message}; retry ${attempt} of ${retries} in ${wait} ms`));
                    await sleep(wait);
                }
            }
            const reason = redact(`${lastError} (${displayUrl(job.url)})`);
            outcomes.set(job, { job, reason });
            log?.info(`Screenshot not downloaded: ${job.relativePath}: ${reason}`);
        });
    }
    finally {
        client.dispose();
    }
    const files = [];
    const missing = [];
    for (const job of jobs) {
        const o = outcomes.get(job);
        if (!o)
            missing.push({ job, reason: 'not attempted' });
        else if ('path' in o)
            files.push(o);
        else
            missing.push(o);
    }
    return { files, missing };
}

// EXTERNAL MODULE: ./src/report/console.ts
var console = __webpack_require__(39475);
;// CONCATENATED MODULE: ./src/artifacts/names.ts
/**
 * Safe, readable names for screenshot files and the screenshot artifact.
 *
 * GitHub rejects artifact file paths holding `" : < > | * ? \r \n` and artifact names holding those plus
 * `\ /` (docs/github-platform.md). Windows also refuses trailing dots and spaces and a few
 * reserved device names, and most file systems cap one name at 255 bytes.
 */



/** Characters GitHub refuses in an artifact name or in one segment of an artifact path, plus controls. */
// eslint-disable-next-line no-control-regex
const ILLEGAL = /[":<>|*?\r\n\\/\u0000-\u001f\u007f]/g;
/** Bidirectional controls and zero-width characters: they make a name read other than it is; removed. */
const INVISIBLE = /[\u061c\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff]/g;
const WINDOWS_RESERVED = /^(con|prn|aux|nul|com[0-9]|lpt[0-9])(\..*)?$/i;
/** Longest suite folder name, in UTF-8 bytes. */
const MAX_SUITE_SEGMENT_BYTES = 100;
/** Longest file name (with variant, result id and extension), in UTF-8 bytes; well under the usual 255. */
const MAX_FILE_NAME_BYTES = 200;
/** Longest artifact name we produce, in characters. */
const MAX_ARTIFACT_NAME_LENGTH = 200;
/**
 * Cuts `text` to at most `maxBytes` UTF-8 bytes without splitting a character.
 * @param text any string
 * @param maxBytes limit in bytes (>= 0)
 */
function truncateUtf8(text, maxBytes) {
    if (Buffer.byteLength(text, 'utf8') <= maxBytes)
        return text;
    let out = '';
    let used = 0;
    for (const ch of text) {
        const size = Buffer.byteLength(ch, 'utf8');
        if (used + size > maxBytes)
            break;
        out += ch;
        used += size;
    }
    return out;
}
/**
 * Makes one path segment (a folder or file name, no slashes) safe for an artifact and every common file
 * system: runs of white space (tabs and line breaks too) become one space, the other illegal characters
 * (`" : < > | * ? \ /` and control characters) become `_`, bidi and zero-width characters go,
 * leading/trailing spaces and dots are dropped, Windows device names get a `_` prefix, and the result is
 * cut to `maxBytes` UTF-8 bytes. Never returns an empty string (`fallback`).
 * @param text raw name from the service (suite name, test name)
 * @param maxBytes limit in UTF-8 bytes
 * @param fallback used when nothing printable is left; default `unnamed`
 */
function sanitizeSegment(text, maxBytes, fallback = 'unnamed') {
    let s = text.replace(INVISIBLE, '').replace(/\s+/g, ' ').replace(ILLEGAL, '_');
    s = truncateUtf8(s.trim(), maxBytes);
    s = s.replace(/^[ .]+|[ .]+$/g, '');
    if (s === '')
        s = fallback;
    if (WINDOWS_RESERVED.test(s))
        s = truncateUtf8(`_${s}`, maxBytes);
    return s;
}
/**
 * The variant part of a screenshot's file name, e.g. `chrome, us-east-1, 1280x800, row 3`: the parts of
 * the one variant label (`variantParts`, report/console.ts) without the start URL, comma-separated.
 * Empty string when nothing was varied.
 */
function fileVariantLabel(variant) {
    return (0,console/* variantParts */.cN)(variant, false).join(', ');
}
/**
 * The path of a screenshot inside the artifact, with forward slashes:
 * `<suite>/<test> [<variant>]-<resultId>.png`, or `...-<resultId>-comparison.png` for the screenshot
 * comparison image. The variant part is left out when nothing was varied. Suite and test names are
 * sanitized ({@link sanitizeSegment}); the test name and variant are shortened first so that the result id
 * and the extension always survive and the file name stays within {@link MAX_FILE_NAME_BYTES}.
 * @param suiteName suite name (for a repository test file: its path; slashes become `_`)
 * @param testName test name
 * @param variant what was varied for this run
 * @param resultId the test result id (kept whole; sanitized)
 * @param kind `screenshot` (final screenshot) or `comparison` (screenshot comparison image)
 */
function screenshotPath(suiteName, testName, variant, resultId, kind) {
    const folder = sanitizeSegment(suiteName, MAX_SUITE_SEGMENT_BYTES);
    const suffix = `-${sanitizeSegment(resultId, 64, 'result')}${kind === 'comparison' ? '-comparison' : ''}.png`;
    const room = MAX_FILE_NAME_BYTES - Buffer.byteLength(suffix, 'utf8');
    const label = fileVariantLabel(variant);
    const variantPart = label ? ` [${sanitizeSegment(label, 60, 'variant')}]` : '';
    const testRoom = Math.max(16, room - Buffer.byteLength(variantPart, 'utf8'));
    const test = sanitizeSegment(testName, testRoom);
    const stem = truncateUtf8(`${test}${variantPart}`, room);
    return `${folder}/${stem}${suffix}`;
}
/**
 * The default artifact name:
 * `ghost-inspector-screenshots-<GITHUB_JOB>-<GITHUB_RUN_ATTEMPT>-<hash8>`, where `hash8` is the GitHub
 * context's matrix digest (`src/github.ts`: the step id, `RUNNER_OS`, `RUNNER_ARCH` and an allow-list of
 * non-secret inputs, so matrix legs that pass different targets or variants differ; never a private
 * variable, credential or key). Outside GitHub (no `GITHUB_JOB`) the job part is `local` and the hash is random. Matrix legs with identical inputs on the
 * same OS can still collide: the uploader then adds `-2`, `-3`... on the 409 it gets.
 * @param env environment (default `process.env`), read through {@link readGitHubContext}
 * @returns a name without characters GitHub refuses
 */
function defaultArtifactName(env = process.env) {
    const context = (0,src_github/* readGitHubContext */.L7)(env);
    const job = context.job ? sanitizeSegment(context.job, 80, 'job') : 'local';
    const attempt = context.runAttempt ? sanitizeSegment(context.runAttempt, 10, '1') : '1';
    const hash = context.matrixDigest ?? (0,external_node_crypto_.randomBytes)(4).toString('hex');
    return sanitizeArtifactName(`ghost-inspector-screenshots-${job}-${attempt}-${hash}`);
}
/**
 * Makes a user-given artifact name acceptable to GitHub: illegal characters (`" : < > | * ? \r \n \ /`)
 * become `_`, surrounding white space goes, and the name is cut to {@link MAX_ARTIFACT_NAME_LENGTH}.
 * @throws Error when nothing is left (empty name)
 */
function sanitizeArtifactName(name) {
    const s = name.replace(INVISIBLE, '').replace(ILLEGAL, '_').trim().slice(0, MAX_ARTIFACT_NAME_LENGTH);
    if (!s)
        throw new Error('artifact-name is empty: give a name such as "ghost-inspector-screenshots"');
    return s;
}
/**
 * The name to try after `attempt` clashes: `name` for attempt 1, then `name-2`, `name-3`...
 * @param name base artifact name
 * @param attempt 1-based attempt number
 */
function suffixedName(name, attempt) {
    if (attempt <= 1)
        return name;
    const suffix = `-${attempt}`;
    return `${name.slice(0, MAX_ARTIFACT_NAME_LENGTH - suffix.length)}${suffix}`;
}

// EXTERNAL MODULE: ./src/api/screenshots.ts
var screenshots = __webpack_require__(45309);
;// CONCATENATED MODULE: ./src/artifacts/select.ts
/**
 * Which screenshots of a run to keep: a pure choice over the run model (src/run/types.ts).
 */


/** The values of the `screenshots` input. */
const SCREENSHOT_MODES = (/* unused pure expression or super */ null && (['failed', 'all', 'none']));
/** States whose final screenshot `failed` mode keeps. */
const FAILED_STATES = new Set(['failed', 'error', 'timed-out']);
function hasImage(result) {
    const images = (0,screenshots/* resultImages */.m)(result);
    return !!images.screenshot || !!images.comparison;
}
/** The results of one test run that `mode` keeps, final result first, without duplicates. */
function chosenResults(test, mode) {
    const final = test.result;
    const failedAttempts = test.attempts.filter((a) => a.passing === false);
    const out = [];
    if (mode === 'all') {
        if (final)
            out.push(final);
        if (test.state === 'flaky')
            out.push(...failedAttempts);
    }
    else if (mode === 'failed') {
        if (final && (FAILED_STATES.has(test.state) || final.screenshotComparePassing === false))
            out.push(final);
        // A flaky test passed in the end: its failing attempts show what went wrong.
        if (test.state === 'flaky')
            out.push(...failedAttempts);
        for (const a of test.attempts)
            if (a.screenshotComparePassing === false)
                out.push(a);
    }
    return out;
}
function jobsFor(run, test, result) {
    const jobs = [];
    const base = {
        resultId: result._id,
        suiteName: run.suiteName,
        testName: test.testName || result.name,
        runKey: run.key,
        state: test.state,
    };
    const images = (0,screenshots/* resultImages */.m)(result);
    if (images.screenshot) {
        jobs.push({
            ...base,
            kind: 'screenshot',
            url: images.screenshot.url,
            expectedBytes: images.screenshot.bytes,
            relativePath: screenshotPath(run.suiteName, base.testName, run.variant, result._id, 'screenshot'),
        });
    }
    if (images.comparison) {
        jobs.push({
            ...base,
            kind: 'comparison',
            url: images.comparison.url,
            expectedBytes: images.comparison.bytes,
            relativePath: screenshotPath(run.suiteName, base.testName, run.variant, result._id, 'comparison'),
        });
    }
    return jobs;
}
/**
 * Picks the screenshots to download. Pure.
 *
 * - `none`: nothing.
 * - `all`: the final test result of every test run, plus the failed attempts of flaky tests.
 * - `failed`: final test results in state `failed`, `error` or `timed-out`; the failed attempts of `flaky`
 *   tests; and any test result whose screenshot comparison failed (`screenshotComparePassing === false`),
 *   passing or not.
 *
 * A chosen result yields its final screenshot (`screenshot.original.defaultUrl`) and, when a screenshot
 * comparison exists, the comparison image (`screenshotCompare.compareOriginal.defaultUrl`). Results without
 * a screenshot (still running, cancelled early, visuals disabled) yield nothing. Each test result appears
 * once, even when reached twice. Order: runs, then tests, as in the summary.
 * @param summary the run model
 * @param mode the `screenshots` input
 * @returns jobs with unique `relativePath`s
 */
function selectScreenshots(summary, mode) {
    if (mode === 'none')
        return [];
    const seen = new Set();
    const jobs = [];
    for (const run of summary.runs) {
        for (const test of run.tests) {
            for (const result of chosenResults(test, mode)) {
                if (!hasImage(result))
                    continue;
                if (seen.has(result._id))
                    continue;
                seen.add(result._id);
                jobs.push(...jobsFor(run, test, result));
            }
        }
    }
    return jobs;
}

;// CONCATENATED MODULE: ./src/artifacts/upload.ts
/**
 * Uploads downloaded screenshots as one workflow artifact through `@actions/artifact` 6, or, outside GitHub
 * (no `ACTIONS_RUNTIME_TOKEN`), keeps them in a local folder. See docs/github-platform.md, "Artifacts".
 */






/** True when the error says the artifact name is taken (HTTP 409 / Twirp `already_exists`). */
function isNameClash(error) {
    const message = error instanceof Error ? error.message : String(error);
    return /\(409\)|\b409\b.*conflict|already[_ ]exists/i.test(message);
}
/**
 * `work`, or a rejection `stopped: <why>` as soon as `signal` fires (the work itself cannot be aborted:
 * the artifact client takes no signal; the process ends without waiting for it).
 */
function untilStopped(work, signal) {
    if (!signal)
        return work;
    return new Promise((resolve, reject) => {
        const onAbort = () => reject(new Error(`stopped: ${(0,time_limit/* stopReason */.P)(signal)}`));
        if (signal.aborted)
            onAbort();
        signal.addEventListener('abort', onAbort, { once: true });
        work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
    });
}
/** Errors no retry can fix. */
function isPermanent(error) {
    const name = error instanceof Error ? error.name : '';
    const message = error instanceof Error ? error.message : String(error);
    return (['GHESNotSupportedError', 'UsageError', 'FilesNotFoundError'].includes(name) ||
        /non-retryable|not valid|Unable to get the|invalid and\/or missing claims|does not exist|not a parent/i.test(message));
}
/**
 * The web link of an artifact: the workflow run's page (`src/github.ts`, {@link workflowRunUrl}) +
 * `/artifacts/<id>`. Undefined when `GITHUB_REPOSITORY` or `GITHUB_RUN_ID` is missing. `GITHUB_SERVER_URL`
 * defaults to `https://github.com`.
 * @param id the artifact id
 * @param env environment (default `process.env`), read through {@link readGitHubContext}
 */
function artifactUrl(id, env = process.env) {
    const run = (0,src_github/* workflowRunUrl */.CX)((0,src_github/* readGitHubContext */.L7)(env));
    return run ? `${run}/artifacts/${id}` : undefined;
}
/** Copies files into `artifactsDir` keeping their paths relative to `rootDirectory`, 8 at once. */
async function keepLocally(files, rootDirectory, artifactsDir) {
    const target = external_node_path_default().resolve(artifactsDir);
    const root = external_node_path_default().resolve(rootDirectory);
    await (0,promises_.mkdir)(target, { recursive: true });
    if (target === root)
        return target;
    await runPool(files, 8, async (file) => {
        const dest = external_node_path_default().join(target, external_node_path_default().relative(root, file.path));
        await (0,promises_.mkdir)(external_node_path_default().dirname(dest), { recursive: true });
        await (0,promises_.copyFile)(file.path, dest);
    });
    return target;
}
function describe(error) {
    const text = error instanceof Error ? error.message : String(error);
    return text.split('\n')[0].slice(0, 500);
}
/**
 * Uploads `files` as one artifact, or keeps them locally.
 *
 * - Outside GitHub (`env.ACTIONS_RUNTIME_TOKEN` unset): copies the files into `artifactsDir` (nothing to copy
 *   when it is `rootDirectory`), logs the folder and returns `localDir`.
 * - On GitHub: `DefaultArtifactClient().uploadArtifact(name, files, rootDirectory, {retentionDays,
 *   compressionLevel})`. A 409 name clash tries `name-2`, `name-3`... up to `maxNameAttempts`; a transient
 *   failure (after the client's own retries of 5xx/429) is tried again `attempts - 1` times after
 *   `retryDelayMs`. Returns the artifact id, the name it got and `artifactUrl` (see {@link artifactUrl}).
 * - When the upload fails for good (GHES, storage quota, network...) or `signal` stops it, the files are
 *   copied to `artifactsDir`, a warning says so and `localDir` is set.
 *
 * Never throws for an upload problem and never changes the test verdict; problems land in `warnings` (also
 * sent to `log.warning`). With no files, does nothing.
 * @param files from {@link downloadScreenshots}; every path must lie under `rootDirectory`
 * @param options name, retentionDays (days), rootDirectory, artifactsDir, env, client, log...
 */
async function uploadScreenshots(files, options) {
    const env = options.env ?? process.env;
    const log = options.log;
    const warnings = [];
    const warn = (message) => {
        warnings.push(message);
        log?.warning(message);
    };
    if (files.length === 0)
        return { warnings };
    const keep = async (why) => {
        try {
            const localDir = await keepLocally(files, options.rootDirectory, options.artifactsDir);
            if (why)
                warn(`${why} The ${files.length} screenshot(s) are kept in ${localDir}.`);
            else
                log?.info(`Screenshots (${files.length}) written to ${localDir}`);
            return { localDir, warnings };
        }
        catch (e) {
            warn(`${why} Keeping the screenshots in ${options.artifactsDir} failed too: ${describe(e)}`.trim());
            return { warnings };
        }
    };
    if (!(0,src_github/* readGitHubContext */.L7)(env).artifactService)
        return keep('');
    let base;
    try {
        base = sanitizeArtifactName(options.name);
    }
    catch (e) {
        return keep(`Screenshot artifact not uploaded: ${describe(e)}.`);
    }
    // Loaded on demand: the client and its Azure SDK weigh some 30 MB, needless outside GitHub.
    const client = options.client ?? new (await Promise.all(/* import() */[__webpack_require__.e(351), __webpack_require__.e(645)]).then(__webpack_require__.bind(__webpack_require__, 9645))).DefaultArtifactClient();
    const maxNames = Math.max(1, options.maxNameAttempts ?? 10);
    const attempts = Math.max(1, options.attempts ?? 2);
    const sleep = options.sleep ?? ((ms) => new Promise((r) => setTimeout(r, ms)));
    const paths = files.map((f) => f.path);
    const uploadOptions = { compressionLevel: options.compressionLevel ?? 0 };
    if (options.retentionDays !== undefined && options.retentionDays > 0) {
        uploadOptions.retentionDays = options.retentionDays;
    }
    let lastError;
    for (let n = 1; n <= maxNames; n++) {
        const name = suffixedName(base, n);
        let clash = false;
        for (let attempt = 1; attempt <= attempts; attempt++) {
            try {
                const response = await untilStopped(client.uploadArtifact(name, paths, options.rootDirectory, uploadOptions), options.signal);
                if (response.id === undefined)
                    throw new Error('the artifact service returned no artifact id');
                if (n > 1)
                    log?.info(`Artifact name ${base} was taken; uploaded as ${name}.`);
                return {
                    artifactId: response.id,
                    artifactName: name,
                    artifactUrl: artifactUrl(response.id, env),
                    size: response.size,
                    warnings,
                };
            }
            catch (e) {
                lastError = e;
                if (isNameClash(e)) {
                    clash = true;
                    log?.info(`Artifact name ${name} is taken (409); trying ${suffixedName(base, n + 1)}.`);
                    break;
                }
                if (options.signal?.aborted || isPermanent(e) || attempt === attempts)
                    break;
                log?.info(`Artifact upload failed (${describe(e)}); trying again in ${options.retryDelayMs ?? 2000} ms.`);
                await sleep(options.retryDelayMs ?? 2000);
            }
        }
        if (!clash || options.signal?.aborted)
            break;
    }
    return keep(`Screenshot artifact not uploaded: ${describe(lastError)}.`);
}

;// CONCATENATED MODULE: ./src/artifacts/index.ts
/**
 * Screenshots as workflow artifacts: select (pure) -> download (streams, bounded, retried) -> upload
 * (`@actions/artifact`) or keep in a local folder. Nothing here changes a test verdict.
 */













/** Where a test result's images are, as paths relative to the artifact root (forward slashes). */
/** Time limit of the screenshot downloads, all together, ms. */
const DOWNLOAD_TIME_LIMIT_MS = 120_000;
/** Time limit of the artifact upload, ms. */
const UPLOAD_TIME_LIMIT_MS = 120_000;
/**
 * Selects, downloads and uploads the screenshots of a run.
 *
 * On GitHub (`ACTIONS_RUNTIME_TOKEN` set) images are downloaded under `RUNNER_TEMP` (else the OS temp folder)
 * in a fresh folder and uploaded as one artifact; elsewhere they are downloaded straight into
 * `artifactsDir`, whose path is logged. Missing downloads are listed in one warning and left out of the
 * artifact; upload problems warn and keep the files in `artifactsDir`. The downloads stop after
 * {@link DOWNLOAD_TIME_LIMIT_MS}, the upload after {@link UPLOAD_TIME_LIMIT_MS}, both on `signal`: what is
 * not done then is reported like any other problem. Never throws for a download or upload problem.
 * @param summary the run model
 * @param options mode, artifactName, retentionDays (days), artifactsDir, env, download options, log
 * @throws Error only when no folder can be created for the downloads
 */
async function publishScreenshots(summary, options) {
    const env = options.env ?? process.env;
    const log = options.log;
    const jobs = selectScreenshots(summary, options.mode);
    if (jobs.length === 0)
        return { files: {}, missing: [], warnings: [] };
    const github = (0,src_github/* readGitHubContext */.L7)(env);
    const dir = github.artifactService
        ? external_node_path_default().join(github.runnerTemp || external_node_os_default().tmpdir(), `ghost-inspector-screenshots-${(0,external_node_crypto_.randomBytes)(4).toString('hex')}`)
        : external_node_path_default().resolve(options.artifactsDir);
    log?.info(`Downloading ${jobs.length} screenshot(s)...`);
    const downloaded = await downloadScreenshots(jobs, dir, {
        ...options.download,
        log,
        signal: (0,time_limit/* timeLimited */.g)(options.signal, DOWNLOAD_TIME_LIMIT_MS),
    });
    const warnings = [];
    if (downloaded.missing.length > 0) {
        const list = downloaded.missing.map((m) => `${m.job.relativePath} (${m.reason})`).join('; ');
        const message = `${downloaded.missing.length} of ${jobs.length} screenshot(s) missing: ${list}`;
        const warning = message.length > 3000 ? `${message.slice(0, 3000)}...` : message;
        warnings.push(warning);
        log?.warning(warning);
    }
    const uploaded = await uploadScreenshots(downloaded.files, {
        name: options.artifactName || defaultArtifactName(env),
        retentionDays: options.retentionDays,
        rootDirectory: dir,
        artifactsDir: options.artifactsDir,
        env,
        client: options.client,
        log,
        signal: (0,time_limit/* timeLimited */.g)(options.signal, UPLOAD_TIME_LIMIT_MS),
    });
    warnings.push(...uploaded.warnings);
    const files = {};
    for (const f of downloaded.files) {
        const entry = (files[f.job.resultId] ??= {});
        entry[f.job.kind] = f.job.relativePath;
    }
    return {
        files,
        missing: downloaded.missing,
        artifactId: uploaded.artifactId,
        artifactName: uploaded.artifactName,
        artifactUrl: uploaded.artifactUrl,
        localDir: uploaded.localDir,
        warnings,
    };
}


/***/ })

};
