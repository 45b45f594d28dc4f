/**
 * Redaction: the pure helpers, and a failing session over HTTP on 127.0.0.1 (errors, retries, echoes of
 * the request in error bodies) whose every captured text (log lines, onRequest URLs, error messages,
 * stacks, fields, inspection) is searched for the API key, the HTTP auth password and a private variable
 * value, in raw, URL-encoded and JSON-escaped forms.
 */
import { inspect } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestClient } from '../../support/api/client.js';
import { ApiError } from '../../../src/api/errors.js';
import {
  createRedactor,
  isRedactable,
  MIN_REDACTED_LENGTH,
  redactUrl,
  withoutQuery,
} from '../../../src/api/redact.js';
import type { FakeServer } from '../../support/fake-server.js';
import { closedPort, startFakeServer } from '../../support/fake-server.js';

describe('createRedactor', () => {
  it('replaces every secret, its URL-encoded and JSON-escaped forms, longest first', () => {
    const redact = createRedactor(['p@ss word/1', 'abcd', '', 'abcdefgh']);
    expect(redact('x p@ss word/1 y')).toBe('x *** y');
    expect(redact('q=p%40ss%20word%2F1&r=p%40ss+word%2F1')).toBe('q=***&r=***');
    expect(redact('abcdefgh abcd')).toBe('*** ***');
    expect(createRedactor(['say "hi"\n'])('{"v":"say \\"hi\\"\\n"}')).toBe('{"v":"***"}');
  });

  it('leaves secrets shorter than MIN_REDACTED_LENGTH alone, and ignores empty ones', () => {
    expect(MIN_REDACTED_LENGTH).toBe(4);
    expect(isRedactable('abc')).toBe(false);
    expect(createRedactor(['ab', '1'])('tab ab 1 10')).toBe('tab ab 1 10');
    expect(createRedactor(['abcd'])('xabcdx abcd')).toBe('x***x ***');
    expect(createRedactor(['', undefined, null])('nothing to hide')).toBe('nothing to hide');
  });

  it('never rewrites ids, UUIDs or timestamps that merely contain a secret', () => {
    const redact = createRedactor(['1e31', '2026', 'beef']);
    const line =
      'result 000000000000000000001e31 at 2026-01-02T03:04:05.678Z, uuid 0000beef-0000-4000-8000-000000000000';
    expect(redact(line)).toBe(line);
    expect(redact('year 2026 then 1e31 and beef')).toBe('year *** then *** and ***');
    // A secret that is a whole id is still hidden.
    expect(createRedactor(['000000000000000000001e31'])('id 000000000000000000001e31')).toBe('id ***');
  });

  it('a secret reaching over the edge of an id or timestamp is replaced, the id with it', () => {
    const redact = createRedactor(['pw-5a1b2c', '93a4b5-pw']);
    expect(redact('id pw-5a1b2c3d4e5f60718293a4b5 .')).toBe('id ***3d4e5f60718293a4b5 .');
    expect(redact('id 5a1b2c3d4e5f60718293a4b5-pw .')).toBe('id 5a1b2c3d4e5f607182*** .');
  });

  it('hides overlapping, nested or touching secrets as one and removes URL credentials too', () => {
    expect(createRedactor(['abcd', 'cdef'])('xabcdefx')).toBe('x***x');
    expect(createRedactor(['abcd', 'efgh'])('xabcdefghx abcd')).toBe('x***x ***');
    expect(createRedactor(['bcde', 'abcdefgh'])('xabcdefghx')).toBe('x***x');
    expect(createRedactor(['s3cret-pw'])('open https://qa:s3cret-pw@host/?apiKey=k1 now')).toBe(
      'open https://***@host/?apiKey=*** now',
    );
  });
});

