import { isoOrThrow, type PageRequest } from '@platform/kit';
import { sql } from 'kysely';
import type { Relation } from '../schemas/plan-items.ts';
import type { Db } from './db.ts';

/** Whether a development project exists (reads of a project's items answer 404 project_not_found otherwise). */
export async function projectExists(db: Db, id: string): Promise<boolean> {
  const row = await db.selectFrom('development_projects').select('id').where('id', '=', id).executeTakeFirst();
  return row !== undefined;
}

/** Adds the relation unless one of that type already points the same way; undefined then. */
export async function insertRelation(
  trx: Db,
  r: { id: string; from_project_id: string; to_project_id: string; relation_type: string; note: string | null },
  by: string,
  now: Date,
): Promise<string | undefined> {
  const row = await trx
    .insertInto('project_relations')
    .values({ ...r, created_by: by, created_at: now })
    .onConflict((oc) => oc.columns(['from_project_id', 'to_project_id', 'relation_type']).doNothing())
    .returning('id')
    .executeTakeFirst();
  return row?.id;
}

type RelationRow = {
  id: string;
  from_project_id: string;
  to_project_id: string;
  relation_type: string;
  note: string | null;
  created_by: string;
  created_at: Date | string;
  other_id: string;
  other_code: string;
  other_name: string;
};

const toRelation = (r: RelationRow, projectId: string): Relation => ({
  id: r.id,
  from_project_id: r.from_project_id,
  to_project_id: r.to_project_id,
  relation_type: r.relation_type as Relation['relation_type'],
  direction: r.from_project_id === projectId ? 'outgoing' : 'incoming',
  other_project: { id: r.other_id, code: r.other_code, name: r.other_name },
  note: r.note,
  created_by: r.created_by,
  created_at: isoOrThrow(r.created_at),
});

const SELECT = (projectId: string) => sql`
  SELECT r.id, r.from_project_id, r.to_project_id, r.relation_type, r.note, r.created_by, r.created_at,
         o.id AS other_id, o.code AS other_code, o.name AS other_name
  FROM project_relations r
  JOIN development_projects o
    ON o.id = CASE WHEN r.from_project_id = ${projectId} THEN r.to_project_id ELSE r.from_project_id END
  WHERE r.from_project_id = ${projectId} OR r.to_project_id = ${projectId}`;

export async function findRelation(db: Db, projectId: string, id: string): Promise<Relation> {
  const r = await sql<RelationRow>`${SELECT(projectId)} AND r.id = ${id}`.execute(db);
  const row = r.rows[0];
  if (!row) throw new Error(`relation ${id} vanished`);
  return toRelation(row, projectId);
}

/** Relations made on the project and made on others to it, oldest first. */
export async function listRelations(db: Db, projectId: string, page: PageRequest) {
  const [rows, count] = await Promise.all([
    sql<RelationRow>`${SELECT(projectId)} ORDER BY r.created_at, r.id
      LIMIT ${page.pageSize} OFFSET ${(page.page - 1) * page.pageSize}`.execute(db),
    sql<{ n: string }>`SELECT count(*) AS n FROM project_relations
      WHERE from_project_id = ${projectId} OR to_project_id = ${projectId}`.execute(db),
  ]);
  return { items: rows.rows.map((r) => toRelation(r, projectId)), total: Number(count.rows[0]?.n ?? 0) };
}
