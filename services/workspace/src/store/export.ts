import { sql } from 'kysely';
import type { Db } from './db.ts';

/**
 * Tables left out of an export: per-person state (visits, digests, notifications), what is derived
 * from the rest (the feed's heads, the context pack) and the project row itself (exported apart).
 */
export const NOT_EXPORTED = new Set([
  'projects',
  'project_visits',
  'digests',
  'notifications',
  'activity_heads',
  'context_packs',
]);

/** How one table's rows of a project are found: its own project_id, or a parent's through a foreign key. */
interface TablePlan {
  table: string;
  /** The column to match, and the parent table whose project_id decides (null: the column is project_id). */
  column: string;
  parent: string | null;
  order: string[];
}

/**
 * Every table of the service's schema that holds a project's rows: those with a project_id column,
 * and those whose one-column foreign key points at such a table's id (task versions, conversation
 * turns, unblock answers…). Read from the catalogue, so each area's tables are exported as they are
 * added, without a list to keep.
 */
async function exportPlan(db: Db): Promise<TablePlan[]> {
  const cols = await sql<{ table_name: string; column_name: string }>`
    SELECT c.relname AS table_name, a.attname AS column_name
    FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
    JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
    WHERE n.nspname = current_schema() AND c.relkind = 'r' AND a.attname = 'project_id'`.execute(db);
  const withProject = new Set(cols.rows.map((r) => r.table_name));
  const fks = await sql<{ table_name: string; column_name: string; parent: string }>`
    SELECT c.relname AS table_name, a.attname AS column_name, p.relname AS parent
    FROM pg_constraint k
    JOIN pg_class c ON c.oid = k.conrelid JOIN pg_namespace n ON n.oid = c.relnamespace
    JOIN pg_class p ON p.oid = k.confrelid
    JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum = k.conkey[1]
    JOIN pg_attribute pa ON pa.attrelid = p.oid AND pa.attnum = k.confkey[1]
    WHERE n.nspname = current_schema() AND k.contype = 'f' AND cardinality(k.conkey) = 1 AND pa.attname = 'id'
    ORDER BY c.relname, a.attname`.execute(db);
  const keys = await sql<{ table_name: string; column_name: string }>`
    SELECT c.relname AS table_name, a.attname AS column_name
    FROM pg_index i JOIN pg_class c ON c.oid = i.indrelid JOIN pg_namespace n ON n.oid = c.relnamespace
    JOIN LATERAL unnest(i.indkey) WITH ORDINALITY AS k(attnum, ord) ON true
    JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum = k.attnum
    WHERE n.nspname = current_schema() AND i.indisprimary
    ORDER BY c.relname, k.ord`.execute(db);
  const orderOf = (t: string) => keys.rows.filter((k) => k.table_name === t).map((k) => k.column_name);

  const plans: TablePlan[] = [...withProject]
    .filter((t) => !NOT_EXPORTED.has(t))
    .map((t) => ({ table: t, column: 'project_id', parent: null, order: orderOf(t) }));
  for (const fk of fks.rows) {
    if (withProject.has(fk.table_name) || NOT_EXPORTED.has(fk.table_name)) continue;
    if (!withProject.has(fk.parent) || NOT_EXPORTED.has(fk.parent)) continue;
    if (plans.some((p) => p.table === fk.table_name)) continue;
    plans.push({ table: fk.table_name, column: fk.column_name, parent: fk.parent, order: orderOf(fk.table_name) });
  }
  return plans.sort((a, b) => a.table.localeCompare(b.table));
}

/**
 * Everything the project holds, table by table, as stored (snake_case columns, JSON values), read in
 * one snapshot: the project row and each table's rows of the project in primary-key order.
 */
export async function exportProject(
  db: Db,
  projectId: string,
): Promise<{ project: unknown; tables: Record<string, unknown[]> }> {
  return db.transaction().execute(async (trx) => {
    await sql`SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY`.execute(trx);
    const project = await sql<{ r: unknown }>`
      SELECT to_jsonb(t) - 'change_seq' - 'structure_seq' - 'renumber_seq' AS r
      FROM projects t WHERE id = ${projectId}`.execute(trx);
    const tables: Record<string, unknown[]> = {};
    for (const plan of await exportPlan(trx)) {
      const where =
        plan.parent === null
          ? sql`t.project_id = ${projectId}`
          : sql`${sql.ref(`t.${plan.column}`)} IN (SELECT id FROM ${sql.table(plan.parent)} WHERE project_id = ${projectId})`;
      const order = plan.order.length > 0 ? sql.join(plan.order.map((c) => sql.ref(`t.${c}`))) : sql`1`;
      const rows = await sql<{ r: unknown }>`
        SELECT to_jsonb(t) AS r FROM ${sql.table(plan.table)} t WHERE ${where} ORDER BY ${order}`.execute(trx);
      tables[plan.table] = rows.rows.map((x) => (typeof x.r === 'string' ? JSON.parse(x.r) : x.r));
    }
    return { project: project.rows[0]?.r, tables };
  });
}
