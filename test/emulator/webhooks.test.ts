/* eslint-disable @typescript-eslint/no-explicit-any -- webhook bodies, checked field by field */
/**
 * Webhooks: a receiver on 127.0.0.1 gets one POST per ended test run in the documented envelope
 * `{type: "result", data}` (the test result with organization and suite as `{_id, name}`), from the execute's
 * `webhook` and the notification webhooks of the test, else its suite, else its organization, each URL with
 * its condition; a suite run posts its suite result (guessed form); a failing receiver never affects the
 * run; `disableNotifications` and `webhooks: false` send none.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Emulator } from '../../emulator/index.js';
import { data, start } from '../support/emulator.js';
import { until } from '../support/harness.js';

interface Hook {
  path: string;
  contentType: string | undefined;
  body: { type: string; data: any };
}

let em: Emulator;
let receiver: Server;
let url: string;
const hooks: Hook[] = [];

beforeAll(async () => {
  receiver = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      hooks.push({ path: req.url ?? '', contentType: req.headers['content-type'], body: JSON.parse(body) });
      res.writeHead(req.url === '/fails' ? 500 : 200).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  em = await start();
});
afterAll(async () => {
  await em.close();
  receiver.closeAllConnections();
  await new Promise<void>((resolve) => receiver.close(() => resolve()));
});

const received = (path: string) => hooks.filter((h) => h.path === path);
const settle = () => new Promise((resolve) => setTimeout(resolve, 100));
const webhooks = (urls: Array<{ url: string; condition?: unknown }>) => ({
  webhooks: {
    enabled: true,
    options: { urls: urls.map((u) => ({ condition: u.condition ?? null, url: `${url}${u.url}` })) },
  },
});
const setOrganization = (notifications: unknown) =>
  fetch(`${em.origin}/_emulator/organizations/org-acme/notifications`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(notifications),
  });

describe('webhooks of a test run', () => {
  it('POST the documented envelope to the execute webhook, once: the result with organization and suite filled in', async () => {
    const started = await data(em, 'POST', '/tests/test-home/execute/', {
      query: { immediate: '1', webhook: `${url}/test` },
    });
    const hook = await until(() => received('/test')[0]);
    expect(hook.contentType).toMatch(/^application\/json/);
    expect(hook.body.type).toBe('result');
    const { organization, suite, deleted, ...rest } = hook.body.data;
    expect(organization).toEqual({ _id: 'org-acme', name: 'Acme Shop' });
    expect(suite).toEqual({ _id: 'suite-smoke', name: 'Smoke tests' });
    // The documented sample also carries `deleted` (and the baseline as an object: see the comparison case).
    expect(deleted).toBe(false);
    const read = await data(em, 'GET', `/results/${started._id}/`);
    expect({ ...rest, organization: read.organization }).toEqual(read);
    expect(hook.body.data.passing).toBe(true);
    await settle();
    expect(received('/test')).toHaveLength(1);
  });

  it('carries the comparison baseline as {_id, screenshot}, as the documented sample does; null without one', async () => {
    const first = await data(em, 'POST', '/tests/test-pricing/execute/', {
      query: { webhook: `${url}/baseline` },
    });
    const second = await data(em, 'POST', '/tests/test-pricing/execute/', {
      query: { webhook: `${url}/baseline` },
    });
    await until(() => received('/baseline').length === 2);
    const [before, after] = received('/baseline').map((h) => h.body.data);
    expect(before.screenshotCompareBaselineResult).toBeNull();
    expect(after._id).toBe(second._id);
    expect(after.screenshotCompareBaselineResult).toEqual({ _id: first._id, screenshot: first.screenshot });
    expect((await data(em, 'GET', `/results/${second._id}/`)).screenshotCompareBaselineResult).toBe(
      first._id,
    );
  });

  it("the test's own notification URLs; a failing or absent receiver leaves the run as it is", async () => {
    await data(em, 'POST', '/tests/test-login/', {
      body: { notifications: webhooks([{ url: '/configured' }, { url: '/fails' }]) },
    });
    const result = await data(em, 'POST', '/tests/test-login/execute/', {
      query: { webhook: 'http://127.0.0.1:1/refused' },
    });
    expect(result.passing).toBe(true);
    await until(() => received('/configured').length === 1 && received('/fails').length === 1);
    expect(received('/configured')[0]!.body.data._id).toBe(result._id);
    expect((await data(em, 'GET', '/tests/test-login/')).passing).toBe(true);
    await data(em, 'POST', '/tests/test-login/', { body: { notifications: null } });
  });

  it('inherit: organization, then suite, then test; null notifications use the settings above', async () => {
    expect((await setOrganization(webhooks([{ url: '/org' }]))).status).toBe(200);
    const alone = await data(em, 'POST', '/tests/test-cart/execute/');
    await until(() => received('/org').some((h) => h.body.data._id === alone._id));

    await data(em, 'POST', '/suites/suite-checkout/', {
      body: { notifications: webhooks([{ url: '/suite' }]) },
    });
    const inSuite = await data(em, 'POST', '/tests/test-cart/execute/');
    await until(() => received('/suite').some((h) => h.body.data._id === inSuite._id));

    await data(em, 'POST', '/tests/test-cart/', { body: { notifications: webhooks([{ url: '/own' }]) } });
    const own = await data(em, 'POST', '/tests/test-cart/execute/');
    await until(() => received('/own').some((h) => h.body.data._id === own._id));
    await settle();
    expect(received('/org').map((h) => h.body.data._id)).toEqual([alone._id]);
    expect(received('/suite').map((h) => h.body.data._id)).toEqual([inSuite._id]);

    // Each test of a suite run sends its own test-run webhook by the same inheritance.
    await data(em, 'POST', '/tests/test-cart/', { body: { notifications: null } });
    const [run] = await data(em, 'POST', '/suites/suite-checkout/execute/');
    await until(
      () => received('/suite').filter((h) => h.body.data.suiteResult === run.suiteResult).length === 3,
    );
    expect(
      received('/suite').every((h) => h.body.type === 'result' && h.body.data.suite._id === 'suite-checkout'),
    ).toBe(true);
    await data(em, 'POST', '/suites/suite-checkout/', { body: { notifications: null } });
    await setOrganization({});
  });

  it('conditions: "fail" sends failing runs only; "change" sends once when it fails, then once when it passes', async () => {
    await data(em, 'POST', '/tests/test-receipt/', {
      body: {
        notifications: webhooks([
          { url: '/fail', condition: 'fail' },
          { url: '/change', condition: 'change' },
        ]),
      },
    });
    const outcomes = ['pass', 'fail', 'fail', 'pass', 'pass', 'fail'] as const;
    const ids: string[] = [];
    for (const outcome of outcomes) {
      em.setScenario('test-receipt', { outcome });
      ids.push((await data(em, 'POST', '/tests/test-receipt/execute/'))._id);
    }
    await until(() => received('/fail').length === 3 && received('/change').length === 3);
    await settle();
    const sent = (path: string) =>
      received(path)
        .map((h) => ids.indexOf(h.body.data._id))
        .sort();
    expect(sent('/fail')).toEqual([1, 2, 5]);
    expect(sent('/change')).toEqual([1, 3, 5]);
    em.setScenario('test-receipt', { outcome: 'pass' });
    await data(em, 'POST', '/tests/test-receipt/', { body: { notifications: null } });
  });

  it('disableNotifications=1 sends none', async () => {
    await data(em, 'POST', '/tests/test-home/execute/', {
      query: { webhook: `${url}/quiet`, disableNotifications: '1' },
    });
    await settle();
    expect(received('/quiet')).toEqual([]);
  });

  it('webhooks: false sends none', async () => {
    const off = await start({ webhooks: false });
    try {
      await data(off, 'POST', '/tests/test-home/execute/', { query: { webhook: `${url}/off` } });
      await settle();
      expect(received('/off')).toEqual([]);
    } finally {
      await off.close();
    }
  });
});

describe('webhooks of a suite run (guessed form)', () => {
  it("POST the suite result to the execute's webhooks and the suite's notificationsSuite URLs", async () => {
    await data(em, 'POST', '/suites/suite-smoke/', {
      body: { notificationsSuite: webhooks([{ url: '/suite-run' }]) },
    });
    const started = await data(em, 'POST', '/suites/suite-checkout/execute/', {
      query: { immediate: '1', webhook: [`${url}/suite-exec`, `${url}/suite-exec-too`] },
    });
    const hook = await until(() => received('/suite-exec')[0]);
    expect(hook.body.type).toBe('suiteResult');
    expect(hook.body.data).toMatchObject({
      _id: started._id,
      passing: false,
      countFailing: 1,
      organization: { _id: 'org-acme', name: 'Acme Shop' },
    });
    await until(() => received('/suite-exec-too').length === 1);
    const smoke = await data(em, 'POST', '/suites/suite-smoke/execute/', { query: { immediate: '1' } });
    const run = await until(() => received('/suite-run')[0]);
    expect(run.body.data._id).toBe(smoke._id);
    await settle();
    expect(received('/suite-exec')).toHaveLength(1);
  });

  it('the admin route refuses an unknown organization and a body that is not an object', async () => {
    const unknown = await fetch(`${em.origin}/_emulator/organizations/nope/notifications`);
    expect(unknown.status).toBe(400);
    expect((await setOrganization([1])).status).toBe(400);
  });
});
