/** The tunnel inputs: an app started in the job, exposed through a tunnel agent (docs/tunnel.md). Pure. */
import { isHttpUrl, startUrlVariable, type InputReader } from './parse.js';
import {
  RESERVED_VARIABLE_NAMES,
  TUNNEL_PROVIDERS,
  VARIABLE_NAME_PATTERN,
  type ActionInputs,
  type TunnelInputs,
  type TunnelProviderName,
} from './schema.js';

/**
 * Reads the tunnel inputs (the token may come from `NGROK_AUTHTOKEN`, `envToken`); problems go to `r`.
 * @returns the tunnel, or null when `tunnel` is empty
 */
export function parseTunnel(r: InputReader, envToken: string): TunnelInputs | null {
  const address = r.text('tunnel');
  const provider = r.checked(
    'tunnel-provider',
    (v) => (TUNNEL_PROVIDERS as readonly string[]).includes(v),
    TUNNEL_PROVIDERS.join(' or '),
  );
  const urlVariable = r.checked(
    'tunnel-url-variable',
    (v) => VARIABLE_NAME_PATTERN.test(v) && !RESERVED_VARIABLE_NAMES.has(v),
    'a variable name of letters, digits and underscores, not starting with a digit, not an execute parameter',
  );
  const hostHeader = r.checked(
    'tunnel-host-header',
    /^(|rewrite|[A-Za-z0-9.-]+(:\d{1,5})?)$/,
    'empty, rewrite, or a host name such as app.test',
  );
  const authtoken = r.text('ngrok-authtoken') || envToken.trim();
  if (address === '') return null;
  if (!isHttpUrl(address)) {
    r.fail(
      'tunnel',
      address,
      'the local address of the app, an http or https URL such as http://localhost:3000',
    );
  } else if (hasUserInfo(address)) {
    // The agents forward requests as they come and cannot add credentials upstream; on their command line
    // the credentials would be readable by every process of the runner.
    r.fail(
      'tunnel',
      address,
      'the local address without user name or password (http://localhost:3000): the tunnel agents cannot send credentials to the app',
    );
  }
  if (provider === 'ngrok' && authtoken === '') {
    r.fail(
      'ngrok-authtoken',
      '',
      'your ngrok authtoken (from a secret), or NGROK_AUTHTOKEN in the environment, when tunnel is set with tunnel-provider ngrok',
    );
  } else if (/\s/.test(authtoken)) {
    r.fail('ngrok-authtoken', authtoken, 'an authtoken without spaces or line breaks');
  }
  return {
    address,
    provider: provider as TunnelProviderName,
    authtoken: provider === 'ngrok' ? authtoken : '',
    urlVariable,
    hostHeader,
  };
}

function hasUserInfo(address: string): boolean {
  const url = new URL(address);
  return url.username !== '' || url.password !== '';
}

/**
 * Checks the tunnel against the other inputs: `wait: false` is refused, the URL variable may not be a user
 * variable, and a start URL beginning with `{{name}}` must name a known variable.
 */
export function checkTunnelCombinations(r: InputReader, inputs: Omit<ActionInputs, 'secrets'>): void {
  const { tunnel, execute } = inputs;
  const defined = new Set(Object.keys(execute.variables ?? {}));
  if (tunnel) {
    if (!inputs.wait) {
      r.fail(
        'wait',
        'false',
        `true when tunnel is set (tunnel: ${tunnel.address}): the runs would outlive the tunnel, which stops with the step`,
      );
    }
    if (defined.has(tunnel.urlVariable)) {
      r.fail(
        'tunnel-url-variable',
        tunnel.urlVariable,
        `a name not also set in variables or private-variables (${tunnel.urlVariable} receives the tunnel's public URL)`,
      );
    }
    defined.add(tunnel.urlVariable);
  }
  for (const url of inputs.startUrls) {
    const name = startUrlVariable(url);
    if (name !== null && !defined.has(name)) {
      r.fail(
        'start-url',
        url,
        `{{${name}}} to be the tunnel-url-variable with tunnel set, or a variable of variables or private-variables`,
      );
    }
  }
}
