import { isoOrThrow, type PageRequest, uuidv7 } from '@platform/kit';
import { sql } from 'kysely';
import type { ActivityEntry } from '../domain/activity.ts';
import type { ActivityRow } from '../schemas/feed.ts';
import type { Db } from './db.ts';

/**
 * Appends rows to their projects' feeds in the caller's transaction. Each project's head is raised
 * by the number of its rows (the head row's lock orders concurrent writers), and the rows take the
 * positions after the old head, in the order given.
 */
export async function appendActivity(trx: Db, entries: readonly ActivityEntry[], now: Date): Promise<void> {
  const byProject = new Map<string, ActivityEntry[]>();
  for (const e of entries) byProject.set(e.project_id, [...(byProject.get(e.project_id) ?? []), e]);
  for (const [projectId, rows] of byProject) {
    // One statement: the head moves by the rows' count and the rows take the positions it passed
    // (issue 22.1: one round trip where there were two).
    const values = sql.join(
      rows.map(
        (r, i) =>
          sql`(${uuidv7(now.getTime())}::uuid, ${r.kind}::text, ${r.subject_id}::uuid, ${r.actor}::text, ${i + 1}::bigint)`,
      ),
    );
    await sql`
      WITH head AS (
        INSERT INTO activity_heads (project_id, position) VALUES (${projectId}, ${rows.length})
        ON CONFLICT (project_id) DO UPDATE SET position = activity_heads.position + ${rows.length}
        RETURNING position
      )
      INSERT INTO activity (id, project_id, kind, subject_id, actor, position, created_at)
      SELECT v.id, ${projectId}, v.kind, v.subject_id, v.actor, head.position - ${rows.length} + v.ord, ${now}
      FROM head, (VALUES ${values}) AS v (id, kind, subject_id, actor, ord)`.execute(trx);
  }
}

/** The project's feed position: the position of its latest activity row, 0 before the first. */
export async function feedHead(db: Db, projectId: string): Promise<number> {
  const row = await db
    .selectFrom('activity_heads')
    .select('position')
    .where('project_id', '=', projectId)
    .executeTakeFirst();
  return Number(row?.position ?? 0);
}

const ACTIVITY_COLUMNS = ['id', 'project_id', 'position', 'kind', 'subject_id', 'actor', 'created_at'] as const;

/** A page of the project's feed, newest first (by position), and how many rows it holds (its head). */
export async function listActivity(
  db: Db,
  projectId: string,
  page: PageRequest,
  kind?: string,
): Promise<{ items: ActivityRow[]; total: number }> {
  let q = db.selectFrom('activity').select(ACTIVITY_COLUMNS).where('project_id', '=', projectId);
  if (kind !== undefined) q = q.where('kind', '=', kind);
  const rows = await q
    .orderBy('position', 'desc')
    .limit(page.pageSize)
    .offset((page.page - 1) * page.pageSize)
    .execute();
  const total =
    kind === undefined
      ? await feedHead(db, projectId)
      : Number(
          (
            await sql<{ n: number }>`
              SELECT count(*)::int AS n FROM activity WHERE project_id = ${projectId} AND kind = ${kind}`.execute(db)
          ).rows[0]?.n ?? 0,
        );
  return {
    items: rows.map((r) => ({
      id: r.id,
      project_id: r.project_id,
      position: Number(r.position),
      kind: r.kind,
      subject_id: r.subject_id,
      actor: r.actor,
      created_at: isoOrThrow(r.created_at),
    })),
    total,
  };
}

/** How many rows of each kind the feed holds after `since` up to `upTo` (positions). */
export async function countActivity(
  db: Db,
  projectId: string,
  since: number,
  upTo: number,
): Promise<Record<string, number>> {
  const rows = await db
    .selectFrom('activity')
    .select(['kind', sql<number>`count(*)::int`.as('n')])
    .where('project_id', '=', projectId)
    .where('position', '>', since)
    .where('position', '<=', upTo)
    .groupBy('kind')
    .execute();
  return Object.fromEntries(
    rows.map((r) => [r.kind, Number(r.n)]).sort(([a], [b]) => String(a).localeCompare(String(b))),
  );
}
