import { isoOrThrow, type PageRequest } from '@platform/kit';
import { type Selectable, sql } from 'kysely';
import type { Role } from '../domain/roles.ts';
import type { JoinRequest, Member } from '../schemas/members.ts';
import type { Db, JoinRequests, ProjectMembers } from './db.ts';

const MEMBER_COLUMNS = ['principal_id', 'role', 'added_by', 'created_at', 'updated_at'] as const;

const toMember = (r: Pick<Selectable<ProjectMembers>, (typeof MEMBER_COLUMNS)[number]>): Member => ({
  principal_id: r.principal_id,
  role: r.role as Role,
  added_by: r.added_by,
  created_at: isoOrThrow(r.created_at),
  updated_at: isoOrThrow(r.updated_at),
});

/** Members in the order they joined. */
export async function listMembers(
  db: Db,
  projectId: string,
  page: PageRequest,
): Promise<{ items: Member[]; total: number }> {
  const base = db.selectFrom('project_members').where('project_id', '=', projectId);
  const [rows, count] = await Promise.all([
    base
      .select(MEMBER_COLUMNS)
      .orderBy('created_at')
      .orderBy('principal_id')
      .limit(page.pageSize)
      .offset((page.page - 1) * page.pageSize)
      .execute(),
    base.select(sql<string>`count(*)`.as('n')).executeTakeFirst(),
  ]);
  return { items: rows.map(toMember), total: Number(count?.n ?? 0) };
}

export async function findMember(db: Db, projectId: string, principalId: string): Promise<Member | undefined> {
  const row = await db
    .selectFrom('project_members')
    .select(MEMBER_COLUMNS)
    .where('project_id', '=', projectId)
    .where('principal_id', '=', principalId)
    .executeTakeFirst();
  return row ? toMember(row) : undefined;
}

export async function insertMember(
  trx: Db,
  projectId: string,
  principalId: string,
  role: Role,
  by: string,
  now: Date,
): Promise<Member> {
  const row = await trx
    .insertInto('project_members')
    .values({ project_id: projectId, principal_id: principalId, role, added_by: by, created_at: now, updated_at: now })
    .returning(MEMBER_COLUMNS)
    .executeTakeFirstOrThrow();
  return toMember(row);
}

export async function setMemberRole(
  trx: Db,
  projectId: string,
  principalId: string,
  role: Role,
  now: Date,
): Promise<Member> {
  const row = await trx
    .updateTable('project_members')
    .set({ role, updated_at: now })
    .where('project_id', '=', projectId)
    .where('principal_id', '=', principalId)
    .returning(MEMBER_COLUMNS)
    .executeTakeFirstOrThrow();
  return toMember(row);
}

export async function deleteMember(trx: Db, projectId: string, principalId: string): Promise<void> {
  await trx
    .deleteFrom('project_members')
    .where('project_id', '=', projectId)
    .where('principal_id', '=', principalId)
    .execute();
}

export async function countOwners(db: Db, projectId: string): Promise<number> {
  const row = await db
    .selectFrom('project_members')
    .select(sql<string>`count(*)`.as('n'))
    .where('project_id', '=', projectId)
    .where('role', '=', 'owner')
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

// Join requests: one row per project and principal; a new request after a decision reopens it.

const JOIN_COLUMNS = [
  'project_id',
  'principal_id',
  'status',
  'message',
  'role',
  'decided_by',
  'decided_at',
  'created_at',
  'updated_at',
] as const;

const toJoinRequest = (r: Pick<Selectable<JoinRequests>, (typeof JOIN_COLUMNS)[number]>): JoinRequest => ({
  project_id: r.project_id,
  principal_id: r.principal_id,
  status: r.status as JoinRequest['status'],
  message: r.message,
  role: (r.role as Role | null) ?? null,
  decided_by: r.decided_by ?? null,
  decided_at: r.decided_at ? isoOrThrow(r.decided_at) : null,
  created_at: isoOrThrow(r.created_at),
  updated_at: isoOrThrow(r.updated_at),
});

export async function findJoinRequest(
  db: Db,
  projectId: string,
  principalId: string,
  opts: { lock?: boolean } = {},
): Promise<JoinRequest | undefined> {
  let q = db
    .selectFrom('join_requests')
    .select(JOIN_COLUMNS)
    .where('project_id', '=', projectId)
    .where('principal_id', '=', principalId);
  if (opts.lock) q = q.forUpdate();
  const row = await q.executeTakeFirst();
  return row ? toJoinRequest(row) : undefined;
}

/** Opens a pending request, or reopens a decided one (a fresh request: created_at is now). */
export async function openJoinRequest(
  trx: Db,
  projectId: string,
  principalId: string,
  message: string,
  now: Date,
): Promise<JoinRequest> {
  const fresh = {
    status: 'pending',
    message,
    role: null,
    decided_by: null,
    decided_at: null,
    created_at: now,
    updated_at: now,
  };
  const row = await trx
    .insertInto('join_requests')
    .values({ project_id: projectId, principal_id: principalId, ...fresh })
    .onConflict((oc) => oc.columns(['project_id', 'principal_id']).doUpdateSet(fresh))
    .returning(JOIN_COLUMNS)
    .executeTakeFirstOrThrow();
  return toJoinRequest(row);
}

export async function decideJoinRequest(
  trx: Db,
  projectId: string,
  principalId: string,
  d: { status: 'approved' | 'declined'; role: Role | null; by: string },
  now: Date,
): Promise<JoinRequest> {
  const row = await trx
    .updateTable('join_requests')
    .set({ status: d.status, role: d.role, decided_by: d.by, decided_at: now, updated_at: now })
    .where('project_id', '=', projectId)
    .where('principal_id', '=', principalId)
    .returning(JOIN_COLUMNS)
    .executeTakeFirstOrThrow();
  return toJoinRequest(row);
}

/** Pending requests first (oldest first, so none waits forever), then decided ones, latest decision first. */
export async function listJoinRequests(
  db: Db,
  projectId: string,
  f: { status?: JoinRequest['status'] },
  page: PageRequest,
): Promise<{ items: JoinRequest[]; total: number }> {
  let base = db.selectFrom('join_requests').where('project_id', '=', projectId);
  if (f.status) base = base.where('status', '=', f.status);
  const [rows, count] = await Promise.all([
    base
      .select(JOIN_COLUMNS)
      .orderBy(sql`CASE WHEN status = 'pending' THEN 0 ELSE 1 END`)
      .orderBy(sql`CASE WHEN status = 'pending' THEN created_at END`)
      .orderBy('decided_at', 'desc')
      .orderBy('principal_id')
      .limit(page.pageSize)
      .offset((page.page - 1) * page.pageSize)
      .execute(),
    base.select(sql<string>`count(*)`.as('n')).executeTakeFirst(),
  ]);
  return { items: rows.map(toJoinRequest), total: Number(count?.n ?? 0) };
}
