import { pageQuery, Timestamp, Uuid } from '@platform/kit';
import { type Static, type TUnsafe, Type } from '@sinclair/typebox';
import { MEASURES, PLAN_PAGE, RELATION_TYPES } from '../domain/plan-items.ts';

/** A string enum shown as `enum` in the OpenAPI document (unknown values are 422 validation_failed). */
export const StringEnum = <T extends string>(values: readonly T[], description?: string): TUnsafe<T> =>
  Type.Unsafe<T>({ type: 'string', enum: [...values], ...(description ? { description } : {}) });

/** YYYY-MM-DD, years 1000-9999. */
export const DateString = Type.String({ format: 'date', pattern: '^[1-9]\\d{3}-', description: 'YYYY-MM-DD' });

/** Free text on one line: no leading or trailing blanks, no control characters. */
const TEXT_PATTERN =
  '^[^\\s\\x00-\\x1f\\x7f-\\x9f](?:[^\\x00-\\x1f\\x7f-\\x9f\\u2028\\u2029]*[^\\s\\x00-\\x1f\\x7f-\\x9f])?$';
export const Text = (maxLength: number, description?: string) =>
  Type.String({
    minLength: 1,
    maxLength,
    pattern: TEXT_PATTERN,
    description: `${description ? `${description}. ` : ''}One line: no leading or trailing blanks, no control characters`,
  });
/** Longer text that may hold line breaks (notes, summaries): 1 to `maxLength` characters, not blank. */
export const Prose = (maxLength: number, description?: string) =>
  Type.String({ minLength: 1, maxLength, pattern: '\\S', ...(description ? { description } : {}) });

export const ProjectParams = Type.Object({ projectId: Uuid });
export const PackageParams = Type.Object({ projectId: Uuid, packageId: Uuid });
export const MilestoneParams = Type.Object({ id: Uuid });
export const PlanListQuery = Type.Object(pageQuery(PLAN_PAGE), { additionalProperties: false });

/** Percent of work done, 0 to 100 with at most two decimals. */
const Percent = Type.Number({
  minimum: 0,
  maximum: 100,
  multipleOf: 0.01,
  description: '0 to 100, two decimals at most',
});

export const PackageInput = Type.Object(
  {
    name: Text(200),
    measure: StringEnum(MEASURES, 'report: progress is the latest reported percentage; tasks: the mean of its tasks'),
    weight: Type.Optional(
      Type.Integer({ minimum: 1, maximum: 1000, default: 1, description: 'Share of the project progress' }),
    ),
  },
  { additionalProperties: false },
);
export type PackageInput = Static<typeof PackageInput>;

export const Package = Type.Object({
  id: Uuid,
  project_id: Uuid,
  name: Type.String(),
  measure: StringEnum(MEASURES),
  weight: Type.Integer(),
  progress: Type.Number({ description: 'Kept: latest report (by report) or mean of its tasks (by tasks), 0 to 100' }),
  created_by: Type.String(),
  created_at: Timestamp,
});
export type Package = Static<typeof Package>;

export const ReportInput = Type.Object(
  { percent: Percent, reported_on: DateString, note: Type.Optional(Prose(2000)) },
  { additionalProperties: false },
);
export type ReportInput = Static<typeof ReportInput>;

export const PackageReport = Type.Object({
  id: Uuid,
  package_id: Uuid,
  percent: Type.Number(),
  reported_on: Type.String({ format: 'date' }),
  note: Type.Union([Type.String(), Type.Null()]),
  created_by: Type.String(),
  created_at: Timestamp,
  package_progress: Type.Number({ description: "The package's progress after this report" }),
  project_progress: Type.Number({ description: "The project's progress after this report" }),
});
export type PackageReport = Static<typeof PackageReport>;

export const MilestoneInput = Type.Object(
  {
    name: Text(200),
    planned_date: Type.Optional(DateString),
    forecast_date: Type.Optional(DateString),
    driving_project_id: Type.Optional({
      ...Uuid,
      description: 'Another project whose work drives this date (404 project_not_found)',
    }),
  },
  { additionalProperties: false },
);
export type MilestoneInput = Static<typeof MilestoneInput>;

export const Milestone = Type.Object({
  id: Uuid,
  project_id: Uuid,
  name: Type.String(),
  driving_project_id: Type.Union([Uuid, Type.Null()]),
  planned_date: Type.Union([Type.String({ format: 'date' }), Type.Null()]),
  forecast_date: Type.Union([Type.String({ format: 'date' }), Type.Null()]),
  actual_date: Type.Union([Type.String({ format: 'date' }), Type.Null()]),
  complete: Type.Boolean(),
  created_by: Type.String(),
  created_at: Timestamp,
  updated_at: Timestamp,
});
export type Milestone = Static<typeof Milestone>;

export const CompleteInput = Type.Object(
  { actual_date: Type.Optional({ ...DateString, description: "Default: today (the service's UTC date)" }) },
  { additionalProperties: false },
);
export const ForecastInput = Type.Object({ forecast_date: DateString }, { additionalProperties: false });

export const UpdateInput = Type.Object(
  {
    summary: Prose(10_000),
    week_of: Type.Optional({
      ...DateString,
      description: 'Any day of the week; stored as its Monday. Default: this week',
    }),
  },
  { additionalProperties: false },
);
export type UpdateInput = Static<typeof UpdateInput>;

export const WeeklyUpdate = Type.Object({
  id: Uuid,
  project_id: Uuid,
  week_of: Type.String({ format: 'date', description: 'The Monday of the week' }),
  summary: Type.String(),
  created_by: Type.String(),
  created_at: Timestamp,
});
export type WeeklyUpdate = Static<typeof WeeklyUpdate>;

export const RelationInput = Type.Object(
  {
    to_project_id: { ...Uuid, description: 'Another project (404 project_not_found; itself is 422 validation_failed)' },
    relation_type: StringEnum(RELATION_TYPES),
    note: Type.Optional(Text(500)),
  },
  { additionalProperties: false },
);
export type RelationInput = Static<typeof RelationInput>;

export const Relation = Type.Object({
  id: Uuid,
  from_project_id: Uuid,
  to_project_id: Uuid,
  relation_type: StringEnum(RELATION_TYPES),
  direction: StringEnum(
    ['outgoing', 'incoming'] as const,
    'outgoing: this project → the other; incoming: the other → this project',
  ),
  other_project: Type.Object({ id: Uuid, code: Type.String(), name: Type.String() }),
  note: Type.Union([Type.String(), Type.Null()]),
  created_by: Type.String(),
  created_at: Timestamp,
});
export type Relation = Static<typeof Relation>;

export const Baseline = Type.Object({
  id: Uuid,
  project_id: Uuid,
  seq: Type.Integer(),
  kind: StringEnum(['award', 'variation'] as const),
  variation_id: Type.Union([Uuid, Type.Null()]),
  amount_minor: Type.Integer(),
  finish_date: Type.String({ format: 'date' }),
  created_by: Type.String(),
  created_at: Timestamp,
});
export type Baseline = Static<typeof Baseline>;
