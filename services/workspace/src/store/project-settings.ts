import type { FlagChange, Settings } from '../domain/projects.ts';
import type { Db } from './db.ts';
import { PROJECT_COLUMNS, type ProjectRow, toProjectRow } from './projects.ts';

/** Writes changed settings (PATCH /v1/projects/{id}); call under the project lock. */
export async function updateSettings(trx: Db, id: string, set: Partial<Settings>, now: Date): Promise<ProjectRow> {
  const row = await trx
    .updateTable('projects')
    .set({ ...set, updated_at: now })
    .where('id', '=', id)
    .returning(PROJECT_COLUMNS)
    .executeTakeFirstOrThrow();
  return toProjectRow(row);
}

/** Sets one of status, contributes_to_knowledge or legal_hold; call under the project lock. */
export async function setProjectFlag(trx: Db, id: string, change: FlagChange, now: Date): Promise<ProjectRow> {
  const row = await trx
    .updateTable('projects')
    .set({ [change.column]: change.value, updated_at: now })
    .where('id', '=', id)
    .returning(PROJECT_COLUMNS)
    .executeTakeFirstOrThrow();
  return toProjectRow(row);
}
