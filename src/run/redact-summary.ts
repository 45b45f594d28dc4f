/**
 * Removes secrets (API key, HTTP auth password, private variable values) from everything the run produced
 * before any report, output or file is made of it: every string in the run model is passed through the
 * redactor of `api/redact.ts`.
 */
import { createRedactor } from '../api/redact.js';
import type { RunSummary } from './types.js';

/**
 * A deep copy of `value` with every secret in every string (values and keys) replaced by `***`.
 * @param secrets values to hide; empty ones are ignored.
 */
export function redactDeep<T>(value: T, secrets: ReadonlyArray<string>): T {
  const redact = createRedactor(secrets);
  if (secrets.every((s) => !s)) return value;
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') return redact(v);
    if (Array.isArray(v)) return v.map(walk);
    if (v && typeof v === 'object') {
      const out: Record<string, unknown> = {};
      for (const [k, inner] of Object.entries(v as Record<string, unknown>)) out[redact(k)] = walk(inner);
      return out;
    }
    return v;
  };
  return walk(value) as T;
}

/** The run model with every secret removed (see `redactDeep`). */
export function redactSummary(summary: RunSummary, secrets: ReadonlyArray<string>): RunSummary {
  return redactDeep(summary, secrets);
}
