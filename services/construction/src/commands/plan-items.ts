import { uuidv7 } from '@platform/kit';
import {
  dayOf,
  milestoneNotFound,
  mondayOf,
  namedProjectNotFound,
  packageNotFound,
  relationExists,
  requireOpenMilestone,
  requireOtherProject,
  requireReportable,
} from '../domain/plan-items.ts';
import type {
  Milestone,
  MilestoneInput,
  Package,
  PackageInput,
  PackageReport,
  Relation,
  RelationInput,
  ReportInput,
  UpdateInput,
  WeeklyUpdate,
} from '../schemas/plan-items.ts';
import { noteUpdate, refreshMilestoneDue, refreshPackageProgress, refreshProjectProgress } from '../store/figures.ts';
import { insertMilestone, lockMilestone, milestoneProject, setMilestone } from '../store/milestones.ts';
import { findPackage, insertPackage, insertReport, progressOf, toReport } from '../store/packages.ts';
import { findRelation, insertRelation, projectExists } from '../store/relations.ts';
import { insertUpdate } from '../store/updates.ts';
import type { CommandCtx } from './context.ts';
import { projectForWrite } from './project-access.ts';

/** Adds a package measured by report or by tasks (CON-051, CON-052); the project's progress re-weighs. */
export async function addPackage(ctx: CommandCtx, projectId: string, input: PackageInput): Promise<Package> {
  const { trx, principal, now, emit } = ctx;
  await projectForWrite(ctx, projectId);
  const pkg = await insertPackage(
    trx,
    {
      id: uuidv7(now.getTime()),
      project_id: projectId,
      name: input.name,
      measure: input.measure,
      weight: input.weight ?? 1,
    },
    principal.id,
    now,
  );
  await refreshProjectProgress(trx, projectId);
  await emit({
    type: 'development_project.package_added',
    data: { project_id: projectId, package_id: pkg.id, measure: pkg.measure, actor_fid: principal.id },
  });
  return pkg;
}

/**
 * Files a reported percentage on a package of this project measured by report (CON-054..056): the
 * package's progress is its latest report by date, the project's the weighted mean of its packages.
 */
export async function reportProgress(
  ctx: CommandCtx,
  projectId: string,
  packageId: string,
  input: ReportInput,
): Promise<PackageReport> {
  const { trx, principal, now, emit } = ctx;
  await projectForWrite(ctx, projectId);
  const pkg = await findPackage(trx, packageId);
  if (!pkg) throw packageNotFound();
  requireReportable(pkg, projectId);
  const row = await insertReport(
    trx,
    {
      id: uuidv7(now.getTime()),
      package_id: packageId,
      percent: input.percent,
      reported_on: input.reported_on,
      note: input.note ?? null,
    },
    principal.id,
    now,
  );
  await refreshPackageProgress(trx, packageId);
  await refreshProjectProgress(trx, projectId);
  const report = toReport(row, await progressOf(trx, packageId));
  await emit({
    type: 'development_project.progress_reported',
    data: {
      project_id: projectId,
      package_id: packageId,
      report_id: report.id,
      percent: report.percent,
      reported_on: report.reported_on,
      project_progress: report.project_progress,
      actor_fid: principal.id,
    },
  });
  return report;
}

/** Adds a milestone, optionally driven by another existing project (CON-057, CON-058). */
export async function addMilestone(ctx: CommandCtx, projectId: string, input: MilestoneInput): Promise<Milestone> {
  const { trx, principal, now, emit } = ctx;
  await projectForWrite(ctx, projectId);
  const driving = input.driving_project_id ?? null;
  if (driving !== null && !(await projectExists(trx, driving))) throw namedProjectNotFound('driving_project_id');
  const milestone = await insertMilestone(
    trx,
    {
      id: uuidv7(now.getTime()),
      project_id: projectId,
      name: input.name,
      driving_project_id: driving,
      planned_date: input.planned_date ?? null,
      forecast_date: input.forecast_date ?? null,
    },
    principal.id,
    now,
  );
  await refreshMilestoneDue(trx, projectId);
  await emit({
    type: 'development_project.milestone_added',
    data: { project_id: projectId, milestone_id: milestone.id, driving_project_id: driving, actor_fid: principal.id },
  });
  return milestone;
}

