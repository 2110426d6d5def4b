import { type Selectable, sql } from 'kysely';
import type { Db, TranscriptReviews } from './db.ts';

export type ReviewRow = Selectable<TranscriptReviews>;

/**
 * A review once per (agent, record, source version, sequence): a repeat inserts nothing and
 * answers the stored one (AGT-211). A concurrent repeat waits on the unique index, then reads it.
 */
export async function recordReview(
  db: Db,
  row: Omit<ReviewRow, 'details'> & { details: string },
): Promise<{ review: ReviewRow; created: boolean }> {
  const inserted = await db
    .insertInto('transcript_reviews')
    .values(row)
    .onConflict((oc) => oc.columns(['agent_id', 'record_id', 'source_version', 'sequence']).doNothing())
    .returningAll()
    .executeTakeFirst();
  if (inserted) return { review: inserted, created: true };
  const stored = await db
    .selectFrom('transcript_reviews')
    .selectAll()
    .where('agent_id', '=', row.agent_id)
    .where('record_id', '=', row.record_id)
    .where('source_version', '=', row.source_version)
    .where('sequence', '=', row.sequence)
    .executeTakeFirstOrThrow();
  return { review: stored, created: false };
}

export interface ReviewKey {
  date: string;
  id: string;
}

/**
 * Reviews in a meeting-date window, newest meeting first (then newest id). `after` reads the
 * older side of a key, `before` the newer side; one more row than the limit tells whether
 * the page has a neighbour on that side. Rows come back newest first either way.
 */
export async function listReviews(
  db: Db,
  agentId: string,
  opts: { from: string; to: string; recordId?: string; after?: ReviewKey; before?: ReviewKey; limit: number },
): Promise<{ rows: ReviewRow[]; more: boolean }> {
  let q = db
    .selectFrom('transcript_reviews')
    .selectAll()
    .where('agent_id', '=', agentId)
    .where('meeting_date', '>=', opts.from)
    .where('meeting_date', '<=', opts.to)
    .limit(opts.limit + 1);
  if (opts.recordId) q = q.where('record_id', '=', opts.recordId);
  const { after, before } = opts;
  if (before) {
    q = q
      .where(sql<boolean>`(meeting_date, id) > (${before.date}::date, ${before.id}::uuid)`)
      .orderBy('meeting_date', 'asc')
      .orderBy('id', 'asc');
  } else {
    if (after) q = q.where(sql<boolean>`(meeting_date, id) < (${after.date}::date, ${after.id}::uuid)`);
    q = q.orderBy('meeting_date', 'desc').orderBy('id', 'desc');
  }
  const rows = await q.execute();
  const more = rows.length > opts.limit;
  const page = rows.slice(0, opts.limit);
  return { rows: before ? page.reverse() : page, more };
}

/**
 * The contiguous run of reviewed sequences from 0 for exactly this record and source version
 * (AGT-214): with sequences unique and numbered from 0, the n-th smallest equals n - 1 until
 * the first gap.
 */
export async function reviewProgress(db: Db, agentId: string, recordId: string, sourceVersion: string) {
  const r = await sql<{ contiguous: number; reviewed: number }>`
    WITH s AS (
      SELECT sequence, row_number() OVER (ORDER BY sequence) - 1 AS rn FROM transcript_reviews
      WHERE agent_id = ${agentId} AND record_id = ${recordId} AND source_version = ${sourceVersion}
    )
    SELECT COALESCE(min(rn) FILTER (WHERE sequence <> rn), count(*))::int AS contiguous, count(*)::int AS reviewed
    FROM s`.execute(db);
  const row = r.rows[0] ?? { contiguous: 0, reviewed: 0 };
  return { contiguous: Number(row.contiguous), reviewed: Number(row.reviewed) };
}
