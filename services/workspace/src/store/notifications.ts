import { uuidv7 } from '@platform/kit';
import type { Db } from './db.ts';

export interface NewNotification {
  recipient: string;
  kind: string;
  project_id: string | null;
  subject_id: string | null;
  actor: string | null;
}

/** In-app notifications; they carry ids, never the text of what they are about. */
export async function insertNotification(trx: Db, n: NewNotification, now: Date) {
  await trx
    .insertInto('notifications')
    .values({ id: uuidv7(now.getTime()), ...n, created_at: now })
    .execute();
}
