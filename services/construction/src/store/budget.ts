import { isoOrThrow, type PageRequest } from '@platform/kit';
import type { Budget, BudgetLine, CostEvent } from '../schemas/budget.ts';
import type { Db } from './db.ts';

const LINE_COLUMNS = ['category', 'budget_minor', 'committed_minor', 'actual_minor', 'updated_at'] as const;

const toLine = (r: {
  category: string;
  budget_minor: number | string;
  committed_minor: number | string;
  actual_minor: number | string;
  updated_at: Date | string;
}): BudgetLine => ({
  category: r.category,
  budget_minor: Number(r.budget_minor),
  committed_minor: Number(r.committed_minor),
  actual_minor: Number(r.actual_minor),
  updated_at: isoOrThrow(r.updated_at),
});

/**
 * The project's budget: its lines and the totals kept on the project row (the triggers of
 * migration 0005 keep both in each event's transaction): reads lines, never events.
 */
export async function readBudget(db: Db, projectId: string): Promise<Budget | undefined> {
  const project = await db
    .selectFrom('development_projects')
    .select(['budget_minor', 'committed_minor', 'actual_minor'])
    .where('id', '=', projectId)
    .executeTakeFirst();
  if (!project) return undefined;
  const lines = await db
    .selectFrom('budget_lines')
    .select(LINE_COLUMNS)
    .where('project_id', '=', projectId)
    .orderBy('category')
    .execute();
  return {
    project_id: projectId,
    lines: lines.map(toLine),
    totals: {
      budget_minor: Number(project.budget_minor),
      committed_minor: Number(project.committed_minor),
      actual_minor: Number(project.actual_minor),
    },
  };
}

/** Adds the category's line or changes its budget (one row per project and category). */
export async function upsertLine(
  trx: Db,
  projectId: string,
  category: string,
  budgetMinor: number,
  now: Date,
): Promise<{ line: BudgetLine; previous: number | null }> {
  const before = await trx
    .selectFrom('budget_lines')
    .select('budget_minor')
    .where('project_id', '=', projectId)
    .where('category', '=', category)
    .forUpdate()
    .executeTakeFirst();
  const row = await trx
    .insertInto('budget_lines')
    .values({ project_id: projectId, category, budget_minor: budgetMinor, created_at: now, updated_at: now })
    .onConflict((oc) =>
      oc.columns(['project_id', 'category']).doUpdateSet({ budget_minor: budgetMinor, updated_at: now }),
    )
    .returning(LINE_COLUMNS)
    .executeTakeFirstOrThrow();
  return { line: toLine(row), previous: before ? Number(before.budget_minor) : null };
}

const COST_COLUMNS = [
  'id',
  'project_id',
  'category',
  'kind',
  'amount_minor',
  'occurred_on',
  'description',
  'reverses_id',
  'created_by',
  'created_at',
] as const;

const toCost = (r: {
  id: string;
  project_id: string;
  category: string;
  kind: string;
  amount_minor: number | string;
  occurred_on: string;
  description: string | null;
  reverses_id: string | null;
  created_by: string;
  created_at: Date | string;
}): CostEvent => ({
  ...r,
  kind: r.kind as CostEvent['kind'],
  amount_minor: Number(r.amount_minor),
  created_at: isoOrThrow(r.created_at),
});

/** An event of the project with whether it has been reversed. */
export async function findCost(db: Db, projectId: string, id: string) {
  const row = await db
    .selectFrom('cost_events as c')
    .select(COST_COLUMNS.map((c) => `c.${c}` as const))
    .select((eb) =>
      eb.exists(eb.selectFrom('cost_events as r').select('r.id').whereRef('r.reverses_id', '=', 'c.id')).as('reversed'),
    )
    .where('c.id', '=', id)
    .where('c.project_id', '=', projectId)
    .executeTakeFirst();
  return row ? { ...toCost(row), reversed: Boolean(row.reversed) } : undefined;
}

/** Appends an event; the database adds it to its line (made at budget 0 if new) and to the project's totals. */
export async function insertCost(
  trx: Db,
  c: Omit<CostEvent, 'created_by' | 'created_at'>,
  by: string,
  now: Date,
): Promise<CostEvent> {
  const row = await trx
    .insertInto('cost_events')
    .values({ ...c, created_by: by, created_at: now })
    .returning(COST_COLUMNS)
    .executeTakeFirstOrThrow();
  return toCost(row);
}

/** The project's cost events, newest first by when they occurred, then by recording. */
export async function listCosts(
  db: Db,
  projectId: string,
  filter: { category?: string; kind?: string },
  page: PageRequest,
) {
  let q = db.selectFrom('cost_events').where('project_id', '=', projectId);
  if (filter.category !== undefined) q = q.where('category', '=', filter.category);
  if (filter.kind !== undefined) q = q.where('kind', '=', filter.kind);
  const [rows, count] = await Promise.all([
    q
      .select(COST_COLUMNS)
      .orderBy('occurred_on', 'desc')
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(page.pageSize)
      .offset((page.page - 1) * page.pageSize)
      .execute(),
    q.select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { items: rows.map(toCost), total: Number(count.n) };
}
