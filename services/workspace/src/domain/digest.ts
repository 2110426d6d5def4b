/**
 * The activity feed's reads, visits and the digest (spec 2: "Counted from the activity feed since
 * the previous visit; cached against the feed position; no model call per page view").
 */

/** GET .../activity pages: 50 by default, 200 at most (more is 422). */
export const ACTIVITY_PAGE = { pageSize: 50, maxPageSize: 200 };

/** The cached digest answers a read when it was counted from the same visit at the same feed position. */
export const digestIsCurrent = (
  cached: { since_position: number; position: number } | undefined,
  sincePosition: number,
  head: number,
): boolean => cached !== undefined && cached.since_position === sincePosition && cached.position === head;

/** The prompt of a digest's line: counts only (activity rows hold ids, never text). */
export function digestPrompt(projectName: string, total: number, counts: Record<string, number>): string {
  const lines = Object.entries(counts).map(([kind, n]) => `- ${kind}: ${n}`);
  return [
    `Project: ${projectName}`,
    `Activity since the reader's previous visit (${total} events, by kind):`,
    ...lines,
    'Write one short sentence (at most 30 words) telling the reader what happened while they were away.',
  ].join('\n');
}
