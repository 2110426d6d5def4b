import { pageQuery, Timestamp, Uuid } from '@platform/kit';
import { type Static, type TUnsafe, Type } from '@sinclair/typebox';
import { FRESHNESS, HEALTH, PHASES, STAGES } from '../domain/health.ts';
import { PROJECT_KINDS, PROJECT_PAGE, PROJECT_STATUSES, SETTABLE_STATUSES } from '../domain/projects.ts';

/** A string enum shown as `enum` in the OpenAPI document (unknown values are 422 validation_failed). */
const Enum = <T extends string>(values: readonly T[], description?: string): TUnsafe<T> =>
  Type.Unsafe<T>({ type: 'string', enum: [...values], ...(description ? { description } : {}) });

/** YYYY-MM-DD, years 1000-9999. */
export const DateOnly = Type.String({ format: 'date', pattern: '^[1-9]\\d{3}-', description: 'YYYY-MM-DD' });
const Line = (maxLength: number, description?: string) =>
  Type.String({ minLength: 1, maxLength, pattern: '\\S', ...(description ? { description } : {}) });
const Fid = Type.String({ minLength: 1, maxLength: 200, description: 'A principal id (FID)' });

export const ProjectKindName = Enum(PROJECT_KINDS, 'master_plan, ground_up, conversion or capital_improvement');
export const ProjectStatusName = Enum(PROJECT_STATUSES, 'active, on_hold, cancelled or completed');
export const StageName = Enum(STAGES, 'initiation, feasibility, design, permitting, award, construction, closeout');
export const PhaseName = Enum(PHASES, 'planning, pre_construction, delivery or closeout');
export const HealthName = Enum(HEALTH, 'green, amber or red');
export const FreshnessName = Enum(FRESHNESS, 'fresh, aging or stale');

export const ProjectIdParams = Type.Object({ id: Uuid });
export const ProjectParams = Type.Object({ projectId: Uuid });

export const ProjectInput = Type.Object(
  {
    code: Line(40, 'Unique ignoring case (409 code_taken)'),
    name: Line(200),
    kind: ProjectKindName,
    owner_fid: Type.Optional(Fid),
    region: Type.Optional(Line(100)),
    description: Type.Optional(Type.String({ maxLength: 10_000 })),
  },
  { additionalProperties: false },
);
export type ProjectInput = Static<typeof ProjectInput>;

/** PUT: the fields sent change; owner_fid and region null clear them. Stage and status have their own routes. */
export const ProjectChange = Type.Object(
  {
    code: Type.Optional(Line(40, 'Unique ignoring case (409 code_taken)')),
    name: Type.Optional(Line(200)),
    kind: Type.Optional(ProjectKindName),
    owner_fid: Type.Optional(Type.Union([Fid, Type.Null()])),
    region: Type.Optional(Type.Union([Line(100), Type.Null()])),
    description: Type.Optional(Type.String({ maxLength: 10_000 })),
  },
  { additionalProperties: false },
);
export type ProjectChange = Static<typeof ProjectChange>;

export const StatusInput = Type.Object(
  { status: Enum(SETTABLE_STATUSES, 'on_hold, active or cancelled (completed comes from the complete route)') },
  { additionalProperties: false },
);
export type StatusInput = Static<typeof StatusInput>;

/** A project as every read shows it: its row and what is computed from the kept figures as of today. */
export const Project = Type.Object({
  id: Uuid,
  code: Type.String(),
  name: Type.String(),
  kind: ProjectKindName,
  status: ProjectStatusName,
  stage: StageName,
  phase: PhaseName,
  owner_fid: Type.Union([Type.String(), Type.Null()]),
  region: Type.Union([Type.String(), Type.Null()]),
  description: Type.String(),
  health: HealthName,
  progress: Type.Number({ description: 'Weighted mean of the packages, 0 to 100' }),
  freshness: FreshnessName,
  next_milestone_due: Type.Union([DateOnly, Type.Null()]),
  last_update_on: Type.Union([DateOnly, Type.Null()]),
  budget_minor: Type.Integer(),
  committed_minor: Type.Integer(),
  actual_minor: Type.Integer(),
  created_by: Type.String(),
  created_at: Timestamp,
  updated_at: Timestamp,
});
export type Project = Static<typeof Project>;

export const PortfolioQuery = Type.Object(
  {
    status: Type.Optional(ProjectStatusName),
    kind: Type.Optional(ProjectKindName),
    stage: Type.Optional(StageName),
    phase: Type.Optional(PhaseName),
    owner_fid: Type.Optional(Fid),
    region: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
    health: Type.Optional(HealthName),
    freshness: Type.Optional(FreshnessName),
    search: Type.Optional(
      Type.String({ minLength: 1, maxLength: 200, description: 'Code or name contains, any case' }),
    ),
    ...pageQuery(PROJECT_PAGE),
  },
  { additionalProperties: false },
);
export type PortfolioQuery = Static<typeof PortfolioQuery>;

export const ReportQuery = Type.Object(
  {
    status: Type.Optional(ProjectStatusName),
    kind: Type.Optional(ProjectKindName),
    stage: Type.Optional(StageName),
    owner_fid: Type.Optional(Fid),
    region: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
  },
  { additionalProperties: false },
);
export type ReportQuery = Static<typeof ReportQuery>;

const Counts = <T extends string>(keys: readonly T[]) =>
  Type.Object(Object.fromEntries(keys.map((k) => [k, Type.Integer()])) as Record<T, ReturnType<typeof Type.Integer>>);

export const ReportRow = Type.Object({
  id: Uuid,
  code: Type.String(),
  name: Type.String(),
  kind: ProjectKindName,
  status: ProjectStatusName,
  stage: StageName,
  phase: PhaseName,
  owner_fid: Type.Union([Type.String(), Type.Null()]),
  region: Type.Union([Type.String(), Type.Null()]),
  health: HealthName,
  progress: Type.Number(),
  freshness: FreshnessName,
  next_milestone_due: Type.Union([DateOnly, Type.Null()]),
  last_update_on: Type.Union([DateOnly, Type.Null()]),
  budget_minor: Type.Integer(),
  committed_minor: Type.Integer(),
  actual_minor: Type.Integer(),
});
export type ReportRow = Static<typeof ReportRow>;

export const PortfolioReport = Type.Object({
  as_of: DateOnly,
  projects: Type.Array(ReportRow),
  totals: Type.Object({
    projects: Type.Integer(),
    by_health: Counts(HEALTH),
    by_stage: Counts(STAGES),
    budget_minor: Type.Integer(),
    committed_minor: Type.Integer(),
    actual_minor: Type.Integer(),
  }),
});
export type PortfolioReport = Static<typeof PortfolioReport>;

export const ActivityQuery = Type.Object({ ...pageQuery(PROJECT_PAGE) }, { additionalProperties: false });
export const ActivityEntry = Type.Object({
  id: Uuid,
  project_id: Uuid,
  type: Type.String({ description: 'The event type, e.g. development_project.stage_advanced' }),
  actor_fid: Type.String(),
  data: Type.Record(Type.String(), Type.Unknown(), { description: "The event's ids and short values" }),
  created_at: Timestamp,
});
export type ActivityEntry = Static<typeof ActivityEntry>;
