import {
  Envelope,
  forbidden,
  IdempotencyHeaders,
  type Principal,
  pageMeta,
  pageRequest,
  runCommand,
  sendCommandResult,
  unprocessable,
  uuidv7,
} from '@platform/kit';
import type { FastifyRequest } from 'fastify';
import { inScope } from '../domain/people.ts';
import { reportPeriod } from '../domain/period.ts';
import { can } from '../domain/permissions.ts';
import { reportedUsage } from '../domain/usage.ts';
import {
  periodErrors,
  UsageCall,
  UsageEnvelope,
  UsageFilterQuery,
  UsageQuery,
  UsageReportCommand,
  UsageSummary,
} from '../schemas/usage.ts';
import { fidOf, findByFid, readScopeOf } from '../store/people.ts';
import { type UsageFilter, usageCall, usageCalls, usageGroups, usageTotals } from '../store/usage-reads.ts';
import { insertUsage, utcDay } from '../store/usage-writes.ts';
import { commander, type RouteDeps, type RouteModule, reader } from './deps.ts';

const tags = ['usage'];

/**
 * The filter of a usage read, as the caller may have it: naming an identity outside what they may
 * read (themselves and what they created, unless a platform admin) is 403.
 */
async function usageFilter(deps: RouteDeps, req: FastifyRequest, q: UsageFilterQuery): Promise<UsageFilter> {
  const db = deps.database.db;
  // Calls the relay has recorded but not yet written are part of every read (read your writes).
  await deps.usage.settled();
  const scope = await readScopeOf(db, req.principal as Principal);
  const range = reportPeriod(q, utcDay(deps.clock()));
  const actor = q.actor === undefined ? undefined : await fidOf(db, q.actor);
  const person = q.person === undefined ? undefined : await fidOf(db, q.person);
  for (const fid of [actor, person]) {
    if (fid !== undefined && !inScope(scope, fid))
      throw forbidden('You may read only your own usage and that of what you created');
  }
  return {
    period: range,
    scope,
    actor,
    person,
    provider: q.provider,
    model: q.model,
    byCreator: q.by_creator === true,
  };
}

/** The usage routes (spec 3, Broker): report a call, read usage by day, person, model or provider. */
export const usageRoutes: RouteModule = (app, deps) => {
  app.post(
    '/v1/usage',
    {
      preValidation: commander('report_usage'),
      schema: {
        tags,
        summary:
          'Report a completed call made outside the relay; priced from the catalog. actor_fid bills someone else (platform admins)',
        headers: IdempotencyHeaders,
        body: UsageReportCommand,
        response: { 201: Envelope(UsageCall) },
      },
    },
    async (req, reply) => {
      const principal = req.principal as Principal;
      const input = req.body.data;
      const actorFid = input.actor_fid?.toLowerCase() ?? principal.id;
      const result = await runCommand({ db: deps.database.db, req, principal }, async (trx) => {
        if (actorFid !== principal.id) {
          if (!can(principal, 'report_for_others'))
            throw forbidden('Only platform admins report usage for someone else');
          if (!(await findByFid(trx, actorFid))) {
            throw unprocessable('unknown_actor', `No identity ${actorFid} in the roster`, 'body/data/actor_fid');
          }
        }
        const usage = reportedUsage(input, deps.catalog, { id: uuidv7(), actor_fid: actorFid }, deps.clock());
        await insertUsage(trx, [usage]);
        return { status: 201, data: (await usageCall(trx, usage.id)) as UsageCall };
      });
      if (!result.replayed) {
        const call = result.data;
        deps.budgets.spent(call.actor_fid, call.cost_micros, new Date(call.occurred_at));
      }
      return sendCommandResult(reply, result);
    },
  );

  app.get(
    '/v1/usage',
    {
      preValidation: reader('read_own'),
      schemaErrorFormatter: periodErrors,
      schema: {
        tags,
        summary:
          'Usage over inclusive UTC days (default: this month so far). Filters actor, person (and what they created), provider, model; by_creator counts agents and services under their creator. group=day (default) gives one row per day; person_model, person, model and provider sum over the range; call lists the calls, newest first, paged. Non-admins read themselves and what they created',
        querystring: UsageQuery,
        response: { 200: UsageEnvelope },
      },
    },
    async (req, reply) => {
      const filter = await usageFilter(deps, req, req.query);
      const group = req.query.group ?? 'day';
      if (group === 'call') {
        const page = pageRequest(req.query, 50);
        const { items, total } = await usageCalls(deps.database.db, filter, page);
        return reply.envelope(items, pageMeta(page, total));
      }
      return reply.envelope(await usageGroups(deps.database.db, filter, group));
    },
  );

  app.get(
    '/v1/usage/summary',
    {
      preValidation: reader('read_own'),
      schemaErrorFormatter: periodErrors,
      schema: {
        tags,
        summary: 'Totals over the same filters as GET /v1/usage (the sums of its rows)',
        querystring: UsageFilterQuery,
        response: { 200: Envelope(UsageSummary) },
      },
    },
    async (req, reply) => {
      const filter = await usageFilter(deps, req, req.query);
      const totals = await usageTotals(deps.database.db, filter);
      return reply.envelope({ ...filter.period, ...totals });
    },
  );
};
