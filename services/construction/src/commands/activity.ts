import type { EmitHook } from '@platform/kit';
import { appendActivity, type NewActivity } from '../store/activity.ts';
import type { DB } from '../store/db.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Construction's emit hook (CommandSource.onEmit, wired in app.ts): every emitted event whose
 * payload names a project (project_id) writes its activity row in the command's transaction, so no
 * command writes activity itself and no such event is published without its row. The actor is the
 * payload's actor_fid, else the caller.
 */
export const recordActivity: EmitHook<DB> = async ({ trx, principal, now }, events) => {
  const rows: NewActivity[] = [];
  for (const e of events) {
    const data = (e.data ?? {}) as Record<string, unknown>;
    const projectId = data.project_id;
    if (typeof projectId !== 'string' || !UUID.test(projectId)) continue;
    const actor = typeof data.actor_fid === 'string' && data.actor_fid !== '' ? data.actor_fid : principal.id;
    rows.push({ project_id: projectId.toLowerCase(), type: e.type, actor_fid: actor, data });
  }
  if (rows.length > 0) await appendActivity(trx, rows, now);
};
