import { defineEvents, type EventOf, Uuid } from '@platform/kit';
import { Type } from '@sinclair/typebox';
import { Account } from './schemas/accounts.ts';
import { DateString } from './schemas/common.ts';
import { LegalEntity } from './schemas/entities.ts';
import { Entry, Line } from './schemas/journal.ts';

/** The command's why (ACC rules): a code and free text, either optional; null when none was given. */
const Why = Type.Union([
  Type.Object({ code: Type.Optional(Type.String()), detail: Type.Optional(Type.String()) }),
  Type.Null(),
]);
const Actor = Type.String({ description: 'The principal that ran the command' });

/** Accounting's events (spec 1, accounting events): the only ones its commands may emit. */
export const events = defineEvents('accounting', {
  'legal_entity.created': {
    description: 'A legal entity was added',
    payload: Type.Object({ legal_entity: LegalEntity, why: Why }),
  },
  'account.created': {
    description: 'An account was added to a chart',
    payload: Type.Object({ account: Account, actor_fid: Actor, why: Why }),
  },
  'account.postability_changed': {
    description: 'Whether journal lines may reference an account changed (an unchanged value emits nothing)',
    payload: Type.Object({ account_id: Uuid, is_postable: Type.Boolean(), actor_fid: Actor, why: Why }),
  },
  'journal_entry.draft_updated': {
    description: "Each draft edit; carries the draft's full content",
    payload: Type.Object({ entry: Entry }),
  },
  'journal_entry.deleted': {
    description:
      'Each removed entry. The public event is slim; the lines, the free-text reason and the snapshot are internal personal data and go to the restricted subject only',
    payload: Type.Object({
      entry_id: Uuid,
      legal_entity_id: Uuid,
      payment_id: Type.Union([Uuid, Type.Null()]),
      deleted_at: Type.String({ format: 'date-time' }),
      actor_fid: Actor,
      why_code: Type.Union([Type.String(), Type.Null()]),
    }),
    personal: Type.Object({
      entry_id: Uuid,
      legal_entity_id: Uuid,
      payment_id: Type.Union([Uuid, Type.Null()]),
      lines: Type.Array(Line),
      reason: Type.String(),
      deleted_at: Type.String({ format: 'date-time' }),
      actor_fid: Actor,
      why: Why,
      snapshot: Entry,
    }),
  },
  'period.calendar_configured': {
    description: 'Initial calendar setup of a legal entity',
    payload: Type.Object({
      legal_entity_id: Uuid,
      timezone: Type.String({ description: 'IANA timezone' }),
      books_start_month: DateString,
      actor_fid: Actor,
      why: Why,
    }),
  },
  'period.calendar_timezone_changed': {
    description: 'Records previous and new timezone and the reason',
    payload: Type.Object({
      legal_entity_id: Uuid,
      previous_timezone: Type.String(),
      new_timezone: Type.String(),
      actor_fid: Actor,
      reason: Type.String(),
      why: Type.Optional(Why),
    }),
  },
  'period.calendar_books_start_changed': {
    description: 'Records previous and new start, actor and reason; an unchanged value emits nothing',
    payload: Type.Object({
      legal_entity_id: Uuid,
      previous_books_start_month: DateString,
      new_books_start_month: DateString,
      actor_fid: Actor,
      reason: Type.String(),
      why: Type.Optional(Why),
    }),
  },
});

export type AccountingEvent = EventOf<typeof events>;
