import { isoOrThrow } from '@platform/kit';
import { sql } from 'kysely';
import type { Db } from './db.ts';

/** All SQL of GET /v1/me/meetings: a person's meetings in a range of New York days (issue 20). */

export interface MyMeetingRow {
  id: string;
  title: string;
  kind: string;
  source: string;
  project_id: string | null;
  started_at: string;
  ended_at: string | null;
  duration_ms: number | null;
  participants: string[];
  person_speakers: string[];
  line_count: number;
  decisions_count: number;
}

export interface MyMeetingsQuery {
  principalId: string;
  /** Lowercased; null when the caller is known by FID only. */
  email: string | null;
  from: string;
  to: string;
  limit: number;
}

const ZONE = 'America/New_York';

/**
 * Meetings, threads and recordings the person can read (author, or a member of the filed project)
 * and took part in (author; a participant named by their email; a speaker assigned to their FID or
 * written as their email), opened on a New York day of from..to, oldest first. Decisions are not
 * linked to meetings, so a meeting's count is the decisions proposed on its project from its start
 * to the end of its New York day (withdrawn ones left out).
 */
export async function listMyMeetings(db: Db, q: MyMeetingsQuery): Promise<MyMeetingRow[]> {
  const email = q.email ?? '';
  const { rows } = await sql<{
    id: string;
    title: string;
    kind: string;
    source: string;
    project_id: string | null;
    created_at: Date | string;
    ended_at: Date | string | null;
    last_start_ms: number | null;
    participants: string[] | null;
    person_speakers: string[] | null;
    line_count: number;
    decisions_count: number | string;
  }>`
    SELECT e.id, e.title, e.kind, e.source, e.project_id, e.created_at, e.ended_at,
      (SELECT max(u.start_ms) FROM evidence_utterances u
        WHERE u.evidence_id = e.id AND u.seq >= e.transcript_first_seq) AS last_start_ms,
      (SELECT array_agg(p.name ORDER BY p.position) FROM evidence_participants p
        WHERE p.evidence_id = e.id) AS participants,
      (SELECT array_agg(DISTINCT coalesce(s.name, u.speaker)) FROM evidence_utterances u
        LEFT JOIN evidence_speakers s ON s.evidence_id = u.evidence_id AND s.label = u.speaker
        WHERE u.evidence_id = e.id AND u.seq >= e.transcript_first_seq
          AND (s.principal_id = ${q.principalId} OR (s.label IS NULL AND lower(u.speaker) = ${email}))
      ) AS person_speakers,
      greatest(e.last_seq - e.transcript_first_seq + 1, 0)::int AS line_count,
      CASE WHEN e.project_id IS NULL THEN 0 ELSE (
        SELECT count(*) FROM decisions d
        WHERE d.project_id = e.project_id AND d.status <> 'archived'
          AND d.created_at >= e.created_at
          AND d.created_at < ((((e.created_at AT TIME ZONE ${ZONE})::date + 1)::timestamp) AT TIME ZONE ${ZONE})
      ) END AS decisions_count
    FROM evidence e
    WHERE e.kind IN ('meeting', 'thread', 'recording')
      AND e.created_at >= ((${q.from}::date)::timestamp AT TIME ZONE ${ZONE})
      AND e.created_at < (((${q.to}::date + 1)::timestamp) AT TIME ZONE ${ZONE})
      AND (e.author = ${q.principalId} OR EXISTS (
        SELECT 1 FROM project_members m WHERE m.project_id = e.project_id AND m.principal_id = ${q.principalId}))
      AND (
        e.author = ${q.principalId}
        OR EXISTS (SELECT 1 FROM evidence_participants p WHERE p.evidence_id = e.id AND lower(p.name) = ${email})
        OR EXISTS (SELECT 1 FROM evidence_speakers s WHERE s.evidence_id = e.id AND s.principal_id = ${q.principalId})
        OR EXISTS (SELECT 1 FROM evidence_utterances u WHERE u.evidence_id = e.id AND lower(u.speaker) = ${email})
      )
    ORDER BY e.created_at, e.id
    LIMIT ${q.limit}
  `.execute(db);
  return rows.map((r) => {
    const started = new Date(isoOrThrow(r.created_at));
    const ended = r.ended_at === null ? null : new Date(isoOrThrow(r.ended_at));
    const duration = ended ? Math.max(0, ended.getTime() - started.getTime()) : r.last_start_ms;
    return {
      id: r.id,
      title: r.title,
      kind: r.kind,
      source: r.source,
      project_id: r.project_id,
      started_at: started.toISOString(),
      ended_at: ended ? ended.toISOString() : null,
      duration_ms: duration ?? null,
      participants: r.participants ?? [],
      person_speakers: (r.person_speakers ?? []).sort(),
      line_count: Number(r.line_count),
      decisions_count: Number(r.decisions_count),
    };
  });
}
