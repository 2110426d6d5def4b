import { Envelope, notFound } from '@platform/kit';
import { Type } from '@sinclair/typebox';
import { correctBooksStart, correctTimezone, setupCalendar } from '../commands/calendar.ts';
import { createLegalEntity } from '../commands/entities.ts';
import { calendarView, notConfigured, requireReason } from '../domain/calendar.ts';
import { Command, IdempotencyHeaders, IdParams, Uuid } from '../schemas/common.ts';
import { LegalEntity, LegalEntityInput } from '../schemas/entities.ts';
import { BooksStartInput, CalendarSetupInput, CalendarView, TimezoneInput } from '../schemas/periods.ts';
import { findCalendar } from '../store/calendar.ts';
import { findEntity } from '../store/entities.ts';
import { command, commander, type RouteModule, reader } from './deps.ts';

const tags = ['legal entities and calendars'];

export const legalEntityRoutes: RouteModule = (app, deps) => {
  app.post(
    '/v1/legal-entities',
    {
      preValidation: commander('legal_entities.create'),
      schema: {
        tags,
        summary: 'Create a legal entity (entities must exist before calendars)',
        headers: IdempotencyHeaders,
        body: Command(LegalEntityInput),
        response: { 201: Envelope(LegalEntity) },
      },
    },
    async (req, reply) => command(deps, req, reply, (ctx) => createLegalEntity(ctx, req.body.data, req.body.why), 201),
  );

  app.get(
    '/v1/legal-entities/:id',
    {
      preValidation: reader('legal_entities.read'),
      schema: { tags, summary: 'One legal entity', params: IdParams, response: { 200: Envelope(LegalEntity) } },
    },
    async (req, reply) => {
      const entity = await findEntity(deps.database.db, req.params.id);
      if (!entity) throw notFound('Legal entity', 'legal_entity_not_found');
      return reply.envelope(entity);
    },
  );

  app.post(
    '/v1/legal-entities/:id/calendar',
    {
      preValidation: commander('calendar.manage'),
      schema: {
        tags,
        summary: 'Initial calendar setup (once per entity)',
        headers: IdempotencyHeaders,
        params: IdParams,
        body: Command(CalendarSetupInput),
        response: { 201: Envelope(CalendarView) },
      },
    },
    async (req, reply) =>
      command(deps, req, reply, (ctx) => setupCalendar(ctx, req.params.id, req.body.data, req.body.why), 201),
  );

  app.post(
    '/v1/legal-entities/:id/calendar/timezone',
    {
      preValidation: commander('calendar.manage'),
      schema: {
        tags,
        summary: 'Timezone correction (why.detail required)',
        headers: IdempotencyHeaders,
        params: IdParams,
        body: Command(TimezoneInput),
        response: { 200: Envelope(CalendarView) },
      },
    },
    async (req, reply) => {
      const reason = requireReason(req.body.why);
      return command(deps, req, reply, (ctx) =>
        correctTimezone(ctx, req.params.id, req.body.data.timezone, reason, req.body.why ?? {}),
      );
    },
  );

  app.post(
    '/v1/legal-entities/:id/calendar/books-start',
    {
      preValidation: commander('calendar.manage'),
      schema: {
        tags,
        summary: 'Books-start correction (why.detail required)',
        headers: IdempotencyHeaders,
        params: IdParams,
        body: Command(BooksStartInput),
        response: { 200: Envelope(CalendarView) },
      },
    },
    async (req, reply) => {
      const reason = requireReason(req.body.why);
      return command(deps, req, reply, (ctx) =>
        correctBooksStart(ctx, req.params.id, req.body.data.books_start_month, reason, req.body.why ?? {}),
      );
    },
  );

  app.get(
    '/v1/period-calendar/current',
    {
      preValidation: reader('calendar.read'),
      schema: {
        tags,
        summary: "The entity's calendar with its local date and current Open month",
        querystring: Type.Object({ legal_entity_id: Uuid }),
        response: { 200: Envelope(CalendarView) },
      },
    },
    async (req, reply) => {
      const db = deps.database.db;
      if (!(await findEntity(db, req.query.legal_entity_id))) throw notFound('Legal entity', 'legal_entity_not_found');
      const cal = await findCalendar(db, req.query.legal_entity_id);
      if (!cal) throw notConfigured();
      return reply.envelope(calendarView(cal, deps.clock()));
    },
  );
};
