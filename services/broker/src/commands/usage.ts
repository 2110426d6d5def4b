import { forbidden, unprocessable, uuidv7 } from '@platform/kit';
import type { Catalog } from '../domain/catalog.ts';
import { can } from '../domain/permissions.ts';
import { reportedUsage } from '../domain/usage.ts';
import type { UsageCall, UsageReport } from '../schemas/usage.ts';
import { findByFid } from '../store/people.ts';
import { usageCall } from '../store/usage-reads.ts';
import { insertUsage } from '../store/usage-writes.ts';
import type { CommandCtx } from './context.ts';

/**
 * Stores a call made outside the relay, priced from the catalog. actor_fid bills someone else:
 * platform admins only (403), and only someone in the roster (422 unknown_actor).
 */
export async function reportUsage({ trx, principal, now }: CommandCtx, input: UsageReport, catalog: Catalog) {
  const actorFid = input.actor_fid?.toLowerCase() ?? principal.id;
  if (actorFid !== principal.id) {
    if (!can(principal, 'report_for_others')) throw forbidden('Only platform admins report usage for someone else');
    if (!(await findByFid(trx, actorFid))) {
      throw unprocessable('unknown_actor', `No identity ${actorFid} in the roster`, 'body/data/actor_fid');
    }
  }
  const usage = reportedUsage(input, catalog, { id: uuidv7(), actor_fid: actorFid }, now);
  await insertUsage(trx, [usage]);
  return (await usageCall(trx, usage.id)) as UsageCall;
}
