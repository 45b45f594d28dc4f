/**
 * Minimal pages of the service's web app on the emulator's origin, so that the app links a client builds
 * (`{appUrl}/results/{id}`, `/suite-results/{id}`, `/suites/{id}`, `/tests/{id}`; docs/api-contract.md,
 * "Resources") open when the app URL is the emulator's origin. No API key: a page names the record and its
 * outcome and links to the related pages; an unknown id answers HTTP 404.
 */
import type { Route } from './server.js';
import type { Store } from './store.js';
import { IMPORT_ONLY_STATUS } from './modules.js';

const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );

const outcome = (passing: boolean | null, status?: number) =>
  status === 8 ? 'cancelled' : passing === true ? 'passed' : passing === false ? 'failed' : 'running';

/** An HTML page answer; `rows` are label/value pairs, `links` label/href pairs. */
function page(title: string, rows: Array<[string, string]>, links: Array<[string, string]> = []) {
  const body = [
    `<h1>${escapeHtml(title)}</h1>`,
    '<dl>',
    ...rows.map(([k, v]) => `<dt>${escapeHtml(k)}</dt><dd>${escapeHtml(v)}</dd>`),
    '</dl>',
    ...links.map(([label, href]) => `<p><a href="${escapeHtml(href)}">${escapeHtml(label)}</a></p>`),
  ].join('\n');
  return {
    raw: `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head><body>\n${body}\n</body></html>`,
    contentType: 'text/html; charset=utf-8',
  };
}

const missing = (what: string) => ({
  ...page(`${what} not found`, []),
  status: 404,
});

/** The web app's page routes, read from `store`. */
export function appPageRoutes(store: Store): Route[] {
  const get = (pattern: string, handler: (id: string) => ReturnType<typeof page>): Route => ({
    methods: ['GET', 'HEAD'],
    pattern,
    handler: (ctx) => handler(ctx.pathParams.id),
  });
  return [
    get('/results/:id', (id) => {
      const r = store.results.get(id);
      if (!r) return missing('Result');
      return page(
        `Test result: ${r.name}`,
        [
          ['Outcome', outcome(r.passing, r.status)],
          ['Browser', r.browser ?? ''],
          ['Start URL', r.startUrl],
          ['Created', r.dateCreated],
          ['Finished', r.dateExecutionFinished ?? ''],
        ],
        [
          ...(r.test ? [['Test', `/tests/${r.test._id}`] as [string, string]] : []),
          ...(r.suiteResult ? [['Suite result', `/suite-results/${r.suiteResult}`] as [string, string]] : []),
        ],
      );
    }),
    get('/suite-results/:id', (id) => {
      const sr = store.suiteResults.get(id);
      if (!sr) return missing('Suite result');
      const ids = store.suiteResultMeta.get(id)?.resultIds ?? [];
      return page(
        `Suite result: ${sr.name}`,
        [
          ['Outcome', outcome(sr.passing, sr.status)],
          ['Passing', String(sr.countPassing)],
          ['Failing', String(sr.countFailing)],
          ['Created', sr.dateCreated],
        ],
        [
          ['Suite', `/suites/${sr.suite._id}`],
          ...ids.map((r): [string, string] => [store.results.get(r)?.name ?? r, `/results/${r}`]),
        ],
      );
    }),
    get('/suites/:id', (id) => {
      const s = store.suites.get(id);
      if (!s) return missing('Suite');
      return page(
        `Suite: ${s.name}`,
        [['Start URL', s.startUrl]],
        store.testsOf(id).map((t): [string, string] => [t.name, `/tests/${t._id}`]),
      );
    }),
    get('/tests/:id', (id) => {
      const t = store.tests.get(id);
      if (!t) return missing('Test');
      return page(
        `Test: ${t.name}`,
        [
          ['Start URL', t.startUrl],
          ['Last outcome', t.importOnly ? IMPORT_ONLY_STATUS : outcome(t.passing)],
        ],
        [['Suite', `/suites/${t.suite}`]],
      );
    }),
  ];
}
