import { isoOrThrow } from '@platform/kit';
import { sql } from 'kysely';
import type { Pack, PackContent } from '../schemas/pack.ts';
import { feedHead } from './activity.ts';
import type { Db } from './db.ts';
import type { ProjectRow } from './projects.ts';

const OPEN_CATEGORIES = ['backlog', 'unstarted', 'started', 'review'];

/** What the project's pack holds, read now. */
export async function packContent(db: Db, project: ProjectRow): Promise<PackContent> {
  const [goals, decisions, proposed, sources, categories] = await Promise.all([
    sql<{
      id: string;
      title: string;
      status: string;
      lead: string;
      target_date: string | null;
      last_status: string | null;
      last_at: Date | null;
    }>`
      SELECT g.id, g.title, g.status, g.lead, g.target_date::text AS target_date,
             c.status AS last_status, c.created_at AS last_at
      FROM goals g
      LEFT JOIN LATERAL (
        SELECT status, created_at FROM goal_checkins WHERE goal_id = g.id ORDER BY created_at DESC, id DESC LIMIT 1
      ) c ON true
      WHERE g.project_id = ${project.id} AND g.status IN ('on_track', 'at_risk', 'off_track')
      ORDER BY g.created_at, g.id`.execute(db),
    db
      .selectFrom('decisions')
      .select(['id', 'title', 'approved_at'])
      .where('project_id', '=', project.id)
      .where('status', '=', 'approved')
      .orderBy('approved_at', 'desc')
      .orderBy('id', 'desc')
      .limit(20)
      .execute(),
    sql<{ n: number }>`
      SELECT count(*)::int AS n FROM decisions WHERE project_id = ${project.id} AND status = 'proposed'`.execute(db),
    db
      .selectFrom('data_sources')
      .select(['id', 'name', 'kind', 'reference'])
      .where('project_id', '=', project.id)
      .orderBy('created_at')
      .orderBy('id')
      .limit(50)
      .execute(),
    sql<{ category: string; n: number }>`
      SELECT category, count(*)::int AS n FROM tasks WHERE project_id = ${project.id} AND NOT archived
      GROUP BY category ORDER BY category`.execute(db),
  ]);
  const byCategory = Object.fromEntries(categories.rows.map((r) => [r.category, Number(r.n)]));
  return {
    project: {
      id: project.id,
      name: project.name,
      description: project.description,
      instructions: project.instructions,
      workflow: project.workflow,
    },
    goals: goals.rows.map((g) => ({
      id: g.id,
      title: g.title,
      status: g.status,
      lead: g.lead,
      target_date: g.target_date,
      last_checkin_status: g.last_status,
      last_checkin_at: g.last_at ? isoOrThrow(g.last_at) : null,
    })),
    decisions: decisions.map((d) => ({ id: d.id, title: d.title, approved_at: isoOrThrow(d.approved_at as Date) })),
    proposed_decisions: Number(proposed.rows[0]?.n ?? 0),
    data_sources: sources,
    tasks: {
      open: OPEN_CATEGORIES.reduce((n, c) => n + (byCategory[c] ?? 0), 0),
      by_category: byCategory,
    },
  };
}

/** Where the project stands now: its feed position and change number (a pack built at both is fresh). */
export async function projectPositions(db: Db, projectId: string): Promise<{ position: number; change_seq: number }> {
  const [position, seq] = await Promise.all([
    feedHead(db, projectId),
    db.selectFrom('projects').select('change_seq').where('id', '=', projectId).executeTakeFirst(),
  ]);
  return { position, change_seq: Number(seq?.change_seq ?? 0) };
}

/**
 * The project's pack as last built, marked stale when the project moved on since; before the first
 * build, the content read now, stale.
 */
export async function readPack(db: Db, project: ProjectRow, canWriteSummaries: boolean): Promise<Pack> {
  const [stored, now] = await Promise.all([
    db.selectFrom('context_packs').selectAll().where('project_id', '=', project.id).executeTakeFirst(),
    projectPositions(db, project.id),
  ]);
  if (!stored) {
    return {
      project_id: project.id,
      stale: true,
      built_at: null,
      position: 0,
      change_seq: 0,
      summary: null,
      degraded: !canWriteSummaries,
      content: await packContent(db, project),
    };
  }
  const position = Number(stored.position);
  const changeSeq = Number(stored.change_seq);
  return {
    project_id: project.id,
    stale: position < now.position || changeSeq < now.change_seq,
    built_at: isoOrThrow(stored.built_at),
    position,
    change_seq: changeSeq,
    summary: stored.summary ?? null,
    degraded: stored.degraded,
    content: (typeof stored.content === 'string' ? JSON.parse(stored.content) : stored.content) as PackContent,
  };
}

/** Projects whose pack is missing or stale (active ones, least recently built first). */
export async function stalePackProjects(db: Db, limit: number): Promise<string[]> {
  const r = await sql<{ id: string }>`
    SELECT p.id FROM projects p
    LEFT JOIN context_packs c ON c.project_id = p.id
    LEFT JOIN activity_heads h ON h.project_id = p.id
    WHERE p.status = 'active'
      AND (c.project_id IS NULL OR c.position < COALESCE(h.position, 0) OR c.change_seq < p.change_seq)
    ORDER BY c.built_at NULLS FIRST, p.id LIMIT ${limit}`.execute(db);
  return r.rows.map((x) => x.id);
}

export async function savePack(
  db: Db,
  p: {
    project_id: string;
    position: number;
    change_seq: number;
    content: PackContent;
    summary: string | null;
    degraded: boolean;
  },
  now: Date,
): Promise<void> {
  const values = {
    position: p.position,
    change_seq: p.change_seq,
    content: JSON.stringify(p.content),
    summary: p.summary,
    degraded: p.degraded,
    built_at: now,
  };
  await db
    .insertInto('context_packs')
    .values({ project_id: p.project_id, ...values })
    .onConflict((oc) => oc.column('project_id').doUpdateSet(values))
    .execute();
}
