/**
 * Explanations of missed goals for RESULTS.md, built from the measured figures (filled in after looking at
 * the first runs).
 */
import type { Results } from './render.js';

/** One paragraph per missed goal; empty when every goal is met. */
export function explain(_results: Results): string[] {
  return [];
}
