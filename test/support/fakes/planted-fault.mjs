/**
 * A fault planted into the action's process, loaded before the bundle (`NODE_OPTIONS=--import <this file>`),
 * for the process-boundary tests (`test/e2e/reliability/boundary.test.ts`). `PLANTED_FAULT` says which:
 *
 * - `never-answered-lists`: every GET of a suite result's test results (`/v1/suite-results/<id>/results/`) is
 *   a request that never gets an answer, an error or a close, and ignores its abort and timeout: the engine
 *   waits on a promise that never settles.
 * - `uncaught-error`: an error thrown from a timer 300 ms after the start.
 * - `unhandled-rejection`: a promise rejected 300 ms after the start, with no handler.
 *
 * The action reaches `node:http` through `@actions/http-client` (`httpModule.request(options, callback)`),
 * which reads the module's `request` at each call.
 */
import { EventEmitter } from 'node:events';
import http from 'node:http';
import { syncBuiltinESMExports } from 'node:module';

const fault = process.env.PLANTED_FAULT;

if (fault === 'never-answered-lists') {
  const request = http.request;
  http.request = function plantedRequest(...args) {
    const options = args[0] && typeof args[0] === 'object' && !(args[0] instanceof URL) ? args[0] : {};
    const isRead =
      (options.method ?? 'GET') === 'GET' &&
      /^\/v1\/suite-results\/[^/?]+\/results\/?(\?|$)/.test(options.path ?? '');
    if (!isRead) return request.apply(this, args);
    const never = new EventEmitter();
    return Object.assign(never, {
      setTimeout: () => never,
      setHeader: () => undefined,
      write: () => true,
      end: () => never,
      destroy: () => never,
      abort: () => undefined,
    });
  };
  syncBuiltinESMExports();
} else if (fault === 'uncaught-error') {
  setTimeout(() => {
    throw new Error('planted uncaught error');
  }, 300);
} else if (fault === 'unhandled-rejection') {
  setTimeout(() => void Promise.reject(new Error('planted unhandled rejection')), 300);
}
