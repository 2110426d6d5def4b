import { conflict, notFound, type PageRequest } from '@platform/kit';
import { type Expression, type SqlBool, sql } from 'kysely';
import { PHASE_OF, type Phase, STAGES, type Stage } from '../domain/health.ts';
import type { ProjectRow } from '../domain/projects.ts';
import type { Db } from './db.ts';
import { freshnessSql, healthSql } from './figures.ts';

/** The project row a command locks before it writes: one write at a time per project. */
export async function lockProject(db: Db, id: string) {
  const row = await db
    .selectFrom('development_projects')
    .select(['id', 'status', 'stage'])
    .where('id', '=', id)
    .forNoKeyUpdate()
    .executeTakeFirst();
  if (!row) throw notFound('Development project', 'project_not_found');
  return row;
}

export const PROJECT_COLUMNS = [
  'id',
  'code',
  'name',
  'kind',
  'status',
  'stage',
  'owner_fid',
  'region',
  'description',
  'progress',
  'next_milestone_due',
  'last_update_on',
  'budget_minor',
  'committed_minor',
  'actual_minor',
  'created_by',
  'created_at',
  'updated_at',
] as const;

export async function findProject(db: Db, id: string): Promise<ProjectRow | undefined> {
  return (await db
    .selectFrom('development_projects')
    .select(PROJECT_COLUMNS)
    .where('id', '=', id)
    .executeTakeFirst()) as ProjectRow | undefined;
}

export async function getProject(db: Db, id: string): Promise<ProjectRow> {
  const row = await findProject(db, id);
  if (!row) throw notFound('Development project', 'project_not_found');
  return row;
}

const codeTaken = () => conflict('code_taken', 'Another project holds this code (codes are unique ignoring case)');

/** 409 code_taken when another project holds `code` ignoring case. */
export async function requireFreeCode(db: Db, code: string, exceptId?: string): Promise<void> {
  let q = db.selectFrom('development_projects').select('id').where(sql<string>`lower(code)`, '=', code.toLowerCase());
  if (exceptId) q = q.where('id', '<>', exceptId);
  if (await q.executeTakeFirst()) throw codeTaken();
}

/** A concurrent writer took the code between the check and the write: the unique index answers. */
async function guardCode<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (e) {
    const err = e as { code?: string; message?: string };
    if (err.code === '23505' && String(err.message ?? '').includes('development_projects_code')) throw codeTaken();
    throw e;
  }
}

export interface NewProject {
  id: string;
  code: string;
  name: string;
  kind: string;
  owner_fid: string | null;
  region: string | null;
  description: string;
  created_by: string;
}

/** The project in initiation, active, with its seven stages (seq 1..7); initiation starts `today`. */
export async function insertProject(db: Db, p: NewProject, now: Date, today: string): Promise<void> {
  await guardCode(() =>
    db
      .insertInto('development_projects')
      .values({ ...p, status: 'active', stage: 'initiation', created_at: now, updated_at: now })
      .execute(),
  );
  await db
    .insertInto('project_stages')
    .values(
      STAGES.map((stage, i) => ({
        project_id: p.id,
        stage,
        seq: i + 1,
        actual_start: stage === 'initiation' ? today : null,
      })),
    )
    .execute();
}

export type ProjectFields = Partial<
  Pick<NewProject, 'code' | 'name' | 'kind' | 'owner_fid' | 'region' | 'description'> & {
    status: string;
    stage: string;
  }
>;

export async function updateProject(db: Db, id: string, fields: ProjectFields, now: Date): Promise<void> {
  await guardCode(() =>
    db
      .updateTable('development_projects')
      .set({ ...fields, updated_at: now })
      .where('id', '=', id)
      .execute(),
  );
}

export interface PortfolioFilter {
  status?: string;
  kind?: string;
  stage?: string;
  phase?: Phase;
  owner_fid?: string;
  region?: string;
  health?: string;
  freshness?: string;
  search?: string;
}

/** The stages of a phase (PHASE_OF read backwards). */
export const stagesOf = (phase: Phase): Stage[] => STAGES.filter((s) => PHASE_OF[s] === phase);

/** `%`, `_` and `\` taken literally in a LIKE pattern. */
const likeEscape = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/** The WHERE of the portfolio and the report over development_projects `d`, as of `today`. */
export function portfolioWhere(f: PortfolioFilter, today: string): Expression<SqlBool> {
  const parts = [sql<SqlBool>`true`];
  if (f.status) parts.push(sql<SqlBool>`d.status = ${f.status}`);
  if (f.kind) parts.push(sql<SqlBool>`d.kind = ${f.kind}`);
  if (f.stage) parts.push(sql<SqlBool>`d.stage = ${f.stage}`);
  if (f.phase) parts.push(sql<SqlBool>`d.stage IN (${sql.join(stagesOf(f.phase))})`);
  if (f.owner_fid) parts.push(sql<SqlBool>`d.owner_fid = ${f.owner_fid}`);
  if (f.region) parts.push(sql<SqlBool>`d.region = ${f.region}`);
  if (f.health) parts.push(sql<SqlBool>`${healthSql(today)} = ${f.health}`);
  if (f.freshness) parts.push(sql<SqlBool>`${freshnessSql(today)} = ${f.freshness}`);
  if (f.search) {
    const pattern = `%${likeEscape(f.search.toLowerCase())}%`;
    parts.push(sql<SqlBool>`(lower(d.code) LIKE ${pattern} OR lower(d.name) LIKE ${pattern})`);
  }
  return sql<SqlBool>`(${sql.join(parts, sql` AND `)})`;
}

/** A page of the portfolio, by code, and how many projects match. */
export async function listPortfolio(
  db: Db,
  f: PortfolioFilter,
  today: string,
  page: PageRequest,
): Promise<{ items: ProjectRow[]; total: number }> {
  const where = portfolioWhere(f, today);
  const rows = await sql<ProjectRow>`
    SELECT ${sql.join(PROJECT_COLUMNS.map((c) => sql.ref(`d.${c}`)))} FROM development_projects d
    WHERE ${where} ORDER BY lower(d.code), d.id
    LIMIT ${page.pageSize} OFFSET ${(page.page - 1) * page.pageSize}`.execute(db);
  const count = await sql<{ n: number }>`
    SELECT count(*)::int AS n FROM development_projects d WHERE ${where}`.execute(db);
  return { items: rows.rows, total: Number(count.rows[0]?.n ?? 0) };
}
