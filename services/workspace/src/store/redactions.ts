import { isoOrThrow, type PageRequest } from '@platform/kit';
import { type Selectable, sql } from 'kysely';
import type { RedactionStatus } from '../domain/conversations.ts';
import type { Redaction } from '../schemas/conversations.ts';
import type { Db, RedactionRequests } from './db.ts';

const REDACTION_COLUMNS = [
  'r.id',
  'r.conversation_id',
  'r.seq',
  'r.reason',
  'r.status',
  'r.requested_by',
  'r.requested_at',
  'r.approved_by',
  'r.approved_at',
  'c.project_id',
] as const;

type Row = Pick<
  Selectable<RedactionRequests>,
  | 'id'
  | 'conversation_id'
  | 'seq'
  | 'reason'
  | 'status'
  | 'requested_by'
  | 'requested_at'
  | 'approved_by'
  | 'approved_at'
> & {
  project_id: string | null;
};

/** A request as the API shows it; project_id is its conversation's (absent while unfiled). */
const toRedaction = (r: Row): Redaction => ({
  id: r.id,
  conversation_id: r.conversation_id,
  ...(r.project_id === null ? {} : { project_id: r.project_id }),
  seq: Number(r.seq),
  reason: r.reason,
  // The column's CHECK holds it to pending or approved.
  status: r.status as RedactionStatus,
  requested_by: r.requested_by,
  requested_at: isoOrThrow(r.requested_at),
  approved_by: r.approved_by ?? null,
  approved_at: r.approved_at === null ? null : isoOrThrow(r.approved_at),
});

const base = (db: Db) =>
  db.selectFrom('redaction_requests as r').innerJoin('conversations as c', 'c.id', 'r.conversation_id');

export async function findRedaction(db: Db, id: string, opts: { lock?: boolean } = {}): Promise<Redaction | undefined> {
  let q = base(db).select(REDACTION_COLUMNS).where('r.id', '=', id);
  if (opts.lock) q = q.forUpdate('r');
  const row = await q.executeTakeFirst();
  return row ? toRedaction(row) : undefined;
}

/** The pending request on a turn, if any (one at a time per turn). */
export async function pendingRedaction(db: Db, conversationId: string, seq: number): Promise<Redaction | undefined> {
  const row = await base(db)
    .select(REDACTION_COLUMNS)
    .where('r.conversation_id', '=', conversationId)
    .where('r.seq', '=', seq)
    .where('r.status', '=', 'pending')
    .executeTakeFirst();
  return row ? toRedaction(row) : undefined;
}

export async function insertRedaction(
  trx: Db,
  r: { id: string; conversation_id: string; seq: number; reason: string; requested_by: string },
  now: Date,
): Promise<Redaction> {
  await trx
    .insertInto('redaction_requests')
    .values({ ...r, status: 'pending', requested_at: now })
    .execute();
  return (await findRedaction(trx, r.id)) as Redaction;
}

export async function approveRedaction(trx: Db, id: string, by: string, now: Date): Promise<Redaction> {
  await trx
    .updateTable('redaction_requests')
    .set({ status: 'approved', approved_by: by, approved_at: now })
    .where('id', '=', id)
    .execute();
  return (await findRedaction(trx, id)) as Redaction;
}

/** A page of the requests on a project's conversations, newest first, and how many match. */
export async function listRedactions(
  db: Db,
  projectId: string,
  status: RedactionStatus | undefined,
  page: PageRequest,
): Promise<{ items: Redaction[]; total: number }> {
  let q = base(db).where('c.project_id', '=', projectId);
  if (status) q = q.where('r.status', '=', status);
  const rows = await q
    .select(REDACTION_COLUMNS)
    .orderBy('r.requested_at', 'desc')
    .orderBy('r.id', 'desc')
    .limit(page.pageSize)
    .offset((page.page - 1) * page.pageSize)
    .execute();
  const total = await q.select(sql<number>`count(*)::int`.as('n')).executeTakeFirst();
  return { items: rows.map(toRedaction), total: Number(total?.n ?? 0) };
}
