/** Log lines that stay short however many runs: id lists folded, one grouped warning per kind of failure. */
import type { TriggerProblem } from './events.js';

/** `a, b, c` or, past five ids, `a, b, c, d, e and 95 more`. */
export function foldIds(ids: readonly string[]): string {
  const max = 5;
  if (ids.length <= max) return ids.join(', ');
  return `${ids.slice(0, max).join(', ')} and ${ids.length - max} more`;
}

/** The warnings of trigger problems: one per kind, with the count, the first ids and the first message. */
export function problemLines(problems: readonly TriggerProblem[]): string[] {
  const kinds = new Map<string, TriggerProblem[]>();
  for (const p of problems) kinds.set(p.kind, [...(kinds.get(p.kind) ?? []), p]);
  const lines: string[] = [];
  for (const [kind, list] of kinds) {
    const first = list[0];
    if (list.length === 1) lines.push(`Could not start ${first.label}: ${first.message}`);
    else {
      lines.push(
        `Could not start ${list.length} runs (${kind}): ${foldIds(list.map((p) => p.id))}. First: ${first.label}: ${first.message}`,
      );
    }
  }
  return lines;
}