/** The milestone and its project locked for this write (404 milestone_not_found, 409 project_closed). */
async function milestoneForWrite(ctx: CommandCtx, id: string): Promise<Milestone> {
  const projectId = await milestoneProject(ctx.trx, id);
  if (!projectId) throw milestoneNotFound();
  await projectForWrite(ctx, projectId);
  const milestone = await lockMilestone(ctx.trx, id);
  if (!milestone) throw milestoneNotFound();
  return milestone;
}

/** Sets the milestone's actual date, once (CON-059, CON-060); default today. */
export async function completeMilestone(
  ctx: CommandCtx,
  id: string,
  actualDate: string | undefined,
): Promise<Milestone> {
  const { trx, principal, now, emit } = ctx;
  const held = await milestoneForWrite(ctx, id);
  requireOpenMilestone(held);
  const milestone = await setMilestone(trx, id, { actual_date: actualDate ?? dayOf(now) }, now);
  await refreshMilestoneDue(trx, milestone.project_id);
  await emit({
    type: 'development_project.milestone_completed',
    data: {
      project_id: milestone.project_id,
      milestone_id: id,
      actual_date: milestone.actual_date as string,
      actor_fid: principal.id,
    },
  });
  return milestone;
}

/** Moves the forecast of a milestone not yet complete (CON-061); the same date changes nothing. */
export async function moveForecast(ctx: CommandCtx, id: string, forecastDate: string): Promise<Milestone> {
  const { trx, principal, now, emit } = ctx;
  const held = await milestoneForWrite(ctx, id);
  requireOpenMilestone(held);
  if (held.forecast_date === forecastDate) return held;
  const milestone = await setMilestone(trx, id, { forecast_date: forecastDate }, now);
  await refreshMilestoneDue(trx, milestone.project_id);
  await emit({
    type: 'development_project.milestone_forecast_moved',
    data: {
      project_id: milestone.project_id,
      milestone_id: id,
      from: held.forecast_date,
      to: forecastDate,
      actor_fid: principal.id,
    },
  });
  return milestone;
}

/** Posts a weekly update (CON-062): week_of is stored as its Monday; the project's last update is today. */
export async function postUpdate(ctx: CommandCtx, projectId: string, input: UpdateInput): Promise<WeeklyUpdate> {
  const { trx, principal, now, emit } = ctx;
  await projectForWrite(ctx, projectId);
  const today = dayOf(now);
  const update = await insertUpdate(
    trx,
    {
      id: uuidv7(now.getTime()),
      project_id: projectId,
      week_of: mondayOf(input.week_of ?? today),
      summary: input.summary,
    },
    principal.id,
    now,
  );
  await noteUpdate(trx, projectId, today);
  await emit({
    type: 'development_project.update_posted',
    data: { project_id: projectId, update_id: update.id, week_of: update.week_of, actor_fid: principal.id },
  });
  return update;
}

/** Relates this project to another (CON-063, CON-064): once per type and direction (409 relation_exists). */
export async function relateProjects(ctx: CommandCtx, projectId: string, input: RelationInput): Promise<Relation> {
  const { trx, principal, now, emit } = ctx;
  await projectForWrite(ctx, projectId);
  requireOtherProject(projectId, input.to_project_id);
  if (!(await projectExists(trx, input.to_project_id))) throw namedProjectNotFound('to_project_id');
  const id = await insertRelation(
    trx,
    {
      id: uuidv7(now.getTime()),
      from_project_id: projectId,
      to_project_id: input.to_project_id,
      relation_type: input.relation_type,
      note: input.note ?? null,
    },
    principal.id,
    now,
  );
  if (!id) throw relationExists();
  await emit({
    type: 'development_project.related',
    data: {
      project_id: projectId,
      relation_id: id,
      to_project_id: input.to_project_id,
      relation_type: input.relation_type,
      actor_fid: principal.id,
    },
  });
  return findRelation(trx, projectId, id);
}
