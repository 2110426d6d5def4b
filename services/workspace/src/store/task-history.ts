import { isoOrThrow } from '@platform/kit';
import type { Selectable } from 'kysely';
import type { Db, TaskChanges, TaskVersions } from './db.ts';

/** Versions and change-log rows a history read returns at most, of each (spec 2, Limits). */
export const HISTORY_MAX = 200;

export interface TaskVersionRow {
  version: number;
  type: string;
  title: string;
  body: string;
  fields: Record<string, string>;
  links: { url: string; title?: string }[];
  resolution: string | null;
  author: string;
  created_at: string;
}

export interface TaskChangeRow {
  id: string;
  item_id: string;
  field: string;
  old_value: unknown;
  new_value: unknown;
  actor: string;
  created_at: string;
}

const json = <T>(v: unknown, fallback: T): T => {
  if (v == null) return fallback;
  return (typeof v === 'string' ? JSON.parse(v) : v) as T;
};

const VERSION_COLUMNS = [
  'version',
  'type',
  'title',
  'body',
  'fields',
  'links',
  'resolution',
  'author',
  'created_at',
] as const;

const toVersion = (r: Pick<Selectable<TaskVersions>, (typeof VERSION_COLUMNS)[number]>): TaskVersionRow => ({
  version: Number(r.version),
  type: r.type,
  title: r.title,
  body: r.body,
  fields: json(r.fields, {}),
  links: json(r.links, []),
  resolution: r.resolution ?? null,
  author: r.author,
  created_at: isoOrThrow(r.created_at),
});

/**
 * A change-log row; old and new values are JSON (null when there was or is none). The driver hands
 * jsonb over parsed, and a value may itself be a string, so it is taken as it comes.
 */
export const toChange = (r: Pick<Selectable<TaskChanges>, (typeof CHANGE_COLUMNS)[number]>): TaskChangeRow => ({
  id: r.id,
  item_id: r.task_id,
  field: r.field,
  old_value: r.old_value ?? null,
  new_value: r.new_value ?? null,
  actor: r.actor,
  created_at: isoOrThrow(r.created_at),
});

const CHANGE_COLUMNS = ['id', 'task_id', 'field', 'old_value', 'new_value', 'actor', 'created_at'] as const;

/**
 * A task's latest versions and change-log rows, newest first, at most HISTORY_MAX of each. The
 * change log runs by change number (commit order under the project lock), not by clock.
 */
export async function taskHistory(db: Db, taskId: string) {
  const [versions, changes] = await Promise.all([
    db
      .selectFrom('task_versions')
      .select(VERSION_COLUMNS)
      .where('task_id', '=', taskId)
      .orderBy('version', 'desc')
      .limit(HISTORY_MAX)
      .execute(),
    db
      .selectFrom('task_changes')
      .select(CHANGE_COLUMNS)
      .where('task_id', '=', taskId)
      .orderBy('change_seq', 'desc')
      .orderBy('id', 'desc')
      .limit(HISTORY_MAX)
      .execute(),
  ]);
  return { versions: versions.map(toVersion), changes: changes.map(toChange) };
}

/**
 * The project's change log across all its tasks, archived included, newest first; `field`
 * narrows it to one kind of change (status_id, assignee, target_date, goal_id, archived...).
 */
export async function projectChanges(db: Db, projectId: string, opts: { field?: string; limit: number }) {
  let q = db.selectFrom('task_changes').select(CHANGE_COLUMNS).where('project_id', '=', projectId);
  if (opts.field) q = q.where('field', '=', opts.field);
  const rows = await q.orderBy('change_seq', 'desc').orderBy('id', 'desc').limit(opts.limit).execute();
  return rows.map(toChange);
}
