/**
 * Task positions (spec 2, "Task (item)" rank; Limits "Rank gap"). Ranks are integers (bigint in
 * the database), top of the list first. A move puts a task at the midpoint of its neighbours;
 * when the neighbours have no room left between them the whole project is renumbered, spaced
 * RANK_GAP apart, before the task is placed. Pure arithmetic; the store reads the neighbours.
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

/** The midpoint of two ranks, rounded down: floor((a + b) / 2), also for negative ranks. */
export const midpoint = (a: number, b: number): number => Math.floor((a + b) / 2);

/** Whether a rank strictly between `a` and `b` exists: b - a >= 2. */
export const hasRoom = (a: number, b: number): boolean => b - a >= 2;

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
