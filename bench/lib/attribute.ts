/**
 * Fair shares of the organization running-list requests (`GET /v1/organizations/{id}/running/`). Such a
 * request names no suite, test or result: one answer watches every run of the process that sent it, so its
 * cost belongs to all of them. The bench cannot tell which process sent it (processes of one account send
 * the same path), so each request is divided equally among the runs of its organization active at that
 * moment: a run active while 4 runs were active gets 1/4 of that request. The shares of a request add up to
 * 1, so the total is kept; a request while no run of its organization was active is counted as unattributed.
 */

/** A run of our action, active while its process lives (a process asks the list only while it runs). */
export interface WatchedRun {
  /** Organization whose running list its process asks. */
  org: string;
  /** Epoch ms the run became active (its process spawned) and stopped (its process exited). */
  fromMs: number;
  toMs: number;
}

/** A running-list request: the organization it names and when it arrived (epoch ms). */
export interface ListRequest {
  org: string;
  time: number;
}

/** The organization id of a running-list path (`/v1/organizations/{id}/running`, with or without `/`), else null. */
export function runningListOrg(path: string): string | null {
  const m = /\/organizations\/([^/]+)\/running\/?$/.exec(path);
  return m ? decodeURIComponent(m[1] as string) : null;
}

/**
 * Divides every request among the runs of its organization active at its time (`fromMs` ≤ time ≤ `toMs`).
 * @returns `shares[i]`: requests (fractional) of `runs[i]`; `unattributed`: requests no run was active for.
 */
export function shareListRequests(
  requests: ListRequest[],
  runs: WatchedRun[],
): { shares: number[]; unattributed: number } {
  const shares = runs.map(() => 0);
  let unattributed = 0;
  for (const q of requests) {
    const active: number[] = [];
    runs.forEach((r, i) => {
      if (r.org === q.org && r.fromMs <= q.time && q.time <= r.toMs) active.push(i);
    });
    if (active.length === 0) {
      unattributed += 1;
      continue;
    }
    for (const i of active) shares[i] = (shares[i] as number) + 1 / active.length;
  }
  return { shares, unattributed };
}
