import { isoOrThrow, type PageRequest } from '@platform/kit';
import { type Selectable, sql } from 'kysely';
import type { VariationStatus } from '../domain/variations.ts';
import type { Baseline, Variation } from '../schemas/variations.ts';
import type { Baselines, Db, Variations } from './db.ts';

const VARIATION_COLUMNS = [
  'id',
  'project_id',
  'title',
  'description',
  'status',
  'cost_change_minor',
  'days',
  'approval_id',
  'baseline_id',
  'source_revision_id',
  'created_by',
  'created_at',
  'updated_at',
] as const;

const toVariation = (r: Pick<Selectable<Variations>, (typeof VARIATION_COLUMNS)[number]>): Variation => ({
  id: r.id,
  project_id: r.project_id,
  title: r.title,
  description: r.description,
  // The column's CHECK holds it to the six states.
  status: r.status as VariationStatus,
  cost_change_minor: r.cost_change_minor === null ? null : Number(r.cost_change_minor),
  days: r.days,
  approval_id: r.approval_id,
  baseline_id: r.baseline_id,
  source_revision_id: r.source_revision_id,
  created_by: r.created_by,
  created_at: isoOrThrow(r.created_at),
  updated_at: isoOrThrow(r.updated_at),
});

export const toBaseline = (r: Selectable<Baselines>): Baseline => ({
  id: r.id,
  project_id: r.project_id,
  seq: r.seq,
  kind: r.kind as Baseline['kind'],
  variation_id: r.variation_id,
  amount_minor: Number(r.amount_minor),
  finish_date: r.finish_date,
  created_by: r.created_by,
  created_at: isoOrThrow(r.created_at),
});

export async function insertVariation(
  db: Db,
  row: {
    id: string;
    project_id: string;
    title: string;
    description: string;
    created_by: string;
    source_revision_id?: string | null;
  },
  now: Date,
): Promise<Variation> {
  const inserted = await db
    .insertInto('variations')
    .values({ ...row, status: 'drafted', created_at: now, updated_at: now })
    .returning(VARIATION_COLUMNS)
    .executeTakeFirstOrThrow();
  return toVariation(inserted);
}

/** One variation; `lock` takes its row for this transaction's write. */
export async function findVariation(db: Db, id: string, opts: { lock?: boolean } = {}): Promise<Variation | undefined> {
  let q = db.selectFrom('variations').select(VARIATION_COLUMNS).where('id', '=', id);
  if (opts.lock) q = q.forUpdate();
  const row = await q.executeTakeFirst();
  return row && toVariation(row);
}

export async function updateVariation(
  db: Db,
  id: string,
  changes: Partial<{
    status: VariationStatus;
    cost_change_minor: number;
    days: number;
    approval_id: string;
    baseline_id: string;
  }>,
  now: Date,
): Promise<Variation> {
  const row = await db
    .updateTable('variations')
    .set({ ...changes, updated_at: now })
    .where('id', '=', id)
    .returning(VARIATION_COLUMNS)
    .executeTakeFirstOrThrow();
  return toVariation(row);
}

/** Variations newest first, filtered by project and status. */
export async function listVariations(
  db: Db,
  filter: { project_id?: string; status?: string },
  page: PageRequest,
): Promise<{ items: Variation[]; total: number }> {
  let q = db.selectFrom('variations');
  if (filter.project_id) q = q.where('project_id', '=', filter.project_id);
  if (filter.status) q = q.where('status', '=', filter.status);
  const [rows, count] = await Promise.all([
    q
      .select(VARIATION_COLUMNS)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(page.pageSize)
      .offset((page.page - 1) * page.pageSize)
      .execute(),
    q.select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow(),
  ]);
  return { items: rows.map(toVariation), total: Number(count.n) };
}

/** The project's award baseline (kind award), what every variation needs. */
export async function awardBaseline(db: Db, projectId: string): Promise<Baseline | undefined> {
  const row = await db
    .selectFrom('baselines')
    .selectAll()
    .where('project_id', '=', projectId)
    .where('kind', '=', 'award')
    .orderBy('seq')
    .executeTakeFirst();
  return row && toBaseline(row);
}

/** The project's current baseline: its newest (highest seq). */
export async function currentBaseline(db: Db, projectId: string): Promise<Baseline | undefined> {
  const row = await db
    .selectFrom('baselines')
    .selectAll()
    .where('project_id', '=', projectId)
    .orderBy('seq', 'desc')
    .executeTakeFirst();
  return row && toBaseline(row);
}

/** Baselines are insert-only (a trigger refuses UPDATE and DELETE). */
export async function insertBaseline(
  db: Db,
  row: {
    id: string;
    project_id: string;
    seq: number;
    kind: 'award' | 'variation';
    variation_id: string | null;
    amount_minor: number;
    finish_date: string;
    created_by: string;
  },
  now: Date,
): Promise<Baseline> {
  const inserted = await db
    .insertInto('baselines')
    .values({ ...row, created_at: now })
    .returningAll()
    .executeTakeFirstOrThrow();
  return toBaseline(inserted);
}
