import { Timestamp, Uuid } from '@platform/kit';
import { type Static, type TUnsafe, Type } from '@sinclair/typebox';
import { STAGE_STATUSES } from '../domain/stages.ts';
import { DateOnly, Project, StageName } from './projects.ts';

const Enum = <T extends string>(values: readonly T[], description?: string): TUnsafe<T> =>
  Type.Unsafe<T>({ type: 'string', enum: [...values], ...(description ? { description } : {}) });
const MaybeDate = Type.Union([DateOnly, Type.Null()]);

export const StageParams = Type.Object({ projectId: Uuid, stage: Type.String({ minLength: 1, maxLength: 40 }) });

export const Stage = Type.Object({
  stage: StageName,
  seq: Type.Integer({ minimum: 1, maximum: 7 }),
  status: Enum(STAGE_STATUSES, 'done (left, or closeout of a completed project), current or upcoming'),
  gated: Type.Boolean({ description: 'Leaving it needs an approved stage_gate approval' }),
  planned_start: MaybeDate,
  planned_finish: MaybeDate,
  forecast_start: MaybeDate,
  forecast_finish: MaybeDate,
  actual_start: MaybeDate,
  actual_finish: MaybeDate,
});
export type Stage = Static<typeof Stage>;

/**
 * The plan route's body: planned and forecast dates only (null clears one). Actual dates come from
 * advancing: actual_start or actual_finish here is 422 validation_failed (CON-050).
 */
export const StagePlanInput = Type.Object(
  {
    planned_start: Type.Optional(MaybeDate),
    planned_finish: Type.Optional(MaybeDate),
    forecast_start: Type.Optional(MaybeDate),
    forecast_finish: Type.Optional(MaybeDate),
  },
  { additionalProperties: false },
);
export type StagePlanInput = Static<typeof StagePlanInput>;

export const AwardInput = Type.Object(
  {
    contract_sum_minor: Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER }),
    completion_date: DateOnly,
    vendor_id: Type.Optional(Uuid),
    awarded_on: Type.Optional({ ...DateOnly, description: 'Default: the day of the advance' }),
  },
  { additionalProperties: false },
);
export type AwardInput = Static<typeof AwardInput>;

export const AdvanceInput = Type.Object(
  {
    from_stage: StageName,
    award: Type.Optional({
      ...AwardInput,
      description: 'Required when leaving award (422 award_required); read only then',
    }),
  },
  { additionalProperties: false },
);
export type AdvanceInput = Static<typeof AdvanceInput>;

export const Award = Type.Object({
  project_id: Uuid,
  contract_sum_minor: Type.Integer(),
  completion_date: DateOnly,
  vendor_id: Type.Union([Uuid, Type.Null()]),
  awarded_on: DateOnly,
  baseline_id: Uuid,
  created_by: Type.String(),
  created_at: Timestamp,
});
export type Award = Static<typeof Award>;

export const ProjectWithStages = Type.Object({
  project: Project,
  stages: Type.Array(Stage),
  award: Type.Union([Award, Type.Null()]),
});
export type ProjectWithStages = Static<typeof ProjectWithStages>;

const OverviewPackage = Type.Object({
  id: Uuid,
  name: Type.String(),
  measure: Type.String(),
  weight: Type.Integer(),
  progress: Type.Number(),
});
const PlanMilestone = Type.Object({
  id: Uuid,
  name: Type.String(),
  driving_project_id: Type.Union([Uuid, Type.Null()]),
  planned_date: MaybeDate,
  forecast_date: MaybeDate,
  actual_date: MaybeDate,
});
export type PlanMilestone = Static<typeof PlanMilestone>;

export const Overview = Type.Object({
  project: Project,
  stages: Type.Array(Stage),
  award: Type.Union([Award, Type.Null()]),
  packages: Type.Array(OverviewPackage),
  next_milestones: Type.Array(PlanMilestone, { description: 'Up to five milestones not complete, soonest due first' }),
  latest_update: Type.Union([
    Type.Object({ id: Uuid, week_of: DateOnly, summary: Type.String(), created_at: Timestamp }),
    Type.Null(),
  ]),
  budget: Type.Object({ budget_minor: Type.Integer(), committed_minor: Type.Integer(), actual_minor: Type.Integer() }),
});
export type Overview = Static<typeof Overview>;

const PlanTask = Type.Object({
  id: Uuid,
  title: Type.String(),
  relationship_type: Type.String({ description: 'primary (its own project), affects, shared or deliverable_for' }),
  status: Type.String(),
  percent_complete: Type.Integer(),
  planned_start: MaybeDate,
  planned_finish: MaybeDate,
  forecast_finish: MaybeDate,
});
export type PlanTask = Static<typeof PlanTask>;

export const Plan = Type.Object({
  stages: Type.Array(Stage),
  tasks: Type.Array(PlanTask, {
    description: 'Tasks linked to the project (any relationship), by planned start (undated last), then creation',
  }),
  milestones: Type.Array(PlanMilestone, { description: 'Soonest due first, complete ones included' }),
});
export type Plan = Static<typeof Plan>;
