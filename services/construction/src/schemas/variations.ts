import { pageQuery, Timestamp, Uuid } from '@platform/kit';
import { type Static, Type } from '@sinclair/typebox';
import { VARIATION_STATUSES } from '../domain/variations.ts';
import { Approval, ReviewerInput } from './registers.ts';

export const VariationParams = Type.Object({ id: Uuid });

export const VariationStatusName = Type.Union(
  VARIATION_STATUSES.map((s) => Type.Literal(s)),
  { description: 'drafted, priced, submitted, approved, rejected or incorporated' },
);

/** A signed change in integer minor units (a variation may cost more or less). */
const SignedMinor = Type.Integer({ minimum: -Number.MAX_SAFE_INTEGER, maximum: Number.MAX_SAFE_INTEGER });

export const VariationInput = Type.Object(
  {
    project_id: Uuid,
    title: Type.String({ minLength: 1, maxLength: 200 }),
    description: Type.Optional(Type.String({ maxLength: 10_000 })),
  },
  { additionalProperties: false },
);
export type VariationInput = Static<typeof VariationInput>;

export const PriceInput = Type.Object(
  {
    cost_change_minor: { ...SignedMinor, description: 'Change of the contract sum, integer minor units' },
    days: Type.Integer({ minimum: -36_500, maximum: 36_500, description: 'Change of the completion date in days' }),
  },
  { additionalProperties: false },
);
export type PriceInput = Static<typeof PriceInput>;

export const SubmitInput = Type.Object(
  { reviewers: Type.Array(ReviewerInput, { minItems: 1, maxItems: 50 }) },
  { additionalProperties: false },
);
export type SubmitInput = Static<typeof SubmitInput>;

export const Variation = Type.Object({
  id: Uuid,
  project_id: Uuid,
  title: Type.String(),
  description: Type.String(),
  status: VariationStatusName,
  cost_change_minor: Type.Union([Type.Integer(), Type.Null()]),
  days: Type.Union([Type.Integer(), Type.Null()]),
  approval_id: Type.Union([Uuid, Type.Null()], { description: 'The approval its submission requested' }),
  baseline_id: Type.Union([Uuid, Type.Null()], { description: 'The baseline its incorporation wrote' }),
  source_revision_id: Type.Union([Uuid, Type.Null()]),
  created_by: Type.String(),
  created_at: Timestamp,
  updated_at: Timestamp,
});
export type Variation = Static<typeof Variation>;

export const Baseline = Type.Object({
  id: Uuid,
  project_id: Uuid,
  seq: Type.Integer(),
  kind: Type.Union([Type.Literal('award'), Type.Literal('variation')]),
  variation_id: Type.Union([Uuid, Type.Null()]),
  amount_minor: Type.Integer(),
  finish_date: Type.String({ format: 'date' }),
  created_by: Type.String(),
  created_at: Timestamp,
});
export type Baseline = Static<typeof Baseline>;

/** One variation as GET /v1/variations/{id} shows it: beside its project's current baseline, with its approval. */
export const VariationDetail = Type.Composite([
  Variation,
  Type.Object({
    current_baseline: Type.Union([Baseline, Type.Null()], { description: "The project's newest baseline" }),
    approval: Type.Union([Approval, Type.Null()], { description: 'Its approval with reviewers, once submitted' }),
  }),
]);
export type VariationDetail = Static<typeof VariationDetail>;

export const VariationListQuery = Type.Object(
  {
    project_id: Type.Optional(Uuid),
    status: Type.Optional(VariationStatusName),
    ...pageQuery({ pageSize: 50, maxPageSize: 200 }),
  },
  { additionalProperties: false },
);
