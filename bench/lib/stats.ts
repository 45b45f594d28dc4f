/**
 * Small statistics for the benchmark: nearest-rank percentiles and the busiest window of a request log.
 */

/** p50, p95, max and mean of a list of numbers (ms or counts); all NaN for an empty list. */
export interface Spread {
  n: number;
  p50: number;
  p95: number;
  max: number;
  mean: number;
}

/**
 * The nearest-rank percentile `p` (0..100) of `values`: the smallest value with at least p % of the values at
 * or below it. NaN for an empty list.
 */
export function percentile(values: number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
  return sorted[Math.min(rank, sorted.length) - 1] as number;
}

/** p50, p95, max and mean of `values`. */
export function spread(values: number[]): Spread {
  if (values.length === 0) return { n: 0, p50: NaN, p95: NaN, max: NaN, mean: NaN };
  return {
    n: values.length,
    p50: percentile(values, 50),
    p95: percentile(values, 95),
    max: Math.max(...values),
    mean: values.reduce((a, b) => a + b, 0) / values.length,
  };
}

/**
 * The largest number of events in any window of `windowMs` (a sliding window: events at t and t + windowMs
 * are not in the same window). `times` are epoch ms in any order.
 */
export function maxInWindow(times: number[], windowMs = 1000): number {
  return busiestWindow(times, windowMs).count;
}

/** The busiest window of `windowMs`: how many events and when its first one happened (epoch ms). */
export function busiestWindow(times: number[], windowMs = 1000): { count: number; startsAt: number } {
  const t = [...times].sort((a, b) => a - b);
  let best = { count: 0, startsAt: NaN };
  let start = 0;
  for (let end = 0; end < t.length; end++) {
    while ((t[end] as number) - (t[start] as number) >= windowMs) start++;
    if (end - start + 1 > best.count) best = { count: end - start + 1, startsAt: t[start] as number };
  }
  return best;
}

/**
 * Events per second between `fromMs` and `toMs` (epoch ms; events at `fromMs` count, at `toMs` not). NaN when
 * the span is shorter than `minSpanMs` (too short to call a rate).
 */
export function ratePerSecond(times: number[], fromMs: number, toMs: number, minSpanMs = 1000): number {
  if (!(toMs - fromMs >= minSpanMs)) return NaN;
  return times.filter((t) => t >= fromMs && t < toMs).length / ((toMs - fromMs) / 1000);
}

/**
 * The steady state of runs triggered together: from `settleMs` after the last run was created (every
 * trigger and its first reads done) to the first finish. Null when that is shorter than `minSpanMs` (the
 * triggers were still going when the first run ended). Epoch ms.
 */
export function steadyWindow(
  runs: Array<{ createdAt: number; finishedAt: number }>,
  settleMs = 2000,
  minSpanMs = 3000,
): { fromMs: number; toMs: number } | null {
  if (runs.length === 0) return null;
  const fromMs = Math.max(...runs.map((r) => r.createdAt)) + settleMs;
  const toMs = Math.min(...runs.map((r) => r.finishedAt));
  return toMs - fromMs >= minSpanMs ? { fromMs, toMs } : null;
}
