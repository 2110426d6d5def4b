import { requireOpenProject } from '../domain/projects.ts';
import { lockProject } from '../store/projects.ts';
import type { CommandCtx } from './context.ts';

/**
 * The start of every command on a project's work: the project row locked for this write (404
 * project_not_found), and 409 project_closed when it is completed or cancelled. Writes to one
 * project therefore run one at a time.
 */
export async function projectForWrite(ctx: CommandCtx, projectId: string) {
  const project = await lockProject(ctx.trx, projectId);
  requireOpenProject(project);
  return project;
}
