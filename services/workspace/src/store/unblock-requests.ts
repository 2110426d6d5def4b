import { isoOrThrow, type PageRequest, uuidv7 } from '@platform/kit';
import { type ExpressionBuilder, type Selectable, type SelectQueryBuilder, sql } from 'kysely';
import {
  type AnswerKind,
  LIVE_STATUSES,
  type UnblockRecord,
  type UnblockSource,
  type UnblockStatus,
  type WaitingType,
} from '../domain/unblock-requests.ts';
import type { Answer, UnblockRequest } from '../schemas/unblock-requests.ts';
import type { DB, Db, UnblockRequests } from './db.ts';

const COLUMNS = [
  'id',
  'project_id',
  'asker',
  'recipient',
  'needed',
  'why_now',
  'waiting_type',
  'waiting_id',
  'answer_kind',
  'options',
  'due_on',
  'snoozed_until',
  'ranking_reason',
  'source',
  'status',
  'created_at',
  'updated_at',
  'closed_at',
] as const;

const instant = (v: Date | string): Date => new Date(isoOrThrow(v));
const maybeInstant = (v: Date | string | null): Date | null => (v === null ? null : instant(v));
const dateOnly = (v: unknown): string => (v instanceof Date ? v.toISOString().slice(0, 10) : String(v).slice(0, 10));

// The CHECKs on waiting_type, answer_kind, source and status hold them to the domain's unions.
const toRecord = (r: Pick<Selectable<UnblockRequests>, (typeof COLUMNS)[number]>): UnblockRecord => ({
  id: r.id,
  project_id: r.project_id,
  asker: r.asker,
  recipient: r.recipient,
  needed: r.needed,
  why_now: r.why_now,
  waiting_type: r.waiting_type as WaitingType,
  waiting_id: r.waiting_id,
  answer_kind: r.answer_kind as AnswerKind,
  options: Array.isArray(r.options) ? r.options.map(String) : [],
  due_on: r.due_on === null ? null : dateOnly(r.due_on),
  snoozed_until: maybeInstant(r.snoozed_until),
  ranking_reason: r.ranking_reason,
  source: r.source as UnblockSource,
  status: r.status as UnblockStatus,
  created_at: instant(r.created_at),
  updated_at: instant(r.updated_at),
  closed_at: maybeInstant(r.closed_at),
});

/** The request if it is on this project (one on another project reads as none); `lock` for commands. */
export async function findUnblockRequest(
  db: Db,
  projectId: string,
  id: string,
  opts: { lock?: boolean } = {},
): Promise<UnblockRecord | undefined> {
  let q = db.selectFrom('unblock_requests').select(COLUMNS).where('id', '=', id).where('project_id', '=', projectId);
  if (opts.lock) q = q.forUpdate();
  const row = await q.executeTakeFirst();
  return row ? toRecord(row) : undefined;
}

export type NewUnblockRequest = Omit<UnblockRecord, 'status' | 'created_at' | 'updated_at' | 'closed_at'>;

export async function insertUnblockRequest(trx: Db, r: NewUnblockRequest, now: Date): Promise<UnblockRecord> {
  const row = await trx
    .insertInto('unblock_requests')
    .values({ ...r, options: JSON.stringify(r.options), status: 'open', created_at: now, updated_at: now })
    .returning(COLUMNS)
    .executeTakeFirstOrThrow();
  return toRecord(row);
}

export async function updateUnblockRequest(
  trx: Db,
  id: string,
  set: Partial<Pick<UnblockRecord, 'status' | 'snoozed_until' | 'closed_at'>>,
  now: Date,
): Promise<UnblockRecord> {
  const row = await trx
    .updateTable('unblock_requests')
    .set({ ...set, updated_at: now })
    .where('id', '=', id)
    .returning(COLUMNS)
    .executeTakeFirstOrThrow();
  return toRecord(row);
}

export async function insertAnswer(trx: Db, requestId: string, answer: string, by: string, now: Date): Promise<void> {
  await trx
    .insertInto('unblock_answers')
    .values({ id: uuidv7(now.getTime()), request_id: requestId, answer, answered_by: by, answered_at: now })
    .execute();
}

/** Marks the request's standing answer as sent back (it stays readable). */
export async function sendBackAnswer(trx: Db, requestId: string, reason: string | null, now: Date): Promise<void> {
  await trx
    .updateTable('unblock_answers')
    .set({ sent_back_at: now, sent_back_reason: reason })
    .where('request_id', '=', requestId)
    .where('sent_back_at', 'is', null)
    .execute();
}

/** Open and answered requests waiting on a record (a handoff's earlier changes requests). */
export async function liveRequestsWaitingOn(db: Db, type: WaitingType, id: string): Promise<UnblockRecord[]> {
  const rows = await db
    .selectFrom('unblock_requests')
    .select(COLUMNS)
    .where('waiting_type', '=', type)
    .where('waiting_id', '=', id)
    .where('status', 'in', [...LIVE_STATUSES])
    .orderBy('created_at')
    .orderBy('id')
    .forUpdate()
    .execute();
  return rows.map(toRecord);
}

