import { forbidden } from '@platform/kit';
import { can } from '../domain/permissions.ts';
import { type Role, requireActiveProject, requireRole } from '../domain/roles.ts';
import { type VisibleProject, visibleProject } from '../store/projects.ts';
import type { CommandCtx } from './context.ts';

/**
 * The start of every command on a project: the project locked for this write (404 when the caller
 * cannot see it), the caller's role checked (403 below `needed`), and, unless the command is
 * the one that restores it, 409 project_archived on an archived project.
 */
export async function projectForWrite(
  ctx: CommandCtx,
  projectId: string,
  needed: Role,
  opts: { allowArchived?: boolean } = {},
): Promise<VisibleProject & { role: Role }> {
  const found = await visibleProject(ctx.trx, ctx.principal, ctx.asMember, projectId, { lock: true });
  const role = requireRole(found.access, needed);
  if (!opts.allowArchived) requireActiveProject(found.project);
  return { ...found, role };
}

/**
 * Releasing a legal hold (workspace.release_legal_holds): a platform admin acting as admin, with
 * or without a membership, archived projects included; owners may not. 404 when the caller
 * cannot see the project, else 403.
 */
export async function projectForHoldRelease(ctx: CommandCtx, projectId: string): Promise<VisibleProject> {
  const found = await visibleProject(ctx.trx, ctx.principal, ctx.asMember, projectId, { lock: true });
  const decision = can.decide(ctx.principal, 'release_legal_holds');
  if (!decision.allowed) throw forbidden(decision.message);
  // X-Platform-As-Member: true limits an admin to their memberships, where no role releases a hold.
  if (!found.access.admin) throw forbidden('Releasing a legal hold needs a platform admin acting as admin');
  return found;
}
