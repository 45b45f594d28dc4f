/**
 * Answers of the wrong shape over HTTP on 127.0.0.1: `data: null` or a list where one record belongs, a
 * record or an item without `_id` where a list belongs. Each is a named `UNEXPECTED_SHAPE` error (endpoint,
 * what was expected, what came), told to `onUnexpectedShape`, and not retried.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../../../src/api/client.js';
import type { GhostInspectorApi } from '../../../src/api/api.js';
import { isUnexpectedShape } from '../../../src/api/errors.js';
import type { FakeServer } from '../../support/fake-server.js';
import { caught, ok, startFakeServer } from '../../support/fake-server.js';

const KEY = 'key-shape-654';

describe('answers of the wrong shape', () => {
  let server: FakeServer;
  let api: GhostInspectorApi;
  const told: string[] = [];
  beforeAll(async () => {
    server = await startFakeServer();
    api = createClient({
      apiKey: KEY,
      baseUrl: server.baseUrl,
      onUnexpectedShape: (message) => told.push(message),
    });
  });
  afterAll(() => server.close());

  it('data null where a suite result belongs: named, told, asked once', async () => {
    server.route('GET', '/v1/suite-results/sr1/', ok(null));
    const err = await caught(api.getSuiteResult('sr1'));
    expect(isUnexpectedShape(err)).toBe(true);
    expect(err.attempts).toBe(1);
    expect(err.message).toBe(
      `GET /v1/suite-results/sr1/?apiKey=***: the answer's data is null where one record (an object with an "_id") was expected (HTTP 200).`,
    );
    expect(told).toContain(err.message);
    expect(server.requests.filter((r) => r.path === '/v1/suite-results/sr1/')).toHaveLength(1);
  });

  it('a list where one test result belongs', async () => {
    server.route('GET', '/v1/results/r1/', ok([{ _id: 'a' }, { _id: 'b' }]));
    const err = await caught(api.getTestResult('r1'));
    expect(err.message).toMatch(/data is a list of 2 where one record .* was expected/);
  });

  it("a record, or an item without _id, where a suite result's list of test results belongs", async () => {
    server.route('GET', '/v1/suite-results/sr2/results/', ok({ _id: 'x' }));
    expect((await caught(api.listSuiteResultTestResults('sr2'))).message).toMatch(
      /data is an object without an "_id"|data is .* where a list of records/,
    );
    server.route('GET', '/v1/suite-results/sr3/results/', ok([{ _id: 'a' }, 'b']));
    expect((await caught(api.listSuiteResultTestResults('sr3'))).message).toMatch(
      /a list with an item that is not a record \(a string\) where a list of records/,
    );
  });

  it('the right shapes pass', async () => {
    server.route('GET', '/v1/suite-results/sr4/', ok({ _id: 'sr4', passing: true }));
    server.route('GET', '/v1/suite-results/sr4/results/', ok([]));
    expect((await api.getSuiteResult('sr4'))._id).toBe('sr4');
    expect(await api.listSuiteResultTestResults('sr4')).toEqual([]);
  });
});
