import { Envelope, forbidden, type Principal, pageMeta, pageRequest, sendCommandResult } from '@platform/kit';
import { reportUsage } from '../commands/usage.ts';
import { inScope } from '../domain/people.ts';
import { reportPeriod } from '../domain/period.ts';
import {
  periodErrors,
  UsageCall,
  UsageEnvelope,
  UsageFilterQuery,
  UsageQuery,
  UsageReportCommand,
  UsageSummary,
} from '../schemas/usage.ts';
import { fidOf, readScopeOf } from '../store/people.ts';
import { type UsageFilter, usageCalls, usageGroups, usageTotals } from '../store/usage-reads.ts';
import { utcDay } from '../store/usage-writes.ts';
import { type RouteDeps, type Routes, route, runBrokerCommand } from './deps.ts';

const tags = ['usage'];

/**
 * The filter of a usage read, as the caller may have it: naming an identity outside what they may
 * read (themselves and what they created, unless a platform admin) is 403.
 */
async function usageFilter(deps: RouteDeps, principal: Principal, q: UsageFilterQuery): Promise<UsageFilter> {
  const db = deps.database.db;
  // Calls the relay has recorded but not yet written are part of every read (read your writes).
  await deps.usage.settled();
  const scope = await readScopeOf(db, principal);
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
export const USAGE_ROUTES: Routes = [
  route({
    method: 'POST',
    url: '/v1/usage',
    action: 'report_usage',
    tags,
    summary:
      'Report a completed call made outside the relay; priced from the catalog. actor_fid bills someone else (platform admins)',
    body: UsageReportCommand,
    response: Envelope(UsageCall),
    status: 201,
    errors: ['unknown_provider', 'unknown_model', 'bad_tokens', 'bad_occurred_at', 'unknown_actor'],
    // A command that answers itself: the budget gate counts the call once it is stored.
    command: true,
    handler: async ({ body, principal, req, reply }, deps) => {
      const result = await runBrokerCommand(deps, req, principal, async (ctx) => ({
        status: 201,
        data: await reportUsage(ctx, body.data, deps.catalog),
      }));
      if (!result.replayed) {
        const call = result.data;
        deps.budgets.spent(call.actor_fid, call.cost_micros, new Date(call.occurred_at));
      }
      return sendCommandResult(reply, result);
    },
  }),

  route({
    method: 'GET',
    url: '/v1/usage',
    action: 'read_own',
    tags,
    summary:
      'Usage over inclusive UTC days (default: this month so far). Filters actor, person (and what they created), provider, model; by_creator counts agents and services under their creator. group=day (default) gives one row per day; person_model, person, model and provider sum over the range; call lists the calls, newest first, paged. Non-admins read themselves and what they created',
    query: UsageQuery,
    response: UsageEnvelope,
    errors: ['bad_period'],
    schemaErrorFormatter: periodErrors,
    handler: async ({ query, principal, reply }, deps) => {
      const filter = await usageFilter(deps, principal, query);
      const group = query.group ?? 'day';
      if (group === 'call') {
        const page = pageRequest(query, 50);
        const { items, total } = await usageCalls(deps.database.db, filter, page);
        return reply.envelope(items, pageMeta(page, total));
      }
      return reply.envelope(await usageGroups(deps.database.db, filter, group));
    },
  }),

  route({
    method: 'GET',
    url: '/v1/usage/summary',
    action: 'read_own',
    tags,
    summary: 'Totals over the same filters as GET /v1/usage (the sums of its rows)',
    query: UsageFilterQuery,
    response: Envelope(UsageSummary),
    errors: ['bad_period'],
    schemaErrorFormatter: periodErrors,
    handler: async ({ query, principal, reply }, deps) => {
      const filter = await usageFilter(deps, principal, query);
      const totals = await usageTotals(deps.database.db, filter);
      return reply.envelope({ ...filter.period, ...totals });
    },
  }),
];
