import { type TProperties, Type } from '@sinclair/typebox';
import { DateOnly, Enum } from './common.ts';

/** A code of the property-management system (property, unit, resident, tenant, lease, space, person). */
const Code = (description: string) =>
  Type.String({ minLength: 1, maxLength: 100, pattern: '^[A-Za-z0-9][A-Za-z0-9._:-]*$', description });

/** A tool's body: {data: {...}}, nothing else. */
const ToolBody = <P extends TProperties>(props: P) =>
  Type.Object({ data: Type.Object(props, { additionalProperties: false }) }, { additionalProperties: false });

const property_code = Code('The property, as the property-management system codes it');

export const PropertyBody = ToolBody({ property_code });
export const ResidentBody = ToolBody({ property_code, resident_code: Code('The incoming resident') });
export const UnitMappingBody = ToolBody({ property_code, unit_code: Code('A unit logged unmapped in the last day') });
export const FillEmailsBody = ToolBody({
  property_code,
  tenant_code: Code('A tenant logged as skipped for lack of email in the last day'),
});

const Flags = (what: string) =>
  Type.Object(
    {
      present: Type.Boolean(),
      valid: Type.Boolean(),
      shared: Type.Boolean({ description: `The same ${what} is another incoming resident’s of the property too` }),
    },
    {
      description: `Whether the PMS holds the resident’s ${what}, whether it is well formed, and whether it is shared`,
    },
  );

export const MoveInRow = Type.Object({
  resident_code: Type.String(),
  unit_code: Type.String(),
  lease_code: Type.String(),
  move_in_date: DateOnly,
  email: Flags('email address'),
  phone: Flags('phone number'),
});

export const ResidentAccess = Type.Object({
  resident_code: Type.String(),
  unit_code: Type.String(),
  lease_code: Type.String(),
  space_code: Type.Union([Type.String(), Type.Null()], {
    description: 'The access-control space of the unit, if mapped',
  }),
  lease_status: Type.String(),
  move_in_date: DateOnly,
  portal_account: Type.Boolean({ description: 'The resident has a resident-portal account' }),
  door_access: Type.Boolean({ description: 'The resident holds a door credential' }),
});

export const GapRow = Type.Object({
  unit_code: Type.String(),
  logged_at: Type.String({ format: 'date-time', description: 'The newest sync-log line of the unit in the last day' }),
  candidate_space_codes: Type.Array(Type.String(), { description: 'The spaces that have the unit’s name' }),
});

export const MissingEmailRow = Type.Object({
  tenant_code: Type.String(),
  lease_code: Type.Union([Type.String(), Type.Null()]),
  logged_at: Type.String({
    format: 'date-time',
    description: 'The newest sync-log line of the tenant in the last day',
  }),
});

export const UnitMappingResult = Type.Object({
  unit_code: Type.String(),
  space_code: Type.String({ description: 'The one space that has the unit’s name' }),
  uploaded: Type.Literal(true),
  resync_requested: Type.Literal(true),
  applied_at: Type.String({ format: 'date-time', description: 'When the first call of the day applied it' }),
});

export const FillResult = Type.Object({
  tenant_code: Type.String(),
  lease_code: Type.String(),
  outcomes: Type.Array(
    Type.Object({
      person_code: Type.String(),
      outcome: Enum([
        'already_has_email',
        'written',
        'no_directory_match',
        'several_directory_matches',
        'directory_email_invalid',
        'write_failed',
      ]),
    }),
  ),
  lease_resync: Enum(['requested', 'failed', 'not_needed'], 'requested when any email was written'),
  filled_at: Type.String({ format: 'date-time', description: 'When the first call of the day filled them' }),
});
