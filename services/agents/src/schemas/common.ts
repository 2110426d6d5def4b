import { type TUnsafe, Type } from '@sinclair/typebox';

/** A string enum shown as `enum` in the OpenAPI document (unknown values are 422 validation_failed). */
export const Enum = <T extends string>(values: readonly T[], description?: string): TUnsafe<T> =>
  Type.Unsafe<T>({ type: 'string', enum: [...values], ...(description ? { description } : {}) });

/** A principal id (FID): a person's UUID, service:<name>, or agent:<id>. */
export const Fid = Type.String({ minLength: 1, maxLength: 200, description: 'A principal id (FID)' });

/** YYYY-MM-DD. */
export const DateOnly = Type.String({ format: 'date', pattern: '^[1-9]\\d{3}-', description: 'YYYY-MM-DD' });

/** Command headers every agents command documents besides Idempotency-Key. */
export const CallerHeaders = {
  'x-platform-as-member': Type.Optional(
    Type.String({ description: 'true: a platform admin acts only as their roles on agents allow (AGT-101)' }),
  ),
  'x-platform-agent-id': Type.Optional(
    Type.String({
      description: 'With the service token: the agent making the call; it acts as that agent’s owner (AGT-316)',
    }),
  ),
};
