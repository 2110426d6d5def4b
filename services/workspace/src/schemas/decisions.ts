import { pageQuery } from '@platform/kit';
import { type Static, Type } from '@sinclair/typebox';
import { DECISION_PAGE, DECISION_STATUSES } from '../domain/decisions.ts';
import { PrincipalId, Timestamp, Uuid } from './common.ts';

export const DecisionParams = Type.Object({ id: Uuid, decisionId: Uuid });

export const Decision = Type.Object({
  id: Uuid,
  project_id: Uuid,
  title: Type.String(),
  detail: Type.String({ description: 'Why, and what follows; empty when none' }),
  status: Type.Union(
    DECISION_STATUSES.map((s) => Type.Literal(s)),
    {
      description:
        'proposed, then approved (by an owner; an approved decision is a fact); superseded when a newer one ' +
        'approved replaces it; archived by an owner',
    },
  ),
  proposed_by: PrincipalId,
  created_at: Timestamp,
  approved_by: Type.Union([PrincipalId, Type.Null()]),
  approved_at: Type.Union([Timestamp, Type.Null()]),
  supersedes: Type.Union([Uuid, Type.Null()], { description: 'The approved decision this one replaced' }),
  superseded_by: Type.Union([Uuid, Type.Null()], { description: 'The decision that replaced this one' }),
  archived_at: Type.Union([Timestamp, Type.Null()]),
});
export type Decision = Static<typeof Decision>;

export const DecisionInput = Type.Object(
  {
    title: Type.String({ description: 'Trimmed; 1 to 200 characters (422 invalid_title)' }),
    detail: Type.Optional(Type.String({ description: 'Trimmed; at most 20,000 characters' })),
  },
  { additionalProperties: false },
);
export type DecisionInput = Static<typeof DecisionInput>;

export const DecisionListQuery = Type.Object(
  {
    status: Type.Optional(Type.Union(DECISION_STATUSES.map((s) => Type.Literal(s)))),
    ...pageQuery(DECISION_PAGE),
  },
  { additionalProperties: false },
);

export const ApproveDecisionInput = Type.Object(
  {
    supersedes: Type.Optional(
      Type.String({
        format: 'uuid',
        description: 'An approved decision of the project this one replaces: it becomes superseded (fact.superseded)',
      }),
    ),
  },
  { additionalProperties: false },
);
export type ApproveDecisionInput = Static<typeof ApproveDecisionInput>;

export const DecisionPatch = Type.Object(
  {
    title: Type.Optional(Type.String({ description: 'Trimmed; 1 to 200 characters (422 invalid_title)' })),
    detail: Type.Optional(Type.String({ description: 'Trimmed; at most 20,000 characters' })),
  },
  { additionalProperties: false },
);
export type DecisionPatch = Static<typeof DecisionPatch>;
