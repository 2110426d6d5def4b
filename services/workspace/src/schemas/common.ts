import { Command, IdempotencyHeaders, OptionalDataCommand, Timestamp, Uuid, Why } from '@platform/kit';
import { Type } from '@sinclair/typebox';

export { Command, IdempotencyHeaders, OptionalDataCommand, Timestamp, Uuid, Why };

export const DateString = Type.String({ format: 'date', pattern: '^[1-9]\\d{3}-', description: 'YYYY-MM-DD' });

/** A principal: a person's FID (UUID) or `service:<name>`. */
export const PrincipalId = Type.String({
  minLength: 1,
  maxLength: 200,
  description: "A person's FID or service:<name>",
});

export const ProjectParams = Type.Object({ id: Uuid });

export const AsMemberHeaders = Type.Object({
  'x-platform-as-member': Type.Optional(
    Type.String({ description: 'true limits a platform admin to their memberships; it never grants admin' }),
  ),
});

/** Command headers: the Idempotency-Key, and X-Platform-As-Member. */
export const CommandHeaders = Type.Composite([IdempotencyHeaders, AsMemberHeaders]);
