import { Uuid } from '@platform/kit';
import { type TObject, type TSchema, Type } from '@sinclair/typebox';

export { Uuid };
/** Years 1000-9999: PostgreSQL has no year 0, and nothing older belongs in a ledger. */
export const DateString = Type.String({ format: 'date', pattern: '^[1-9]\\d{3}-', description: 'YYYY-MM-DD' });
/** "First day of a month": YYYY-MM-01. */
export const MonthStart = Type.String({ pattern: '^[1-9]\\d{3}-(0[1-9]|1[0-2])-01$', description: 'YYYY-MM-01' });
/** as_of_month: YYYY-MM. */
export const YearMonth = Type.String({ pattern: '^[1-9]\\d{3}-(0[1-9]|1[0-2])$', description: 'YYYY-MM' });
export const Timestamp = Type.String({ format: 'date-time' });
export const Money = Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER, description: 'Minor units' });
/** Signed money (balances). */
export const SignedMoney = Type.Integer({ description: 'Minor units; may be negative' });

export const Why = Type.Object(
  {
    code: Type.Optional(Type.String({ maxLength: 100 })),
    detail: Type.Optional(Type.String({ maxLength: 2000 })),
  },
  { additionalProperties: false, description: 'Audit context of a command' },
);

/** A command body: {data: {...}, why?}; nothing else is accepted. */
export const Command = <T extends TSchema>(data: T) =>
  Type.Object({ data, why: Type.Optional(Why) }, { additionalProperties: false });

/** A command whose data may be omitted (post): an absent body reads as {}. */
export const OptionalDataCommand = <T extends TObject>(data: T) =>
  Type.Object({ data: Type.Optional(data), why: Type.Optional(Why) }, { additionalProperties: false });

export const IdParams = Type.Object({ id: Uuid });

export const IdempotencyHeaders = Type.Object({
  'idempotency-key': Type.Optional(
    Type.String({ description: 'Required on every command; same key for every retry (1-255 visible ASCII)' }),
  ),
});
