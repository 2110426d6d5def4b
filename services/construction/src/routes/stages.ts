import { Command, Envelope, notFound, OptionalDataCommand } from '@platform/kit';
import { Type } from '@sinclair/typebox';
import { advanceStage, completeProject, planStage } from '../commands/stages.ts';
import { ProjectParams } from '../schemas/projects.ts';
import { AdvanceInput, ProjectWithStages, Stage, StageParams, StagePlanInput } from '../schemas/stages.ts';
import { findProject } from '../store/projects.ts';
import { listStages } from '../store/stages.ts';
import { type Routes, route } from './deps.ts';

const tags = ['stages'];

export const stageRoutes: Routes = [
  route({
    method: 'GET',
    url: '/v1/development-projects/:projectId/stages',
    action: 'ReadProject',
    tags,
    summary: 'The seven stages in order with planned, forecast and actual dates, status and whether a gate guards it',
    params: ProjectParams,
    response: Envelope(Type.Array(Stage)),
    errors: ['project_not_found'],
    handler: async (input, deps) => {
      const row = await findProject(deps.database.db, input.params.projectId);
      if (!row) throw notFound('Development project', 'project_not_found');
      return input.reply.envelope(await listStages(deps.database.db, row));
    },
  }),

  route({
    method: 'POST',
    url: '/v1/development-projects/:projectId/advance',
    action: 'AdvanceStage',
    tags,
    summary: 'Move the project one stage forward when the gate of the stage being left allows (editors)',
    description:
      'from_stage must be the current stage (409 stage_moved: someone moved it). Closeout is left by complete ' +
      '(409 last_stage). Leaving feasibility, design, award or construction needs an approved stage_gate ' +
      'approval for that stage (409 no_approved_gate). Leaving award takes the award {contract_sum_minor, ' +
      'completion_date, vendor_id?, awarded_on?} (422 award_required), stored with the award baseline (seq 1). ' +
      'Only an active project advances (409 project_on_hold). The stage left finishes today, the next starts ' +
      'today. Publishes development_project.stage_advanced (and development_project.awarded).',
    params: ProjectParams,
    body: Command(AdvanceInput),
    response: Envelope(ProjectWithStages),
    errors: [
      'project_not_found',
      'project_closed',
      'project_on_hold',
      'stage_moved',
      'last_stage',
      'no_approved_gate',
      'award_required',
    ],
    run: (ctx, { params, body }) => advanceStage(ctx, params.projectId, body.data),
  }),

  route({
    method: 'POST',
    url: '/v1/development-projects/:projectId/complete',
    action: 'AdvanceStage',
    tags,
    summary: 'Complete a project in closeout (editors): status completed, closeout finishes today',
    description:
      'Only from closeout (409 not_in_closeout) and only an active project (409 project_on_hold). A completed ' +
      'project takes no more work. Publishes development_project.completed.',
    params: ProjectParams,
    emptyBody: true,
    body: OptionalDataCommand(Type.Object({}, { additionalProperties: false })),
    response: Envelope(ProjectWithStages),
    errors: ['project_not_found', 'project_closed', 'project_on_hold', 'not_in_closeout'],
    run: (ctx, { params }) => completeProject(ctx, params.projectId),
  }),

  route({
    method: 'PUT',
    url: '/v1/development-projects/:projectId/stages/:stage/plan',
    action: 'PlanProject',
    tags,
    summary: "Set a stage's planned and forecast dates (editors); actual dates come only from advancing",
    description:
      'planned_start, planned_finish, forecast_start, forecast_finish: those sent change, null clears one. ' +
      'actual_start or actual_finish in the body is 422 validation_failed and nothing is stored. An unknown stage ' +
      'is 404 stage_not_found. Publishes development_project.stage_planned.',
    params: StageParams,
    body: Command(StagePlanInput),
    response: Envelope(Stage),
    errors: ['project_not_found', 'project_closed', 'stage_not_found'],
    run: (ctx, { params, body }) => planStage(ctx, params.projectId, params.stage, body.data),
  }),
];
