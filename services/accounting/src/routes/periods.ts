import { Envelope, notFound, PageEnvelope, pageMeta, pageQuery, pageRequest } from '@platform/kit';
import { Type } from '@sinclair/typebox';
import { closePeriod, reopenPeriod } from '../commands/periods.ts';
import { requireReason } from '../domain/calendar.ts';
import { Command, IdempotencyHeaders, Uuid } from '../schemas/common.ts';
import { CloseInput, CloseResult, PeriodRecord, ReopenInput, ReopenResult } from '../schemas/periods.ts';
import { findEntity } from '../store/entities.ts';
import { history } from '../store/periods.ts';
import { command, commander, type RouteModule, reader } from './deps.ts';

const tags = ['periods'];

export const periodRoutes: RouteModule = (app, deps) => {
  app.post(
    '/v1/periods/close',
    {
      preValidation: commander('periods.manage'),
      schema: {
        tags,
        summary: 'Close the earliest unclosed past month (data.month, when given, must be that month)',
        headers: IdempotencyHeaders,
        body: Command(CloseInput),
        response: { 200: Envelope(CloseResult) },
      },
    },
    async (req, reply) =>
      command(deps, req, reply, (ctx) =>
        closePeriod(ctx, req.body.data.legal_entity_id, req.body.data.month, req.body.why),
      ),
  );

  app.post(
    '/v1/periods/reopen',
    {
      preValidation: commander('periods.manage'),
      schema: {
        tags,
        summary: 'Reopen a closed month and every later closed month (why.detail required)',
        headers: IdempotencyHeaders,
        body: Command(ReopenInput),
        response: { 200: Envelope(ReopenResult) },
      },
    },
    async (req, reply) => {
      const reason = requireReason(req.body.why);
      const { legal_entity_id, year, month } = req.body.data;
      return command(deps, req, reply, (ctx) => reopenPeriod(ctx, legal_entity_id, year, month, reason));
    },
  );

  app.get(
    '/v1/periods/history',
    {
      preValidation: reader('periods.history'),
      schema: {
        tags,
        summary: 'Close and reopen records, newest first',
        querystring: Type.Object({ legal_entity_id: Uuid, ...pageQuery({ pageSize: 25, maxPageSize: 100 }) }),
        response: { 200: PageEnvelope(PeriodRecord) },
      },
    },
    async (req, reply) => {
      const db = deps.database.db;
      if (!(await findEntity(db, req.query.legal_entity_id))) throw notFound('Legal entity', 'legal_entity_not_found');
      const page = pageRequest(req.query, 25);
      const { items, total } = await history(db, req.query.legal_entity_id, page.page, page.pageSize);
      return reply.envelope(items, pageMeta(page, total));
    },
  );
};
