/**
 * A probe report (every call's shape, no value) and the comparison of a saved report with a new one.
 */
import { probeReads } from './calls.js';
import type { CallRecord, ProbeContext } from './http.js';
import { diffShapes } from './shape.js';
import { probeWrites, type WriteOptions } from './write.js';

/** The real service's API base URL. */
export const SERVICE_BASE_URL = 'https://api.ghostinspector.com/v1';

export interface ProbeReport {
  /** Report format version. */
  probe: 1;
  /** `service` when the base URL was the real service's, else `other` (the URL itself is not kept). */
  target: 'service' | 'other';
  /** True when the write sequence ran. */
  write: boolean;
  calls: CallRecord[];
}

export interface ProbeOptions extends WriteOptions {
  baseUrl: string;
  apiKey: string;
  /** Organization id for the write sequence and organization reads; default the first listed. */
  organization?: string;
  write: boolean;
  /** Default: a real timer. */
  sleep?: (ms: number) => Promise<void>;
}

/**
 * Calls every read endpoint (and the write sequence when asked) and returns the report. Throws an Error when
 * `write` is asked and no organization can be found.
 */
export async function runProbe(options: ProbeOptions): Promise<ProbeReport> {
  const ctx: ProbeContext = {
    baseUrl: options.baseUrl.replace(/\/+$/, ''),
    apiKey: options.apiKey,
    sleep: options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms))),
    records: [],
  };
  const org = await probeReads(ctx, options.organization);
  if (options.write) {
    if (!org) throw new Error('--write needs an organization: none was listed; pass --organization ID');
    await probeWrites(ctx, org, options);
  }
  return {
    probe: 1,
    target: ctx.baseUrl === SERVICE_BASE_URL ? 'service' : 'other',
    write: options.write,
    calls: ctx.records,
  };
}

function byName(calls: CallRecord[]): Map<string, CallRecord> {
  const out = new Map<string, CallRecord>();
  for (const call of calls) {
    let name = call.name;
    for (let n = 2; out.has(name); n++) name = `${call.name} #${n}`;
    out.set(name, call);
  }
  return out;
}

const FIELDS = ['skipped', 'status', 'mediaType', 'envelope', 'errorType', 'body'] as const;

/** The differences between a saved report and a new one, one line each, naming the call and the field. */
export function compareReports(saved: ProbeReport, now: ProbeReport): string[] {
  const out: string[] = [];
  const a = byName(saved.calls);
  const b = byName(now.calls);
  for (const [name, x] of a) {
    const y = b.get(name);
    if (!y) {
      out.push(`${name}: in the saved report, not called now`);
      continue;
    }
    for (const field of FIELDS) {
      if (x[field] !== y[field])
        out.push(
          `${name}: ${field} ${String(x[field] ?? '-')} in the saved report, ${String(y[field] ?? '-')} now`,
        );
    }
    if ((x.csvColumns ?? []).join(',') !== (y.csvColumns ?? []).join(','))
      out.push(
        `${name}: CSV columns ${(x.csvColumns ?? []).join(',')} in the saved report, ${(y.csvColumns ?? []).join(',')} now`,
      );
    if (x.shape && y.shape) {
      const root = x.envelope === 'SUCCESS' ? 'data' : 'document';
      out.push(...diffShapes(x.shape, y.shape, root).map((line) => `${name}: ${line}`));
    }
  }
  for (const name of b.keys()) if (!a.has(name)) out.push(`${name}: not in the saved report, called now`);
  return out;
}
