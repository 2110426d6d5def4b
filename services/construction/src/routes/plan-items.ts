import { Command, Envelope, notFound, PageEnvelope, pageMeta, pageRequest } from '@platform/kit';
import {
  addMilestone,
  addPackage,
  completeMilestone,
  moveForecast,
  postUpdate,
  relateProjects,
  reportProgress,
} from '../commands/plan-items.ts';
import { PLAN_PAGE } from '../domain/plan-items.ts';
import {
  Baseline,
  CompleteInput,
  ForecastInput,
  Milestone,
  MilestoneInput,
  MilestoneParams,
  Package,
  PackageInput,
  PackageParams,
  PackageReport,
  PlanListQuery,
  ProjectParams,
  Relation,
  RelationInput,
  ReportInput,
  UpdateInput,
  WeeklyUpdate,
} from '../schemas/plan-items.ts';
import { listBaselines } from '../store/baselines.ts';
import type { Db } from '../store/db.ts';
import { listMilestones } from '../store/milestones.ts';
import { listPackages } from '../store/packages.ts';
import { listRelations, projectExists } from '../store/relations.ts';
import { listUpdates } from '../store/updates.ts';
import { type Routes, route } from './deps.ts';

const tags = ['plan'];
const P = '/v1/development-projects/:projectId';
const CLOSED = 'A completed or cancelled project takes no more work (409 project_closed).';

/** Reads of a project's items: 404 project_not_found for an unknown project. */
export async function requireProject(db: Db, projectId: string) {
  if (!(await projectExists(db, projectId))) throw notFound('Development project', 'project_not_found');
}

