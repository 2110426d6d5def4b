import {
  CursorEnvelope,
  cursorMeta,
  cursorQuery,
  decodeCursor,
  Envelope,
  notFound,
  UUID_RE,
  unprocessable,
} from '@platform/kit';
import { Type } from '@sinclair/typebox';
import { createAccount, setAccountPostability } from '../commands/accounts.ts';
import { Account, AccountInput, type AccountNode, ChartTree, PostabilityInput } from '../schemas/accounts.ts';
import { Command, IdempotencyHeaders, IdParams } from '../schemas/common.ts';
import { allAccounts, findAccount, listAccounts } from '../store/accounts.ts';
import { command, commander, type RouteModule, reader } from './deps.ts';

const tags = ['accounts'];

export const accountRoutes: RouteModule = (app, deps) => {
  app.post(
    '/v1/accounts',
    {
      preValidation: commander('accounts.change'),
      schema: {
        tags,
        summary: 'Create an account in the chart named by chart_code',
        headers: IdempotencyHeaders,
        body: Command(AccountInput),
        response: { 201: Envelope(Account) },
      },
    },
    async (req, reply) => command(deps, req, reply, (ctx) => createAccount(ctx, req.body.data, req.body.why), 201),
  );

  app.get(
    '/v1/accounts',
    {
      preValidation: reader('accounts.list'),
      schema: {
        tags,
        summary: 'List accounts (cursor pagination: pass meta.pagination.nextCursor back as after)',
        querystring: Type.Object({
          ...cursorQuery({ limit: 50, maxLimit: 200 }),
          chart_code: Type.Optional(Type.String({ minLength: 1 })),
        }),
        response: { 200: CursorEnvelope(Account) },
      },
    },
    async (req, reply) => {
      const limit = req.query.limit ?? 50;
      let after: [string, string, string] | undefined;
      if (req.query.after) {
        const key = decodeCursor(req.query.after);
        if (key?.length !== 3 || !key.every((k) => typeof k === 'string') || !UUID_RE.test(String(key[2]))) {
          throw unprocessable('invalid_cursor', 'The after cursor is not one this service issued', 'querystring/after');
        }
        after = key as [string, string, string];
      }
      const page = await listAccounts(deps.database.db, { after, limit, chartCode: req.query.chart_code });
      return reply.envelope(page.items, cursorMeta(limit, page.next ? [...page.next] : null));
    },
  );

  app.get(
    '/v1/accounts/tree',
    {
      preValidation: reader('accounts.list'),
      schema: {
        tags,
        summary: 'Account hierarchy: one tree per chart code',
        querystring: Type.Object({ chart_code: Type.Optional(Type.String({ minLength: 1 })) }),
        response: { 200: Envelope(Type.Array(ChartTree)) },
      },
    },
    async (req, reply) => {
      const accounts = await allAccounts(deps.database.db, req.query.chart_code);
      const nodes = new Map<string, AccountNode>(
        accounts.map((a) => [`${a.chart_code}\u0000${a.code}`, { ...a, children: [] }]),
      );
      const charts = new Map<string, AccountNode[]>();
      for (const node of nodes.values()) {
        const parent = node.parent_code ? nodes.get(`${node.chart_code}\u0000${node.parent_code}`) : undefined;
        if (parent) parent.children.push(node);
        else charts.set(node.chart_code, [...(charts.get(node.chart_code) ?? []), node]);
      }
      return reply.envelope([...charts].map(([chart_code, roots]) => ({ chart_code, accounts: roots })));
    },
  );

  app.get(
    '/v1/accounts/:id',
    {
      preValidation: reader('accounts.read_one'),
      schema: { tags, summary: 'One account', params: IdParams, response: { 200: Envelope(Account) } },
    },
    async (req, reply) => {
      const account = await findAccount(deps.database.db, req.params.id);
      if (!account) throw notFound('Account', 'account_not_found');
      return reply.envelope(account);
    },
  );

  app.post(
    '/v1/accounts/:id/postability',
    {
      preValidation: commander('accounts.change'),
      schema: {
        tags,
        summary: 'Account-use change: allow or stop journal lines on the account',
        headers: IdempotencyHeaders,
        params: IdParams,
        body: Command(PostabilityInput),
        response: { 200: Envelope(Account) },
      },
    },
    async (req, reply) =>
      command(deps, req, reply, (ctx) =>
        setAccountPostability(ctx, req.params.id, req.body.data.is_postable, req.body.why),
      ),
  );
};
