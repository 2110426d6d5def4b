import { isoOrThrow, type PageRequest } from '@platform/kit';
import { type Selectable, sql } from 'kysely';
import type { RiskStatus } from '../domain/risks.ts';
import type { Risk } from '../schemas/registers.ts';
import type { Db, Risks } from './db.ts';

const toRisk = (r: Selectable<Risks>): Risk => ({
  id: r.id,
  project_id: r.project_id,
  title: r.title,
  description: r.description,
  likelihood: r.likelihood,
  impact: r.impact,
  owner_fid: r.owner_fid,
  status: r.status as RiskStatus,
  created_by: r.created_by,
  created_at: isoOrThrow(r.created_at),
  updated_at: isoOrThrow(r.updated_at),
});

export async function insertRisk(
  db: Db,
  row: {
    id: string;
    project_id: string;
    title: string;
    description: string;
    likelihood: string | null;
    impact: string | null;
    owner_fid: string | null;
    created_by: string;
  },
  now: Date,
): Promise<Risk> {
  const inserted = await db
    .insertInto('risks')
    .values({ ...row, status: 'open', created_at: now, updated_at: now })
    .returningAll()
    .executeTakeFirstOrThrow();
  return toRisk(inserted);
}

export async function findRisk(db: Db, id: string, opts: { lock?: boolean } = {}): Promise<Risk | undefined> {
  let q = db.selectFrom('risks').selectAll().where('id', '=', id);
  if (opts.lock) q = q.forUpdate();
  const row = await q.executeTakeFirst();
  return row && toRisk(row);
}

export async function setRiskStatus(db: Db, id: string, status: RiskStatus, now: Date): Promise<Risk> {
  const row = await db
    .updateTable('risks')
    .set({ status, updated_at: now })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
  return toRisk(row);
}

/** Risks newest first, filtered by project and status. */
export async function listRisks(
  db: Db,
  filter: { project_id?: string; status?: string },
  page: PageRequest,
): Promise<{ items: Risk[]; total: number }> {
  let q = db.selectFrom('risks');
  if (filter.project_id) q = q.where('project_id', '=', filter.project_id);
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
  return { items: rows.map(toRisk), total: Number(count.n) };
}
