import { Command, IdempotencyHeaders, IdParams, Timestamp, Uuid } from '@platform/kit';
import { type TUnsafe, Type } from '@sinclair/typebox';

export { Command, IdempotencyHeaders, IdParams, Timestamp, Uuid };

/** A string enum shown as `enum` in the OpenAPI document (unknown values are 422). */
export const StringEnum = <T extends string>(values: readonly T[], description?: string): TUnsafe<T> =>
  Type.Unsafe<T>({ type: 'string', enum: [...values], ...(description ? { description } : {}) });

/** YYYY-MM-DD, years 1000-9999 (PostgreSQL has no year 0). */
export const DateString = Type.String({ format: 'date', pattern: '^[1-9]\\d{3}-', description: 'YYYY-MM-DD' });

/** Free text on one line with no leading or trailing blanks (refused, not trimmed). */
export const Text = (maxLength: number, description?: string) =>
  Type.String({ minLength: 1, maxLength, pattern: '^\\S(.*\\S)?$', ...(description ? { description } : {}) });

export const Email = Type.String({ format: 'email', maxLength: 254, description: 'Compared ignoring case' });
