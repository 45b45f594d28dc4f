export const id = 554;
export const ids = [554];
export const modules = {

/***/ 16554:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {


// EXPORTS
__webpack_require__.d(__webpack_exports__, {
  publishScreenshots: () => (/* binding */ publishScreenshots)
});

// UNUSED EXPORTS: MAX_FILE_NAME_BYTES, artifactUrl, defaultArtifactName, displayUrl, downloadScreenshots, fileVariantLabel, isNameClash, sanitizeArtifactName, sanitizeSegment, screenshotPath, selectScreenshots, suffixedName, truncateUtf8, uploadScreenshots

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
// EXTERNAL MODULE: ./src/api/backoff.ts
var backoff = __webpack_require__(50304);
// EXTERNAL MODULE: ./src/api/http.ts
var http = __webpack_require__(55330);
// EXTERNAL MODULE: ./src/common/clock.ts
var clock = __webpack_require__(39987);
// EXTERNAL MODULE: external "node:stream"
var external_node_stream_ = __webpack_require__(57075);
;// CONCATENATED MODULE: ./src/artifacts/image-guard.ts
/** What a screenshot download accepts (scheme, redirects, size, a PNG or JPEG body), checked before saving. */

/** Largest screenshot kept, bytes (20 MiB); a larger one is refused while it streams. */
const MAX_SCREENSHOT_BYTES = 20 * 1024 * 1024;
const MAX_REDIRECTS = 3;
/** A download refused by a check: not retried, reported as the screenshot's reason. */
class RefusedDownload extends Error {
    constructor(message) {
        super(message);
        this.name = 'RefusedDownload';
    }
}
/**
 * Throws RefusedDownload naming the scheme unless `url` is `https` (or `http` when `allowHttp`) and not a
 * redirect (`from` set) from `https` to `http`. Any host may serve a screenshot: no credential is sent.
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
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
/** A PNG's first chunk: IHDR, 13 bytes long (PNG specification, 5.3 and 5.6: "IHDR shall be first"). */
const PNG_FIRST_CHUNK = Buffer.from([0x00, 0x00, 0x00, 0x0d, 0x49, 0x48, 0x44, 0x52]);
/** A JPEG's start of image, then the 0xFF of the next marker (ITU-T T.81, B.1.1.3 and B.2.1). */
const JPEG_START = Buffer.from([0xff, 0xd8, 0xff]);
/** Bytes read before a body is judged: a PNG's signature and its first chunk's length and type. */
const HEAD_BYTES = 16;
/** PNG signature then IHDR, or JPEG start then a marker 0xC0–0xFE: a signature then an HTML page is no image. */
function isImage(head) {
    if (head.subarray(0, 8).equals(PNG_SIGNATURE))
        return head.subarray(8, 16).equals(PNG_FIRST_CHUNK);
    const marker = head[3] ?? 0;
    return head.subarray(0, 3).equals(JPEG_START) && marker >= 0xc0 && marker <= 0xfe;
}
/**
 * A pass-through stream failing with RefusedDownload on a body over `maxBytes` (as soon as it passes the cap),
 * or not starting like a PNG or JPEG, or shorter than {@link HEAD_BYTES} (before its first byte passes on).
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
            if (head.length < HEAD_BYTES)
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
            // An empty body passes: the caller retries it. No PNG or JPEG is shorter than its head.
            if (head.length === 0)
                return done(null, head);
            done(new RefusedDownload(`not a PNG or JPEG image (${head.length} bytes)`));
        },
    });
}

;// CONCATENATED MODULE: ./src/artifacts/download.ts










/** Longest `Retry-After` honoured, ms: below the API client's, a missing screenshot is not fatal. */
const MAX_RETRY_AFTER_MS = 30_000;
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
/** One header of an answer (the first, when sent twice). */
function header(answer, name) {
    const value = answer.headers[name];
    return Array.isArray(value) ? value[0] : value;
}
/**
 * One attempt: GET `url` (redirects checked), its body streamed through the image guard into `tmp`; the bytes saved.
 * @throws AttemptError on any failure (retryable for 5xx, 408, 429, timeouts and network errors)
 */
async function attemptDownload(url, tmp, rules) {
    // Ends the deadline's timer and whatever of the request is still open, once the attempt is over.
    const done = new AbortController();
    const deadline = (0,clock/* timeoutSignal */._)(clock/* systemClock */.ml, rules.timeoutMs, done.signal);
    const signal = AbortSignal.any([deadline, done.signal, ...(rules.signal ? [rules.signal] : [])]);
    try {
        let response;
        for (let hop = 0, current = url;; hop++) {
            checkImageUrl(current, rules.allowHttp, hop > 0 ? url : undefined);
            response = await (0,http/* openHttp */.fb)({
                method: 'GET',
                url: current,
                headers: { accept: 'image/png,image/*;q=0.9,*/*;q=0.5', 'user-agent': 'ghost-inspector-action' },
                signal,
                socketTimeoutMs: rules.timeoutMs + 1000,
            });
            const location = header(response, 'location');
            if (response.status < 300 || response.status >= 400 || !location)
                break;
            response.body.destroy();
            if (hop >= MAX_REDIRECTS)
                throw new RefusedDownload(`more than ${MAX_REDIRECTS} redirects`);
            current = new URL(location, current).href;
        }
        const { status } = response;
        if (status < 200 || status > 299) {
            response.body.destroy();
            const retryable = status >= 500 || status === 429 || status === 408;
            const retryAfter = header(response, 'retry-after');
            const waitMs = retryable ? (0,backoff/* parseRetryAfter */.mu)(retryAfter, Date.now(), MAX_RETRY_AFTER_MS) : undefined;
            throw new AttemptError(`HTTP ${status}`, retryable, waitMs);
        }
        if (Number(header(response, 'content-length')) > rules.maxBytes) {
            response.body.destroy();
            throw new RefusedDownload(`larger than ${Math.round(rules.maxBytes / 1024 / 1024)} MiB`);
        }
        const out = (0,external_node_fs_.createWriteStream)(tmp);
        await (0,external_node_stream_promises_.pipeline)(response.body, imageGuard(rules.maxBytes), out);
        if (out.bytesWritten === 0)
            throw new AttemptError('empty body', true);
        return out.bytesWritten;
    }
    catch (e) {
        if (e instanceof AttemptError)
            throw e;
        if (e instanceof RefusedDownload)
            throw new AttemptError(e.message, false);
        if (rules.signal?.aborted)
            throw new AttemptError(`stopped: ${(0,time_limit/* stopReason */.PJ)(rules.signal)}`, false);
        if (deadline.aborted)
            throw new AttemptError(`no complete answer within ${rules.timeoutMs} ms`, true);
        const err = e;
        const code = err.cause?.code ?? err.code;
        if (code && /^E[A-Z]+$/.test(code)) {
            throw new AttemptError(`error ${code}`, code !== 'ENOSPC');
        }
        throw new AttemptError(String(err.message).replace(/https?:\/\/\S+/g, displayUrl), false);
    }
    finally {
        done.abort();
    }
}
/**
 * Streams screenshots to `dir/<job.relativePath>` (`dir` absolute) through a `.part` file renamed when
 * complete. Every job ends in `files` or in `missing` (with a reason), in the order of `jobs`.
 * @throws Error only when `dir` cannot be created
 */
async function downloadScreenshots(jobs, dir, options = {}) {
    const concurrency = Math.max(1, Math.floor(options.concurrency ?? 4));
    const retries = Math.max(0, Math.floor(options.retries ?? 3));
    const baseMs = Math.max(0, options.backoffMs ?? 500);
    const signal = options.signal;
    const sleep = options.sleep ?? ((ms) => clock/* systemClock */.ml.sleep(ms, signal));
    const redact = options.redact ?? ((s) => s);
    const log = options.log;
    const rules = {
        timeoutMs: Math.max(1, options.timeoutMs ?? 30_000),
        allowHttp: options.allowHttp ?? false,
        maxBytes: options.maxBytes ?? MAX_SCREENSHOT_BYTES,
        ...(signal ? { signal } : {}),
    };
    await (0,promises_.mkdir)(dir, { recursive: true });
    const one = async (job) => {
        const target = external_node_path_default().join(dir, ...job.relativePath.split('/'));
        const tmp = `${target}.part`;
        for (let attempt = 1;; attempt++) {
            try {
                await (0,promises_.mkdir)(external_node_path_default().dirname(target), { recursive: true });
                const bytes = await attemptDownload(job.url, tmp, rules);
                await (0,promises_.rename)(tmp, target);
                log?.debug?.(`Downloaded ${job.relativePath} (${bytes} bytes, attempt ${attempt})`);
                return { job, path: target, bytes, attempts: attempt };
            }
            catch (e) {
                await (0,promises_.rm)(tmp, { force: true }).catch(() => undefined);
                const err = e instanceof AttemptError ? e : new AttemptError(String(e.message), false);
                if (!err.retryable || attempt > retries) {
                    const reason = redact(`${err.message} (${displayUrl(job.url)})`);
                    log?.info(`Screenshot not downloaded: ${job.relativePath}: ${reason}`);
                    return { job, reason, cause: redact(err.message) };
                }
                const wait = err.retryAfterMs ?? (0,backoff/* backoffMs */.jo)(attempt - 1, Math.random, { baseMs });
                log?.debug?.(redact(`Screenshot ${displayUrl(job.url)}: ${err.message}; retry ${attempt} of ${retries} in ${wait} ms`));
                await sleep(wait);
            }
        }
    };
    const limit = (0,p_limit/* default */.A)(concurrency);
    const outcomes = await Promise.all(jobs.map((job) => limit(() => one(job))));
    return {
        files: outcomes.filter((o) => 'path' in o),
        missing: outcomes.filter((o) => 'reason' in o),
    };
}

// EXTERNAL MODULE: ./src/report/console.ts + 1 modules
var console = __webpack_require__(63352);
;// CONCATENATED MODULE: ./src/artifacts/names.ts
/** Screenshot and artifact names that GitHub and every file system accept (docs/api-contract.md, "Artifacts"). */



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
/** Cuts `text` to at most `maxBytes` UTF-8 bytes without splitting a character. */
function truncateUtf8(text, maxBytes) {
    // A streaming decode holds back the bytes of a character cut in two.
    return new TextDecoder().decode(Buffer.from(text, 'utf8').subarray(0, maxBytes), { stream: true });
}
/** `text` as one path segment every file system accepts, ≤ `maxBytes` UTF-8 bytes; `fallback` when empty. */
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
/** The variant part of a screenshot's file name (`chrome, us-east-1, row 3`); empty when nothing varied. */
function fileVariantLabel(variant) {
    return (0,console/* variantParts */.cN)(variant, false).join(', ');
}
/**
 * A screenshot's path inside the artifact: `<suite>/<test> [<variant>]-<resultId>.png` (`-comparison.png`
 * for the comparison image). Test name and variant are shortened first so the result id always survives.
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
 * The default artifact name, `ghost-inspector-screenshots-<job>-<attempt>-<hash8>`; `hash8` is the matrix
 * digest (src/github.ts), random outside GitHub. Clashes left are resolved by the uploader (`-2`, `-3`...).
 */
function defaultArtifactName(env = process.env) {
    const context = (0,src_github/* readGitHubContext */.L7)(env);
    const job = context.job ? sanitizeSegment(context.job, 80, 'job') : 'local';
    const attempt = context.runAttempt ? sanitizeSegment(context.runAttempt, 10, '1') : '1';
    const hash = context.matrixDigest ?? (0,external_node_crypto_.randomBytes)(4).toString('hex');
    return sanitizeArtifactName(`ghost-inspector-screenshots-${job}-${attempt}-${hash}`);
}
/** `name` with the characters GitHub refuses as `_`, cut to length; throws Error when nothing is left. */
function sanitizeArtifactName(name) {
    const s = name.replace(INVISIBLE, '').replace(ILLEGAL, '_').trim().slice(0, MAX_ARTIFACT_NAME_LENGTH);
    if (!s)
        throw new Error('artifact-name is empty: give a name such as "ghost-inspector-screenshots"');
    return s;
}
/** The name for 1-based `attempt`: `name`, then `name-2`, `name-3`... */
function suffixedName(name, attempt) {
    if (attempt <= 1)
        return name;
    const suffix = `-${attempt}`;
    return `${name.slice(0, MAX_ARTIFACT_NAME_LENGTH - suffix.length)}${suffix}`;
}

// EXTERNAL MODULE: ./src/api/screenshots.ts
var screenshots = __webpack_require__(45309);
;// CONCATENATED MODULE: ./src/artifacts/select.ts
/** Which screenshots of a run to keep: a pure choice over the run model. */


/** States whose final screenshot `failed` mode keeps. */
const FAILED_STATES = new Set(['failed', 'error', 'timed-out']);
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
    const images = (0,screenshots/* resultImages */.m)(result);
    const testName = test.testName || result.name;
    return ['screenshot', 'comparison'].flatMap((kind) => {
        const image = images[kind];
        if (!image)
            return [];
        const relativePath = screenshotPath(run.suiteName, testName, run.variant, result._id, kind);
        return [{ resultId: result._id, kind, url: image.url, relativePath, state: test.state }];
    });
}
/**
 * The screenshots to download, unique `relativePath`s in summary order: for `failed`, failed/error/timed-out
 * results, failed attempts of flaky tests and failed screenshot comparisons; for `all`, every final result too.
 */
function selectScreenshots(summary, mode) {
    if (mode === 'none')
        return [];
    const seen = new Set();
    const jobs = [];
    for (const run of summary.runs) {
        for (const test of run.tests) {
            for (const result of chosenResults(test, mode)) {
                const images = jobsFor(run, test, result);
                if (images.length === 0 || seen.has(result._id))
                    continue;
                seen.add(result._id);
                jobs.push(...images);
            }
        }
    }
    return jobs;
}

// EXTERNAL MODULE: ./src/common/log.ts
var log = __webpack_require__(81095);
;// CONCATENATED MODULE: ./src/artifacts/upload.ts







/** Names tried before giving up on 409 clashes. */
const MAX_NAMES = 10;
/** Wait between two tries of one name, ms. */
const RETRY_DELAY_MS = 2000;
/** True when the error says the artifact name is taken (HTTP 409 / Twirp `already_exists`). */
function isNameClash(error) {
    return /\(409\)|\b409\b.*conflict|already[_ ]exists/i.test((0,log/* messageOf */.bD)(error));
}
/** `work()`, or `stopped: <why>` once `signal` fires (not started if fired): the client takes no signal. */
function untilStopped(work, signal) {
    if (!signal)
        return work();
    return new Promise((resolve, reject) => {
        const onAbort = () => reject(new Error(`stopped: ${(0,time_limit/* stopReason */.PJ)(signal)}`));
        if (signal.aborted)
            return onAbort();
        signal.addEventListener('abort', onAbort, { once: true });
        work()
            .then(resolve, reject)
            .finally(() => signal.removeEventListener('abort', onAbort));
    });
}
function isPermanent(error) {
    const name = error instanceof Error ? error.name : '';
    const message = (0,log/* messageOf */.bD)(error);
    return (['GHESNotSupportedError', 'UsageError', 'FilesNotFoundError'].includes(name) ||
        /non-retryable|not valid|Unable to get the|invalid and\/or missing claims|does not exist|not a parent/i.test(message));
}
/** The web link of artifact `id`: the workflow run's page + `/artifacts/<id>`; undefined outside a run. */
function artifactUrl(id, env = process.env) {
    const run = (0,src_github/* workflowRunUrl */.CX)((0,src_github/* readGitHubContext */.L7)(env));
    return run ? `${run}/artifacts/${id}` : undefined;
}
function describe(error) {
    return (0,log/* messageOf */.bD)(error).split('\n')[0].slice(0, 500);
}
/**
 * Uploads `files` (all that `rootDirectory` holds) as one artifact through `@actions/artifact`; outside GitHub
 * (no `ACTIONS_RUNTIME_TOKEN`), on GitHub Enterprise Server (not attempted: one warning naming the reason and
 * the folder), or when the upload fails for good or is stopped, keeps them in `artifactsDir` (`localDir`).
 * Never throws: problems land in `warnings`. Docs: docs/api-contract.md, "Artifacts".
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
    /** Keeps the files in `artifactsDir`, warning `why` (if any), the folder, then `then` (if any). */
    const keep = async (why, then = '') => {
        const localDir = external_node_path_default().resolve(options.artifactsDir);
        try {
            // Outside GitHub and on GitHub Enterprise Server the files were downloaded there.
            if (localDir !== external_node_path_default().resolve(options.rootDirectory)) {
                await (0,promises_.cp)(options.rootDirectory, localDir, { recursive: true });
            }
            if (why)
                warn(`${why} The ${files.length} screenshot(s) are kept in ${localDir}${then}.`);
            else
                log?.info(`Screenshots (${files.length}) written to ${localDir}`);
            return { localDir, warnings };
        }
        catch (e) {
            warn(`${why} Keeping the screenshots in ${options.artifactsDir} failed too: ${describe(e)}`.trim());
            return { warnings };
        }
    };
    const github = (0,src_github/* readGitHubContext */.L7)(env);
    if (!github.artifactService)
        return keep('');
    if (github.enterpriseServer) {
        return keep(`Screenshot artifact not uploaded: ${github.serverUrl} is GitHub Enterprise Server, whose artifact service the artifact client (@actions/artifact v2 and later) does not support.`, `; upload that folder with actions/upload-artifact@v3 (README, "Versions")`);
    }
    let base;
    try {
        base = sanitizeArtifactName(options.name);
    }
    catch (e) {
        return keep(`Screenshot artifact not uploaded: ${describe(e)}.`);
    }
    // Loaded on demand: the client and its Azure SDK are large and needless outside GitHub.
    const client = options.client ?? new (await Promise.all(/* import() */[__webpack_require__.e(351), __webpack_require__.e(645)]).then(__webpack_require__.bind(__webpack_require__, 9645))).DefaultArtifactClient();
    const attempts = Math.max(1, options.attempts ?? 2);
    const sleep = options.sleep ?? ((ms) => clock/* systemClock */.ml.sleep(ms));
    const paths = files.map((f) => f.path);
    // No compression: PNG is compressed already.
    const uploadOptions = { compressionLevel: 0 };
    if (options.retentionDays !== undefined && options.retentionDays > 0) {
        uploadOptions.retentionDays = options.retentionDays;
    }
    let lastError;
    for (let n = 1; n <= MAX_NAMES; n++) {
        const name = suffixedName(base, n);
        let clash = false;
        for (let attempt = 1; attempt <= attempts; attempt++) {
            try {
                const response = await untilStopped(() => client.uploadArtifact(name, paths, options.rootDirectory, uploadOptions), options.signal);
                if (response.id === undefined)
                    throw new Error('the artifact service returned no artifact id');
                if (n > 1)
                    log?.info(`Artifact name ${base} was taken; uploaded as ${name}.`);
                return {
                    artifactId: response.id,
                    artifactName: name,
                    artifactUrl: artifactUrl(response.id, env),
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
                log?.info(`Artifact upload failed (${describe(e)}); trying again in ${RETRY_DELAY_MS} ms.`);
                await sleep(RETRY_DELAY_MS);
            }
        }
        if (!clash || options.signal?.aborted)
            break;
    }
    return keep(`Screenshot artifact not uploaded: ${describe(lastError)}.`);
}

;// CONCATENATED MODULE: ./src/artifacts/index.ts
/** Screenshots as workflow artifacts: select -> download -> upload, or keep in a local folder. */













/** Time limit of the screenshot downloads, all together, ms: at least this... */
const DOWNLOAD_TIME_LIMIT_MS = 120_000;
/** ...and this much a screenshot, ms: 4 at once from a host that takes 0.4 s each. */
const DOWNLOAD_MS_PER_SCREENSHOT = 100;
/** Time limit of the downloads of `count` screenshots, all together, ms (docs/reports.md, "Screenshots"). */
function downloadTimeLimitMs(count) {
    return Math.max(DOWNLOAD_TIME_LIMIT_MS, count * DOWNLOAD_MS_PER_SCREENSHOT);
}
/** Time limit of the artifact upload, ms. */
const UPLOAD_TIME_LIMIT_MS = 120_000;
/**
 * Selects, downloads and uploads the screenshots of a run (outside GitHub: into `artifactsDir`), each stage
 * within its time limit; problems warn.
 * @throws Error only when no folder can be created for the downloads
 */
async function publishScreenshots(summary, options) {
    const env = options.env ?? process.env;
    const log = options.log;
    const jobs = selectScreenshots(summary, options.mode);
    if (jobs.length === 0)
        return { files: {}, missing: [], warnings: [] };
    const github = (0,src_github/* readGitHubContext */.L7)(env);
    // On GitHub Enterprise Server nothing is uploaded: the files go straight where they are kept.
    const dir = github.artifactService && !github.enterpriseServer
        ? external_node_path_default().join(github.runnerTemp || external_node_os_default().tmpdir(), `ghost-inspector-screenshots-${(0,external_node_crypto_.randomBytes)(4).toString('hex')}`)
        : external_node_path_default().resolve(options.artifactsDir);
    log?.info(`Downloading ${jobs.length} screenshot(s)...`);
    const downloaded = await (0,time_limit/* withinTimeLimit */.A0)(options.signal, downloadTimeLimitMs(jobs.length), (signal) => downloadScreenshots(jobs, dir, { ...options.download, log, signal }), options.clock);
    const warnings = [];
    if (downloaded.missing.length > 0) {
        warnings.push(missingWarning(downloaded.missing, jobs.length));
        log?.warning(warnings[0]);
    }
    const uploaded = await (0,time_limit/* withinTimeLimit */.A0)(options.signal, UPLOAD_TIME_LIMIT_MS, (signal) => uploadScreenshots(downloaded.files, {
        name: options.artifactName || defaultArtifactName(env),
        retentionDays: options.retentionDays,
        rootDirectory: dir,
        artifactsDir: options.artifactsDir,
        env,
        client: options.client,
        log,
        signal,
    }), options.clock);
    const files = {};
    for (const f of downloaded.files) {
        const entry = (files[f.job.resultId] ??= {});
        entry[f.job.kind] = f.job.relativePath;
    }
    return { ...uploaded, files, missing: downloaded.missing, warnings: [...warnings, ...uploaded.warnings] };
}
/**
 * The warning about screenshots not downloaded: how many of `total`, how many for each cause, then each
 * one with its reason; cut to about 3,000 characters.
 */
function missingWarning(missing, total) {
    const causes = new Map();
    for (const m of missing)
        causes.set(m.cause, (causes.get(m.cause) ?? 0) + 1);
    const why = [...causes].map(([cause, n]) => `${n} ${cause}`).join(', ');
    const list = missing.map((m) => `${m.job.relativePath} (${m.reason})`).join('; ');
    const message = `${missing.length} of ${total} screenshot(s) not downloaded (${why}): ${list}`;
    return message.length > 3000 ? `${message.slice(0, 3000)}...` : message;
}


/***/ })

};
