import { uuidv7 } from '@platform/kit';
import type { Db } from './db.ts';

/** One state change of a task: a row of its change log (status, assignee, target_date, goal_id, archived...). */
export interface TaskChange {
  project_id: string;
  task_id: string;
  field: string;
  old_value: unknown;
  new_value: unknown;
}

/** Writes change-log rows, each with the change number of the write that made it. */
export async function insertTaskChanges(trx: Db, changes: TaskChange[], actor: string, seq: number, now: Date) {
  if (changes.length === 0) return;
  await trx
    .insertInto('task_changes')
    .values(
      changes.map((c) => ({
        id: uuidv7(now.getTime()),
        project_id: c.project_id,
        task_id: c.task_id,
        field: c.field,
        old_value: JSON.stringify(c.old_value ?? null),
        new_value: JSON.stringify(c.new_value ?? null),
        actor,
        change_seq: seq,
        created_at: now,
      })),
    )
    .execute();
}
