import { isoOrThrow, type PageRequest } from '@platform/kit';
import { type ExpressionBuilder, type Selectable, type SelectQueryBuilder, sql } from 'kysely';
import {
  type HandoffPackage,
  type HandoffRecord,
  type HandoffStatus,
  isOverdue,
  OVERDUE_STATUSES,
} from '../domain/handoffs.ts';
import type { Handoff, HandoffDetail, Receipt } from '../schemas/handoffs.ts';
import type { DB, Db, Handoffs } from './db.ts';

const HANDOFF_COLUMNS = [
  'id',
  'project_id',
  'sender',
  'receiver',
  'title',
  'next_step',
  'must_stay_true',
  'evidence_links',
  'verify_by',
  'due_on',
  'case_id',
  'status',
  'revision',
  'offered_at',
  'accepted_at',
  'cancelled_at',
  'created_at',
  'updated_at',
] as const;

const instant = (v: Date | string): Date => new Date(isoOrThrow(v));
const maybeInstant = (v: Date | string | null): Date | null => (v === null ? null : instant(v));
const dateOnly = (v: unknown): string => (v instanceof Date ? v.toISOString().slice(0, 10) : String(v).slice(0, 10));
const strings = (v: unknown): string[] => (Array.isArray(v) ? v.map(String) : []);

const toRecord = (r: Pick<Selectable<Handoffs>, (typeof HANDOFF_COLUMNS)[number]>): HandoffRecord => ({
  id: r.id,
  project_id: r.project_id,
  sender: r.sender,
  receiver: r.receiver,
  title: r.title,
  next_step: r.next_step,
  must_stay_true: strings(r.must_stay_true),
  evidence_links: strings(r.evidence_links),
  verify_by: r.verify_by === null ? null : dateOnly(r.verify_by),
  due_on: dateOnly(r.due_on),
  case_id: r.case_id,
  // The column's CHECK holds it to the five statuses.
  status: r.status as HandoffStatus,
  revision: Number(r.revision),
  offered_at: maybeInstant(r.offered_at),
  accepted_at: maybeInstant(r.accepted_at),
  cancelled_at: maybeInstant(r.cancelled_at),
  created_at: instant(r.created_at),
  updated_at: instant(r.updated_at),
});

const iso = (d: Date | null) => (d === null ? null : d.toISOString());

/** A handoff as reads show it at `now` (overdue computed, never stored). */
export const handoffView = (h: HandoffRecord, now: Date): Handoff => ({
  ...h,
  overdue: isOverdue(h, now),
  offered_at: iso(h.offered_at),
  accepted_at: iso(h.accepted_at),
  cancelled_at: iso(h.cancelled_at),
  created_at: h.created_at.toISOString(),
  updated_at: h.updated_at.toISOString(),
});

/** The handoff if it is on this project (a handoff on another project reads as none); `lock` for commands. */
export async function findHandoff(
  db: Db,
  projectId: string,
  id: string,
  opts: { lock?: boolean } = {},
): Promise<HandoffRecord | undefined> {
  let q = db.selectFrom('handoffs').select(HANDOFF_COLUMNS).where('id', '=', id).where('project_id', '=', projectId);
  if (opts.lock) q = q.forUpdate();
  const row = await q.executeTakeFirst();
  return row ? toRecord(row) : undefined;
}

const packageColumns = (p: Partial<HandoffPackage>) => ({
  ...p,
  ...(p.must_stay_true ? { must_stay_true: JSON.stringify(p.must_stay_true) } : {}),
  ...(p.evidence_links ? { evidence_links: JSON.stringify(p.evidence_links) } : {}),
});

export async function insertHandoff(
  trx: Db,
  h: HandoffPackage & { id: string; project_id: string; sender: string },
  now: Date,
): Promise<HandoffRecord> {
  const row = await trx
    .insertInto('handoffs')
    .values({
      ...h,
      must_stay_true: JSON.stringify(h.must_stay_true),
      evidence_links: JSON.stringify(h.evidence_links),
      status: 'draft',
      revision: 1,
      created_at: now,
      updated_at: now,
    })
    .returning(HANDOFF_COLUMNS)
    .executeTakeFirstOrThrow();
  return toRecord(row);
}

export type HandoffWrite = Partial<HandoffPackage> &
  Partial<Pick<HandoffRecord, 'status' | 'revision' | 'offered_at' | 'accepted_at' | 'cancelled_at'>>;

export async function updateHandoff(trx: Db, id: string, set: HandoffWrite, now: Date): Promise<HandoffRecord> {
  const row = await trx
    .updateTable('handoffs')
    .set({ ...packageColumns(set), updated_at: now })
    .where('id', '=', id)
    .returning(HANDOFF_COLUMNS)
    .executeTakeFirstOrThrow();
  return toRecord(row);
}

