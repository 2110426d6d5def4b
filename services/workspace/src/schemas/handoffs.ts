import { pageQuery } from '@platform/kit';
import { type Static, type TSchema, Type } from '@sinclair/typebox';
import { HANDOFF_ACTIONS, HANDOFF_LIMITS, HANDOFF_PAGE, HANDOFF_STATUSES } from '../domain/handoffs.ts';
import { DateString, PrincipalId, Timestamp, Uuid } from './common.ts';

export const HandoffParams = Type.Object({ id: Uuid, handoffId: Uuid });

export const HandoffStatusName = Type.Union(
  HANDOFF_STATUSES.map((s) => Type.Literal(s)),
  { description: 'draft, offered, changes_requested, accepted or cancelled (overdue is a flag, never a status)' },
);

const nullable = <T extends TSchema>(s: T, description?: string) =>
  Type.Union([Type.Null(), s], description ? { description } : {});

const Link = Type.String({
  maxLength: HANDOFF_LIMITS.link,
  pattern: '^\\s*https?://\\S+\\s*$',
  description: 'http(s) URL',
});
const Statement = Type.String({ description: `Trimmed; 1 to ${HANDOFF_LIMITS.statement} characters` });

/** The content of one revision: what the receiver reads and accepts. */
const packageProperties = {
  receiver: PrincipalId,
  title: Type.String({ description: `Trimmed; 1 to ${HANDOFF_LIMITS.title} characters` }),
  next_step: Type.String({ description: `Trimmed; 1 to ${HANDOFF_LIMITS.nextStep} characters` }),
  must_stay_true: Type.Array(Statement, {
    maxItems: HANDOFF_LIMITS.statements,
    description: 'What must still be true for the next step to hold',
  }),
  evidence_links: Type.Array(Link, { maxItems: HANDOFF_LIMITS.links }),
  verify_by: nullable(DateString, 'Optional verification date'),
  due_on: DateString,
  case_id: nullable(Uuid, 'A linked case of the project; acceptance never changes it'),
};

export const HandoffPackage = Type.Object(packageProperties);

export const Receipt = Type.Object({
  revision: Type.Integer({ minimum: 1 }),
  accepted_by: PrincipalId,
  accepted_at: Timestamp,
  package: HandoffPackage,
});
export type Receipt = Static<typeof Receipt>;

/** A handoff as lists show it. */
export const Handoff = Type.Object({
  id: Uuid,
  project_id: Uuid,
  sender: PrincipalId,
  ...packageProperties,
  status: HandoffStatusName,
  revision: Type.Integer({ minimum: 1, description: 'The current revision: what an acceptance must name' }),
  overdue: Type.Boolean({
    description:
      'Computed at each read: true while offered or changes_requested and the due date is before today (New York)',
  }),
  offered_at: nullable(Timestamp),
  accepted_at: nullable(Timestamp),
  cancelled_at: nullable(Timestamp),
  created_at: Timestamp,
  updated_at: Timestamp,
});
export type Handoff = Static<typeof Handoff>;

/** One handoff with its receipts, one per accepted revision, oldest first. */
export const HandoffDetail = Type.Composite([Handoff, Type.Object({ receipts: Type.Array(Receipt) })]);
export type HandoffDetail = Static<typeof HandoffDetail>;

/** POST /v1/projects/{id}/handoffs data: a draft (the sender offers it with action offer). */
export const HandoffInput = Type.Object(
  {
    receiver: PrincipalId,
    title: packageProperties.title,
    next_step: packageProperties.next_step,
    must_stay_true: Type.Optional(packageProperties.must_stay_true),
    evidence_links: Type.Optional(packageProperties.evidence_links),
    verify_by: Type.Optional(packageProperties.verify_by),
    due_on: DateString,
    case_id: Type.Optional(packageProperties.case_id),
    offer: Type.Optional(Type.Boolean({ description: 'true offers it at once (default: a draft)' })),
  },
  { additionalProperties: false },
);
export type HandoffInput = Static<typeof HandoffInput>;

/** PATCH .../handoffs/{handoffId} data: only the fields sent change. */
export const HandoffPatch = Type.Object(
  {
    receiver: Type.Optional(PrincipalId),
    title: Type.Optional(packageProperties.title),
    next_step: Type.Optional(packageProperties.next_step),
    must_stay_true: Type.Optional(packageProperties.must_stay_true),
    evidence_links: Type.Optional(packageProperties.evidence_links),
    verify_by: Type.Optional(packageProperties.verify_by),
    due_on: Type.Optional(DateString),
    case_id: Type.Optional(packageProperties.case_id),
  },
  { additionalProperties: false, minProperties: 1 },
);
export type HandoffPatch = Static<typeof HandoffPatch>;

/** POST .../handoffs/{handoffId} data: one move of the handoff. */
export const HandoffActionInput = Type.Object(
  {
    action: Type.Union(
      HANDOFF_ACTIONS.map((a) => Type.Literal(a)),
      {
        description:
          'offer (sender: draft or changes_requested to offered); accept (the named receiver: offered to accepted, ' +
          'with revision); request_changes (the named receiver: offered to changes_requested, with revision and ' +
          'missing; opens an unblock request for the sender); cancel (the sender or an owner, before acceptance)',
      },
    ),
    revision: Type.Optional(
      Type.Integer({ minimum: 1, description: 'accept and request_changes: the revision read (required)' }),
    ),
    missing: Type.Optional(
      Type.String({
        description: `request_changes: what is missing (required; trimmed, 1 to ${HANDOFF_LIMITS.missing} characters)`,
      }),
    ),
  },
  { additionalProperties: false },
);
export type HandoffActionInput = Static<typeof HandoffActionInput>;

const listFilters = {
  status: Type.Optional(HandoffStatusName),
  overdue: Type.Optional(Type.Boolean({ description: 'true: only overdue handoffs; false: only the others' })),
  ...pageQuery(HANDOFF_PAGE),
};
export const HandoffListQuery = Type.Object(listFilters, { additionalProperties: false });
export type HandoffListQuery = Static<typeof HandoffListQuery>;
export const MyHandoffListQuery = Type.Object(
  {
    ...listFilters,
    status: Type.Optional(
      Type.Union(
        (['offered', 'changes_requested', 'accepted', 'cancelled'] as const).map((s) => Type.Literal(s)),
        { description: 'Default offered: what waits on the caller (drafts are never listed here)' },
      ),
    ),
  },
  { additionalProperties: false },
);
export type MyHandoffListQuery = Static<typeof MyHandoffListQuery>;
