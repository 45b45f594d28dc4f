/**
 * The action's real dependencies (`processDeps` of `src/action/deps.ts`, docs/architecture.md,
 * "Dependencies"): this process's environment, action.yml's defaults, real time, SIGINT
 * and SIGTERM handlers added and removed again. The exits are checked on spies, never made.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { processDeps } from '../../../src/action/deps.js';
import { systemClock } from '../../../src/common/clock.js';
import { readGitHubContext } from '../../../src/github.js';
import { projectDefaults } from '../../support/runner-inputs.js';

afterEach(() => {
  vi.restoreAllMocks();
});

describe('processDeps', () => {
  it('takes this process’s environment, its GitHub context and real time', () => {
    const deps = processDeps();
    expect(deps.env).toBe(process.env);
    expect(deps.github).toEqual(readGitHubContext(process.env));
    expect(deps.clock).toBe(systemClock);
    expect(typeof deps.sink.setFailed).toBe('function');
  });

  it('applies the input defaults of action.yml', () => {
    const defaults = processDeps().inputDefaults;
    expect(defaults).toEqual(projectDefaults());
    expect(Object.keys(defaults ?? {}).length).toBeGreaterThan(20);
  });

  it('listens for SIGINT and SIGTERM until told to stop', () => {
    const before = { int: process.listenerCount('SIGINT'), term: process.listenerCount('SIGTERM') };
    const handler = vi.fn();
    const stop = processDeps().listenForSignals(handler);
    expect(process.listenerCount('SIGINT')).toBe(before.int + 1);
    expect(process.listenerCount('SIGTERM')).toBe(before.term + 1);
    expect(process.listeners('SIGINT')).toContain(handler);
    expect(process.listeners('SIGTERM')).toContain(handler);
    stop();
    expect(process.listenerCount('SIGINT')).toBe(before.int);
    expect(process.listenerCount('SIGTERM')).toBe(before.term);
  });

  it('after a cancel, exits with the exit code set, else 1', () => {
    const exit = vi.spyOn(process, 'exit').mockImplementation(() => undefined as never);
    const exitCode = process.exitCode;
    try {
      processDeps().exitAfterCancel();
      process.exitCode = 3;
      processDeps().exitAfterCancel();
    } finally {
      process.exitCode = exitCode;
    }
    expect(exit.mock.calls).toEqual([[1], [3]]);
  });

  it('the forced exit is SIGKILL to this process', () => {
    const kill = vi.spyOn(process, 'kill').mockImplementation(() => true);
    processDeps().forceExit();
    expect(kill.mock.calls).toEqual([[process.pid, 'SIGKILL']]);
  });
});
