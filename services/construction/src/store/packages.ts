import { isoOrThrow, type PageRequest } from '@platform/kit';
import { sql } from 'kysely';
import type { Package, PackageReport } from '../schemas/plan-items.ts';
import type { Db } from './db.ts';

const COLUMNS = ['id', 'project_id', 'name', 'measure', 'weight', 'progress', 'created_by', 'created_at'] as const;

type PackageRow = {
  id: string;
  project_id: string;
  name: string;
  measure: string;
  weight: number;
  progress: string | number;
  created_by: string;
  created_at: Date | string;
};

const toPackage = (r: PackageRow): Package => ({
  id: r.id,
  project_id: r.project_id,
  name: r.name,
  measure: r.measure as Package['measure'],
  weight: r.weight,
  progress: Number(r.progress),
  created_by: r.created_by,
  created_at: isoOrThrow(r.created_at),
});

export async function insertPackage(
  trx: Db,
  p: { id: string; project_id: string; name: string; measure: string; weight: number },
  by: string,
  now: Date,
): Promise<Package> {
  const row = await trx
    .insertInto('packages')
    .values({ ...p, created_by: by, created_at: now })
    .returning(COLUMNS)
    .executeTakeFirstOrThrow();
  return toPackage(row);
}

/** A package by id, of whatever project (the report route tells another project's from none). */
export async function findPackage(db: Db, id: string): Promise<Package | undefined> {
  const row = await db.selectFrom('packages').select(COLUMNS).where('id', '=', id).executeTakeFirst();
  return row ? toPackage(row) : undefined;
}

/** The project's packages in the order they were added. */
export async function listPackages(db: Db, projectId: string, page: PageRequest) {
  const [rows, count] = await Promise.all([
    db
      .selectFrom('packages')
      .select(COLUMNS)
      .where('project_id', '=', projectId)
      .orderBy('created_at')
      .orderBy('id')
      .limit(page.pageSize)
      .offset((page.page - 1) * page.pageSize)
      .execute(),
    db
      .selectFrom('packages')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('project_id', '=', projectId)
      .executeTakeFirstOrThrow(),
  ]);
  return { items: rows.map(toPackage), total: Number(count.n) };
}

export async function insertReport(
  trx: Db,
  r: { id: string; package_id: string; percent: number; reported_on: string; note: string | null },
  by: string,
  now: Date,
) {
  return trx
    .insertInto('package_reports')
    .values({ ...r, created_by: by, created_at: now })
    .returning(['id', 'package_id', 'percent', 'reported_on', 'note', 'created_by', 'created_at'])
    .executeTakeFirstOrThrow();
}

/** The kept progress of a package and of its project, after a refresh. */
export async function progressOf(trx: Db, packageId: string) {
  const r = await sql<{ package_progress: string; project_progress: string }>`
    SELECT p.progress AS package_progress, d.progress AS project_progress
    FROM packages p JOIN development_projects d ON d.id = p.project_id WHERE p.id = ${packageId}`.execute(trx);
  const row = r.rows[0];
  return { package_progress: Number(row?.package_progress ?? 0), project_progress: Number(row?.project_progress ?? 0) };
}

export const toReport = (
  r: {
    id: string;
    package_id: string;
    percent: string | number;
    reported_on: string;
    note: string | null;
    created_by: string;
    created_at: Date | string;
  },
  progress: { package_progress: number; project_progress: number },
): PackageReport => ({
  id: r.id,
  package_id: r.package_id,
  percent: Number(r.percent),
  reported_on: r.reported_on,
  note: r.note,
  created_by: r.created_by,
  created_at: isoOrThrow(r.created_at),
  ...progress,
});
