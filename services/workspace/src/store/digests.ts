import { isoOrThrow } from '@platform/kit';
import { sql } from 'kysely';
import { digestIsCurrent } from '../domain/digest.ts';
import type { Digest, Visit } from '../schemas/feed.ts';
import { countActivity, feedHead } from './activity.ts';
import type { Db } from './db.ts';

/** Records the caller's visit at the feed's current position (their latest visit replaces the one before). */
export async function upsertVisit(trx: Db, projectId: string, principal: string, now: Date): Promise<Visit> {
  const position = await feedHead(trx, projectId);
  const row = await trx
    .insertInto('project_visits')
    .values({ project_id: projectId, principal, position, visited_at: now })
    .onConflict((oc) => oc.columns(['project_id', 'principal']).doUpdateSet({ position, visited_at: now }))
    .returning(['project_id', 'principal', 'position', 'visited_at'])
    .executeTakeFirstOrThrow();
  return {
    project_id: row.project_id,
    principal: row.principal,
    position: Number(row.position),
    visited_at: isoOrThrow(row.visited_at),
  };
}

async function findVisit(db: Db, projectId: string, principal: string) {
  return db
    .selectFrom('project_visits')
    .select(['position', 'visited_at'])
    .where('project_id', '=', projectId)
    .where('principal', '=', principal)
    .executeTakeFirst();
}

const DIGEST_COLUMNS = [
  'project_id',
  'since',
  'since_position',
  'position',
  'total',
  'counts',
  'line',
  'line_failed',
  'computed_at',
] as const;

/**
 * The caller's digest: the activity rows after their previous visit, counted per kind. Cached
 * against the feed position: while neither the visit nor the feed's head moved, the stored digest
 * answers as it is (same computed_at, and the line once written); otherwise the counts are taken
 * again and stored, without a line. Never calls a model.
 */
export async function digestFor(
  db: Db,
  projectId: string,
  principal: string,
  now: Date,
  canWriteLines: boolean,
): Promise<Digest> {
  const [visit, head, cached] = await Promise.all([
    findVisit(db, projectId, principal),
    feedHead(db, projectId),
    db
      .selectFrom('digests')
      .select(DIGEST_COLUMNS)
      .where('project_id', '=', projectId)
      .where('principal', '=', principal)
      .executeTakeFirst(),
  ]);
  const sincePosition = Number(visit?.position ?? 0);
  const norm = cached && {
    ...cached,
    since_position: Number(cached.since_position),
    position: Number(cached.position),
  };
  let row = norm;
  if (!digestIsCurrent(norm, sincePosition, head)) {
    const counts = await countActivity(db, projectId, sincePosition, head);
    const total = Object.values(counts).reduce((a, b) => a + b, 0);
    const values = {
      since: visit?.visited_at ?? null,
      since_position: sincePosition,
      position: head,
      counts: JSON.stringify(counts),
      total,
      computed_at: now,
      line: null,
      line_failed: false,
    };
    const stored = await db
      .insertInto('digests')
      .values({ project_id: projectId, principal, ...values })
      .onConflict((oc) => oc.columns(['project_id', 'principal']).doUpdateSet(values))
      .returning(DIGEST_COLUMNS)
      .executeTakeFirstOrThrow();
    row = { ...stored, since_position: sincePosition, position: head };
  }
  const r = row as NonNullable<typeof row>;
  return {
    project_id: r.project_id,
    since: r.since ? isoOrThrow(r.since) : null,
    since_position: r.since_position,
    position: r.position,
    total: Number(r.total),
    counts: (typeof r.counts === 'string' ? JSON.parse(r.counts) : r.counts) as Record<string, number>,
    line: r.line ?? null,
    degraded: r.line === null && (!canWriteLines || r.line_failed),
    computed_at: isoOrThrow(r.computed_at),
  };
}

/** A digest whose line is still to write (counted, with something to say). */
export interface PendingLine {
  project_id: string;
  project_name: string;
  principal: string;
  since_position: number;
  position: number;
  total: number;
  counts: Record<string, number>;
}

export async function pendingLines(db: Db, limit: number): Promise<PendingLine[]> {
  const r = await sql<{
    project_id: string;
    project_name: string;
    principal: string;
    since_position: string;
    position: string;
    total: number;
    counts: unknown;
  }>`
    SELECT d.project_id, p.name AS project_name, d.principal, d.since_position, d.position, d.total, d.counts
    FROM digests d JOIN projects p ON p.id = d.project_id
    WHERE d.line IS NULL AND NOT d.line_failed AND d.total > 0
    ORDER BY d.computed_at LIMIT ${limit}`.execute(db);
  return r.rows.map((x) => ({
    ...x,
    since_position: Number(x.since_position),
    position: Number(x.position),
    total: Number(x.total),
    counts: (typeof x.counts === 'string' ? JSON.parse(x.counts) : x.counts) as Record<string, number>,
  }));
}

/** Stores a digest's line (or that it failed) unless the digest was counted again meanwhile. */
export async function settleLine(
  db: Db,
  d: Pick<PendingLine, 'project_id' | 'principal' | 'since_position' | 'position'>,
  line: string | null,
): Promise<void> {
  await db
    .updateTable('digests')
    .set(line === null ? { line_failed: true } : { line })
    .where('project_id', '=', d.project_id)
    .where('principal', '=', d.principal)
    .where('since_position', '=', d.since_position)
    .where('position', '=', d.position)
    .execute();
}
