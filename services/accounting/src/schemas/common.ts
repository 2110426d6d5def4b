import { Command, IdempotencyHeaders, IdParams, OptionalDataCommand, Timestamp, Uuid, Why } from '@platform/kit';
import { Type } from '@sinclair/typebox';

export { Command, IdempotencyHeaders, IdParams, OptionalDataCommand, Timestamp, Uuid, Why };
/** Years 1000-9999: PostgreSQL has no year 0, and nothing older belongs in a ledger. */
export const DateString = Type.String({ format: 'date', pattern: '^[1-9]\\d{3}-', description: 'YYYY-MM-DD' });
/** "First day of a month": YYYY-MM-01. */
export const MonthStart = Type.String({ pattern: '^[1-9]\\d{3}-(0[1-9]|1[0-2])-01$', description: 'YYYY-MM-01' });
/** as_of_month: YYYY-MM. */
export const YearMonth = Type.String({ pattern: '^[1-9]\\d{3}-(0[1-9]|1[0-2])$', description: 'YYYY-MM' });
export const Money = Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER, description: 'Minor units' });
/** Signed money (balances). */
export const SignedMoney = Type.Integer({ description: 'Minor units; may be negative' });
