/**
 * `GET /v1/test-runner-ip-addresses`: the addresses the service's test runners connect from, by region. The
 * official Node client's CLI (`ghost-inspector test-runner-ips`) calls it without an API key. Shape as public
 * scripts read it (`.data[].ips[]`): `data` maps each region to `{name, ips}`. The emulator's addresses are
 * documentation addresses (RFC 5737), never real ones.
 */
import { REGIONS } from '../../src/api/types.js';
import { ok, type RouteDeps } from './shared.js';

/** Registers the test runner IP address list. */
export function runnerIpRoutes(deps: RouteDeps): void {
  deps.on('GET', '/v1/test-runner-ip-addresses', () => {
    const data: Record<string, { name: string; ips: string[] }> = {};
    REGIONS.forEach((region, i) => {
      data[region] = { name: region, ips: [`192.0.2.${2 * i + 1}`, `192.0.2.${2 * i + 2}`] };
    });
    return ok(data);
  });
}
