import { Envelope, notFound, PageEnvelope, pageMeta, pageQuery, pageRequest } from '@platform/kit';
import { Type } from '@sinclair/typebox';
import { closePeriod, reopenPeriod } from '../commands/periods.ts';
import { requireReason } from '../domain/calendar.ts';
import { Command, Uuid } from '../schemas/common.ts';
import { CloseInput, CloseResult, PeriodRecord, ReopenInput, ReopenResult } from '../schemas/periods.ts';
import { findEntity } from '../store/entities.ts';
import { history } from '../store/periods.ts';
import { type Routes, route } from './deps.ts';

const tags = ['periods'];

export const periodRoutes: Routes = [
  route({
    method: 'POST',
    url: '/v1/periods/close',
    action: 'periods.manage',
    tags,
    summary: 'Close the earliest unclosed past month (data.month, when given, must be that month)',
    body: Command(CloseInput),
    response: Envelope(CloseResult),
    errors: [
      'legal_entity_not_found',
      'period_calendar_not_configured',
      'closed_period_gap',
      'unexpected_close_month',
      'current_period_not_closable',
    ],
    run: (ctx, { body }) => closePeriod(ctx, body.data.legal_entity_id, body.data.month, body.why),
  }),

  route({
    method: 'POST',
    url: '/v1/periods/reopen',
    action: 'periods.manage',
    tags,
    summary: 'Reopen a closed month and every later closed month (why.detail required)',
    body: Command(ReopenInput),
    response: Envelope(ReopenResult),
    errors: ['reason_required', 'legal_entity_not_found', 'period_not_closed'],
    check: ({ body }) => void requireReason(body.why),
    run: (ctx, { body }) => {
      const { legal_entity_id, year, month } = body.data;
      return reopenPeriod(ctx, legal_entity_id, year, month, requireReason(body.why));
    },
  }),

  route({
    method: 'GET',
    url: '/v1/periods/history',
    action: 'periods.history',
    tags,
    summary: 'Close and reopen records, newest first',
    query: Type.Object({ legal_entity_id: Uuid, ...pageQuery({ pageSize: 25, maxPageSize: 100 }) }),
    response: PageEnvelope(PeriodRecord),
    errors: ['legal_entity_not_found'],
    handler: async ({ query, reply }, deps) => {
      const db = deps.database.db;
      if (!(await findEntity(db, query.legal_entity_id))) throw notFound('Legal entity', 'legal_entity_not_found');
      const page = pageRequest(query, 25);
      const { items, total } = await history(db, query.legal_entity_id, page.page, page.pageSize);
      return reply.envelope(items, pageMeta(page, total));
    },
  }),
];
