import { type Static, Type } from '@sinclair/typebox';
import { DISCIPLINES, FIRM_STATUSES, KINDS } from '../domain/firms.ts';
import { StringEnum, Text, Timestamp, Uuid } from './common.ts';
import { Contact } from './contacts.ts';
import { Certificate } from './insurance.ts';

export const Kind = StringEnum(KINDS);
export const Discipline = StringEnum(DISCIPLINES);
export const FirmStatus = StringEnum(FIRM_STATUSES);

export const FirmInput = Type.Object(
  {
    name: Text(200, 'Unique ignoring case'),
    kind: Kind,
    kind_description: Type.Optional(
      Text(
        200,
        'What kind of firm it is: required when kind is other (422 kind_description_required), refused otherwise',
      ),
    ),
    discipline: Discipline,
    status: Type.Optional(StringEnum(FIRM_STATUSES, 'Defaults to active')),
  },
  { additionalProperties: false },
);
export type FirmInput = Static<typeof FirmInput>;

export const Firm = Type.Object({
  id: Uuid,
  name: Type.String(),
  kind: Kind,
  kind_description: Type.Union([Type.String(), Type.Null()], { description: 'Set when kind is other, else null' }),
  discipline: Discipline,
  status: FirmStatus,
  created_at: Timestamp,
  updated_at: Timestamp,
});
export type Firm = Static<typeof Firm>;

/** The single-firm read: the firm, its people and its insurance now (latest certificate per coverage). */
export const FirmDetail = Type.Object({
  ...Firm.properties,
  contacts: Type.Array(Contact),
  insurance: Type.Array(Certificate, { description: "The firm's latest certificate per coverage" }),
});
export type FirmDetail = Static<typeof FirmDetail>;

export const StatusInput = Type.Object({ status: FirmStatus }, { additionalProperties: false });

export const FirmListQuery = Type.Object({
  status: Type.Optional(FirmStatus),
  kind: Type.Optional(Kind),
  q: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'Part of the name, ignoring case' })),
  ids: Type.Optional(
    Type.String({ minLength: 1, maxLength: 8192, description: 'Comma-separated firm ids, at most 100' }),
  ),
});
