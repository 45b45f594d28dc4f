/**
 * Log lines that stay short however many runs there are: id lists folded after a few ids, and one grouped
 * warning per kind of trigger failure (with a count and the first few ids) instead of one line per run.
 */
import type { RunLog } from './engine.js';

/** Ids shown before a list is folded. */
export const SHOWN_IDS = 5;

/** `a, b, c` or, past `max` ids, `a, b, c, d, e and 95 more`. */
export function foldIds(ids: readonly string[], max = SHOWN_IDS): string {
  if (ids.length <= max) return ids.join(', ');
  return `${ids.slice(0, max).join(', ')} and ${ids.length - max} more`;
}

/** One run that could not be started, as the grouped warning sees it. */
interface Problem {
  /** What the trigger was for: `suite abc`, `test xyz`, a file name. */
  label: string;
  /** The id shown in a grouped line. */
  id: string;
  message: string;
}

/**
 * Collects trigger problems by kind (e.g. `VALIDATION_ERROR`, `NETWORK_ERROR`, `not started`) and writes
 * one warning per kind: the full message when the kind has one problem, else the count, the first few ids
 * and the first message.
 */
export class ProblemLog {
  private readonly kinds = new Map<string, Problem[]>();

  add(kind: string, problem: Problem): void {
    const list = this.kinds.get(kind) ?? [];
    list.push(problem);
    this.kinds.set(kind, list);
  }

  /** Writes the warnings and forgets them. */
  flush(log: RunLog, verb = 'Could not start'): void {
    for (const [kind, list] of this.kinds) {
      const first = list[0];
      if (list.length === 1) log.warning(`${verb} ${first.label}: ${first.message}`);
      else {
        log.warning(
          `${verb} ${list.length} runs (${kind}): ${foldIds(list.map((p) => p.id))}. First: ${first.label}: ${first.message}`,
        );
      }
    }
    this.kinds.clear();
  }
}
