import { notFound, uuidv7 } from '@platform/kit';
import { dayOf } from '../domain/health.ts';
import { projectView } from '../domain/projects.ts';
import { isStage, planAdvance, requireCompletable, requireGate } from '../domain/stages.ts';
import type { AdvanceInput, ProjectWithStages, Stage, StagePlanInput } from '../schemas/stages.ts';
import { getProject, updateProject } from '../store/projects.ts';
import {
  findAward,
  findStage,
  finishStage,
  hasApprovedGate,
  insertAward,
  listStages,
  recordAdvance,
  type StageDates,
  setStagePlan,
} from '../store/stages.ts';
import type { CommandCtx } from './context.ts';
import { projectForWrite } from './project-access.ts';

/**
 * Stage commands (spec 3, Stages): advance one stage, complete from closeout, plan a stage's
 * dates. The project row is locked first (projectForWrite), so two advances from one stage move it
 * once: the second reads the moved stage and answers 409 stage_moved.
 */

const stageNotFound = () => notFound('Stage', 'stage_not_found');

async function withStages(ctx: CommandCtx, projectId: string): Promise<ProjectWithStages> {
  const row = await getProject(ctx.trx, projectId);
  return {
    project: projectView(row, ctx.now),
    stages: await listStages(ctx.trx, row),
    award: await findAward(ctx.trx, projectId),
  };
}

/**
 * Moves exactly one stage: the stage left finishes today, the next starts today. Leaving a gated
 * stage needs an approved stage_gate approval for it; leaving award stores the award and writes
 * the award baseline (seq 1) in this transaction.
 */
export async function advanceStage(
  ctx: CommandCtx,
  projectId: string,
  input: AdvanceInput,
): Promise<ProjectWithStages> {
  const { trx, principal, now } = ctx;
  const project = await projectForWrite(ctx, projectId);
  const { from, to } = planAdvance(project, input.from_stage, input.award !== undefined);
  requireGate(from, await hasApprovedGate(trx, projectId, from));
  const today = dayOf(now);
  await recordAdvance(trx, projectId, from, to, today);
  await updateProject(trx, projectId, { stage: to }, now);
  if (from === 'award' && input.award) {
    const award = {
      project_id: projectId,
      contract_sum_minor: input.award.contract_sum_minor,
      completion_date: input.award.completion_date,
      vendor_id: input.award.vendor_id ?? null,
      awarded_on: input.award.awarded_on ?? today,
      baseline_id: uuidv7(now.getTime()),
      created_by: principal.id,
    };
    await insertAward(trx, award, now);
    await ctx.emit({
      type: 'development_project.awarded',
      data: {
        project_id: projectId,
        baseline_id: award.baseline_id,
        contract_sum_minor: award.contract_sum_minor,
        completion_date: award.completion_date,
        vendor_id: award.vendor_id,
        actor_fid: principal.id,
      },
    });
  }
  await ctx.emit({
    type: 'development_project.stage_advanced',
    data: { project_id: projectId, from_stage: from, to_stage: to, on: today, actor_fid: principal.id },
  });
  return withStages(ctx, projectId);
}

/** Completes an active project in closeout: status completed, closeout finishes today. */
export async function completeProject(ctx: CommandCtx, projectId: string): Promise<ProjectWithStages> {
  const { trx, principal, now } = ctx;
  const project = await projectForWrite(ctx, projectId);
  requireCompletable(project);
  const today = dayOf(now);
  await finishStage(trx, projectId, 'closeout', today);
  await updateProject(trx, projectId, { status: 'completed' }, now);
  await ctx.emit({
    type: 'development_project.completed',
    data: { project_id: projectId, on: today, actor_fid: principal.id },
  });
  return withStages(ctx, projectId);
}

/** Sets a stage's planned and forecast dates (those sent; null clears one). Actual dates are never taken here. */
export async function planStage(
  ctx: CommandCtx,
  projectId: string,
  stage: string,
  input: StagePlanInput,
): Promise<Stage> {
  const { trx, principal } = ctx;
  const project = await projectForWrite(ctx, projectId);
  if (!isStage(stage)) throw stageNotFound();
  const current = await findStage(trx, projectId, stage);
  if (!current) throw stageNotFound();
  const dates: StageDates = {};
  for (const k of ['planned_start', 'planned_finish', 'forecast_start', 'forecast_finish'] as const) {
    const v = input[k];
    if (v !== undefined && v !== current[k]) dates[k] = v;
  }
  const fields = Object.keys(dates);
  if (fields.length > 0) {
    await setStagePlan(trx, projectId, stage, dates);
    await ctx.emit({
      type: 'development_project.stage_planned',
      data: { project_id: projectId, stage, fields, actor_fid: principal.id },
    });
  }
  const stages = await listStages(trx, project);
  return stages.find((s) => s.stage === stage) as Stage;
}
