import type { AnyEvent } from '@platform/kit';
import { ACTIVITY_SOURCES, type ActivitySource } from '../events.ts';

/**
 * The activity feed (spec 2, Events; docs/decisions.md, workspace "Activity, visits and the
 * digest"): one row of ids per task, goal, check-in, case, handoff, unblock request, decision, data
 * source and conversation event, none for views or anything else. Which events feed it is the
 * data ACTIVITY_SOURCES in events.ts; this reads an emitted event against it.
 */

/** An activity row before it takes its place in the feed. */
export interface ActivityEntry {
  project_id: string;
  kind: string;
  subject_id: string | null;
  actor: string;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The source an event type belongs to, or undefined (views, members, settings: no activity). */
export const activitySourceOf = (type: string): ActivitySource | undefined =>
  ACTIVITY_SOURCES.find((s) => type.startsWith(s.prefix));

/** goal.checked_in for project.goal_checked_in: the source's kind, a dot, the rest of the type. */
export const activityKind = (source: ActivitySource, type: string) =>
  `${source.kind}.${type.slice(source.prefix.length)}`;

const text = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);

/**
 * The activity row an emitted event writes, or null: not a feed event, or an event about no project
 * (an unfiled conversation). The subject is the source's id field when it holds a UUID; the actor
 * is the payload's, else the caller.
 */
export function activityOf(event: AnyEvent, caller: string): ActivityEntry | null {
  const source = activitySourceOf(event.type);
  if (!source) return null;
  const data = (event.data ?? {}) as Record<string, unknown>;
  const projectId = text(data.projectId);
  if (!projectId || !UUID.test(projectId)) return null;
  const subject = text(data[source.subject]);
  return {
    project_id: projectId,
    kind: activityKind(source, event.type),
    subject_id: subject && UUID.test(subject) ? subject : null,
    actor: text(data.actor) ?? caller,
  };
}
