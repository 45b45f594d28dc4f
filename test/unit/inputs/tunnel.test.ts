/**
 * The tunnel inputs: read from the inputs or `NGROK_AUTHTOKEN`, the token a secret, and each bad value or
 * combination refused with the input, the value and the expected form, before anything runs.
 */
import { describe, expect, it } from 'vitest';
import { InputError, readInputs } from '../../../src/inputs/index.js';
import { SUITE } from '../../support/action-fixtures.js';
import { runnerInputs } from '../../support/runner-inputs.js';

const TOKEN = 'ngrok-token-7Qx2Lm9Zr4Kp1Vb8';

function read(values: Record<string, string>, env: NodeJS.ProcessEnv = {}) {
  const all: Record<string, string> = { 'api-key': 'key-123', 'suite-ids': SUITE, ...values };
  return readInputs({ env: { ...runnerInputs(all), ...env }, workspace: '/' });
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

  it('reads the tunnel with the defaults: a cloudflared quick tunnel, no token', async () => {
    const inputs = await read({ tunnel: 'http://localhost:3000', 'start-url': '{{ngrokUrl}}/checkout' });
    expect(inputs.tunnel).toEqual({
      address: 'http://localhost:3000',
      provider: 'cloudflared',
      authtoken: '',
      urlVariable: 'ngrokUrl',
      hostHeader: '',
    });
    expect(inputs.startUrls).toEqual(['{{ngrokUrl}}/checkout']);
  });

  it('ngrok takes its token from NGROK_AUTHTOKEN, a secret; the input wins over the environment', async () => {
    const fromEnv = await read(
      { tunnel: 'http://localhost:3000', 'tunnel-provider': 'ngrok' },
      { NGROK_AUTHTOKEN: TOKEN },
    );
    expect(fromEnv.tunnel?.authtoken).toBe(TOKEN);
    expect(fromEnv.secrets).toContain(TOKEN);
    const own = await read(
      { tunnel: 'http://127.0.0.1:8080', 'tunnel-provider': 'ngrok', 'ngrok-authtoken': TOKEN },
      { NGROK_AUTHTOKEN: 'x' },
    );
    expect(own.tunnel?.authtoken).toBe(TOKEN);
  });

  it.each([
    ['wait false', { 'ngrok-authtoken': TOKEN, wait: 'false' }, 'wait', 'the runs would outlive the tunnel'],
    ['no token for ngrok', { 'tunnel-provider': 'ngrok' }, 'ngrok-authtoken', 'NGROK_AUTHTOKEN'],
    [
      'user-info in the address',
      { tunnel: 'http://admin:pw-9Xq@127.0.0.1:3000' },
      'tunnel',
      'without user name or password',
    ],
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
    expect(error.message).not.toContain('pw-9Xq');
  });

  it('a start URL with a {{variable}} must name the tunnel variable or a variable', async () => {
    const error = await errorOf({ 'start-url': '{{appUrl}}/x' });
    expect(error.message).toContain('Input "start-url" has value "{{appUrl}}/x"');
    const inputs = await read({ 'start-url': '{{appUrl}}/x', variables: 'appUrl=https://a.test' });
    expect(inputs.startUrls).toEqual(['{{appUrl}}/x']);
    expect((await errorOf({ 'start-url': '{{appUrl}}x' })).problems[0]?.input).toBe('start-url');
  });
});
