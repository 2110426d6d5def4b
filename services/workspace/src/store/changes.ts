import { sql } from 'kysely';
import { type ChangeCountersSnapshot, MAX_CHANGED_ITEMS } from '../domain/changes.ts';
import type { Task } from '../schemas/tasks.ts';
import type { Db } from './db.ts';
import { TASK_COLUMNS, type TaskRow, toTask } from './tasks.ts';

const COLS = sql.join(TASK_COLUMNS.map((c) => sql.ref(`t.${c}`)));

/** A row of the changes query: the project's counters, and a changed task (all null when none changed). */
type ChangedRow = { p_change_seq: number; p_structure_seq: number; p_renumber_seq: number } & (
  | TaskRow
  | { [K in keyof TaskRow]: null }
);

/**
 * The project's change counters and the tasks changed after `since`, earliest change first, read
 * in ONE statement so both come from one snapshot: every task with a number up to seq is there.
 * A task appears once, with its latest change number. One more than the cap is read, so the
 * caller can tell "more than 500 changed". The cost follows the number of changed tasks (a range
 * scan of tasks(project_id, change_seq)), not the size of the project.
 */
export async function changesSince(
  db: Db,
  projectId: string,
  since: bigint | null,
): Promise<{ counters: ChangeCountersSnapshot; items: Task[]; more: boolean }> {
  const r = await sql<ChangedRow>`
    SELECT p.change_seq AS p_change_seq, p.structure_seq AS p_structure_seq, p.renumber_seq AS p_renumber_seq, ${COLS}
    FROM projects p
    LEFT JOIN LATERAL (
      SELECT * FROM tasks
      WHERE ${since !== null} AND project_id = p.id AND change_seq > ${String(since ?? 0n)}::bigint
      ORDER BY change_seq, id
      LIMIT ${MAX_CHANGED_ITEMS + 1}
    ) t ON true
    WHERE p.id = ${projectId}
    ORDER BY t.change_seq, t.id`.execute(db);
  const first = r.rows[0] ?? {};
  const counters = {
    seq: BigInt(String(first.p_change_seq ?? 0)),
    structure_seq: BigInt(String(first.p_structure_seq ?? 0)),
    renumber_seq: BigInt(String(first.p_renumber_seq ?? 0)),
  };
  const rows = r.rows.filter((row): row is Extract<ChangedRow, { id: string }> => row.id != null);
  return {
    counters,
    items: rows.slice(0, MAX_CHANGED_ITEMS).map(toTask),
    more: rows.length > MAX_CHANGED_ITEMS,
  };
}
