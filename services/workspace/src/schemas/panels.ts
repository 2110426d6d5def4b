import { type Static, Type } from '@sinclair/typebox';
import { AUDIENCES, RATINGS, RELATED_ACTIONS, SKIP_REASONS } from '../domain/panels.ts';
import { PrincipalId, Timestamp, Uuid } from './common.ts';

const literals = <T extends string>(values: readonly T[], description?: string) =>
  Type.Union(
    values.map((v) => Type.Literal(v)),
    description ? { description } : {},
  );

export const ObjectionsInput = Type.Object(
  {
    plan: Type.String({ description: 'The plan to argue against: trimmed, 1 to 20,000 characters (422 invalid_plan)' }),
  },
  { additionalProperties: false },
);
export type ObjectionsInput = Static<typeof ObjectionsInput>;

const Source = Type.Object({
  source_id: Type.String(),
  kind: Type.String(),
  title: Type.String(),
  quote: Type.Optional(Type.String({ description: 'Only in a private answer' })),
});

export const Objection = Type.Object({
  claim_id: Type.String(),
  statement: Type.String(),
  confidence: Type.Number(),
  sources: Type.Array(Source),
});

export const Objections = Type.Object({
  audience: literals(AUDIENCES, 'private: only the caller reads the conversation; shared: quotes omitted'),
  degraded: Type.Boolean({
    description: 'true when the intelligence service did not answer; the lists are then empty',
  }),
  claims: Type.Array(Objection),
  raised_turn_seq: Type.Union([Type.Integer(), Type.Null()], {
    description: 'The assistant turn whose extra.raised_objections lists these claims; null when none were raised',
  }),
});
export type Objections = Static<typeof Objections>;

export const FeedbackInput = Type.Object(
  {
    claim_id: Type.String({ minLength: 1, maxLength: 200 }),
    rating: literals(RATINGS, 'useful, already_knew or wrong'),
  },
  { additionalProperties: false },
);
export type FeedbackInput = Static<typeof FeedbackInput>;

export const Feedback = Type.Object({
  conversation_id: Uuid,
  claim_id: Type.String(),
  rating: literals(RATINGS),
  rated_by: PrincipalId,
  rated_at: Timestamp,
});

/** POST .../related: the body is only turn_seq (not a command: it writes nothing). */
export const RelatedInput = Type.Object({ turn_seq: Type.Integer({ minimum: 1 }) }, { additionalProperties: false });

export const Related = Type.Object({
  turn_seq: Type.Integer(),
  skipped: Type.Union([literals(SKIP_REASONS), Type.Null()], {
    description: 'too_short (under four words) or redacted: nothing was looked up',
  }),
  degraded: Type.Boolean(),
  claims: Type.Array(Type.Object({ claim_id: Type.String(), statement: Type.String(), score: Type.Number() })),
  records: Type.Array(Type.Object({ kind: Type.String(), id: Type.String(), title: Type.String() })),
});
export type Related = Static<typeof Related>;

export const RelatedActionInput = Type.Object(
  {
    turn_seq: Type.Integer({ minimum: 1 }),
    item_id: Type.String({ minLength: 1, maxLength: 200, description: 'The claim_id or record id shown' }),
    action: literals(RELATED_ACTIONS, 'opened, not_relevant or asked'),
  },
  { additionalProperties: false },
);
export type RelatedActionInput = Static<typeof RelatedActionInput>;

export const RelatedActionRecord = Type.Object({
  id: Uuid,
  conversation_id: Uuid,
  turn_seq: Type.Integer(),
  item_id: Type.String(),
  action: literals(RELATED_ACTIONS),
  actor: PrincipalId,
  created_at: Timestamp,
});
