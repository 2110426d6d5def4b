import { Command, Envelope, notFound, PageEnvelope, pageMeta, pageRequest } from '@platform/kit';
import { changeProject, createProject, setProjectStatus } from '../commands/projects.ts';
import { dayOf } from '../domain/health.ts';
import { PROJECT_PAGE, projectView } from '../domain/projects.ts';
import {
  ActivityEntry,
  ActivityQuery,
  PortfolioQuery,
  Project,
  ProjectChange,
  ProjectIdParams,
  ProjectInput,
  ProjectParams,
  StatusInput,
} from '../schemas/projects.ts';
import { Overview, Plan } from '../schemas/stages.ts';
import { listActivity } from '../store/activity.ts';
import { findProject, listPortfolio } from '../store/projects.ts';
import { findAward, latestUpdate, listOverviewPackages, listPlanMilestones, listStages } from '../store/stages.ts';
import { tasksOfProject } from '../store/tasks.ts';
import { type Routes, route } from './deps.ts';

const tags = ['development-projects'];

const projectNotFound = () => notFound('Development project', 'project_not_found');

async function readProject(db: Parameters<typeof findProject>[0], id: string) {
  const row = await findProject(db, id);
  if (!row) throw projectNotFound();
  return row;
}

export const projectRoutes: Routes = [
  route({
    method: 'POST',
    url: '/v1/development-projects',
    action: 'CreateProject',
    tags,
    summary: 'Create a development project (editors): active, in initiation, with its seven stages',
    description:
      'kind is master_plan, ground_up, conversion or capital_improvement (anything else is 422). code is unique ' +
      "ignoring case (409 code_taken). Initiation's actual start is the day of creation. Publishes " +
      'development_project.created.',
    body: Command(ProjectInput),
    response: Envelope(Project),
    status: 201,
    errors: ['code_taken'],
    run: (ctx, { body }) => createProject(ctx, body.data),
  }),

  route({
    method: 'GET',
    url: '/v1/development-projects',
    action: 'ReadProject',
    tags,
    summary: 'The portfolio: projects by code, filtered; page mode, 50 by default, at most 200',
    description:
      'Filters: status, kind, stage, phase (planning: initiation, feasibility; pre_construction: design, permitting, ' +
      'award; delivery: construction; closeout: closeout), owner_fid, region, health and freshness (as of today, ' +
      'from the figures kept on each project), search (code or name contains, any case).',
    query: PortfolioQuery,
    response: PageEnvelope(Project),
    handler: async (input, deps) => {
      const now = deps.clock();
      const { 'pagination[page]': _p, 'pagination[pageSize]': _s, ...filter } = input.query;
      const page = pageRequest(input.query, PROJECT_PAGE.pageSize);
      const { items, total } = await listPortfolio(deps.database.db, filter, dayOf(now), page);
      return input.reply.envelope(
        items.map((r) => projectView(r, now)),
        pageMeta(page, total),
      );
    },
  }),

  route({
    method: 'GET',
    url: '/v1/development-projects/:id',
    action: 'ReadProject',
    tags,
    summary: 'One project with health, progress, phase and freshness (as of today) and its budget totals',
    params: ProjectIdParams,
    response: Envelope(Project),
    errors: ['project_not_found'],
    handler: async (input, deps) =>
      input.reply.envelope(projectView(await readProject(deps.database.db, input.params.id), deps.clock())),
  }),

  route({
    method: 'PUT',
    url: '/v1/development-projects/:id',
    action: 'PlanProject',
    tags,
    summary: "Change a project's details (editors): code, name, kind, owner_fid, region, description",
    description:
      'Only the fields sent change (owner_fid and region null clear them); stage and status have their own routes. ' +
      'A code another project holds, ignoring case, is 409 code_taken. Publishes development_project.updated ' +
      'with the changed field names (none when nothing changed).',
    params: ProjectIdParams,
    body: Command(ProjectChange),
    response: Envelope(Project),
    errors: ['project_not_found', 'project_closed', 'code_taken'],
    run: (ctx, { params, body }) => changeProject(ctx, params.id, body.data),
  }),

  route({
    method: 'POST',
    url: '/v1/development-projects/:id/status',
    action: 'PlanProject',
    tags,
    summary: 'Put a project on hold, make it active again, or cancel it (editors)',
    description:
      'active <-> on_hold; cancelled from either. A completed or cancelled project is 409 project_closed. The ' +
      'same status again changes nothing. An on-hold project keeps taking records but does not advance or ' +
      'complete (409 project_on_hold). Publishes development_project.status_changed.',
    params: ProjectIdParams,
    body: Command(StatusInput),
    response: Envelope(Project),
    errors: ['project_not_found', 'project_closed'],
    run: (ctx, { params, body }) => setProjectStatus(ctx, params.id, body.data),
  }),

  route({
    method: 'GET',
    url: '/v1/development-projects/:projectId/overview',
    action: 'ReadProject',
    tags,
    summary:
      'The overview tab: the project, its stages, award, packages, next milestones, latest update, budget totals',
    params: ProjectParams,
    response: Envelope(Overview),
    errors: ['project_not_found'],
    handler: async (input, deps) => {
      const db = deps.database.db;
      const row = await readProject(db, input.params.projectId);
      const project = projectView(row, deps.clock());
      return input.reply.envelope({
        project,
        stages: await listStages(db, row),
        award: await findAward(db, row.id),
        packages: await listOverviewPackages(db, row.id),
        next_milestones: await listPlanMilestones(db, row.id, { openOnly: true, limit: 5 }),
        latest_update: await latestUpdate(db, row.id),
        budget: {
          budget_minor: project.budget_minor,
          committed_minor: project.committed_minor,
          actual_minor: project.actual_minor,
        },
      });
    },
  }),

  route({
    method: 'GET',
    url: '/v1/development-projects/:projectId/plan',
    action: 'ReadProject',
    tags,
    summary: "The plan: the project's seven stages, the tasks linked to it and its milestones",
    params: ProjectParams,
    response: Envelope(Plan),
    errors: ['project_not_found'],
    handler: async (input, deps) => {
      const db = deps.database.db;
      const row = await readProject(db, input.params.projectId);
      return input.reply.envelope({
        stages: await listStages(db, row),
        tasks: await tasksOfProject(db, row.id),
        milestones: await listPlanMilestones(db, row.id),
      });
    },
  }),

  route({
    method: 'GET',
    url: '/v1/development-projects/:projectId/activity',
    action: 'ReadProject',
    tags,
    summary: "The project's recent activity, newest first: one entry per event about it; page mode, 50 by default",
    params: ProjectParams,
    query: ActivityQuery,
    response: PageEnvelope(ActivityEntry),
    errors: ['project_not_found'],
    handler: async (input, deps) => {
      const db = deps.database.db;
      const row = await readProject(db, input.params.projectId);
      const page = pageRequest(input.query, PROJECT_PAGE.pageSize);
      const { items, total } = await listActivity(db, row.id, page);
      return input.reply.envelope(items, pageMeta(page, total));
    },
  }),
];
