import type { RouteDeps } from '../routes/deps.ts';
import { expireLapsedGrants } from '../store/break-glass.ts';

export interface ExpireGrantsResult {
  expired: number;
}

/**
 * POST /internal/jobs/expire-grants (WS-479, WS-481): every break-glass grant whose time is up
 * reads expired and gives no platform-admin reads. It reads nothing the session sweep writes, so
 * it runs (and succeeds) whether or not expire-sessions failed.
 */
export async function expireGrants(deps: RouteDeps): Promise<ExpireGrantsResult> {
  const expired = await expireLapsedGrants(deps.database.db, deps.clock());
  return { expired: expired.length };
}