describe('base64 and HTML-escaped forms', () => {
  const secret = 'Zq9<Secret&77';
  const redact = createRedactor([secret]);

  it('a secret base64-encoded at any of the 3 alignments, padded or not, URL-safe or not, is replaced', () => {
    for (const before of ['', 'u', 'us', 'user:']) {
      for (const after of ['', '\n', ':x']) {
        const encoded = Buffer.from(`${before}${secret}${after}`).toString('base64');
        for (const form of [
          encoded,
          encoded.replace(/=+$/, ''),
          Buffer.from(`${before}${secret}${after}`).toString('base64url'),
        ]) {
          const out = redact(`Authorization: Basic ${form}.`);
          expect(out, `${before}|${after}|${form}`).toContain('***');
          // What stays of the encoded text cannot be decoded back to the secret or most of it.
          const kept = out
            .replace(/^Authorization: Basic |\.$/g, '')
            .split('***')
            .join('');
          expect(Buffer.from(kept, 'base64').toString('latin1')).not.toContain(secret.slice(2, -2));
        }
      }
    }
  });

  it('a secret HTML-escaped (every spelling of the apostrophe) is replaced', () => {
    expect(redact('<td>Zq9&lt;Secret&amp;77</td>')).toBe('<td>***</td>');
    const quoted = createRedactor(['it\'s-"pw"']);
    for (const apostrophe of ['&#39;', '&#x27;', '&apos;'])
      expect(quoted(`v=it${apostrophe}s-&quot;pw&quot;;`)).toBe('v=***;');
  });

  it('a base64 form is exactly the digits that hold only the secret, whatever follows it', () => {
    for (const word of ['abcdef', 'abcdefg', 'abcdefgh']) {
      const hide = createRedactor([word]);
      for (const before of ['', 'u', 'us']) {
        const bytes = Buffer.from(`${before}${word}`);
        // From the first 3-byte group it fills to the last digit it fills: the digits shared with others stay.
        const alone = bytes.toString('base64');
        const whole = Math.floor((bytes.length * 8) / 6);
        const start = Math.ceil(before.length / 3) * 4;
        expect(hide(alone), `${before}${word}`).toBe(`${alone.slice(0, start)}***${alone.slice(whole)}`);
        // Followed by other bytes: the secret's digits are still found.
        expect(hide(Buffer.from(`${before}${word}~~~`).toString('base64'))).toContain('***');
      }
    }
  });

  it("a secret's short base64 tail does not damage ordinary text", () => {
    // "cd", the last two bytes of the secret, are "Y2" in base64.
    expect(createRedactor(['abcd'])('Y2K, Y2 and Ym are words')).toBe('Y2K, Y2 and Ym are words');
  });

  it('a secret holding angle brackets is replaced HTML-escaped', () => {
    expect(createRedactor(['a>b<c-pw'])('<td>a&gt;b&lt;c-pw</td>')).toBe('<td>***</td>');
  });

  it('ordinary text, ids and timestamps are left alone', () => {
    const line = 'result 5a1b2c3d4e5f60718293a4b5 at 2026-01-02T03:04:05Z: Element not found';
    expect(redact(line)).toBe(line);
  });
});

describe('a secret split or in another letter case', () => {
  const secret = 'Tok3n-Value.9';
  const redact = createRedactor([secret]);

  it('upper- or lower-cased, split by line breaks or by invisible characters, is replaced', () => {
    for (const form of [
      secret.toUpperCase(),
      secret.toLowerCase(),
      'Tok3n-Va\nlue.9',
      'Tok3n-Va\r\nlue.9',
      'T\nok3n-Valu\ne.9',
      'Tok\u200B3n-Value.9',
      'Tok3n\u200B\u200D-Val\u00ADue\uFEFF.9',
      'TOK3N-\nVALUE\u200B.9',
    ]) {
      expect(redact(`before ${form} after`), JSON.stringify(form)).toBe('before *** after');
    }
  });

  it('split by a visible character, or cut short, stays (not covered)', () => {
    for (const form of ['Tok3n Value.9', 'Tok3n-Value', 'Tok3n\t-Value.9']) {
      expect(redact(form)).toBe(form);
    }
  });

  it('a secret with regular-expression characters is matched literally', () => {
    const special = createRedactor(['a.b*c+d?(e)[f]{g}|h/i\\j^k$']);
    expect(special('x a.b*c+d?(e)[f]{g}|h/i\\j^k$ y')).toBe('x *** y');
    expect(special('x a.b*c+d?(e)[f]{g}|h/i\\j^\nk$ y')).toBe('x *** y');
    expect(special('x aXbbc+d?(e)[f]{g}|h/i\\j^k$ y')).toBe('x aXbbc+d?(e)[f]{g}|h/i\\j^k$ y');
  });

  it('an id or timestamp holding the secret in another case is never rewritten', () => {
    const hex = createRedactor(['2c3d4e5f']);
    const line = 'result 5A1B2C3D4E5F60718293A4B5 and 5a1b2c3d4e5f60718293a4b5';
    expect(hex(line)).toBe(line);
    expect(hex('key 2C3D4E5F')).toBe('key ***');
  });
});

