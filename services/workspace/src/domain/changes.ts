/**
 * Change following (spec 2, GET /v1/projects/{id}/changes): a client calls without since to get
 * seq, loads all tasks, then calls with since = the last seq and merges what comes back.
 */

/** At most this many tasks in one answer; more changed tasks than this means reload. */
export const MAX_CHANGED_ITEMS = 500;

/** The largest change number a 64-bit counter holds. */
export const MAX_SEQ = 9_223_372_036_854_775_807n;

export interface ChangeCountersSnapshot {
  seq: bigint;
  structure_seq: bigint;
  renumber_seq: bigint;
}

export interface ChangeVerdict {
  /** Reload every task: positions were renumbered after since, since is ahead of seq, or too many tasks changed. */
  reset: boolean;
  /** Goals, check-ins, views or project settings changed after since. */
  structure_changed: boolean;
}

/** What the counters alone say about since (before looking at tasks). */
export function judgeSince(since: bigint, c: ChangeCountersSnapshot): ChangeVerdict {
  return {
    reset: since > c.seq || c.renumber_seq > since,
    structure_changed: c.structure_seq > since,
  };
}
