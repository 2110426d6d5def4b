import { uuidv7 } from '@platform/kit';
import { dayOf } from '../domain/health.ts';
import { projectChanges, projectView, statusMove } from '../domain/projects.ts';
import type { Project, ProjectChange, ProjectInput, StatusInput } from '../schemas/projects.ts';
import { getProject, insertProject, requireFreeCode, updateProject } from '../store/projects.ts';
import type { CommandCtx } from './context.ts';
import { projectForWrite } from './project-access.ts';

/**
 * Project commands (spec 3, Development projects): create, change details, change status. Each
 * runs in one transaction with its outbox event (and, through the emit hook, its activity row).
 */

/** A project in initiation, active, with its seven stages; its code unique ignoring case (409 code_taken). */
export async function createProject(ctx: CommandCtx, input: ProjectInput): Promise<Project> {
  const { trx, principal, now } = ctx;
  await requireFreeCode(trx, input.code);
  const id = uuidv7(now.getTime());
  await insertProject(
    trx,
    {
      id,
      code: input.code,
      name: input.name,
      kind: input.kind,
      owner_fid: input.owner_fid ?? null,
      region: input.region ?? null,
      description: input.description ?? '',
      created_by: principal.id,
    },
    now,
    dayOf(now),
  );
  await ctx.emit({
    type: 'development_project.created',
    data: { project_id: id, code: input.code, kind: input.kind, actor_fid: principal.id },
  });
  return projectView(await getProject(trx, id), now);
}

/** Changes the details sent (not stage or status); a change that changes nothing writes nothing. */
export async function changeProject(ctx: CommandCtx, projectId: string, input: ProjectChange): Promise<Project> {
  const { trx, principal, now } = ctx;
  await projectForWrite(ctx, projectId);
  const row = await getProject(trx, projectId);
  const changes = projectChanges(row as unknown as Record<string, unknown>, input);
  const fields = Object.keys(changes);
  if (fields.length === 0) return projectView(row, now);
  if (changes.code !== undefined) await requireFreeCode(trx, changes.code, projectId);
  await updateProject(trx, projectId, changes, now);
  await ctx.emit({
    type: 'development_project.updated',
    data: { project_id: projectId, fields, actor_fid: principal.id },
  });
  return projectView(await getProject(trx, projectId), now);
}

/** on_hold, active or cancelled; the same status again changes nothing (no event). */
export async function setProjectStatus(ctx: CommandCtx, projectId: string, input: StatusInput): Promise<Project> {
  const { trx, principal, now } = ctx;
  const project = await projectForWrite(ctx, projectId);
  const to = statusMove(project.status as never, input.status);
  if (to !== null) {
    await updateProject(trx, projectId, { status: to }, now);
    await ctx.emit({
      type: 'development_project.status_changed',
      data: { project_id: projectId, from: project.status, to, actor_fid: principal.id },
    });
  }
  return projectView(await getProject(trx, projectId), now);
}
