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
import { Command, IdParams } from '../schemas/common.ts';
import { allAccounts, findAccount, listAccounts } from '../store/accounts.ts';
import { type Routes, route } from './deps.ts';

const tags = ['accounts'];

export const accountRoutes: Routes = [
  route({
    method: 'POST',
    url: '/v1/accounts',
    action: 'accounts.change',
    tags,
    summary: 'Create an account in the chart named by chart_code',
    body: Command(AccountInput),
    response: Envelope(Account),
    status: 201,
    errors: ['account_code_exists', 'parent_not_found'],
    run: (ctx, { body }) => createAccount(ctx, body.data, body.why),
  }),

  route({
    method: 'GET',
    url: '/v1/accounts',
    action: 'accounts.list',
    tags,
    summary: 'List accounts (cursor pagination: pass meta.pagination.nextCursor back as after)',
    query: Type.Object({
      ...cursorQuery({ limit: 50, maxLimit: 200 }),
      chart_code: Type.Optional(Type.String({ minLength: 1 })),
    }),
    response: CursorEnvelope(Account),
    errors: ['invalid_cursor'],
    handler: async ({ query, reply }, deps) => {
      const limit = query.limit ?? 50;
      let after: [string, string, string] | undefined;
      if (query.after) {
        const key = decodeCursor(query.after);
        if (key?.length !== 3 || !key.every((k) => typeof k === 'string') || !UUID_RE.test(String(key[2]))) {
          throw unprocessable('invalid_cursor', 'The after cursor is not one this service issued', 'querystring/after');
        }
        after = key as [string, string, string];
      }
      const page = await listAccounts(deps.database.db, { after, limit, chartCode: query.chart_code });
      return reply.envelope(page.items, cursorMeta(limit, page.next ? [...page.next] : null));
    },
  }),

  route({
    method: 'GET',
    url: '/v1/accounts/tree',
    action: 'accounts.list',
    tags,
    summary: 'Account hierarchy: one tree per chart code',
    query: Type.Object({ chart_code: Type.Optional(Type.String({ minLength: 1 })) }),
    response: Envelope(Type.Array(ChartTree)),
    handler: async ({ query, reply }, deps) => {
      const accounts = await allAccounts(deps.database.db, query.chart_code);
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
  }),

  route({
    method: 'GET',
    url: '/v1/accounts/:id',
    action: 'accounts.read_one',
    tags,
    summary: 'One account',
    params: IdParams,
    response: Envelope(Account),
    errors: ['account_not_found'],
    handler: async ({ params, reply }, deps) => {
      const account = await findAccount(deps.database.db, params.id);
      if (!account) throw notFound('Account', 'account_not_found');
      return reply.envelope(account);
    },
  }),

  route({
    method: 'POST',
    url: '/v1/accounts/:id/postability',
    action: 'accounts.change',
    tags,
    summary: 'Account-use change: allow or stop journal lines on the account',
    params: IdParams,
    body: Command(PostabilityInput),
    response: Envelope(Account),
    errors: ['account_not_found'],
    run: (ctx, { params, body }) => setAccountPostability(ctx, params.id, body.data.is_postable, body.why),
  }),
];
