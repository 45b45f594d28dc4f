/**
 * Test result routes (docs/api-contract.md, "Endpoints the action calls": get, cancel, comment) and suite result routes (docs/api-contract.md
 * "Endpoints the action calls": get, test results, cancel; the reference omits them; xUnit).
 */
import { iso } from '../util.js';
import { suiteResultXunit } from '../xunit.js';
import { bodyFields, requireString } from './fields.js';
import { ok, type RouteDeps } from './shared.js';

/** Registers the test result routes. */
export function resultRoutes(deps: RouteDeps): void {
  const { store, engine, on, hideWhileNew, readResult } = deps;
  on('GET', '/v1/results/:resultId', (ctx) => {
    const result = store.result(ctx.pathParams.resultId, ctx.auth());
    hideWhileNew('Result', result.dateCreated);
    return ok(readResult(result));
  });
  on('POST', '/v1/results/:resultId/cancel', (ctx) => {
    const result = store.result(ctx.pathParams.resultId, ctx.auth());
    // Cancelling a result that already ended answers it unchanged (docs/api-contract.md, official client's tests).
    engine.cancelResult(result._id);
    return ok(result);
  });
  on('POST', '/v1/results/:resultId/comment', (ctx) => {
    const key = ctx.auth();
    const result = store.result(ctx.pathParams.resultId, key);
    const message = requireString(bodyFields(ctx).message ?? ctx.params.get('message'), 'message');
    result.comments.push(store.newComment(key, message, iso(deps.clock.now())));
    result.commentCount = result.comments.length;
    return ok(result);
  });
}

/** Registers the suite result routes. */
export function suiteResultRoutes(deps: RouteDeps): void {
  const { store, engine, on, page, hideWhileNew, readResult } = deps;
  on('GET', '/v1/suite-results/:suiteResultId', (ctx) => {
    const sr = store.suiteResult(ctx.pathParams.suiteResultId, ctx.auth());
    hideWhileNew('Suite result', sr.dateCreated);
    return ok(sr);
  });
  on('GET', '/v1/suite-results/:suiteResultId/results', (ctx) => {
    const sr = store.suiteResult(ctx.pathParams.suiteResultId, ctx.auth());
    hideWhileNew('Suite result', sr.dateCreated);
    const ids = store.suiteResultMeta.get(sr._id)?.resultIds ?? [];
    return ok(
      page(
        ids.map((id) => readResult(store.results.get(id)!)),
        ctx.params,
      ),
    );
  });
  on('POST', '/v1/suite-results/:suiteResultId/cancel', (ctx) => {
    const sr = store.suiteResult(ctx.pathParams.suiteResultId, ctx.auth());
    engine.cancelSuiteResult(sr._id);
    return ok(sr);
  });
  on('GET', '/v1/suite-results/:suiteResultId/xunit', (ctx) => {
    const sr = store.suiteResult(ctx.pathParams.suiteResultId, ctx.auth());
    const results = (store.suiteResultMeta.get(sr._id)?.resultIds ?? []).map((id) => store.results.get(id)!);
    return { raw: suiteResultXunit(sr, results), contentType: 'application/xml; charset=utf-8' };
  });
}
