import { isoOrThrow, type PageRequest } from '@platform/kit';
import { type Selectable, sql } from 'kysely';
import type { DataSourceKind } from '../domain/data-sources.ts';
import type { DataSource } from '../schemas/data-sources.ts';
import type { DataSources, Db } from './db.ts';

const COLUMNS = ['id', 'project_id', 'name', 'kind', 'reference', 'created_by', 'created_at'] as const;

const toDataSource = (r: Pick<Selectable<DataSources>, (typeof COLUMNS)[number]>): DataSource => ({
  id: r.id,
  project_id: r.project_id,
  name: r.name,
  // The column's CHECK holds it to DATA_SOURCE_KINDS.
  kind: r.kind as DataSourceKind,
  reference: r.reference,
  created_by: r.created_by,
  created_at: isoOrThrow(r.created_at),
});

export async function dataSourceExists(db: Db, projectId: string, kind: string, reference: string) {
  const row = await db
    .selectFrom('data_sources')
    .select('id')
    .where('project_id', '=', projectId)
    .where('kind', '=', kind)
    .where('reference', '=', reference)
    .executeTakeFirst();
  return row !== undefined;
}

export async function insertDataSource(trx: Db, d: Omit<DataSource, 'created_at'>, now: Date): Promise<DataSource> {
  const row = await trx
    .insertInto('data_sources')
    .values({ ...d, created_at: now })
    .returning(COLUMNS)
    .executeTakeFirstOrThrow();
  return toDataSource(row);
}

/** A page of the project's data sources in the order they were connected, and how many there are. */
export async function listDataSources(
  db: Db,
  projectId: string,
  page: PageRequest,
): Promise<{ items: DataSource[]; total: number }> {
  const rows = await db
    .selectFrom('data_sources')
    .select(COLUMNS)
    .where('project_id', '=', projectId)
    .orderBy('created_at')
    .orderBy('id')
    .limit(page.pageSize)
    .offset((page.page - 1) * page.pageSize)
    .execute();
  const total = await sql<{ n: number }>`
    SELECT count(*)::int AS n FROM data_sources WHERE project_id = ${projectId}`.execute(db);
  return { items: rows.map(toDataSource), total: Number(total.rows[0]?.n ?? 0) };
}
