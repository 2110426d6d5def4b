import { isoOrThrow, type PageRequest } from '@platform/kit';
import { type Selectable, sql } from 'kysely';
import type { DecisionStatus } from '../domain/decisions.ts';
import type { Decision, DecisionDetail } from '../schemas/registers.ts';
import type { Db, Decisions } from './db.ts';

const toDecision = (r: Selectable<Decisions>): Decision => ({
  id: r.id,
  project_id: r.project_id,
  question: r.question,
  context: r.context,
  status: r.status as DecisionStatus,
  outcome: r.outcome,
  alternative_id: r.alternative_id,
  cost_minor: r.cost_minor === null ? null : Number(r.cost_minor),
  decided_by: r.decided_by,
  decided_at: r.decided_at === null ? null : isoOrThrow(r.decided_at),
  created_by: r.created_by,
  created_at: isoOrThrow(r.created_at),
  updated_at: isoOrThrow(r.updated_at),
});

export async function insertDecision(
  db: Db,
  row: { id: string; project_id: string; question: string; context: string; created_by: string },
  alternatives: readonly { id: string; title: string; description: string; cost_minor: number | null }[],
  participantFids: readonly string[],
  now: Date,
): Promise<Decision> {
  const inserted = await db
    .insertInto('decisions')
    .values({ ...row, status: 'open', created_at: now, updated_at: now })
    .returningAll()
    .executeTakeFirstOrThrow();
  if (alternatives.length > 0) {
    await db
      .insertInto('decision_alternatives')
      .values(alternatives.map((a, i) => ({ ...a, decision_id: row.id, seq: i + 1 })))
      .execute();
  }
  if (participantFids.length > 0) {
    await db
      .insertInto('decision_participants')
      .values(participantFids.map((participant_fid) => ({ decision_id: row.id, participant_fid })))
      .execute();
  }
  return toDecision(inserted);
}

export async function findDecision(db: Db, id: string, opts: { lock?: boolean } = {}): Promise<Decision | undefined> {
  let q = db.selectFrom('decisions').selectAll().where('id', '=', id);
  if (opts.lock) q = q.forUpdate();
  const row = await q.executeTakeFirst();
  return row && toDecision(row);
}

export async function alternativesOf(db: Db, decisionId: string): Promise<DecisionDetail['alternatives']> {
  const rows = await db
    .selectFrom('decision_alternatives')
    .select(['id', 'seq', 'title', 'description', 'cost_minor'])
    .where('decision_id', '=', decisionId)
    .orderBy('seq')
    .execute();
  return rows.map((r) => ({ ...r, cost_minor: r.cost_minor === null ? null : Number(r.cost_minor) }));
}

export async function participantsOf(db: Db, decisionId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('decision_participants')
    .select('participant_fid')
    .where('decision_id', '=', decisionId)
    .orderBy('participant_fid')
    .execute();
  return rows.map((r) => r.participant_fid);
}

export async function decisionDetail(db: Db, id: string): Promise<DecisionDetail | undefined> {
  const decision = await findDecision(db, id);
  if (!decision) return undefined;
  const [alternatives, participant_fids] = await Promise.all([alternativesOf(db, id), participantsOf(db, id)]);
  return { ...decision, alternatives, participant_fids };
}

export async function recordOutcome(
  db: Db,
  id: string,
  outcome: { outcome: string; alternative_id: string | null; cost_minor: number; decided_by: string },
  now: Date,
): Promise<Decision> {
  const row = await db
    .updateTable('decisions')
    .set({ ...outcome, status: 'decided', decided_at: now, updated_at: now })
    .where('id', '=', id)
    .where('status', '=', 'open')
    .returningAll()
    .executeTakeFirstOrThrow();
  return toDecision(row);
}

/** Decisions newest first, without alternatives and participants (CON-141). */
export async function listDecisions(
  db: Db,
  filter: { project_id?: string; status?: string },
  page: PageRequest,
): Promise<{ items: Decision[]; total: number }> {
  let q = db.selectFrom('decisions');
  if (filter.project_id) q = q.where('project_id', '=', filter.project_id);
  if (filter.status) q = q.where('status', '=', filter.status);
  const [rows, count] = await Promise.all([
    q
      .selectAll()
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(page.pageSize)
      .offset((page.page - 1) * page.pageSize)
      .execute(),
    q.select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow(),
  ]);
  return { items: rows.map(toDecision), total: Number(count.n) };
}
