import { AppError, notFound, uuidv7 } from '@platform/kit';
import {
  DEFAULT_GROUP_BY,
  DEFAULT_SORT,
  type FilterContext,
  MAX_VIEWS,
  nameKey,
  orderProblem,
  sameFilters,
  saveFilters,
  tooManyViews,
  toView,
  viewCreated,
  viewDeleted,
  viewName,
  viewNameTaken,
  viewsReordered,
  viewUpdated,
} from '../domain/views.ts';
import type { View, ViewInput, ViewPatch } from '../schemas/views.ts';
import type { Db } from '../store/db.ts';
import type { ProjectRow } from '../store/projects.ts';
import { takeChangeNumber } from '../store/projects.ts';
import {
  deleteView,
  findView,
  insertView,
  listViews,
  nameKeyTaken,
  projectGoalIds,
  setPositions,
  updateView,
  type ViewChange,
  viewTally,
} from '../store/views.ts';
import type { CommandCtx } from './context.ts';
import { projectForWrite } from './project-access.ts';

/** What filter values are checked against: the project's workflow and the goals on it now. */
export async function filterContext(db: Db, project: Pick<ProjectRow, 'id' | 'workflow'>): Promise<FilterContext> {
  return { workflow: project.workflow, goalIds: await projectGoalIds(db, project.id) };
}

/** The project's views in tab order, as reads show them (lenient filters). */
export async function projectViews(db: Db, project: Pick<ProjectRow, 'id' | 'workflow'>): Promise<View[]> {
  const fc = await filterContext(db, project);
  return (await listViews(db, project.id)).map((v) => toView(v, fc));
}

const viewNotFound = () => notFound('View', 'view_not_found');

/**
 * Adds a view after the last tab (editors). At most 20 views (422 too_many_views); the name is
 * trimmed, 1 to 60 characters and unique ignoring case (422 view_name_taken); filters are saved
 * strictly. One change number, one project.view_created.
 */
export async function createView(ctx: CommandCtx, projectId: string, input: ViewInput): Promise<View> {
  const { trx, principal, now } = ctx;
  const { project } = await projectForWrite(ctx, projectId, 'editor');
  const name = viewName(input.name);
  const fc = await filterContext(trx, project);
  const filters = saveFilters(input.filters ?? {}, fc);
  const tally = await viewTally(trx, project.id);
  if (tally.count >= MAX_VIEWS) throw tooManyViews();
  if (await nameKeyTaken(trx, project.id, nameKey(name))) throw viewNameTaken();
  await takeChangeNumber(trx, project.id, 'structure');
  const row = await insertView(
    trx,
    {
      id: uuidv7(now.getTime()),
      project_id: project.id,
      name,
      layout: input.layout,
      group_by: input.group_by ?? DEFAULT_GROUP_BY,
      sort: input.sort ?? DEFAULT_SORT,
      sort_desc: input.sort_desc ?? false,
      filters,
      position: tally.lastPosition + 1,
      created_by: principal.id,
    },
    now,
  );
  await ctx.emit(viewCreated(project.id, row.id, principal.id));
  return toView(row, fc);
}

/**
 * Changes the fields sent (editors), against the version that was read: an older version is
 * 409 stale_version with the current view in errors[0].value. Sent filters replace all ({}
 * removes all). A PATCH that changes nothing answers the view as it is: no new version, change
 * number or event.
 */
export async function changeView(ctx: CommandCtx, projectId: string, viewId: string, patch: ViewPatch): Promise<View> {
  const { trx, principal, now } = ctx;
  const { project } = await projectForWrite(ctx, projectId, 'editor');
  const current = await findView(trx, project.id, viewId);
  if (!current) throw viewNotFound();
  const fc = await filterContext(trx, project);
  if (patch.version !== current.version) {
    const message = `The view is at version ${current.version}, not ${patch.version}; reread it and try again`;
    throw new AppError(409, 'stale_version', message, [{ code: 'stale_version', message, value: toView(current, fc) }]);
  }

  const change: ViewChange = {};
  if (patch.name !== undefined) {
    const name = viewName(patch.name);
    if (name !== current.name) {
      if (await nameKeyTaken(trx, project.id, nameKey(name), current.id)) throw viewNameTaken();
      change.name = name;
    }
  }
  if (patch.layout !== undefined && patch.layout !== current.layout) change.layout = patch.layout;
  if (patch.group_by !== undefined && patch.group_by !== current.group_by) change.group_by = patch.group_by;
  if (patch.sort !== undefined && patch.sort !== current.sort) change.sort = patch.sort;
  if (patch.sort_desc !== undefined && patch.sort_desc !== current.sort_desc) change.sort_desc = patch.sort_desc;
  if (patch.filters !== undefined) {
    const filters = saveFilters(patch.filters, fc);
    if (!sameFilters(filters, current.filters)) change.filters = filters;
  }
  if (Object.keys(change).length === 0) return toView(current, fc);

  await takeChangeNumber(trx, project.id, 'structure');
  const row = await updateView(trx, current.id, change, now);
  await ctx.emit(viewUpdated(project.id, row.id, principal.id));
  return toView(row, fc);
}

/** Deletes a view, starting views included (owners). One change number, one project.view_deleted. */
export async function removeView(ctx: CommandCtx, projectId: string, viewId: string): Promise<void> {
  const { trx, principal } = ctx;
  const { project } = await projectForWrite(ctx, projectId, 'owner');
  const current = await findView(trx, project.id, viewId);
  if (!current) throw viewNotFound();
  await takeChangeNumber(trx, project.id, 'structure');
  await deleteView(trx, current.id);
  await ctx.emit(viewDeleted(project.id, current.id, principal.id));
}

/**
 * Puts the views in the order of view_ids, which must name every view once (owners; 422
 * invalid_view_order otherwise, order unchanged). Versions do not change. The order the views
 * already have answers them as they are: no change number, no event.
 */
export async function reorderViews(ctx: CommandCtx, projectId: string, viewIds: string[]): Promise<View[]> {
  const { trx, principal } = ctx;
  const { project } = await projectForWrite(ctx, projectId, 'owner');
  const current = await listViews(trx, project.id);
  const problem = orderProblem(
    current.map((v) => v.id),
    viewIds,
  );
  if (problem) throw problem;
  const unchanged = current.every((v, i) => v.id === viewIds[i]);
  if (!unchanged) {
    await takeChangeNumber(trx, project.id, 'structure');
    await setPositions(trx, project.id, viewIds);
    await ctx.emit(viewsReordered(project.id, viewIds, principal.id));
  }
  return projectViews(trx, project);
}
