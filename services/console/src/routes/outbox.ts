import { AppError, Envelope } from '@platform/kit';
import { Type } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import { checkedSchema, type EventStatus, eventById, outboxCounts, recentEvents, republish } from '../outbox/store.ts';
import type { ResolvedScope } from '../registry/registry.ts';
import { P, ScopeParams } from '../schemas/common.ts';
import {
  EventParams,
  EventsPage,
  EventsQuery,
  OutboxCountsView,
  OutboxEventView,
  RepublishBody,
  ServiceParams,
} from '../schemas/outbox.ts';
import { isConnectionError, type ScopeDatabase, scopeUnavailable } from '../scope/databases.ts';
import { logWrite } from '../writes.ts';
import type { RouteDeps, Routes } from './deps.ts';
import { route } from './deps.ts';

const tags = ['outbox'];

/** The subscription's database, or 404/501 before anything is opened. */
function databaseOf(deps: RouteDeps, params: { region: string; subscription: string }) {
  const scope = deps.registry.resolve(params.region, params.subscription);
  return { scope, db: deps.databases.of(scope) };
}

/** A session on the scope's database; a database that does not answer is 503 scope_unavailable. */
async function withSession<T>(
  scope: ResolvedScope,
  db: ScopeDatabase,
  work: Parameters<ScopeDatabase['session']>[0],
): Promise<T> {
  try {
    return (await db.session(work)) as T;
  } catch (e) {
    if (e instanceof AppError) throw e;
    if (isConnectionError(e)) throw scopeUnavailable(scope, e);
    throw e;
  }
}

const SCOPE_ERRORS = ['scope_not_found', 'database_not_configured', 'scope_unavailable'] as const;

export const OUTBOX_ROUTES: Routes = [
  route({
    method: 'GET',
    url: `${P}/outbox`,
    role: 'viewer',
    tags,
    summary: "Every service's outbox counts in the subscription's database: total, pending, failing, published",
    params: ScopeParams,
    response: Envelope(Type.Array(OutboxCountsView)),
    errors: [...SCOPE_ERRORS],
    handler: async ({ params, reply }, deps) => {
      const { scope, db } = databaseOf(deps, params);
      return reply.envelope(await withSession(scope, db, (s) => outboxCounts(s)));
    },
  }),
  route({
    method: 'GET',
    url: `${P}/outbox/:service/events`,
    role: 'viewer',
    tags,
    summary: "A service's recent outbox events, newest first (restricted events without their payload)",
    params: ServiceParams,
    query: EventsQuery,
    response: Envelope(EventsPage),
    errors: [...SCOPE_ERRORS, 'outbox_not_found'],
    handler: async ({ params, query, reply }, deps) => {
      const { scope, db } = databaseOf(deps, params);
      const events = await withSession(scope, db, async (s) =>
        recentEvents(s, await checkedSchema(s, params.service), {
          status: (query.status ?? 'all') as EventStatus,
          limit: query.limit ?? 50,
          before: query.before,
        }),
      );
      return reply.envelope({ service: params.service, events });
    },
  }),
  route({
    method: 'POST',
    url: `${P}/outbox/:service/events/:event_id/republish`,
    role: 'admin',
    tags,
    summary:
      "Republish an event: its published_at is cleared and the service's publisher sends it again (a new bus message id); logged before the attempt",
    params: EventParams,
    body: RepublishBody,
    emptyBody: true,
    response: Envelope(OutboxEventView),
    errors: [...SCOPE_ERRORS, 'outbox_not_found', 'event_not_found', 'republish_failed'],
    handler: async ({ params, body, req, reply }, deps) =>
      deps.writeKeys.run(req, reply, async () => {
        const { scope, db } = databaseOf(deps, params);
        const target = `${scope.key}/${params.service}/${params.event_id}`;
        // Before the attempt (OPS-060): the line stands even when the update then fails.
        logWrite(req, { action: 'outbox.republish', target, why: body?.why });
        const row = await withSession<Awaited<ReturnType<typeof republish>>>(scope, db, async (s) => {
          const schema = await checkedSchema(s, params.service);
          try {
            return await republish(s, schema, params.event_id);
          } catch (e) {
            if (isConnectionError(e)) throw e;
            throw republishFailed(req, e);
          }
        });
        if (!row)
          throw new AppError(404, 'event_not_found', `No event ${params.event_id} in ${params.service}'s outbox`);
        return { data: row };
      }),
  }),
  route({
    method: 'GET',
    url: `${P}/outbox/:service/events/:event_id`,
    role: 'viewer',
    tags,
    summary: 'One outbox event',
    params: EventParams,
    response: Envelope(OutboxEventView),
    errors: [...SCOPE_ERRORS, 'outbox_not_found', 'event_not_found'],
    handler: async ({ params, reply }, deps) => {
      const { scope, db } = databaseOf(deps, params);
      const row = await withSession<Awaited<ReturnType<typeof eventById>>>(scope, db, async (s) =>
        eventById(s, await checkedSchema(s, params.service), params.event_id),
      );
      if (!row) throw new AppError(404, 'event_not_found', `No event ${params.event_id} in ${params.service}'s outbox`);
      return reply.envelope(row);
    },
  }),
];

function republishFailed(req: FastifyRequest, e: unknown) {
  req.log.warn({ err: e }, 'republish refused by the database');
  return new AppError(503, 'republish_failed', `The database refused the republish: ${(e as Error).message}`);
}
