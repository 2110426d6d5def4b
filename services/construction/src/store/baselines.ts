import { isoOrThrow, type PageRequest } from '@platform/kit';
import type { Baseline } from '../schemas/plan-items.ts';
import type { Db } from './db.ts';

const COLUMNS = [
  'id',
  'project_id',
  'seq',
  'kind',
  'variation_id',
  'amount_minor',
  'finish_date',
  'created_by',
  'created_at',
] as const;

/** The project's baselines, newest (highest seq) first (CON-065). */
export async function listBaselines(db: Db, projectId: string, page: PageRequest) {
  const [rows, count] = await Promise.all([
    db
      .selectFrom('baselines')
      .select(COLUMNS)
      .where('project_id', '=', projectId)
      .orderBy('seq', 'desc')
      .limit(page.pageSize)
      .offset((page.page - 1) * page.pageSize)
      .execute(),
    db
      .selectFrom('baselines')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('project_id', '=', projectId)
      .executeTakeFirstOrThrow(),
  ]);
  const items = rows.map(
    (r): Baseline => ({
      ...r,
      kind: r.kind as Baseline['kind'],
      amount_minor: Number(r.amount_minor),
      created_at: isoOrThrow(r.created_at),
    }),
  );
  return { items, total: Number(count.n) };
}
