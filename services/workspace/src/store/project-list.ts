import type { Db, PageRequest } from '@platform/kit';
import { sql } from 'kysely';
import type { Role } from '../domain/roles.ts';
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
