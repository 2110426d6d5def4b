import { isoOrThrow, type PageRequest } from '@platform/kit';
import { type Selectable, sql } from 'kysely';
import {
  type AmountStage,
  type CaseChanges,
  type CaseRecord,
  type CaseStatus,
  caseView,
  type ExpectedValue,
  subjectKey,
} from '../domain/cases.ts';
import type { Case, CaseAmount } from '../schemas/cases.ts';
import type { CaseAmounts, Cases, Db } from './db.ts';

export const CASE_COLUMNS = [
  'id',
  'project_id',
  'title',
  'subject',
  'owner',
  'evidence',
  'proposed_correction',
  'still_to_check',
  'status',
  'dismissal_reason',
  'verification_method',
  'expected_currency',
  'expected_one_off',
  'expected_recurring_monthly',
  'expected_recurring_months',
  'created_by',
  'created_at',
  'updated_at',
  'status_changed_at',
] as const;

const instant = (v: unknown): Date => new Date(isoOrThrow(v as Date | string));

export const toCaseRecord = (r: Pick<Selectable<Cases>, (typeof CASE_COLUMNS)[number]>): CaseRecord => ({
  id: r.id,
  project_id: r.project_id,
  title: r.title,
  subject: r.subject,
  owner: r.owner,
  evidence: Array.isArray(r.evidence) ? r.evidence.map(String) : [],
  proposed_correction: r.proposed_correction,
  still_to_check: r.still_to_check,
  // The column's CHECK holds it to the five states.
  status: r.status as CaseStatus,
  dismissal_reason: r.dismissal_reason,
  verification_method: r.verification_method,
  expected_value:
    r.expected_currency === null
      ? null
      : {
          currency: r.expected_currency,
          one_off: Number(r.expected_one_off),
          recurring_monthly: Number(r.expected_recurring_monthly),
          recurring_months: Number(r.expected_recurring_months),
        },
  created_by: r.created_by,
  created_at: instant(r.created_at),
  updated_at: instant(r.updated_at),
  status_changed_at: instant(r.status_changed_at),
});

/** The expected value as its four columns (all null when there is none). */
const expectedColumns = (v: ExpectedValue | null) => ({
  expected_currency: v?.currency ?? null,
  expected_one_off: v?.one_off ?? null,
  expected_recurring_monthly: v?.recurring_monthly ?? null,
  expected_recurring_months: v?.recurring_months ?? null,
});

/** The case if it is on this project; `lock` holds it for the command (a case on another project reads as none). */
export async function findCase(
  db: Db,
  projectId: string,
  caseId: string,
  opts: { lock?: boolean } = {},
): Promise<CaseRecord | undefined> {
  let q = db.selectFrom('cases').select(CASE_COLUMNS).where('id', '=', caseId).where('project_id', '=', projectId);
  if (opts.lock) q = q.forUpdate();
  const row = await q.executeTakeFirst();
  return row ? toCaseRecord(row) : undefined;
}

export type NewCase = Pick<
  CaseRecord,
  | 'id'
  | 'project_id'
  | 'title'
  | 'subject'
  | 'owner'
  | 'evidence'
  | 'proposed_correction'
  | 'still_to_check'
  | 'expected_value'
  | 'created_by'
>;

export async function insertCase(trx: Db, c: NewCase, now: Date): Promise<CaseRecord> {
  const { expected_value, evidence, ...rest } = c;
  const row = await trx
    .insertInto('cases')
    .values({
      ...rest,
      subject_key: subjectKey(c.subject),
      evidence: JSON.stringify(evidence),
      ...expectedColumns(expected_value),
      status: 'needs_validation',
      created_at: now,
      updated_at: now,
      status_changed_at: now,
    })
    .returning(CASE_COLUMNS)
    .executeTakeFirstOrThrow();
  return toCaseRecord(row);
}