describe('the URL-safe base64 form', () => {
  // Every alignment of this secret's base64 holds `+` or `/`: its URL-safe form differs from the standard one.
  const secret = 'key>>>?secret~~~?>';

  it('of a secret whose standard base64 holds + or / is replaced at every alignment', () => {
    const redact = createRedactor([secret]);
    for (let skip = 0; skip <= 2; skip++) {
      expect(Buffer.from(secret).subarray(skip).toString('base64')).toMatch(/[+/]/);
    }
    for (const before of ['', 'u', 'us']) {
      const urlSafe = Buffer.from(`${before}${secret}`).toString('base64url');
      expect(urlSafe).toMatch(/[-_]/);
      const kept = redact(`token=${urlSafe};`).replace(/^token=|;$/g, '');
      expect(kept, before).toContain('***');
      expect(Buffer.from(kept.split('***').join(''), 'base64url').toString('latin1')).not.toContain('secret');
    }
  });
  it('and its standard form holding + or / is replaced at every alignment', () => {
    const redact = createRedactor([secret]);
    for (const before of ['', 'u', 'us']) {
      const standard = Buffer.from(`${before}${secret}`).toString('base64');
      expect(standard).toMatch(/[+/]/);
      const kept = redact(`token=${standard};`).replace(/^token=|;$/g, '');
      expect(kept, before).toContain('***');
      expect(Buffer.from(kept.split('***').join(''), 'base64').toString('latin1')).not.toContain('secret');
    }
  });
});

describe('lower-case percent-encoding and signed URLs', () => {
  it('a secret percent-encoded with lower-case hex digits is replaced too', () => {
    const redact = createRedactor(['p/w:Zq9 é']);
    expect(redact('x=p%2fw%3aZq9%20%c3%a9&y')).toBe('x=***&y');
    expect(redact('x=p%2Fw%3AZq9+%C3%A9&y')).toBe('x=***&y');
  });

  it('withoutQuery: an absolute URL loses its query, fragment and user-info; other text is only redacted', () => {
    expect(withoutQuery('https://u:p@shots.test/a/b.png?X-Amz-Signature=abc&apiKey=k#f')).toBe(
      'https://***@shots.test/a/b.png',
    );
    expect(withoutQuery('/v1/x?apiKey=k&b=1')).toBe('/v1/x?apiKey=***&b=1');
    expect(withoutQuery('b.png?v=2 from https://shots.test/')).toBe('b.png?v=2 from https://shots.test/');
  });
});

describe('redactUrl', () => {
  it('replaces the apiKey query value in URLs, paths and free text', () => {
    expect(redactUrl('https://api.test/v1/suites/?apiKey=abc123&count=5')).toBe(
      'https://api.test/v1/suites/?apiKey=***&count=5',
    );
    expect(redactUrl('/v1/x/?count=1&APIKEY=zz%20y#frag')).toBe('/v1/x/?count=1&APIKEY=***#frag');
    expect(redactUrl('GET /v1/x/?apiKey=k1: failed, see /v1/y/?a=1&apiKey=k2')).toBe(
      'GET /v1/x/?apiKey=***: failed, see /v1/y/?a=1&apiKey=***',
    );
    expect(redactUrl('no key here: /v1/x/?myapiKey=1')).toBe('no key here: /v1/x/?myapiKey=1');
  });

  it('replaces the user-info of every URL, and nothing else', () => {
    expect(redactUrl('https://user:pass@host:8080/p?q=1#f')).toBe('https://***@host:8080/p?q=1#f');
    expect(redactUrl('see http://token@a.test/ and ftp://u:p%40ss@b.test')).toBe(
      'see http://***@a.test/ and ftp://***@b.test',
    );
    expect(redactUrl('https://host/a:b@c?mail=x@y.test')).toBe('https://host/a:b@c?mail=x@y.test');
    expect(redactUrl('mail me at a@b.test')).toBe('mail me at a@b.test');
  });
});

