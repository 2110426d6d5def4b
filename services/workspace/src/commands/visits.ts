import { requireRole } from '../domain/roles.ts';
import type { Visit } from '../schemas/feed.ts';
import { upsertVisit } from '../store/digests.ts';
import { visibleProject } from '../store/projects.ts';
import type { CommandCtx } from './context.ts';

/**
 * Marks the caller's visit (anyone who may read the project, archived ones and platform admins
 * included: a visit is the caller's own state, not a change to the project). The next digest counts
 * the activity after the feed position recorded here. No event, no activity, no change number.
 */
export async function recordVisit(ctx: CommandCtx, projectId: string): Promise<Visit> {
  const { project, access } = await visibleProject(ctx.trx, ctx.principal, ctx.asMember, projectId);
  requireRole(access, 'viewer', 'read');
  return upsertVisit(ctx.trx, project.id, ctx.principal.id, ctx.now);
}
