import { commandScope, SCHEDULER_PRINCIPAL } from '@platform/kit';
import type { RouteDeps } from '../routes/deps.ts';
import type { DB } from '../store/db.ts';
import { expireIdleSessions } from '../store/sessions.ts';

/** A session with no heartbeat for this long is expired (its agent is gone). */
export const SESSION_IDLE_LIMIT_MS = 30 * 60_000;

export interface ExpireSessionsResult {
  expired: number;
}

/**
 * POST /internal/jobs/expire-sessions (WS-477): every active agent session whose last heartbeat is
 * older than SESSION_IDLE_LIMIT_MS reads expired, so it no longer shows who is in the
 * conversation; each publishes conversation.session_ended (actor: the scheduler). One transaction.
 */
export async function expireSessions(deps: RouteDeps): Promise<ExpireSessionsResult> {
  const now = deps.clock();
  return deps.database.db.transaction().execute(async (trx) => {
    const scope = commandScope<DB>(deps, trx, SCHEDULER_PRINCIPAL, now);
    const expired = await expireIdleSessions(
      trx,
      new Date(now.getTime() - SESSION_IDLE_LIMIT_MS),
      SCHEDULER_PRINCIPAL.id,
      now,
    );
    if (expired.length > 0) {
      await scope.emit(
        expired.map((s) => ({
          type: 'conversation.session_ended' as const,
          data: {
            conversationId: s.conversation_id,
            projectId: s.project_id,
            sessionId: s.id,
            actor: SCHEDULER_PRINCIPAL.id,
          },
        })),
      );
    }
    return { expired: expired.length };
  });
}
