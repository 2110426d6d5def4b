import { isoOrThrow } from '@platform/kit';
import { sql } from 'kysely';
import type { AuditEntry } from '../domain/audit.ts';
import type { AuditRow } from '../schemas/audit.ts';
import type { Db } from './db.ts';

/**
 * Writes an event's audit row; a redelivered event (same event id) writes nothing. Returns whether
 * a row was written.
 */
export async function insertAuditRow(db: Db, e: AuditEntry, now: Date): Promise<boolean> {
  const r = await db
    .insertInto('audit_log')
    .values({ ...e, recorded_at: now })
    .onConflict((oc) => oc.column('event_id').doNothing())
    .returning('id')
    .executeTakeFirst();
  return r !== undefined;
}

/**
 * Writes many events' audit rows in one statement; redelivered ones (same event id) write nothing.
 * The rows travel as one array per column (nine parameters, not nine per row): binding a few
 * thousand parameters cost the audit consumer more than the insert itself.
 */
export async function insertAuditRows(db: Db, entries: AuditEntry[], now: Date): Promise<void> {
  if (entries.length === 0) return;
  const column = <K extends keyof AuditEntry>(k: K) => entries.map((e) => e[k]);
  await sql`
    INSERT INTO audit_log (event_id, domain, event_type, source, actor, project_id, summary, occurred_at, recorded_at)
    SELECT event_id, domain, event_type, source, actor, project_id, summary, occurred_at, ${now}
    FROM unnest(${column('event_id')}::uuid[], ${column('domain')}::text[], ${column('event_type')}::text[],
      ${column('source')}::text[], ${column('actor')}::text[], ${column('project_id')}::uuid[],
      ${column('summary')}::text[], ${column('occurred_at')}::timestamptz[])
      AS e(event_id, domain, event_type, source, actor, project_id, summary, occurred_at)
    ON CONFLICT (event_id) DO NOTHING`.execute(db);
}

export interface AuditFilter {
  domain?: string;
  type?: string;
  since?: Date;
  projectId?: string;
}

/** A page of audit rows, newest first, strictly before the cursor's row id when given. */
export async function listAuditRows(
  db: Db,
  f: AuditFilter,
  beforeId: string | undefined,
  limit: number,
): Promise<{ items: AuditRow[]; nextId: string | null }> {
  let q = db
    .selectFrom('audit_log')
    .select([
      'id',
      'event_id',
      'domain',
      'event_type',
      'source',
      'actor',
      'project_id',
      'summary',
      'occurred_at',
      'recorded_at',
    ]);
  if (f.domain) q = q.where('domain', '=', f.domain);
  if (f.type) q = q.where('event_type', '=', f.type);
  if (f.since) q = q.where('occurred_at', '>=', f.since);
  if (f.projectId) q = q.where('project_id', '=', f.projectId);
  if (beforeId !== undefined) q = q.where('id', '<', Number(beforeId));
  const rows = await q
    .orderBy('id', 'desc')
    .limit(limit + 1)
    .execute();
  const more = rows.length > limit;
  const page = rows.slice(0, limit);
  return {
    items: page.map((r) => ({
      id: String(r.id),
      event_id: r.event_id,
      domain: r.domain,
      type: r.event_type,
      source: r.source,
      actor: r.actor,
      project_id: r.project_id,
      summary: r.summary,
      occurred_at: isoOrThrow(r.occurred_at),
      recorded_at: isoOrThrow(r.recorded_at),
    })),
    nextId: more ? String(page[page.length - 1].id) : null,
  };
}

/** The audit rows of the given event ids (tests and the benchmark wait on them). */
export async function countAuditRows(db: Db, eventIds: string[]): Promise<number> {
  if (eventIds.length === 0) return 0;
  const r = await db
    .selectFrom('audit_log')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('event_id', 'in', eventIds)
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

/**
 * Whether a workspace record a knowledge message names may still feed knowledge: gone (deleted),
 * withdrawn (its own or its project's contribution turned off), or open.
 */
export async function evidenceKnowledgeState(db: Db, evidenceId: string): Promise<'gone' | 'withdrawn' | 'open'> {
  const row = await db
    .selectFrom('evidence')
    .leftJoin('projects', 'projects.id', 'evidence.project_id')
    .select(['evidence.contributes_to_knowledge as own', 'projects.contributes_to_knowledge as project'])
    .where('evidence.id', '=', evidenceId)
    .executeTakeFirst();
  if (!row) return 'gone';
  return row.own && row.project !== false ? 'open' : 'withdrawn';
}
