import { isoOrThrow, type PageRequest } from '@platform/kit';
import { sql } from 'kysely';
import type { Role } from '../domain/roles.ts';
import type { Db } from './db.ts';
import { PROJECT_COLUMNS, type ProjectRow, toProjectRow } from './projects.ts';

export interface ProjectListFilter {
  /** Every project (a platform admin acting as admin); otherwise the caller's memberships. */
  all: boolean;
  principalId: string;
  q?: string;
  status?: 'active' | 'archived';
}

const likePattern = (q: string) => `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** Projects newest first, each with the caller's membership role (null where they have none). */
export async function listProjects(
  db: Db,
  f: ProjectListFilter,
  page: PageRequest,
): Promise<{ items: (ProjectRow & { role: Role | null })[]; total: number }> {
  let query = db
    .selectFrom('projects as p')
    .leftJoin('project_members as m', (j) =>
      j.onRef('m.project_id', '=', 'p.id').on('m.principal_id', '=', f.principalId),
    );
  if (!f.all) query = query.where('m.principal_id', 'is not', null);
  if (f.q) {
    const pattern = likePattern(f.q);
    query = query.where((eb) => eb.or([eb('p.name', 'ilike', pattern), eb('p.description', 'ilike', pattern)]));
  }
  if (f.status) query = query.where('p.status', '=', f.status);
  const [rows, count] = await Promise.all([
    query
      .select([...PROJECT_COLUMNS.map((c) => `p.${c}` as const), 'm.role'])
      .orderBy('p.created_at', 'desc')
      .orderBy('p.id', 'desc')
      .limit(page.pageSize)
      .offset((page.page - 1) * page.pageSize)
      .execute(),
    query.select(sql<string>`count(*)`.as('n')).executeTakeFirst(),
  ]);
  return {
    items: rows.map((r) => ({ ...toProjectRow(r), role: (r.role as Role | null) ?? null })),
    total: Number(count?.n ?? 0),
  };
}

export interface GalleryRow {
  id: string;
  name: string;
  description: string;
  workflow: ProjectRow['workflow'];
  member_count: number;
  role: Role | null;
  join_request_pending: boolean;
  created_at: string;
}

/**
 * The gallery: every active project any signed-in person may browse and ask to join, by name,
 * with its member count and the caller's membership and pending join request.
 */
export async function galleryProjects(
  db: Db,
  f: { principalId: string; q?: string },
  page: PageRequest,
): Promise<{ items: GalleryRow[]; total: number }> {
  let query = db.selectFrom('projects as p').where('p.status', '=', 'active');
  if (f.q) {
    const pattern = likePattern(f.q);
    query = query.where((eb) => eb.or([eb('p.name', 'ilike', pattern), eb('p.description', 'ilike', pattern)]));
  }
  const [rows, count] = await Promise.all([
    query
      .select([
        'p.id',
        'p.name',
        'p.description',
        'p.workflow',
        'p.created_at',
        sql<string>`(SELECT count(*) FROM project_members pm WHERE pm.project_id = p.id)`.as('member_count'),
        sql<string | null>`(SELECT m.role FROM project_members m
          WHERE m.project_id = p.id AND m.principal_id = ${f.principalId})`.as('role'),
        sql<boolean>`EXISTS (SELECT 1 FROM join_requests j
          WHERE j.project_id = p.id AND j.principal_id = ${f.principalId} AND j.status = 'pending')`.as('pending'),
      ])
      .orderBy(sql`lower(p.name)`)
      .orderBy('p.id')
      .limit(page.pageSize)
      .offset((page.page - 1) * page.pageSize)
      .execute(),
    query.select(sql<string>`count(*)`.as('n')).executeTakeFirst(),
  ]);
  return {
    items: rows.map((r) => ({
      id: r.id as string,
      name: r.name as string,
      description: r.description as string,
      workflow: r.workflow as ProjectRow['workflow'],
      member_count: Number(r.member_count),
      role: (r.role as Role | null) ?? null,
      join_request_pending: Boolean(r.pending),
      created_at: isoOrThrow(r.created_at as Date),
    })),
    total: Number(count?.n ?? 0),
  };
}
