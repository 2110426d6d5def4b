import { AppError, conflict, notFound, unprocessable } from '@platform/kit';

/** How a package's progress is measured (CON-051, CON-052). */
export const MEASURES = ['report', 'tasks'] as const;
export type Measure = (typeof MEASURES)[number];

/** The six relation types (CON-064). */
export const RELATION_TYPES = [
  'parent_of',
  'depends_on',
  'blocks',
  'updates',
  'shared_milestone',
  'related_to',
] as const;
export type RelationType = (typeof RELATION_TYPES)[number];

/** Lists of packages, milestones, updates, relations and baselines: 50 a page by default, at most 200. */
export const PLAN_PAGE = { pageSize: 50, maxPageSize: 200 } as const;

/** The UTC calendar day of an instant, YYYY-MM-DD. */
export const dayOf = (at: Date): string => at.toISOString().slice(0, 10);

/** The Monday of the week (ISO weeks, Monday first) holding `day` (YYYY-MM-DD). */
export function mondayOf(day: string): string {
  const d = new Date(`${day}T00:00:00Z`);
  const back = (d.getUTCDay() + 6) % 7;
  d.setUTCDate(d.getUTCDate() - back);
  return dayOf(d);
}

/** A report files a figure only on a package of this project measured by report (CON-055, CON-056). */
export function requireReportable(pkg: { project_id: string; measure: string }, projectId: string) {
  if (pkg.project_id !== projectId) {
    throw unprocessable('package_of_another_project', 'The package belongs to another project', 'packageId');
  }
  if (pkg.measure === 'tasks') {
    throw unprocessable(
      'package_measured_by_tasks',
      'This package is measured by its tasks and takes no reported figure',
      'percent',
    );
  }
}

/** A milestone's actual date is set once (CON-060); a complete milestone's forecast no longer moves. */
export function requireOpenMilestone(m: { actual_date: string | null }) {
  if (m.actual_date !== null) {
    throw conflict('already_complete', `The milestone was completed on ${m.actual_date}`);
  }
}

/** A project is not related to itself. */
export function requireOtherProject(projectId: string, toProjectId: string) {
  if (projectId === toProjectId) {
    throw unprocessable('validation_failed', 'A project cannot be related to itself', 'to_project_id');
  }
}

export const packageNotFound = () => notFound('Package', 'package_not_found');
export const milestoneNotFound = () => notFound('Milestone', 'milestone_not_found');
/** A project named in a body (driving_project_id, to_project_id) that does not exist: 404 with the field. */
export const namedProjectNotFound = (field: string) =>
  new AppError(404, 'project_not_found', 'Development project not found', [
    { code: 'project_not_found', message: 'Development project not found', field },
  ]);
export const relationExists = () =>
  conflict('relation_exists', 'This project already has a relation of that type to that project');

/** A numeric column as pg returns it ('12.50') as a number. */
export const num = (v: string | number): number => Number(v);
