import { type Static, Type } from '@sinclair/typebox';
import { DateString, MonthStart, Timestamp, Uuid } from './common.ts';

export const CalendarSetupInput = Type.Object(
  {
    timezone: Type.String({ minLength: 1, maxLength: 64, description: 'IANA timezone name' }),
    books_start_month: DateString,
  },
  { additionalProperties: false },
);
export const TimezoneInput = Type.Object(
  { timezone: Type.String({ minLength: 1, maxLength: 64 }) },
  { additionalProperties: false },
);
export const BooksStartInput = Type.Object({ books_start_month: DateString }, { additionalProperties: false });

export const CalendarView = Type.Object({
  legal_entity_id: Uuid,
  timezone: Type.String(),
  books_start_month: MonthStart,
  local_date: DateString,
  open_month: MonthStart,
});
export type CalendarView = Static<typeof CalendarView>;

export const CloseInput = Type.Object(
  {
    legal_entity_id: Uuid,
    month: Type.Optional(
      Type.String({
        pattern: MonthStart.pattern,
        description:
          'YYYY-MM-01: the month the caller means to close; any other is 409 unexpected_close_month, so a repeated click closes nothing more',
      }),
    ),
  },
  { additionalProperties: false },
);
export const ReopenInput = Type.Object(
  {
    legal_entity_id: Uuid,
    year: Type.Integer({ minimum: 1900, maximum: 9999 }),
    month: Type.Integer({ minimum: 1, maximum: 12 }),
  },
  { additionalProperties: false },
);

export const PeriodRecord = Type.Object({
  event_type: Type.Unsafe<'close' | 'reopen'>({ type: 'string', enum: ['close', 'reopen'] }),
  year: Type.Integer(),
  month: Type.Integer(),
  occurred_at: Timestamp,
  actor_fid: Type.String(),
  reason: Type.String(),
});
export type PeriodRecord = Static<typeof PeriodRecord>;

export const CloseResult = Type.Object({ legal_entity_id: Uuid, closed_month: MonthStart });
export const ReopenResult = Type.Object({ legal_entity_id: Uuid, reopened_months: Type.Array(MonthStart) });
