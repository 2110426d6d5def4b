import { type EventSpecs, Uuid } from '@platform/kit';
import { Type } from '@sinclair/typebox';

/** Events of a project's packages, milestones, weekly updates and relations (ids and short values). */
export const PLAN_ITEM_EVENTS = {
  'development_project.package_added': {
    description: 'A package (measured by report or by tasks) was added to a project',
    payload: Type.Object({ project_id: Uuid, package_id: Uuid, measure: Type.String(), actor_fid: Type.String() }),
  },
  'development_project.progress_reported': {
    description:
      "A percentage was reported on a package measured by report; the package's and the project's progress followed",
    payload: Type.Object({
      project_id: Uuid,
      package_id: Uuid,
      report_id: Uuid,
      percent: Type.Number(),
      reported_on: Type.String(),
      project_progress: Type.Number(),
      actor_fid: Type.String(),
    }),
  },
  'development_project.milestone_added': {
    description: 'A milestone was added, possibly driven by another project',
    payload: Type.Object({
      project_id: Uuid,
      milestone_id: Uuid,
      driving_project_id: Type.Union([Uuid, Type.Null()]),
      actor_fid: Type.String(),
    }),
  },
  'development_project.milestone_completed': {
    description: 'A milestone got its actual date (once)',
    payload: Type.Object({
      project_id: Uuid,
      milestone_id: Uuid,
      actual_date: Type.String(),
      actor_fid: Type.String(),
    }),
  },
  'development_project.milestone_forecast_moved': {
    description: "A milestone's forecast date moved",
    payload: Type.Object({
      project_id: Uuid,
      milestone_id: Uuid,
      from: Type.Union([Type.String(), Type.Null()]),
      to: Type.String(),
      actor_fid: Type.String(),
    }),
  },
  'development_project.update_posted': {
    description: 'A weekly update was posted',
    payload: Type.Object({ project_id: Uuid, update_id: Uuid, week_of: Type.String(), actor_fid: Type.String() }),
  },
  'development_project.related': {
    description: 'A relation was made from one project to another',
    payload: Type.Object({
      project_id: Uuid,
      relation_id: Uuid,
      to_project_id: Uuid,
      relation_type: Type.String(),
      actor_fid: Type.String(),
    }),
  },
} as const satisfies EventSpecs;
