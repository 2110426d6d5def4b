import { Command, IdempotencyHeaders, IdParams, Timestamp, Uuid } from '@platform/kit';
import { type TUnsafe, Type } from '@sinclair/typebox';

export { Command, IdempotencyHeaders, IdParams, Timestamp, Uuid };

/** A string enum shown as `enum` in the OpenAPI document (unknown values are 422). */
export const StringEnum = <T extends string>(values: readonly T[], description?: string): TUnsafe<T> =>
  Type.Unsafe<T>({ type: 'string', enum: [...values], ...(description ? { description } : {}) });

/** YYYY-MM-DD, years 1000-9999 (PostgreSQL has no year 0). */
export const DateString = Type.String({ format: 'date', pattern: '^[1-9]\\d{3}-', description: 'YYYY-MM-DD' });

/**
 * Free text on one line: no leading or trailing blanks, no control characters (C0, DEL, C1: tab,
 * escape sequences) and no line or paragraph separators anywhere (refused, not trimmed).
 */
export const TEXT_PATTERN =
  '^[^\\s\\x00-\\x1f\\x7f-\\x9f](?:[^\\x00-\\x1f\\x7f-\\x9f\\u2028\\u2029]*[^\\s\\x00-\\x1f\\x7f-\\x9f])?$';
export const Text = (maxLength: number, description?: string) =>
  Type.String({
    minLength: 1,
    maxLength,
    pattern: TEXT_PATTERN,
    description: `${description ? `${description}. ` : ''}One line: no leading or trailing blanks, no control characters`,
  });

export const Email = Type.String({ format: 'email', maxLength: 254, description: 'Compared ignoring case' });
