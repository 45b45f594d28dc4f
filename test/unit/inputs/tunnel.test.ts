/**
 * The tunnel inputs: read from the inputs or `NGROK_AUTHTOKEN`, the token a secret, and each bad value or
 * combination refused with the input, the value and the expected form, before anything runs.
 */
import { describe, expect, it } from 'vitest';
import { InputError, readInputs } from '../../../src/inputs/index.js';
import { SUITE } from '../../support/action-fixtures.js';

const TOKEN = 'ngrok-token-7Qx2Lm9Zr4Kp1Vb8';

function read(values: Record<string, string>, env: NodeJS.ProcessEnv = {}) {
  const all: Record<string, string> = { 'api-key': 'key-123', 'suite-ids': SUITE, ...values };
  return readInputs({ getInput: (name) => all[name] ?? '', env, workspace: '/' });
}

async function errorOf(values: Record<string, string>, env: NodeJS.ProcessEnv = {}): Promise<InputError> {
  const error = await read(values, env).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(InputError);
  return error as InputError;
}

describe('tunnel inputs', () => {
  it('no tunnel by default', async () => {
    expect((await read({})).tunnel).toBeNull();
  });

  it('reads the tunnel with the defaults; the token from NGROK_AUTHTOKEN is a secret', async () => {
    const inputs = await read(
      { tunnel: 'http://localhost:3000', 'start-url': '{{ngrokUrl}}/checkout' },
      { NGROK_AUTHTOKEN: TOKEN },
    );
    expect(inputs.tunnel).toEqual({
      address: 'http://localhost:3000',
      provider: 'ngrok',
      authtoken: TOKEN,
      urlVariable: 'ngrokUrl',
      hostHeader: '',
    });
    expect(inputs.secrets).toContain(TOKEN);
    expect(inputs.startUrls).toEqual(['{{ngrokUrl}}/checkout']);
  });

  it('cloudflared needs no token; the input wins over the environment for ngrok', async () => {
    const quick = await read({ tunnel: 'http://127.0.0.1:8080', 'tunnel-provider': 'cloudflared' });
    expect(quick.tunnel?.provider).toBe('cloudflared');
    const own = await read(
      { tunnel: 'http://127.0.0.1:8080', 'ngrok-authtoken': TOKEN },
      { NGROK_AUTHTOKEN: 'x' },
    );
    expect(own.tunnel?.authtoken).toBe(TOKEN);
  });

  it.each([
    ['wait false', { 'ngrok-authtoken': TOKEN, wait: 'false' }, 'wait', 'the runs would outlive the tunnel'],
    ['no token', {}, 'ngrok-authtoken', 'NGROK_AUTHTOKEN'],
    [
      'address not a URL',
      { tunnel: 'localhost:3000', 'ngrok-authtoken': TOKEN },
      'tunnel',
      'http://localhost:3000',
    ],
    [
      'unknown provider',
      { 'tunnel-provider': 'frp', 'ngrok-authtoken': TOKEN },
      'tunnel-provider',
      'ngrok or cloudflared',
    ],
    [
      'variable name',
      { 'tunnel-url-variable': '1url', 'ngrok-authtoken': TOKEN },
      'tunnel-url-variable',
      'letters',
    ],
    [
      'variable also set',
      { variables: 'ngrokUrl=x', 'ngrok-authtoken': TOKEN },
      'tunnel-url-variable',
      'not also set',
    ],
    [
      'host header',
      { 'tunnel-host-header': 'a b', 'ngrok-authtoken': TOKEN },
      'tunnel-host-header',
      'rewrite',
    ],
  ])('refuses %s', async (_name, values, input, expected) => {
    const error = await errorOf({ tunnel: 'http://localhost:3000', ...values });
    expect(error.problems.map((p) => p.input)).toContain(input);
    expect(error.message).toContain(`Input "${input}"`);
    expect(error.message).toContain(expected);
    expect(error.message).not.toContain(TOKEN);
  });

  it('a start URL with a {{variable}} must name the tunnel variable or a variable', async () => {
    const error = await errorOf({ 'start-url': '{{appUrl}}/x' });
    expect(error.message).toContain('Input "start-url" has value "{{appUrl}}/x"');
    const inputs = await read({ 'start-url': '{{appUrl}}/x', variables: 'appUrl=https://a.test' });
    expect(inputs.startUrls).toEqual(['{{appUrl}}/x']);
    expect((await errorOf({ 'start-url': '{{appUrl}}x' })).input).toBe('start-url');
  });
});
