import { isoOrThrow, type PageRequest } from '@platform/kit';
import { type Selectable, sql } from 'kysely';
import type { ApprovalStatus, ReviewerInput, SubjectType } from '../domain/approvals.ts';
import type { Approval, ApprovalRow } from '../schemas/registers.ts';
import type { ApprovalReviewers, Approvals, Db } from './db.ts';

const stamp = (v: Date | string | null) => (v === null ? null : isoOrThrow(v));

export const toApprovalRow = (r: Selectable<Approvals>): ApprovalRow => ({
  id: r.id,
  project_id: r.project_id,
  subject_type: r.subject_type as SubjectType,
  subject_id: r.subject_id,
  stage: r.stage,
  status: r.status as ApprovalStatus,
  title: r.title,
  requested_by: r.requested_by,
  created_at: isoOrThrow(r.created_at),
  decided_at: stamp(r.decided_at),
});

export type ReviewerRow = Approval['reviewers'][number];

const toReviewer = (r: Selectable<ApprovalReviewers>): ReviewerRow => ({
  email: r.email,
  required: r.required,
  response: r.response,
  note: r.note,
  responded_by: r.responded_by,
  responded_at: stamp(r.responded_at),
});

/** Writes the approval and its reviewers (already lowercased and unique). */
export async function insertApproval(
  db: Db,
  row: {
    id: string;
    project_id: string;
    subject_type: SubjectType;
    subject_id: string | null;
    stage: string | null;
    title: string;
    requested_by: string;
  },
  reviewers: readonly ReviewerInput[],
  now: Date,
): Promise<Approval> {
  const inserted = await db
    .insertInto('approvals')
    .values({ ...row, status: 'pending', created_at: now })
    .returningAll()
    .executeTakeFirstOrThrow();
  const rows = await db
    .insertInto('approval_reviewers')
    .values(reviewers.map((r) => ({ approval_id: row.id, email: r.email, required: r.required })))
    .returningAll()
    .execute();
  return { ...toApprovalRow(inserted), reviewers: rows.map(toReviewer) };
}

/** One approval; `lock` takes its row FOR UPDATE, so two answers settle it one after the other. */
export async function findApproval(
  db: Db,
  id: string,
  opts: { lock?: boolean } = {},
): Promise<ApprovalRow | undefined> {
  let q = db.selectFrom('approvals').selectAll().where('id', '=', id);
  if (opts.lock) q = q.forUpdate();
  const row = await q.executeTakeFirst();
  return row && toApprovalRow(row);
}

/** An approval's reviewers, required ones first, then by email. */
export async function reviewersOf(db: Db, approvalId: string): Promise<ReviewerRow[]> {
  const rows = await db
    .selectFrom('approval_reviewers')
    .selectAll()
    .where('approval_id', '=', approvalId)
    .orderBy('required', 'desc')
    .orderBy('email')
    .execute();
  return rows.map(toReviewer);
}

export async function approvalWithReviewers(db: Db, id: string): Promise<Approval | undefined> {
  const row = await findApproval(db, id);
  return row && { ...row, reviewers: await reviewersOf(db, id) };
}

/** Records one reviewer's answer on their own row. */
export async function recordResponse(
  db: Db,
  approvalId: string,
  email: string,
  answer: { response: 'approved' | 'rejected'; note: string | null; responded_by: string },
  now: Date,
) {
  await db
    .updateTable('approval_reviewers')
    .set({ ...answer, responded_at: now })
    .where('approval_id', '=', approvalId)
    .where('email', '=', email)
    .where('response', 'is', null)
    .executeTakeFirstOrThrow();
}

export async function settleApproval(db: Db, id: string, status: 'approved' | 'rejected', now: Date) {
  const row = await db
    .updateTable('approvals')
    .set({ status, decided_at: now })
    .where('id', '=', id)
    .where('status', '=', 'pending')
    .returningAll()
    .executeTakeFirstOrThrow();
  return toApprovalRow(row);
}

/** Approvals newest first, without reviewers (CON-141). */
export async function listApprovals(
  db: Db,
  filter: { project_id?: string; subject_type?: string; status?: string },
  page: PageRequest,
): Promise<{ items: ApprovalRow[]; total: number }> {
  let q = db.selectFrom('approvals');
  if (filter.project_id) q = q.where('project_id', '=', filter.project_id);
  if (filter.subject_type) q = q.where('subject_type', '=', filter.subject_type);
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
  return { items: rows.map(toApprovalRow), total: Number(count.n) };
}
