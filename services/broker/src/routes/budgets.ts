import { Envelope, forbidden, type Principal, pageMeta, pageRequest, sendCommandResult } from '@platform/kit';
import {
  budgetRowOf,
  clearBudgetOverride,
  overrideBudget,
  personNotFound,
  setDefaultBudget,
} from '../commands/budgets.ts';
import { centsOf, groupBudgets, monthOf, SHOW_KINDS } from '../domain/budgets.ts';
import { inScope, type ReadScope } from '../domain/people.ts';
import {
  ActorParams,
  BudgetGroups,
  BudgetRow,
  BudgetRows,
  BudgetsQuery,
  budgetRow,
  DefaultBudget,
  DefaultLimitCommand,
  LimitCommand,
  limitErrors,
} from '../schemas/budgets.ts';
import { budgetFigures, readDefault } from '../store/budgets.ts';
import type { Db } from '../store/db.ts';
import { fidOf, findByFid, readScopeOf } from '../store/people.ts';
import { type RouteDeps, type Routes, route, runBrokerCommand } from './deps.ts';

const tags = ['budgets'];

/**
 * The identity a budget read names (FID or email) with what the caller may read: outside it is
 * 403; unknown to the roster is 404.
 */
async function namedFid(db: Db, scope: ReadScope, ref: string): Promise<string> {
  const fid = await fidOf(db, ref);
  if (!inScope(scope, fid)) throw forbidden('You may read only your own budget and those of what you created');
  if (!(await findByFid(db, fid))) throw personNotFound();
  return fid;
}

/** What a budget list covers: the caller's scope, the identity named by `actor` and its tree, this month (after pending usage is written). */
async function listScope(deps: RouteDeps, principal: Principal, actor: string | undefined) {
  const db = deps.database.db;
  await deps.usage.settled();
  const scope = await readScopeOf(db, principal);
  const tree = actor === undefined ? undefined : await namedFid(db, scope, actor);
  return { scope, tree, month: monthOf(deps.clock()) };
}

/** The budget routes (spec 3, Broker): the default, the overrides, every identity's spend this month. */
export const BUDGET_ROUTES: Routes = [
  route({
    method: 'GET',
    url: '/v1/budgets/default',
    action: 'read_own',
    tags,
    summary: 'The default monthly budget in cents (USD), the limit of everyone without an override',
    response: Envelope(DefaultBudget),
    handler: async ({ reply }, deps) => reply.envelope(await readDefault(deps.database.db)),
  }),

  route({
    method: 'PUT',
    url: '/v1/budgets/default',
    action: 'manage_budgets',
    tags,
    summary:
      "Set the default monthly budget in cents, and optionally service credentials' default (platform admins); 422 bad_limit",
    body: DefaultLimitCommand,
    response: Envelope(DefaultBudget),
    errors: ['bad_limit'],
    schemaErrorFormatter: limitErrors,
    // A command that answers itself: the budget gate's cache is cleared once it ran.
    command: true,
    handler: async ({ body, principal, req, reply }, deps) => {
      const result = await runBrokerCommand(deps, req, principal, async (ctx) => ({
        status: 200,
        data: await setDefaultBudget(ctx, body.data),
      }));
      // Everyone without an override has a new limit: this replica's checks see it at once.
      deps.budgets.invalidate?.();
      return sendCommandResult(reply, result);
    },
  }),

  route({
    method: 'GET',
    url: '/v1/budgets',
    action: 'read_own',
    tags,
    summary:
      "Every known identity with this month's spend and effective limit, by email. show=people, services or agents; actor limits to one identity and what it created. Non-admins see themselves and what they created",
    query: BudgetsQuery,
    response: BudgetRows,
    errors: ['person_not_found'],
    handler: async ({ query, principal, reply }, deps) => {
      const { scope, tree, month } = await listScope(deps, principal, query.actor);
      const page = pageRequest(query, 100);
      const { items, total } = await budgetFigures(
        deps.database.db,
        { scope, tree, kinds: SHOW_KINDS[query.show ?? 'all'] },
        month,
        { limit: page.pageSize, offset: (page.page - 1) * page.pageSize },
      );
      return reply.envelope(
        items.map((f) => budgetRow(f, month.month)),
        pageMeta(page, total),
      );
    },
  }),

  route({
    method: 'GET',
    url: '/v1/budgets/groups',
    action: 'read_own',
    tags,
    summary:
      "One row per person with identity_count, spend and token_count summed over them and the agents and service identities they created; members lists the rows, the person's own first. show narrows the members (a group with none left is omitted); actor limits to one person",
    query: BudgetsQuery,
    response: BudgetGroups,
    errors: ['person_not_found'],
    handler: async ({ query, principal, reply }, deps) => {
      const { scope, tree, month } = await listScope(deps, principal, query.actor);
      const { items } = await budgetFigures(deps.database.db, { scope, tree }, month);
      const groups = groupBudgets(items, SHOW_KINDS[query.show ?? 'all'], (f) => budgetRow(f, month.month));
      const page = pageRequest(query, 100);
      const shown = groups
        .slice((page.page - 1) * page.pageSize, page.page * page.pageSize)
        .map((g) => ({ ...g, spend: centsOf(g.spend_micros) }));
      return reply.envelope(shown, pageMeta(page, groups.length));
    },
  }),

  route({
    method: 'GET',
    url: '/v1/budgets/:actor',
    action: 'read_own',
    tags,
    summary: "One identity's budget this month (FID or email); 404 person_not_found when unknown",
    params: ActorParams,
    response: Envelope(BudgetRow),
    errors: ['person_not_found'],
    handler: async ({ params, principal, reply }, deps) => {
      const db = deps.database.db;
      await deps.usage.settled();
      const fid = await namedFid(db, await readScopeOf(db, principal), params.actor);
      return reply.envelope(await budgetRowOf(db, fid, deps.clock()));
    },
  }),

  route({
    method: 'PUT',
    url: '/v1/budgets/:actor',
    action: 'manage_budgets',
    tags,
    summary: "Set an identity's monthly limit in cents, overriding the default (platform admins); 422 bad_limit",
    params: ActorParams,
    body: LimitCommand,
    response: Envelope(BudgetRow),
    errors: ['person_not_found', 'bad_limit'],
    schemaErrorFormatter: limitErrors,
    // A command that answers itself: the identity's cached figures are cleared once it ran.
    command: true,
    handler: async ({ params, body, principal, req, reply }, deps) => {
      const fid = await fidOf(deps.database.db, params.actor);
      const result = await runBrokerCommand(deps, req, principal, async (ctx) => ({
        status: 200,
        data: await overrideBudget(ctx, fid, body.data.limit),
      }));
      deps.budgets.invalidate?.(fid);
      return sendCommandResult(reply, result);
    },
  }),

  route({
    method: 'DELETE',
    url: '/v1/budgets/:actor',
    action: 'manage_budgets',
    tags,
    summary: "Clear an identity's override: its limit is the default again (platform admins). Answers the budget row",
    params: ActorParams,
    response: Envelope(BudgetRow),
    errors: ['person_not_found'],
    command: true,
    handler: async ({ params, principal, req, reply }, deps) => {
      const fid = await fidOf(deps.database.db, params.actor);
      const result = await runBrokerCommand(deps, req, principal, async (ctx) => ({
        status: 200,
        data: await clearBudgetOverride(ctx, fid),
      }));
      deps.budgets.invalidate?.(fid);
      return sendCommandResult(reply, result);
    },
  }),
];
