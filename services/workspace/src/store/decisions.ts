import { isoOrThrow, type PageRequest } from '@platform/kit';
import { type Selectable, sql } from 'kysely';
import type { DecisionStatus } from '../domain/decisions.ts';
import type { Decision } from '../schemas/decisions.ts';
import type { Db, Decisions } from './db.ts';

const COLUMNS = [
  'id',
  'project_id',
  'title',
  'detail',
  'status',
  'proposed_by',
  'created_at',
  'approved_by',
  'approved_at',
  'supersedes',
  'superseded_by',
  'archived_at',
] as const;

const toDecision = (r: Pick<Selectable<Decisions>, (typeof COLUMNS)[number]>): Decision => ({
  id: r.id,
  project_id: r.project_id,
  title: r.title,
  detail: r.detail,
  // The column's CHECK holds it to DECISION_STATUSES.
  status: r.status as DecisionStatus,
  proposed_by: r.proposed_by,
  created_at: isoOrThrow(r.created_at),
  approved_by: r.approved_by ?? null,
  approved_at: r.approved_at ? isoOrThrow(r.approved_at) : null,
  supersedes: r.supersedes ?? null,
  superseded_by: r.superseded_by ?? null,
  archived_at: r.archived_at ? isoOrThrow(r.archived_at) : null,
});

export async function insertDecision(
  trx: Db,
  d: { id: string; project_id: string; title: string; detail: string; proposed_by: string },
  now: Date,
): Promise<Decision> {
  const row = await trx
    .insertInto('decisions')
    .values({ ...d, status: 'proposed', created_at: now })
    .returning(COLUMNS)
    .executeTakeFirstOrThrow();
  return toDecision(row);
}

/** The decision on the project, locked for the command when `lock`. */
export async function findDecision(
  db: Db,
  projectId: string,
  id: string,
  opts: { lock?: boolean } = {},
): Promise<Decision | undefined> {
  let q = db.selectFrom('decisions').select(COLUMNS).where('project_id', '=', projectId).where('id', '=', id);
  if (opts.lock) q = q.forUpdate();
  const row = await q.executeTakeFirst();
  return row ? toDecision(row) : undefined;
}

export async function approveDecision(
  trx: Db,
  id: string,
  approver: string,
  now: Date,
  supersedes: string | null = null,
): Promise<Decision> {
  const row = await trx
    .updateTable('decisions')
    .set({ status: 'approved', approved_by: approver, approved_at: now, supersedes, updated_at: now })
    .where('id', '=', id)
    .returning(COLUMNS)
    .executeTakeFirstOrThrow();
  return toDecision(row);
}

/** A page of the project's decisions, newest first, optionally of one status, and how many there are. */
export async function listDecisions(
  db: Db,
  projectId: string,
  page: PageRequest,
  status?: DecisionStatus,
): Promise<{ items: Decision[]; total: number }> {
  let q = db.selectFrom('decisions').where('project_id', '=', projectId);
  if (status) q = q.where('status', '=', status);
  const rows = await q
    .select(COLUMNS)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(page.pageSize)
    .offset((page.page - 1) * page.pageSize)
    .execute();
  const total = await q.select(sql<number>`count(*)::int`.as('n')).executeTakeFirst();
  return { items: rows.map(toDecision), total: Number(total?.n ?? 0) };
}

/** Marks an approved decision superseded by another. */
export async function supersedeDecision(trx: Db, id: string, by: string, now: Date): Promise<void> {
  await trx
    .updateTable('decisions')
    .set({ status: 'superseded', superseded_by: by, updated_at: now })
    .where('id', '=', id)
    .execute();
}

/** Writes a decision's new title and detail. */
export async function updateDecisionText(
  trx: Db,
  id: string,
  text: { title: string; detail: string },
  now: Date,
): Promise<Decision> {
  const row = await trx
    .updateTable('decisions')
    .set({ ...text, updated_at: now })
    .where('id', '=', id)
    .returning(COLUMNS)
    .executeTakeFirstOrThrow();
  return toDecision(row);
}

/** Archives a decision. */
export async function archiveDecisionRow(trx: Db, id: string, now: Date): Promise<Decision> {
  const row = await trx
    .updateTable('decisions')
    .set({ status: 'archived', archived_at: now, updated_at: now })
    .where('id', '=', id)
    .returning(COLUMNS)
    .executeTakeFirstOrThrow();
  return toDecision(row);
}
