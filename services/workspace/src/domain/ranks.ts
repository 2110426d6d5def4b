/**
 * Task positions (spec 2, "Task (item)" rank: a Number; Limits "Rank gap"). Ranks are doubles
 * (double precision in the database), top of the list first. A move puts a task at the mean of its
 * neighbours; with 1024 between neighbours a double halves about 50 times before two neighbours
 * are adjacent (fewer as ranks grow: roughly 52 - log2(rank / 1024)), so clients following
 * /changes seldom have to reload. Only when the neighbours have no double left between them is
 * the whole project renumbered, spaced RANK_GAP apart, before the task is placed. Pure
 * arithmetic; the store reads the neighbours.
 */

export const RANK_GAP = 1024;

/**
 * The neighbours a move names, as ranks: `after` is the task it goes after (the lower rank, shown
 * above it), `before` the task it goes before (the higher rank, shown below it). null where there
 * is no task on that side (the top or the bottom of the list).
 */
export interface Gap {
  after: number | null;
  before: number | null;
}

/** The midpoint of two ranks: their mean, rounded to the nearest double. */
export const midpoint = (a: number, b: number): number => (a + b) / 2;

/** Whether the midpoint lies strictly between `a` and `b`: false once they are adjacent doubles (or equal). */
export const hasRoom = (a: number, b: number): boolean => {
  const m = midpoint(a, b);
  return a < m && m < b;
};

/**
 * The rank for a task placed in `gap`, or null when the neighbours have no room (the caller
 * renumbers and asks again). An open side is one gap beyond the named neighbour; with no
 * neighbour at all (an empty project) the task takes the first gap.
 */
export function rankIn(gap: Gap): number | null {
  const { after, before } = gap;
  if (after === null && before === null) return RANK_GAP;
  if (after === null) return (before as number) - RANK_GAP;
  if (before === null) return after + RANK_GAP;
  return hasRoom(after, before) ? midpoint(after, before) : null;
}

/** Ranks of a renumbered project: 1024, 2048, ... in the order given (rank order, then id). */
export const renumbered = (count: number): number[] => Array.from({ length: count }, (_, i) => (i + 1) * RANK_GAP);

/**
 * Whether the two named neighbours are in order: the task it goes after must be above the one it
 * goes before. Equal ranks have no gap either; they are renumbered apart, so only a reversed
 * order is refused.
 */
export const inOrder = (after: number, before: number): boolean => after <= before;
