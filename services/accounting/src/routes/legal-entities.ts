import { Envelope, notFound } from '@platform/kit';
import { Type } from '@sinclair/typebox';
import { correctBooksStart, correctTimezone, setupCalendar } from '../commands/calendar.ts';
import { createLegalEntity } from '../commands/entities.ts';
import { calendarView, notConfigured, requireReason } from '../domain/calendar.ts';
import { Command, IdParams, Uuid } from '../schemas/common.ts';
import { LegalEntity, LegalEntityInput } from '../schemas/entities.ts';
import { BooksStartInput, CalendarSetupInput, CalendarView, TimezoneInput } from '../schemas/periods.ts';
import { findCalendar } from '../store/calendar.ts';
import { findEntity } from '../store/entities.ts';
import { type Routes, route } from './deps.ts';

const tags = ['legal entities and calendars'];
/** What both calendar corrections refuse with (why.detail, the entity, its calendar, the closed run). */
const CORRECTION_REFUSALS = [
  'reason_required',
  'legal_entity_not_found',
  'legal_entity_inactive',
  'period_calendar_not_configured',
  'invalid_closed_period_prefix',
  'current_period_closed',
] as const;

export const legalEntityRoutes: Routes = [
  route({
    method: 'POST',
    url: '/v1/legal-entities',
    action: 'legal_entities.create',
    tags,
    summary: 'Create a legal entity (entities must exist before calendars)',
    body: Command(LegalEntityInput),
    response: Envelope(LegalEntity),
    status: 201,
    run: (ctx, { body }) => createLegalEntity(ctx, body.data, body.why),
  }),

  route({
    method: 'GET',
    url: '/v1/legal-entities/:id',
    action: 'legal_entities.read',
    tags,
    summary: 'One legal entity',
    params: IdParams,
    response: Envelope(LegalEntity),
    errors: ['legal_entity_not_found'],
    handler: async ({ params, reply }, deps) => {
      const entity = await findEntity(deps.database.db, params.id);
      if (!entity) throw notFound('Legal entity', 'legal_entity_not_found');
      return reply.envelope(entity);
    },
  }),

  route({
    method: 'POST',
    url: '/v1/legal-entities/:id/calendar',
    action: 'calendar.manage',
    tags,
    summary: 'Initial calendar setup (once per entity)',
    params: IdParams,
    body: Command(CalendarSetupInput),
    response: Envelope(CalendarView),
    status: 201,
    errors: [
      'legal_entity_not_found',
      'legal_entity_inactive',
      'calendar_already_configured',
      'invalid_timezone',
      'invalid_books_start_month',
      'invalid_closed_period_prefix',
      'current_period_closed',
    ],
    run: (ctx, { params, body }) => setupCalendar(ctx, params.id, body.data, body.why),
  }),

  route({
    method: 'POST',
    url: '/v1/legal-entities/:id/calendar/timezone',
    action: 'calendar.manage',
    tags,
    summary: 'Timezone correction (why.detail required)',
    params: IdParams,
    body: Command(TimezoneInput),
    response: Envelope(CalendarView),
    errors: [...CORRECTION_REFUSALS, 'invalid_timezone'],
    check: ({ body }) => void requireReason(body.why),
    run: (ctx, { params, body }) =>
      correctTimezone(ctx, params.id, body.data.timezone, requireReason(body.why), body.why ?? {}),
  }),

  route({
    method: 'POST',
    url: '/v1/legal-entities/:id/calendar/books-start',
    action: 'calendar.manage',
    tags,
    summary: 'Books-start correction (why.detail required)',
    params: IdParams,
    body: Command(BooksStartInput),
    response: Envelope(CalendarView),
    errors: [...CORRECTION_REFUSALS, 'invalid_books_start_month', 'books_start_excludes_postings'],
    check: ({ body }) => void requireReason(body.why),
    run: (ctx, { params, body }) =>
      correctBooksStart(ctx, params.id, body.data.books_start_month, requireReason(body.why), body.why ?? {}),
  }),

  route({
    method: 'GET',
    url: '/v1/period-calendar/current',
    action: 'calendar.read',
    tags,
    summary: "The entity's calendar with its local date and current Open month",
    query: Type.Object({ legal_entity_id: Uuid }),
    response: Envelope(CalendarView),
    errors: ['legal_entity_not_found', 'period_calendar_not_configured'],
    handler: async ({ query, reply }, deps) => {
      const db = deps.database.db;
      if (!(await findEntity(db, query.legal_entity_id))) throw notFound('Legal entity', 'legal_entity_not_found');
      const cal = await findCalendar(db, query.legal_entity_id);
      if (!cal) throw notConfigured();
      return reply.envelope(calendarView(cal, deps.clock()));
    },
  }),
];
