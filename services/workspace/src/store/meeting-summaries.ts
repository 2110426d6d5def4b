import { sql } from 'kysely';
import type { Db } from './db.ts';

/** meeting-summaries' reads and writes (issue 19) over helper A's evidence tables. */

export interface SummaryCandidate {
  id: string;
  kind: string;
  source: string;
  author: string;
  title: string;
  project_id: string | null;
}

/**
 * Meetings and recordings with a transcript and no summary yet, oldest first, those that failed
 * fewer times before others (so one that keeps failing does not hold the rest back).
 */
export async function meetingsNeedingSummary(db: Db, limit: number): Promise<SummaryCandidate[]> {
  return db
    .selectFrom('evidence as e')
    .leftJoin('evidence_summaries as s', 's.evidence_id', 'e.id')
    .select(['e.id', 'e.kind', 'e.source', 'e.author', 'e.title', 'e.project_id'])
    .where('e.kind', 'in', ['meeting', 'recording'])
    .where('e.transcription_status', '=', 'transcribed')
    .where('e.archived_at', 'is', null)
    .where('e.last_seq', '>', 0)
    .where((eb) => eb.or([eb('s.evidence_id', 'is', null), eb('s.summary', 'is', null)]))
    .orderBy(sql`coalesce(s.failed_attempts, 0)`)
    .orderBy('e.created_at')
    .orderBy('e.id')
    .limit(limit)
    .execute();
}

/** The transcript's lines (speaker: text), at most `maxLines` from the start. */
export async function transcriptLines(db: Db, evidenceId: string, maxLines: number): Promise<string[]> {
  const rows = await db
    .selectFrom('evidence_utterances')
    .select(['speaker', 'text'])
    .where('evidence_id', '=', evidenceId)
    .orderBy('seq')
    .limit(maxLines)
    .execute();
  return rows.map((r) => `${r.speaker}: ${r.text}`);
}

export async function saveSummary(trx: Db, evidenceId: string, summary: string, now: Date) {
  await trx
    .insertInto('evidence_summaries')
    .values({ evidence_id: evidenceId, summary, written_at: now, last_attempt_at: now })
    .onConflict((oc) =>
      oc.column('evidence_id').doUpdateSet({ summary, written_at: now, last_attempt_at: now, last_failure: null }),
    )
    .execute();
}

export async function recordSummaryFailure(db: Db, evidenceId: string, reason: string, now: Date) {
  await db
    .insertInto('evidence_summaries')
    .values({ evidence_id: evidenceId, failed_attempts: 1, last_failure: reason, last_attempt_at: now })
    .onConflict((oc) =>
      oc.column('evidence_id').doUpdateSet((eb) => ({
        failed_attempts: eb('evidence_summaries.failed_attempts', '+', 1),
        last_failure: reason,
        last_attempt_at: now,
      })),
    )
    .execute();
}

export async function findSummary(db: Db, evidenceId: string) {
  return db.selectFrom('evidence_summaries').selectAll().where('evidence_id', '=', evidenceId).executeTakeFirst();
}
