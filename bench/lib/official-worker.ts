/**
 * A child process holding the official Node client (npm `ghost-inspector`), so its timers and its promise
 * resolving are not held up by the emulator or the benchmark in the parent process. It takes one message per
 * run (`{id, kind, targetId, apiKey, host}`) and answers `{id, startedAt, knownAt, passing, error?}`, where
 * `knownAt` (epoch ms) is the moment the client's promise resolved.
 */
import { createRequire } from 'node:module';
import path from 'node:path';

interface Client {
  host: string;
  executeSuite(id: string, options?: object): Promise<[unknown, boolean | null, boolean | null]>;
  executeTest(id: string, options?: object): Promise<[unknown, boolean | null, boolean | null]>;
}

export interface WorkerRequest {
  id: number;
  kind: 'suite' | 'test';
  targetId: string;
  apiKey: string;
  /** Origin of the service, e.g. `http://127.0.0.1:4010` (the client appends `/v1`). */
  host: string;
}

export interface WorkerAnswer {
  id: number;
  startedAt: number;
  knownAt: number;
  passing: boolean | null;
  error?: string;
}

const clientDir = process.env.BENCH_OFFICIAL_DIR;
if (!clientDir) throw new Error('BENCH_OFFICIAL_DIR is not set');
const requireFromClient = createRequire(path.join(clientDir, 'index.js'));
const makeClient = requireFromClient('ghost-inspector') as (apiKey: string) => Client;

process.on('message', (message: WorkerRequest) => {
  const client = makeClient(message.apiKey);
  client.host = message.host;
  const startedAt = Date.now();
  const call =
    message.kind === 'suite' ? client.executeSuite(message.targetId) : client.executeTest(message.targetId);
  call.then(
    ([, passing]) =>
      process.send?.({ id: message.id, startedAt, knownAt: Date.now(), passing } satisfies WorkerAnswer),
    (error: unknown) =>
      process.send?.({
        id: message.id,
        startedAt,
        knownAt: Date.now(),
        passing: null,
        error: error instanceof Error ? error.message : String(error),
      } satisfies WorkerAnswer),
  );
});
process.send?.({ ready: true });
