/**
 * Webhooks: a receiver on 127.0.0.1 gets one POST per ended run with the result's JSON (the API's
 * envelope), from the execute's `webhook` and the test's or suite's notification webhooks; a failing
 * receiver never affects the run; `disableNotifications` and `webhooks: false` send none.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Emulator } from '../../emulator/index.js';
import { data, start, until } from '../support/emulator.js';

interface Hook {
  path: string;
  contentType: string | undefined;
  body: { code: string; data: { _id: string; passing: boolean | null; name: string } };
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

describe('webhooks', () => {
  it("POST a test result's JSON to the execute's webhook, once, when the run ends", async () => {
    const started = await data(em, 'POST', '/tests/test-home/execute/', {
      query: { immediate: '1', webhook: `${url}/test` },
    });
    const hook = await until(() => received('/test')[0]);
    expect(hook.contentType).toMatch(/^application\/json/);
    expect(hook.body.code).toBe('SUCCESS');
    expect(hook.body.data).toEqual(await data(em, 'GET', `/results/${started._id}/`));
    expect(hook.body.data.passing).toBe(true);
    await settle();
    expect(received('/test')).toHaveLength(1);
  });

  it("POST a suite result's JSON (not its test results) to the execute's webhooks", async () => {
    const started = await data(em, 'POST', '/suites/suite-checkout/execute/', {
      query: { immediate: '1', webhook: [`${url}/suite`, `${url}/suite-too`] },
    });
    const hook = await until(() => received('/suite')[0]);
    expect(hook.body.data).toMatchObject({ _id: started._id, passing: false, countFailing: 1 });
    await until(() => received('/suite-too').length === 1);
    await settle();
    expect(received('/suite')).toHaveLength(1);
  });

  it("POST to the test's enabled notification webhooks; a failing or absent receiver leaves the run as it is", async () => {
    await data(em, 'POST', '/tests/test-login/', {
      body: {
        notifications: {
          webhooks: {
            enabled: true,
            options: {
              urls: [
                { condition: null, url: `${url}/configured` },
                { condition: null, url: `${url}/fails` },
              ],
            },
          },
        },
      },
    });
    const result = await data(em, 'POST', '/tests/test-login/execute/', {
      query: { webhook: 'http://127.0.0.1:1/refused' },
    });
    expect(result.passing).toBe(true);
    await until(() => received('/configured').length === 1 && received('/fails').length === 1);
    expect(received('/configured')[0]!.body.data._id).toBe(result._id);
    expect((await data(em, 'GET', '/tests/test-login/')).passing).toBe(true);
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