/** Writes an open case's changed fields (the subject's comparison form follows the subject). */
export async function updateCase(trx: Db, id: string, changes: CaseChanges, now: Date): Promise<CaseRecord> {
  const { expected_value, evidence, ...rest } = changes;
  const row = await trx
    .updateTable('cases')
    .set({
      ...rest,
      ...(rest.subject === undefined ? {} : { subject_key: subjectKey(rest.subject) }),
      ...(evidence === undefined ? {} : { evidence: JSON.stringify(evidence) }),
      ...(expected_value === undefined ? {} : expectedColumns(expected_value)),
      updated_at: now,
    })
    .where('id', '=', id)
    .returning(CASE_COLUMNS)
    .executeTakeFirstOrThrow();
  return toCaseRecord(row);
}

/** Moves a case to another state with the reason or method that move records. */
export async function moveCase(
  trx: Db,
  id: string,
  move: { status: CaseStatus; dismissal_reason: string | null; verification_method: string | null },
  now: Date,
): Promise<CaseRecord> {
  const row = await trx
    .updateTable('cases')
    .set({ ...move, status_changed_at: now, updated_at: now })
    .where('id', '=', id)
    .returning(CASE_COLUMNS)
    .executeTakeFirstOrThrow();
  return toCaseRecord(row);
}

export interface CaseListFilter {
  /** Only cases in these states (actionable, or one status). */
  statuses?: readonly CaseStatus[];
  owner?: string;
}

/** A page of the project's cases, newest first (created_at, then id, descending), and how many match. */
export async function listCases(
  db: Db,
  projectId: string,
  filter: CaseListFilter,
  page: PageRequest,
): Promise<{ items: Case[]; total: number }> {
  let q = db.selectFrom('cases').where('project_id', '=', projectId);
  if (filter.statuses) {
    if (filter.statuses.length === 0) return { items: [], total: 0 };
    q = q.where('status', 'in', [...filter.statuses]);
  }
  if (filter.owner !== undefined) q = q.where('owner', '=', filter.owner);
  const rows = await q
    .select(CASE_COLUMNS)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(page.pageSize)
    .offset((page.page - 1) * page.pageSize)
    .execute();
  const total = await q.select(sql<number>`count(*)::int`.as('n')).executeTakeFirst();
  return { items: rows.map((r) => caseView(toCaseRecord(r))), total: Number(total?.n ?? 0) };
}

const AMOUNT_COLUMNS = [
  'id',
  'case_id',
  'project_id',
  'stage',
  'amount',
  'currency',
  'tied_to_correction',
  'recorded_by',
  'created_at',
] as const;

const toAmount = (r: Pick<Selectable<CaseAmounts>, (typeof AMOUNT_COLUMNS)[number]>): CaseAmount => ({
  id: r.id,
  case_id: r.case_id,
  project_id: r.project_id,
  // The column's CHECK holds it to the four stages.
  stage: r.stage as AmountStage,
  amount: Number(r.amount),
  currency: r.currency,
  tied_to_correction: r.tied_to_correction,
  recorded_by: r.recorded_by,
  created_at: isoOrThrow(r.created_at),
});

export type NewAmount = Omit<CaseAmount, 'created_at'>;

export async function insertAmount(trx: Db, a: NewAmount, now: Date): Promise<CaseAmount> {
  const row = await trx
    .insertInto('case_amounts')
    .values({ ...a, created_at: now })
    .returning(AMOUNT_COLUMNS)
    .executeTakeFirstOrThrow();
  return toAmount(row);
}

/** A page of a case's amounts, oldest first (created_at, then id), and how many there are. */
export async function listAmounts(
  db: Db,
  caseId: string,
  page: PageRequest,
): Promise<{ items: CaseAmount[]; total: number }> {
  const q = db.selectFrom('case_amounts').where('case_id', '=', caseId);
  const rows = await q
    .select(AMOUNT_COLUMNS)
    .orderBy('created_at')
    .orderBy('id')
    .limit(page.pageSize)
    .offset((page.page - 1) * page.pageSize)
    .execute();
  const total = await q.select(sql<number>`count(*)::int`.as('n')).executeTakeFirst();
  return { items: rows.map(toAmount), total: Number(total?.n ?? 0) };
}
