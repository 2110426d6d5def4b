import { Command, PageEnvelope, pageQuery, Timestamp } from '@platform/kit';
import { type Static, Type } from '@sinclair/typebox';
import { type BudgetFigures, centsOf, isOverBudget, MAX_LIMIT_CENTS, nameFromEmailOrNull } from '../domain/budgets.ts';
import { IdentityKind } from './people.ts';
import { ActorRef, fieldCodes } from './usage.ts';

export const Limit = Type.Integer({
  minimum: 0,
  maximum: MAX_LIMIT_CENTS,
  description: 'A monthly limit in cents (USD); 0 blocks every call',
});

export const LimitInput = Type.Object({ limit: Limit }, { additionalProperties: false });
export const LimitCommand = Command(LimitInput);

/** The defaults: everyone's, and optionally service credentials' identities' (issue 14.4). */
export const DefaultLimitInput = Type.Object(
  {
    limit: Limit,
    service_limit: Type.Optional(
      Type.Integer({
        minimum: 0,
        maximum: MAX_LIMIT_CENTS,
        description:
          "The default of service credentials' identities (<client_id>@service.broker) in cents; 0 (the initial value) blocks them until an admin sets an override. Unchanged when omitted",
      }),
    ),
  },
  { additionalProperties: false },
);
export const DefaultLimitCommand = Command(DefaultLimitInput);

/** A limit of the wrong type or out of range is bad_limit. */
export const limitErrors = fieldCodes({ 'body/data/limit': 'bad_limit', 'body/data/service_limit': 'bad_limit' });

export const DefaultBudget = Type.Object({
  limit: Type.Integer({ description: 'Cents a month' }),
  service_limit: Type.Integer({
    description:
      "Cents a month: the default of service credentials' identities, 0 until an admin sets it (minting credentials adds no budget)",
  }),
  updated_by: Type.Union([Type.String(), Type.Null()]),
  updated_at: Type.Union([Timestamp, Type.Null()]),
});

/** One identity's budget this month. Spend and limits in cents; spend_micros in micro-dollars. */
export const BudgetRow = Type.Object({
  actor_fid: Type.String({ description: "The identity's FID" }),
  email: Type.String(),
  name: Type.String(),
  kind: IdentityKind,
  creator_fid: Type.Optional(
    Type.Union([Type.String(), Type.Null()], { description: 'Agents and services: who created them' }),
  ),
  creator_name: Type.Optional(Type.Union([Type.String(), Type.Null()])),
  month: Type.String({ description: 'YYYY-MM (UTC)' }),
  spend: Type.Integer({ description: "This month's spend in cents (rounded)" }),
  spend_micros: Type.Integer({ description: "This month's spend in micro-dollars" }),
  token_count: Type.Integer({ description: 'Input and output tokens this month' }),
  limit: Type.Integer({ description: 'The effective limit in cents: the override, else the default' }),
  override: Type.Union([Type.Integer(), Type.Null()], { description: 'The override in cents, or null' }),
  over_budget: Type.Boolean({ description: 'Spend has reached the limit: relays answer 402' }),
});
export type BudgetRow = Static<typeof BudgetRow>;

export const BudgetGroup = Type.Object({
  person_fid: Type.String({ description: 'The person (or an identity with no person over it)' }),
  email: Type.String(),
  name: Type.String(),
  kind: IdentityKind,
  identity_count: Type.Integer(),
  spend: Type.Integer({ description: 'Cents' }),
  spend_micros: Type.Integer(),
  token_count: Type.Integer(),
  members: Type.Array(BudgetRow, { description: "The rows summed, the person's own first" }),
});

export const Show = Type.Union(
  [Type.Literal('all'), Type.Literal('people'), Type.Literal('services'), Type.Literal('agents')],
  { default: 'all', description: 'people: persons; services: service identities; agents: agent mailboxes' },
);

export const BudgetsQuery = Type.Object(
  {
    show: Type.Optional(Show),
    actor: Type.Optional({ ...ActorRef, description: 'One identity and what it created (FID or email)' }),
    ...pageQuery({ pageSize: 100, maxPageSize: 500 }),
  },
  { additionalProperties: false },
);
export type BudgetsQuery = Static<typeof BudgetsQuery>;

export const ActorParams = Type.Object({ actor: ActorRef });

export const BudgetRows = PageEnvelope(BudgetRow);
export const BudgetGroups = PageEnvelope(BudgetGroup);

/** The row the API shows for one identity's figures. */
export function budgetRow(f: BudgetFigures, month: string): BudgetRow {
  return {
    actor_fid: f.fid,
    email: f.email,
    name: f.name,
    kind: f.kind,
    ...(f.kind === 'person'
      ? {}
      : { creator_fid: f.creator_fid, creator_name: f.creator_name ?? nameFromEmailOrNull(f.creator_email) }),
    month,
    spend: centsOf(f.spend_micros),
    spend_micros: f.spend_micros,
    token_count: f.token_count,
    limit: f.limit,
    override: f.override,
    over_budget: isOverBudget(f.spend_micros, f.limit),
  };
}