export const PLAN_ITEM_ROUTES: Routes = [
  route({
    method: 'POST',
    url: `${P}/packages`,
    action: 'PlanProject',
    tags,
    summary: 'Add a package measured by report or by tasks',
    description: `weight (1 to 1,000, default 1) is the package's share of the project's progress. ${CLOSED}`,
    params: ProjectParams,
    body: Command(PackageInput),
    response: Envelope(Package),
    status: 201,
    errors: ['project_not_found', 'project_closed'],
    run: (ctx, { params, body }) => addPackage(ctx, params.projectId, body.data),
  }),

  route({
    method: 'GET',
    url: `${P}/packages`,
    action: 'ReadProject',
    tags,
    summary: "The project's packages with their progress, in the order they were added",
    params: ProjectParams,
    query: PlanListQuery,
    response: PageEnvelope(Package),
    errors: ['project_not_found'],
    handler: async ({ params, query, reply }, deps) => {
      await requireProject(deps.database.db, params.projectId);
      const page = pageRequest(query, PLAN_PAGE.pageSize);
      const { items, total } = await listPackages(deps.database.db, params.projectId, page);
      return reply.envelope(items, pageMeta(page, total));
    },
  }),

  route({
    method: 'POST',
    url: `${P}/packages/:packageId/reports`,
    action: 'RecordProgress',
    tags,
    summary: 'File a reported percentage with a date on a package measured by report',
    description:
      "The package's progress becomes its latest report by reported_on (then by filing); the project's progress " +
      'is the weighted mean of its packages. A package measured by tasks is 422 package_measured_by_tasks; a ' +
      `package of another project 422 package_of_another_project. ${CLOSED}`,
    params: PackageParams,
    body: Command(ReportInput),
    response: Envelope(PackageReport),
    status: 201,
    errors: [
      'project_not_found',
      'project_closed',
      'package_not_found',
      'package_of_another_project',
      'package_measured_by_tasks',
    ],
    run: (ctx, { params, body }) => reportProgress(ctx, params.projectId, params.packageId, body.data),
  }),

  route({
    method: 'POST',
    url: `${P}/milestones`,
    action: 'PlanProject',
    tags,
    summary: 'Add a milestone, optionally driven by another project',
    description: `A driving_project_id that names no project is 404 project_not_found (field driving_project_id). ${CLOSED}`,
    params: ProjectParams,
    body: Command(MilestoneInput),
    response: Envelope(Milestone),
    status: 201,
    errors: ['project_not_found', 'project_closed'],
    run: (ctx, { params, body }) => addMilestone(ctx, params.projectId, body.data),
  }),

  route({
    method: 'GET',
    url: `${P}/milestones`,
    action: 'ReadProject',
    tags,
    summary: "The project's milestones by date (actual, else forecast, else planned; undated last)",
    params: ProjectParams,
    query: PlanListQuery,
    response: PageEnvelope(Milestone),
    errors: ['project_not_found'],
    handler: async ({ params, query, reply }, deps) => {
      await requireProject(deps.database.db, params.projectId);
      const page = pageRequest(query, PLAN_PAGE.pageSize);
      const { items, total } = await listMilestones(deps.database.db, params.projectId, page);
      return reply.envelope(items, pageMeta(page, total));
    },
  }),

  route({
    method: 'POST',
    url: '/v1/milestones/:id/complete',
    action: 'RecordProgress',
    tags,
    summary: "Set the milestone's actual date (default today), once",
    description: `A milestone already complete is 409 already_complete and keeps its date. ${CLOSED}`,
    params: MilestoneParams,
    body: Command(CompleteInput),
    response: Envelope(Milestone),
    errors: ['milestone_not_found', 'project_closed', 'already_complete'],
    run: (ctx, { params, body }) => completeMilestone(ctx, params.id, body.data.actual_date),
  }),

  route({
    method: 'PUT',
    url: '/v1/milestones/:id/forecast',
    action: 'RecordProgress',
    tags,
    summary: "Move the milestone's forecast date",
    description: `A complete milestone's forecast no longer moves (409 already_complete). ${CLOSED}`,
    params: MilestoneParams,
    body: Command(ForecastInput),
    response: Envelope(Milestone),
    errors: ['milestone_not_found', 'project_closed', 'already_complete'],
    run: (ctx, { params, body }) => moveForecast(ctx, params.id, body.data.forecast_date),
  }),

  route({
    method: 'POST',
    url: `${P}/updates`,
    action: 'RecordProgress',
    tags,
    summary: 'Post a weekly update',
    description: `week_of (default this week) is stored as the Monday of its week; the project's freshness counts from the day posted. ${CLOSED}`,
    params: ProjectParams,
    body: Command(UpdateInput),
    response: Envelope(WeeklyUpdate),
    status: 201,
    errors: ['project_not_found', 'project_closed'],
    run: (ctx, { params, body }) => postUpdate(ctx, params.projectId, body.data),
  }),

  route({
    method: 'GET',
    url: `${P}/updates`,
    action: 'ReadProject',
    tags,
    summary: "The project's weekly updates, newest first",
    params: ProjectParams,
    query: PlanListQuery,
    response: PageEnvelope(WeeklyUpdate),
    errors: ['project_not_found'],
    handler: async ({ params, query, reply }, deps) => {
      await requireProject(deps.database.db, params.projectId);
      const page = pageRequest(query, PLAN_PAGE.pageSize);
      const { items, total } = await listUpdates(deps.database.db, params.projectId, page);
      return reply.envelope(items, pageMeta(page, total));
    },
  }),

  route({
    method: 'POST',
    url: `${P}/relations`,
    action: 'PlanProject',
    tags,
    summary: 'Relate this project to another',
    description:
      'relation_type: parent_of, depends_on, blocks, updates, shared_milestone or related_to; it reads "this project ' +
      '<type> to_project_id". A project is not related to itself (422 validation_failed); an unknown to_project_id is ' +
      `404 project_not_found; the same type in the same direction twice is 409 relation_exists. ${CLOSED}`,
    params: ProjectParams,
    body: Command(RelationInput),
    response: Envelope(Relation),
    status: 201,
    errors: ['project_not_found', 'project_closed', 'relation_exists'],
    run: (ctx, { params, body }) => relateProjects(ctx, params.projectId, body.data),
  }),

  route({
    method: 'GET',
    url: `${P}/relations`,
    action: 'ReadProject',
    tags,
    summary: "The project's relations in both directions, oldest first",
    description:
      'direction outgoing: made on this project, pointing to other_project; incoming: made on other_project, pointing here.',
    params: ProjectParams,
    query: PlanListQuery,
    response: PageEnvelope(Relation),
    errors: ['project_not_found'],
    handler: async ({ params, query, reply }, deps) => {
      await requireProject(deps.database.db, params.projectId);
      const page = pageRequest(query, PLAN_PAGE.pageSize);
      const { items, total } = await listRelations(deps.database.db, params.projectId, page);
      return reply.envelope(items, pageMeta(page, total));
    },
  }),

  route({
    method: 'GET',
    url: `${P}/baselines`,
    action: 'ReadProject',
    tags,
    summary: "The project's baselines, newest first",
    description: 'Written by the award (seq 1) and by each incorporated variation; never changed.',
    params: ProjectParams,
    query: PlanListQuery,
    response: PageEnvelope(Baseline),
    errors: ['project_not_found'],
    handler: async ({ params, query, reply }, deps) => {
      await requireProject(deps.database.db, params.projectId);
      const page = pageRequest(query, PLAN_PAGE.pageSize);
      const { items, total } = await listBaselines(deps.database.db, params.projectId, page);
      return reply.envelope(items, pageMeta(page, total));
    },
  }),
];
