/** On-demand runs: a repository test file executed without storing it (docs/api-contract.md). */
import type { GhostInspectorApi } from '../api.js';
import type { Transport } from '../transport.js';
import type { TestDefinition } from '../definitions.js';
import { encodeForExecute, syncTimeout } from './execute.js';
import { seg } from './paths.js';

export type OnDemandEndpoints = Pick<GhostInspectorApi, 'executeOnDemand'>;

/** Execute a test definition on demand (docs/api-contract.md: "Encodings"); a data file is refused. */
export function onDemandEndpoints(t: Transport): OnDemandEndpoints {
  return {
    executeOnDemand: async (organizationId, test: TestDefinition, execOptions, opts) => {
      const path = `/organizations/${seg(organizationId)}/on-demand/execute`;
      if (execOptions.dataFile) {
        throw t.notSent(
          'POST',
          path,
          'a data file cannot be sent with an on-demand execution (its body is the test)',
        );
      }
      const encoded = encodeForExecute(t, path, 'on-demand', execOptions);
      return t.request({
        method: 'POST',
        path,
        query: encoded.pairs,
        kind: 'trigger',
        body: { type: 'json', value: { ...test, apiKey: t.apiKey } },
        expect: 'envelope',
        opts,
        timeoutMs: syncTimeout(t, 'test', execOptions),
      });
    },
  };
}
