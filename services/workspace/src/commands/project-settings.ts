import { type SettingField, type StatusAction, settingChanges, statusChange } from '../domain/projects.ts';
import type { Project, ProjectPatch } from '../schemas/projects.ts';
import { setProjectFlag, updateSettings } from '../store/project-settings.ts';
import { takeChangeNumber } from '../store/projects.ts';
import type { CommandCtx } from './context.ts';
import { projectForHoldRelease, projectForWrite } from './project-access.ts';

/**
 * An owner updates the project's settings: name, description,
 * instructions, checkin_weekday, legacy goals. workflow never changes (the schema refuses it). A
 * PATCH that changes something takes one structure change number and emits project.updated with
 * the names of the changed fields; one that changes nothing takes none and emits nothing.
 */
export async function updateProject(ctx: CommandCtx, projectId: string, patch: ProjectPatch): Promise<Project> {
  const { trx, principal, now } = ctx;
  const { project, access } = await projectForWrite(ctx, projectId, 'owner');
  const changes = settingChanges(project, patch);
  const changedFields = Object.keys(changes) as SettingField[];
  if (changedFields.length === 0) return { ...project, role: access.member };
  await takeChangeNumber(trx, projectId, 'structure');
  const updated = await updateSettings(trx, projectId, changes, now);
  // Field names only, never the values (names and instructions stay off the bus).
  await ctx.emit({ type: 'project.updated', data: { projectId, changedFields, actor: principal.id } });
  return { ...updated, role: access.member };
}

/**
 * Archive, restore, withdraw from or contribute to knowledge, place a legal hold (owners), release
 * one (platform admins only); allowed on an archived project, so it can be restored. A real
 * change takes one structure change number and emits one event; asking for what already holds
 * changes nothing.
 */
export async function changeProjectStatus(ctx: CommandCtx, projectId: string, action: StatusAction): Promise<Project> {
  const { trx, principal, now } = ctx;
  const { project, access } =
    action === 'release_legal_hold'
      ? await projectForHoldRelease(ctx, projectId)
      : await projectForWrite(ctx, projectId, 'owner', { allowArchived: true });
  const change = statusChange(project, action);
  if (!change) return { ...project, role: access.member };
  await takeChangeNumber(trx, projectId, 'structure');
  const updated = await setProjectFlag(trx, projectId, change, now);
  const data = { projectId, action, actor: principal.id };
  await ctx.emit(
    change.column === 'contributes_to_knowledge'
      ? { type: change.event, data: { ...data, contributesToKnowledge: change.value } }
      : change.column === 'legal_hold'
        ? { type: change.event, data: { ...data, legalHold: change.value } }
        : { type: change.event, data },
  );
  return { ...updated, role: access.member };
}