/** Stores the receipt of an accepted revision with the package as it was then. */
export async function insertReceipt(
  trx: Db,
  r: { handoff_id: string; project_id: string; revision: number; accepted_by: string; pkg: HandoffPackage },
  now: Date,
): Promise<void> {
  await trx
    .insertInto('handoff_receipts')
    .values({
      handoff_id: r.handoff_id,
      project_id: r.project_id,
      revision: r.revision,
      accepted_by: r.accepted_by,
      accepted_at: now,
      package: JSON.stringify(r.pkg),
    })
    .execute();
}

/** The handoff's receipts, oldest revision first. */
export async function receiptsOf(db: Db, handoffId: string): Promise<Receipt[]> {
  const rows = await db
    .selectFrom('handoff_receipts')
    .select(['revision', 'accepted_by', 'accepted_at', 'package'])
    .where('handoff_id', '=', handoffId)
    .orderBy('revision')
    .execute();
  return rows.map((r) => ({
    revision: Number(r.revision),
    accepted_by: r.accepted_by,
    accepted_at: isoOrThrow(r.accepted_at),
    package: (typeof r.package === 'string' ? JSON.parse(r.package) : r.package) as Receipt['package'],
  }));
}

/** One handoff with its receipts, as GET .../handoffs/{handoffId} and the commands answer it. */
export async function handoffDetail(db: Db, h: HandoffRecord, now: Date): Promise<HandoffDetail> {
  return { ...handoffView(h, now), receipts: await receiptsOf(db, h.id) };
}

/** Which handoffs a list covers. */
export type HandoffScope =
  | { kind: 'project'; projectId: string }
  /** Every project the principal is a member of, or every project (`all`: a platform admin). */
  | { kind: 'readable'; principalId: string; all: boolean }
  /** Offered to the principal, on projects they still belong to. */
  | { kind: 'mine'; principalId: string };

export interface HandoffFilter {
  status?: HandoffStatus | readonly HandoffStatus[];
  overdue?: boolean;
}

const memberOf = (principalId: string) => (eb: ExpressionBuilder<DB & { h: Handoffs }, 'h'>) =>
  eb.exists(
    eb
      .selectFrom('project_members as m')
      .select('m.project_id')
      .whereRef('m.project_id', '=', 'h.project_id')
      .where('m.principal_id', '=', principalId),
  );

/** A page of handoffs, newest first, and how many the list has. */
export async function listHandoffs(
  db: Db,
  scope: HandoffScope,
  filter: HandoffFilter,
  page: PageRequest,
  today: string,
  now: Date,
): Promise<{ items: Handoff[]; total: number }> {
  let q = db.selectFrom('handoffs as h') as SelectQueryBuilder<DB & { h: Handoffs }, 'h', object>;
  if (scope.kind === 'project') q = q.where('h.project_id', '=', scope.projectId);
  if (scope.kind === 'readable' && !scope.all) q = q.where(memberOf(scope.principalId));
  if (scope.kind === 'mine') q = q.where('h.receiver', '=', scope.principalId).where(memberOf(scope.principalId));
  if (filter.status !== undefined) {
    const statuses = typeof filter.status === 'string' ? [filter.status] : [...filter.status];
    q = q.where('h.status', 'in', statuses);
  }
  if (filter.overdue !== undefined) {
    const overdue = sql<boolean>`(h.status IN (${sql.join([...OVERDUE_STATUSES])}) AND h.due_on < ${today}::date)`;
    q = q.where(filter.overdue ? overdue : sql<boolean>`NOT ${overdue}`);
  }
  const [rows, count] = await Promise.all([
    q
      .select(HANDOFF_COLUMNS.map((c) => `h.${c}` as const))
      .orderBy('h.created_at', 'desc')
      .orderBy('h.id', 'desc')
      .limit(page.pageSize)
      .offset((page.page - 1) * page.pageSize)
      .execute(),
    q.select(sql<number>`count(*)::int`.as('n')).executeTakeFirst(),
  ]);
  return { items: rows.map((r) => handoffView(toRecord(r), now)), total: Number(count?.n ?? 0) };
}

/** Whether a case with this id is on the project (a handoff's linked case). */
export async function caseOnProject(db: Db, projectId: string, caseId: string): Promise<boolean> {
  const row = await db
    .selectFrom('cases')
    .select('id')
    .where('id', '=', caseId)
    .where('project_id', '=', projectId)
    .executeTakeFirst();
  return row !== undefined;
}