/** Whether the task, goal or handoff is on the project. */
export async function waitingRecordOnProject(db: Db, projectId: string, type: WaitingType, id: string) {
  const table = type === 'task' ? 'tasks' : type === 'goal' ? 'goals' : 'handoffs';
  const row = await db
    .selectFrom(table)
    .select('id')
    .where('id', '=', id)
    .where('project_id', '=', projectId)
    .executeTakeFirst();
  return row !== undefined;
}

/** Requests as reads show them: each with its answers, oldest first, and the standing one. */
export async function unblockViews(db: Db, records: UnblockRecord[]): Promise<UnblockRequest[]> {
  const ids = records.map((r) => r.id);
  const answers = new Map<string, Answer[]>(ids.map((id) => [id, []]));
  if (ids.length > 0) {
    const rows = await db
      .selectFrom('unblock_answers')
      .select(['request_id', 'answer', 'answered_by', 'answered_at', 'sent_back_at', 'sent_back_reason'])
      .where('request_id', 'in', ids)
      .orderBy('answered_at')
      .orderBy('id')
      .execute();
    for (const a of rows) {
      answers.get(a.request_id)?.push({
        answer: a.answer,
        answered_by: a.answered_by,
        answered_at: isoOrThrow(a.answered_at),
        sent_back_at: a.sent_back_at === null ? null : isoOrThrow(a.sent_back_at),
        sent_back_reason: a.sent_back_reason,
      });
    }
  }
  return records.map((r) => {
    const given = answers.get(r.id) ?? [];
    const standing = given.findLast((a) => a.sent_back_at === null) ?? null;
    return {
      id: r.id,
      project_id: r.project_id,
      asker: r.asker,
      recipient: r.recipient,
      needed: r.needed,
      why_now: r.why_now,
      waiting_record: { type: r.waiting_type, id: r.waiting_id },
      answer_kind: r.answer_kind,
      options: r.options,
      due_on: r.due_on,
      snoozed_until: r.snoozed_until?.toISOString() ?? null,
      ranking_reason: r.ranking_reason,
      source: r.source,
      status: r.status,
      answer: r.status === 'open' ? null : standing,
      answers: given,
      created_at: r.created_at.toISOString(),
      updated_at: r.updated_at.toISOString(),
      closed_at: r.closed_at?.toISOString() ?? null,
    };
  });
}

/** Which requests a list covers. */
export type UnblockScope =
  | { kind: 'project'; projectId: string }
  /** Every project the principal is a member of, or every project (`all`: a platform admin). */
  | { kind: 'readable'; principalId: string; all: boolean }
  /**
   * The principal's queue on projects they still belong to: open requests they must answer and
   * answered ones they must confirm; snoozed cards hidden at `now` unless included.
   */
  | { kind: 'queue'; principalId: string; includeSnoozed: boolean; now: Date };

const memberOf = (principalId: string) => (eb: ExpressionBuilder<DB & { u: UnblockRequests }, 'u'>) =>
  eb.exists(
    eb
      .selectFrom('project_members as m')
      .select('m.project_id')
      .whereRef('m.project_id', '=', 'u.project_id')
      .where('m.principal_id', '=', principalId),
  );

/**
 * A page of requests and how many the list has. Project and readable lists go newest first; the
 * queue goes by rank: due date (soonest first, none last), then oldest first.
 */
export async function listUnblockRequests(
  db: Db,
  scope: UnblockScope,
  filter: { status?: UnblockStatus },
  page: PageRequest,
): Promise<{ items: UnblockRequest[]; total: number }> {
  let q = db.selectFrom('unblock_requests as u') as SelectQueryBuilder<DB & { u: UnblockRequests }, 'u', object>;
  if (scope.kind === 'project') q = q.where('u.project_id', '=', scope.projectId);
  if (scope.kind === 'readable' && !scope.all) q = q.where(memberOf(scope.principalId));
  if (scope.kind === 'queue') {
    const me = scope.principalId;
    q = q
      .where((eb) =>
        eb.or([
          eb.and([eb('u.status', '=', 'open'), eb('u.recipient', '=', me)]),
          eb.and([eb('u.status', '=', 'answered'), eb('u.asker', '=', me)]),
        ]),
      )
      .where(memberOf(me));
    if (!scope.includeSnoozed) {
      q = q.where((eb) => eb.or([eb('u.snoozed_until', 'is', null), eb('u.snoozed_until', '<=', scope.now)]));
    }
  }
  if (filter.status !== undefined) q = q.where('u.status', '=', filter.status);
  let ordered = q.select(COLUMNS.map((c) => `u.${c}` as const));
  ordered =
    scope.kind === 'queue'
      ? ordered.orderBy(sql`u.due_on ASC NULLS LAST`).orderBy('u.created_at').orderBy('u.id')
      : ordered.orderBy('u.created_at', 'desc').orderBy('u.id', 'desc');
  const [rows, count] = await Promise.all([
    ordered
      .limit(page.pageSize)
      .offset((page.page - 1) * page.pageSize)
      .execute(),
    q.select(sql<number>`count(*)::int`.as('n')).executeTakeFirst(),
  ]);
  return { items: await unblockViews(db, rows.map(toRecord)), total: Number(count?.n ?? 0) };
}
