import { pageQuery, Timestamp, Uuid } from '@platform/kit';
import { type Static, type TProperties, Type } from '@sinclair/typebox';
import { APPROVAL_STATUSES, SUBJECT_TYPES } from '../domain/approvals.ts';
import { DECISION_STATUSES } from '../domain/decisions.ts';
import { STAGES } from '../domain/health.ts';
import { RISK_LEVELS, RISK_STATUSES } from '../domain/risks.ts';

export const RegisterParams = Type.Object({ id: Uuid });

const Minor = Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER, description: 'Integer minor units' });
const Text = (max: number) => Type.String({ minLength: 1, maxLength: max });
const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(t: T) => Type.Union([t, Type.Null()]);
const Literals = <V extends string>(values: readonly V[], description: string) =>
  Type.Union(
    values.map((v) => Type.Literal(v)),
    { description },
  );

/** A principal: a person's FID or service:<name>. */
const Fid = Type.String({ minLength: 1, maxLength: 200, description: "A person's FID" });

/** Register lists: optional project_id (else every project), page pagination. */
const registerQuery = <P extends TProperties>(extra: P) =>
  Type.Object(
    { project_id: Type.Optional(Uuid), ...extra, ...pageQuery({ pageSize: 50, maxPageSize: 200 }) },
    { additionalProperties: false },
  );

// Decisions

export const AlternativeInput = Type.Object(
  {
    title: Text(200),
    description: Type.Optional(Type.String({ maxLength: 10_000 })),
    cost_minor: Type.Optional(Minor),
  },
  { additionalProperties: false },
);

export const DecisionInput = Type.Object(
  {
    project_id: Uuid,
    question: Text(1000),
    context: Type.Optional(Type.String({ maxLength: 10_000 })),
    alternatives: Type.Optional(Type.Array(AlternativeInput, { maxItems: 50 })),
    participant_fids: Type.Optional(Type.Array(Fid, { maxItems: 100 })),
  },
  { additionalProperties: false },
);
export type DecisionInput = Static<typeof DecisionInput>;

export const OutcomeInput = Type.Object(
  {
    alternative_id: Type.Optional(Uuid),
    outcome: Text(10_000),
    cost_minor: Minor,
  },
  { additionalProperties: false },
);
export type OutcomeInput = Static<typeof OutcomeInput>;

export const Alternative = Type.Object({
  id: Uuid,
  seq: Type.Integer(),
  title: Type.String(),
  description: Type.String(),
  cost_minor: Nullable(Type.Integer()),
});

export const Decision = Type.Object({
  id: Uuid,
  project_id: Uuid,
  question: Type.String(),
  context: Type.String(),
  status: Literals(DECISION_STATUSES, 'open, or decided once an outcome is recorded'),
  outcome: Nullable(Type.String()),
  alternative_id: Nullable(Uuid),
  cost_minor: Nullable(Type.Integer()),
  decided_by: Nullable(Type.String()),
  decided_at: Nullable(Timestamp),
  created_by: Type.String(),
  created_at: Timestamp,
  updated_at: Timestamp,
});
export type Decision = Static<typeof Decision>;

export const DecisionDetail = Type.Composite([
  Decision,
  Type.Object({ alternatives: Type.Array(Alternative), participant_fids: Type.Array(Type.String()) }),
]);
export type DecisionDetail = Static<typeof DecisionDetail>;

export const DecisionListQuery = registerQuery({
  status: Type.Optional(Literals(DECISION_STATUSES, 'open or decided')),
});

// Approvals

export const ReviewerInput = Type.Object(
  {
    email: Type.String({ minLength: 3, maxLength: 254, pattern: '^[^\\s@]+@[^\\s@]+$' }),
    required: Type.Boolean(),
  },
  { additionalProperties: false },
);

export const ApprovalInput = Type.Object(
  {
    project_id: Uuid,
    subject_type: Literals(SUBJECT_TYPES, 'stage_gate, decision, budget or variation'),
    subject_id: Type.Optional(Uuid),
    stage: Type.Optional(Literals(STAGES, 'The stage whose gate is reviewed (stage_gate only)')),
    title: Type.Optional(Type.String({ maxLength: 200 })),
    reviewers: Type.Array(ReviewerInput, { minItems: 1, maxItems: 50 }),
  },
  { additionalProperties: false },
);
export type ApprovalInput = Static<typeof ApprovalInput>;

export const ResponseInput = Type.Object(
  {
    response: Literals(['approved', 'rejected'] as const, 'approved or rejected'),
    note: Type.Optional(Type.String({ maxLength: 10_000 })),
  },
  { additionalProperties: false },
);
export type ResponseInput = Static<typeof ResponseInput>;

export const Reviewer = Type.Object({
  email: Type.String({ description: 'Lowercased' }),
  required: Type.Boolean(),
  response: Nullable(Type.String()),
  note: Nullable(Type.String()),
  responded_by: Nullable(Type.String()),
  responded_at: Nullable(Timestamp),
});

export const ApprovalRow = Type.Object({
  id: Uuid,
  project_id: Uuid,
  subject_type: Literals(SUBJECT_TYPES, 'stage_gate, decision, budget or variation'),
  subject_id: Nullable(Uuid),
  stage: Nullable(Type.String()),
  status: Literals(APPROVAL_STATUSES, 'pending, approved or rejected'),
  title: Type.String(),
  requested_by: Type.String(),
  created_at: Timestamp,
  decided_at: Nullable(Timestamp),
});
export type ApprovalRow = Static<typeof ApprovalRow>;

export const Approval = Type.Composite([ApprovalRow, Type.Object({ reviewers: Type.Array(Reviewer) })]);
export type Approval = Static<typeof Approval>;

export const ApprovalListQuery = registerQuery({
  subject_type: Type.Optional(Literals(SUBJECT_TYPES, 'stage_gate, decision, budget or variation')),
  status: Type.Optional(Literals(APPROVAL_STATUSES, 'pending, approved or rejected')),
});

// Risks

export const RiskInput = Type.Object(
  {
    project_id: Uuid,
    title: Text(200),
    description: Type.Optional(Type.String({ maxLength: 10_000 })),
    likelihood: Type.Optional(Literals(RISK_LEVELS, 'low, medium or high')),
    impact: Type.Optional(Literals(RISK_LEVELS, 'low, medium or high')),
    owner_fid: Type.Optional(Fid),
  },
  { additionalProperties: false },
);
export type RiskInput = Static<typeof RiskInput>;

export const RiskStatusInput = Type.Object(
  { status: Literals(RISK_STATUSES, 'open, mitigated, closed or happened') },
  { additionalProperties: false },
);
export type RiskStatusInput = Static<typeof RiskStatusInput>;

export const Risk = Type.Object({
  id: Uuid,
  project_id: Uuid,
  title: Type.String(),
  description: Type.String(),
  likelihood: Nullable(Type.String()),
  impact: Nullable(Type.String()),
  owner_fid: Nullable(Type.String()),
  status: Literals(RISK_STATUSES, 'open, mitigated, closed or happened'),
  created_by: Type.String(),
  created_at: Timestamp,
  updated_at: Timestamp,
});
export type Risk = Static<typeof Risk>;

export const RiskListQuery = registerQuery({
  status: Type.Optional(Literals(RISK_STATUSES, 'open, mitigated, closed or happened')),
});