describe('a failing session leaks no secret', () => {
  const API_KEY = 'GI-KEY-7f3a9c2e51';
  const PASSWORD = 'hunter2 p@ss/word';
  const PRIVATE = 'Priv&Val=42!';
  const forms = (s: string) => [
    s,
    encodeURIComponent(s),
    new URLSearchParams({ s }).toString().slice(2),
    JSON.stringify(s).slice(1, -1),
  ];
  const needles = [...forms(API_KEY), ...forms(PASSWORD), ...forms(PRIVATE)];

  let server: FakeServer;
  beforeAll(async () => {
    server = await startFakeServer();
  });
  afterAll(() => server.close());

  it('hides the API key, HTTP auth password and private variable value everywhere', async () => {
    const captured: string[] = [];
    const errors: unknown[] = [];
    const echo = (rec: { path: string; query: Array<[string, string]>; rawBody: Buffer }) =>
      `${rec.path}?${new URLSearchParams(rec.query).toString()} body=${rec.rawBody.toString('utf8')}`;

    // Reads: 503 pages echoing the URL, then SERVER_ERROR envelopes quoting secrets, retried to exhaustion.
    server.route('GET', '/v1/results/r1/', (rec, res) => {
      res.writeHead(503, { 'content-type': 'text/html' });
      res.end(
        `<html><pre>upstream failed for ${echo(rec)} with ${PASSWORD} and ${encodeURIComponent(PRIVATE)}</pre></html>`,
      );
    });
    server.route('GET', '/v1/suite-results/sr1/', (_rec, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          code: 'ERROR',
          errorType: 'SERVER_ERROR',
          message: `key ${API_KEY} rejected; variable value "${PRIVATE}"; password ${PASSWORD}`,
        }),
      );
    });
    // Execute: a 500 echoing the JSON body (apiKey, password, variables) and a reset; a validation error
    // quoting the multipart form.
    server.route('POST', '/v1/tests/t1/execute/', (rec, res) => {
      res.writeHead(500, { 'content-type': 'text/plain' });
      res.end(`crash while handling ${echo(rec)}`);
    });
    server.route('POST', '/v1/suites/s1/execute/', (rec, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({ code: 'ERROR', errorType: 'VALIDATION_ERROR', message: `bad form: ${echo(rec)}` }),
      );
    });
    server.route('POST', '/v1/organizations/o1/on-demand/execute', { destroy: true });
    // A 429 page echoing the key, retried with Retry-After.
    server.route('GET', '/v1/tests/', (rec, res) => {
      res.writeHead(429, { 'retry-after': '1', 'content-type': 'text/plain' });
      res.end(`rate limited: ${echo(rec)}`);
    });

    const options = {
      apiKey: API_KEY,
      secrets: [PRIVATE],
      maxRetries: 2,
      clock: {
        now: () => Date.now(),
        random: () => 0.5,
        sleep: async (ms: number) => {
          captured.push(`slept ${ms}`);
        },
      },
      log: (line: string) => captured.push(line),
      onRequest: (method: string, url: string) => captured.push(`${method} ${url}`),
    };
    const api = createTestClient({ ...options, baseUrl: server.baseUrl });
    const execOptions = {
      immediate: true,
      httpAuthUsername: 'admin',
      httpAuthPassword: PASSWORD,
      variables: { secretToken: PRIVATE, plain: 'visible' },
    };
    const attempts: Array<Promise<unknown>> = [
      api.getTestResult('r1'),
      api.getSuiteResult('sr1'),
      api.executeTest('t1', execOptions),
      api.executeSuite('s1', { ...execOptions, dataFile: { name: 'rows.csv', content: `v\n${PRIVATE}\n` } }),
      api.executeOnDemand('o1', { name: 'x', steps: [] }, execOptions),
      api.listTests(),
      api.getTest(`${API_KEY}`), // a secret in the path itself
    ];
    const port = await closedPort();
    const offline = createTestClient({ ...options, baseUrl: `http://127.0.0.1:${port}/v1` });
    attempts.push(offline.executeTest('t1', execOptions), offline.getFolder('f1'));
    for (const outcome of await Promise.allSettled(attempts)) {
      errors.push(outcome.status === 'rejected' ? outcome.reason : new Error('unexpected success'));
    }

    expect(errors).toHaveLength(9);
    for (const err of errors) {
      expect(err).toBeInstanceOf(ApiError);
      const e = err as ApiError;
      captured.push(e.message, String(e.stack), e.endpoint, e.excerpt ?? '', e.serviceMessage ?? '');
      captured.push(JSON.stringify(e), inspect(e, { depth: 5 }));
    }
    // The session did produce the material the search runs over.
    expect(captured.filter((l) => l.startsWith('GET http')).length).toBeGreaterThan(8);
    expect(captured.some((l) => l.includes('retry'))).toBe(true);
    expect(captured.some((l) => l.includes('apiKey=***'))).toBe(true);
    expect(captured.some((l) => l.includes('visible'))).toBe(true); // non-secret values stay readable
    expect((errors[2] as ApiError).errorType).toBe('TRIGGER_UNCERTAIN');
    expect((errors[2] as ApiError).excerpt).toContain('***');

    const text = captured.join('\n');
    for (const needle of needles) expect(text).not.toContain(needle);
    // And the server did receive the real secrets (they were sent, only never shown).
    expect(server.requests.some((r) => r.query.some(([k, v]) => k === 'apiKey' && v === API_KEY))).toBe(true);
  });
});
