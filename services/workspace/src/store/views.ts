import { isoOrThrow } from '@platform/kit';
import { type Selectable, sql } from 'kysely';
import type { Filters, GroupBy, Layout, Sort, StoredView } from '../domain/views.ts';
import type { Db, SavedViews } from './db.ts';

/** A saved_views row as stored: filters exactly as saved (reads make them lenient). */
export type ViewRow = StoredView;

const COLUMNS = [
  'id',
  'project_id',
  'name',
  'layout',
  'group_by',
  'sort',
  'sort_desc',
  'filters',
  'position',
  'seed_key',
  'created_by',
  'version',
  'created_at',
  'updated_at',
] as const;

const toRow = (r: Pick<Selectable<SavedViews>, (typeof COLUMNS)[number]>): ViewRow => ({
  id: r.id,
  project_id: r.project_id,
  name: r.name,
  layout: r.layout as Layout,
  group_by: r.group_by as GroupBy,
  sort: r.sort as Sort,
  sort_desc: Boolean(r.sort_desc),
  filters: typeof r.filters === 'string' ? JSON.parse(r.filters) : r.filters,
  position: Number(r.position),
  seed_key: r.seed_key ?? null,
  created_by: r.created_by,
  version: Number(r.version),
  created_at: isoOrThrow(r.created_at),
  updated_at: isoOrThrow(r.updated_at),
});

/** The project's views in tab order (position, then id for rows that share one). */
export async function listViews(db: Db, projectId: string): Promise<ViewRow[]> {
  const rows = await db
    .selectFrom('saved_views')
    .select(COLUMNS)
    .where('project_id', '=', projectId)
    .orderBy('position')
    .orderBy('id')
    .execute();
  return rows.map(toRow);
}

/** One view of the project (undefined when it is not one of this project's views). */
export async function findView(db: Db, projectId: string, id: string): Promise<ViewRow | undefined> {
  const row = await db
    .selectFrom('saved_views')
    .select(COLUMNS)
    .where('project_id', '=', projectId)
    .where('id', '=', id)
    .executeTakeFirst();
  return row ? toRow(row) : undefined;
}

/** Whether another view of the project has this name key (ignoring case). */
export async function nameKeyTaken(db: Db, projectId: string, key: string, exceptId?: string): Promise<boolean> {
  let q = db.selectFrom('saved_views').select('id').where('project_id', '=', projectId).where('name_key', '=', key);
  if (exceptId) q = q.where('id', '<>', exceptId);
  return (await q.executeTakeFirst()) !== undefined;
}

/** How many views the project has, and the last tab's position (0 with none). */
export async function viewTally(db: Db, projectId: string): Promise<{ count: number; lastPosition: number }> {
  const r = await sql<{ n: number; last: number | null }>`
    SELECT count(*)::int AS n, max(position) AS last FROM saved_views WHERE project_id = ${projectId}`.execute(db);
  return { count: Number(r.rows[0]?.n ?? 0), lastPosition: Number(r.rows[0]?.last ?? 0) };
}

/** A user-added view (no seed_key), its filters already checked by the strict save. */
export type NewView = Omit<StoredView, 'filters' | 'seed_key' | 'version' | 'created_at' | 'updated_at'> & {
  filters: Filters;
};

export async function insertView(trx: Db, v: NewView, now: Date): Promise<ViewRow> {
  const row = await trx
    .insertInto('saved_views')
    .values({
      ...v,
      name_key: v.name.toLowerCase(),
      filters: JSON.stringify(v.filters),
      seed_key: null,
      version: 1,
      created_at: now,
      updated_at: now,
    })
    .returning(COLUMNS)
    .executeTakeFirstOrThrow();
  return toRow(row);
}

export interface ViewChange {
  name?: string;
  layout?: Layout;
  group_by?: GroupBy;
  sort?: Sort;
  sort_desc?: boolean;
  filters?: Filters;
}

/** Writes the changed fields and the next version. */
export async function updateView(trx: Db, id: string, change: ViewChange, now: Date): Promise<ViewRow> {
  const { filters, name, ...rest } = change;
  const row = await trx
    .updateTable('saved_views')
    .set({
      ...rest,
      ...(name !== undefined ? { name, name_key: name.toLowerCase() } : {}),
      ...(filters !== undefined ? { filters: JSON.stringify(filters) } : {}),
      version: sql`version + 1`,
      updated_at: now,
    })
    .where('id', '=', id)
    .returning(COLUMNS)
    .executeTakeFirstOrThrow();
  return toRow(row);
}

export async function deleteView(trx: Db, id: string): Promise<void> {
  await trx.deleteFrom('saved_views').where('id', '=', id).execute();
}

/** Tab positions 1..n in the given order; versions and updated_at are not touched. */
export async function setPositions(trx: Db, projectId: string, ids: readonly string[]): Promise<void> {
  for (const [i, id] of ids.entries()) {
    await trx
      .updateTable('saved_views')
      .set({ position: i + 1 })
      .where('project_id', '=', projectId)
      .where('id', '=', id)
      .execute();
  }
}

/** The ids of every goal on the project (any status): what goal_ids filters may name. */
export async function projectGoalIds(db: Db, projectId: string): Promise<Set<string>> {
  const rows = await db.selectFrom('goals').select('id').where('project_id', '=', projectId).execute();
  return new Set(rows.map((r) => String(r.id).toLowerCase()));
}
