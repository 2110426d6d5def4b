import { pageQuery, Timestamp, Uuid } from '@platform/kit';
import { type Static, Type } from '@sinclair/typebox';
import { COST_KINDS, COST_PAGE, MAX_AMOUNT_MINOR } from '../domain/budget.ts';
import { DateString, StringEnum, Text } from './plan-items.ts';

export const BudgetParams = Type.Object({ projectId: Uuid });

const Category = Text(100, 'The budget line, e.g. construction, design fees, contingency; compared exactly');
const Amount = (description: string, minimum = -MAX_AMOUNT_MINOR) =>
  Type.Integer({ minimum, maximum: MAX_AMOUNT_MINOR, description });

export const BudgetLine = Type.Object({
  category: Type.String(),
  budget_minor: Type.Integer(),
  committed_minor: Type.Integer({ description: "Sum of the line's committed cost events" }),
  actual_minor: Type.Integer({ description: "Sum of the line's actual cost events" }),
  updated_at: Timestamp,
});
export type BudgetLine = Static<typeof BudgetLine>;

export const Totals = Type.Object({
  budget_minor: Type.Integer(),
  committed_minor: Type.Integer(),
  actual_minor: Type.Integer(),
});

export const Budget = Type.Object({
  project_id: Uuid,
  lines: Type.Array(BudgetLine, { description: 'One per category, by category' }),
  totals: Totals,
});
export type Budget = Static<typeof Budget>;

export const LineInput = Type.Object(
  { category: Category, budget_minor: Amount('The budget of the category, integer minor units', 0) },
  { additionalProperties: false },
);
export type LineInput = Static<typeof LineInput>;

export const CostInput = Type.Object(
  {
    category: Category,
    kind: StringEnum(COST_KINDS),
    amount_minor: Amount('Integer minor units; negative for a correction'),
    occurred_on: DateString,
    description: Type.Optional(Text(500)),
    reverses_id: Type.Optional({ ...Uuid, description: 'The event of this project this one reverses (once)' }),
  },
  { additionalProperties: false },
);
export type CostInput = Static<typeof CostInput>;

export const CostEvent = Type.Object({
  id: Uuid,
  project_id: Uuid,
  category: Type.String(),
  kind: StringEnum(COST_KINDS),
  amount_minor: Type.Integer(),
  occurred_on: Type.String({ format: 'date' }),
  description: Type.Union([Type.String(), Type.Null()]),
  reverses_id: Type.Union([Uuid, Type.Null()]),
  created_by: Type.String(),
  created_at: Timestamp,
});
export type CostEvent = Static<typeof CostEvent>;

export const CostListQuery = Type.Object(
  {
    ...pageQuery(COST_PAGE),
    category: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
    kind: Type.Optional(StringEnum(COST_KINDS)),
  },
  { additionalProperties: false },
);
export type CostListQuery = Static<typeof CostListQuery>;
