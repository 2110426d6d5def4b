import { type Static, Type } from '@sinclair/typebox';
import { Timestamp, Uuid } from './common.ts';

export const CLASSIFICATIONS = ['asset', 'liability', 'equity', 'revenue', 'expense'] as const;
export type ClassificationValue = (typeof CLASSIFICATIONS)[number];

const Code = Type.String({ minLength: 1, maxLength: 64, pattern: '\\S' });

export const AccountInput = Type.Object(
  {
    chart_code: Code,
    code: Code,
    name: Type.String({ minLength: 1, maxLength: 200, pattern: '\\S' }),
    classification: Type.Unsafe<ClassificationValue>({ type: 'string', enum: [...CLASSIFICATIONS] }),
    is_postable: Type.Boolean(),
    parent_code: Type.Optional(Code),
  },
  { additionalProperties: false },
);
export type AccountInput = Static<typeof AccountInput>;

export const Account = Type.Object({
  id: Uuid,
  chart_code: Type.String(),
  code: Type.String(),
  name: Type.String(),
  classification: Type.Unsafe<ClassificationValue>({ type: 'string', enum: [...CLASSIFICATIONS] }),
  is_postable: Type.Boolean(),
  parent_code: Type.Union([Type.String(), Type.Null()]),
  created_at: Timestamp,
});
export type Account = Static<typeof Account>;

export interface AccountNode extends Account {
  children: AccountNode[];
}
export const AccountNode = Type.Recursive(
  (Self) =>
    Type.Object({
      ...Account.properties,
      children: Type.Array(Self),
    }),
  { $id: 'AccountNode' },
);

export const ChartTree = Type.Object({ chart_code: Type.String(), accounts: Type.Array(AccountNode) });

export const PostabilityInput = Type.Object({ is_postable: Type.Boolean() }, { additionalProperties: false });
