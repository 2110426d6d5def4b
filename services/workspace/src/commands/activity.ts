import type { EmitHook } from '@platform/kit';
import { type ActivityEntry, activityOf } from '../domain/activity.ts';
import { appendActivity } from '../store/activity.ts';
import type { DB } from '../store/db.ts';

/**
 * The workspace's emit hook (CommandSource.onEmit, wired in app.ts): every emitted event that feeds
 * the activity feed (ACTIVITY_SOURCES in events.ts) writes its row in the command's transaction, so
 * no command writes activity itself and no feed event can be published without its row.
 */
export const recordActivity: EmitHook<DB> = async ({ trx, principal, now }, events) => {
  const entries = events.map((e) => activityOf(e, principal.id)).filter((e): e is ActivityEntry => e !== null);
  if (entries.length > 0) await appendActivity(trx, entries, now);
};
