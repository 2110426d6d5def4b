import {
  Envelope,
  forbidden,
  IdempotencyHeaders,
  notFound,
  type Principal,
  pageMeta,
  pageRequest,
  runCommand,
  sendCommandResult,
} from '@platform/kit';
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
import { budgetFigures, clearOverride, readDefault, writeDefault, writeOverride } from '../store/budgets.ts';
import type { Db } from '../store/db.ts';
import { fidOf, findByFid, readScopeOf } from '../store/people.ts';
import { commander, type RouteModule, reader } from './deps.ts';

const tags = ['budgets'];

const personNotFound = () => notFound('Person', 'person_not_found');

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

/** One identity's budget row this month. */
async function rowOf(db: Db, fid: string, now: Date): Promise<BudgetRow> {
  const month = monthOf(now);
  const { items } = await budgetFigures(db, { scope: { everyone: true }, only: fid }, month);
  if (!items[0]) throw personNotFound();
  return budgetRow(items[0], month.month);
}

/** The budget routes (spec 3, Broker): the default, the overrides, every identity's spend this month. */
export const budgetRoutes: RouteModule = (app, deps) => {
  const db = deps.database.db;

  /** What a budget list covers: the caller's scope, the identity named by `actor` and its tree, this month (after pending usage is written). */
  const listScope = async (principal: Principal, actor: string | undefined) => {
    await deps.usage.settled();
    const scope = await readScopeOf(db, principal);
    const tree = actor === undefined ? undefined : await namedFid(db, scope, actor);
    return { scope, tree, month: monthOf(deps.clock()) };
  };

  app.get(
    '/v1/budgets/default',
    {
      preValidation: reader('read_own'),
      schema: {
        tags,
        summary: 'The default monthly budget in cents (USD), the limit of everyone without an override',
        response: { 200: Envelope(DefaultBudget) },
      },
    },
    async (_req, reply) => reply.envelope(await readDefault(db)),
  );

  app.put(
    '/v1/budgets/default',
    {
      preValidation: commander('manage_budgets'),
      schemaErrorFormatter: limitErrors,
      schema: {
        tags,
        summary:
          "Set the default monthly budget in cents, and optionally service credentials' default (platform admins); 422 bad_limit",
        headers: IdempotencyHeaders,
        body: DefaultLimitCommand,
        response: { 200: Envelope(DefaultBudget) },
      },
    },
    async (req, reply) => {
      const principal = req.principal as Principal;
      const result = await runCommand({ db, req, principal }, async (trx) => ({
        status: 200,
        data: await writeDefault(
          trx,
          req.body.data.limit,
          principal.email ?? principal.id,
          deps.clock(),
          req.body.data.service_limit,
        ),
      }));
      // Everyone without an override has a new limit: this replica's checks see it at once.
      deps.budgets.invalidate?.();
      return sendCommandResult(reply, result);
    },
  );

  app.get(
    '/v1/budgets',
    {
      preValidation: reader('read_own'),
      schema: {
        tags,
        summary:
          "Every known identity with this month's spend and effective limit, by email. show=people, services or agents; actor limits to one identity and what it created. Non-admins see themselves and what they created",
        querystring: BudgetsQuery,
        response: { 200: BudgetRows },
      },
    },
    async (req, reply) => {
      const { scope, tree, month } = await listScope(req.principal as Principal, req.query.actor);
      const page = pageRequest(req.query, 100);
      const { items, total } = await budgetFigures(
        db,
        { scope, tree, kinds: SHOW_KINDS[req.query.show ?? 'all'] },
        month,
        { limit: page.pageSize, offset: (page.page - 1) * page.pageSize },
      );
      return reply.envelope(
        items.map((f) => budgetRow(f, month.month)),
        pageMeta(page, total),
      );
    },
  );

  app.get(
    '/v1/budgets/groups',
    {
      preValidation: reader('read_own'),
      schema: {
        tags,
        summary:
          "One row per person with identity_count, spend and token_count summed over them and the agents and service identities they created; members lists the rows, the person's own first. show narrows the members (a group with none left is omitted); actor limits to one person",
        querystring: BudgetsQuery,
        response: { 200: BudgetGroups },
      },
    },
    async (req, reply) => {
      const { scope, tree, month } = await listScope(req.principal as Principal, req.query.actor);
      const { items } = await budgetFigures(db, { scope, tree }, month);
      const groups = groupBudgets(items, SHOW_KINDS[req.query.show ?? 'all'], (f) => budgetRow(f, month.month));
      const page = pageRequest(req.query, 100);
      const shown = groups
        .slice((page.page - 1) * page.pageSize, page.page * page.pageSize)
        .map((g) => ({ ...g, spend: centsOf(g.spend_micros) }));
      return reply.envelope(shown, pageMeta(page, groups.length));
    },
  );

  app.get(
    '/v1/budgets/:actor',
    {
      preValidation: reader('read_own'),
      schema: {
        tags,
        summary: "One identity's budget this month (FID or email); 404 person_not_found when unknown",
        params: ActorParams,
        response: { 200: Envelope(BudgetRow) },
      },
    },
    async (req, reply) => {
      await deps.usage.settled();
      const fid = await namedFid(db, await readScopeOf(db, req.principal as Principal), req.params.actor);
      return reply.envelope(await rowOf(db, fid, deps.clock()));
    },
  );

  app.put(
    '/v1/budgets/:actor',
    {
      preValidation: commander('manage_budgets'),
      schemaErrorFormatter: limitErrors,
      schema: {
        tags,
        summary: "Set an identity's monthly limit in cents, overriding the default (platform admins); 422 bad_limit",
        headers: IdempotencyHeaders,
        params: ActorParams,
        body: LimitCommand,
        response: { 200: Envelope(BudgetRow) },
      },
    },
    async (req, reply) => {
      const principal = req.principal as Principal;
      const fid = await fidOf(db, req.params.actor);
      const result = await runCommand({ db, req, principal }, async (trx) => {
        if (!(await findByFid(trx, fid))) throw personNotFound();
        const now = deps.clock();
        await writeOverride(trx, fid, req.body.data.limit, principal.email ?? principal.id, now);
        return { status: 200, data: await rowOf(trx, fid, now) };
      });
      deps.budgets.invalidate?.(fid);
      return sendCommandResult(reply, result);
    },
  );

  app.delete(
    '/v1/budgets/:actor',
    {
      preValidation: commander('manage_budgets'),
      schema: {
        tags,
        summary:
          "Clear an identity's override: its limit is the default again (platform admins). Answers the budget row",
        headers: IdempotencyHeaders,
        params: ActorParams,
        response: { 200: Envelope(BudgetRow) },
      },
    },
    async (req, reply) => {
      const principal = req.principal as Principal;
      const fid = await fidOf(db, req.params.actor);
      const result = await runCommand({ db, req, principal }, async (trx) => {
        if (!(await findByFid(trx, fid))) throw personNotFound();
        await clearOverride(trx, fid);
        return { status: 200, data: await rowOf(trx, fid, deps.clock()) };
      });
      deps.budgets.invalidate?.(fid);
      return sendCommandResult(reply, result);
    },
  );
};
