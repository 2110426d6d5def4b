import { Envelope, notFound } from '@platform/kit';
import { Type } from '@sinclair/typebox';
import { fromYearMonth, monthOf } from '../domain/months.ts';
import { DateString, IdParams, Uuid, YearMonth } from '../schemas/common.ts';
import { AccountBalance, BalanceSheet, ConsolidatedBalances, TrialBalance } from '../schemas/reports.ts';
import { findAccount } from '../store/accounts.ts';
import type { Db } from '../store/db.ts';
import { findEntity } from '../store/entities.ts';
import {
  type AccountTotals,
  accountTotals,
  entitiesOfChart,
  normalBalance,
  type TrialTotals,
  trialTotals,
} from '../store/reports.ts';
import { type Routes, route } from './deps.ts';

const tags = ['reports'];

const line = (t: AccountTotals) => ({
  ...t,
  balance: normalBalance(t.classification, t.debit, t.credit),
});

/** A trial balance row ties: closing = opening + the activity between the bounds. */
const trialLine = ({ opening_debit, opening_credit, ...t }: TrialTotals) => {
  const activity = line(t);
  const opening = normalBalance(t.classification, opening_debit, opening_credit);
  return { ...activity, opening_balance: opening, closing_balance: opening + activity.balance };
};

const entityOr404 = async (db: Db, id: string) => {
  const e = await findEntity(db, id);
  if (!e) throw notFound('Legal entity', 'legal_entity_not_found');
  return e;
};

export const reportRoutes: Routes = [
  route({
    method: 'GET',
    url: '/v1/accounts/:id/balance',
    action: 'reports.read',
    tags,
    summary: 'Account balance by posting month (as_of_month includes the whole month)',
    params: IdParams,
    query: Type.Object({ legal_entity_id: Type.Optional(Uuid), as_of_month: Type.Optional(YearMonth) }),
    response: Envelope(AccountBalance),
    errors: ['account_not_found', 'legal_entity_not_found'],
    handler: async ({ params, query, reply }, deps) => {
      const db = deps.database.db;
      const account = await findAccount(db, params.id);
      if (!account) throw notFound('Account', 'account_not_found');
      if (query.legal_entity_id) await entityOr404(db, query.legal_entity_id);
      const [t] = await accountTotals(db, {
        accountId: account.id,
        entityIds: query.legal_entity_id ? [query.legal_entity_id] : undefined,
        toMonth: query.as_of_month ? fromYearMonth(query.as_of_month) : null,
      });
      const debit = t?.debit ?? 0;
      const credit = t?.credit ?? 0;
      return reply.envelope({
        account_id: account.id,
        legal_entity_id: query.legal_entity_id ?? null,
        as_of_month: query.as_of_month ?? null,
        debit,
        credit,
        balance: normalBalance(account.classification, debit, credit),
      });
    },
  }),

  route({
    method: 'GET',
    url: '/v1/balances/consolidated',
    action: 'reports.read',
    tags,
    summary: 'Balances of every account of a chart across all its legal entities',
    query: Type.Object({ chart_code: Type.String({ minLength: 1 }), as_of_month: Type.Optional(YearMonth) }),
    response: Envelope(ConsolidatedBalances),
    handler: async ({ query, reply }, deps) => {
      const db = deps.database.db;
      const entityIds = await entitiesOfChart(db, query.chart_code);
      const totals = await accountTotals(db, {
        chartCode: query.chart_code,
        entityIds,
        toMonth: query.as_of_month ? fromYearMonth(query.as_of_month) : null,
      });
      return reply.envelope({
        chart_code: query.chart_code,
        as_of_month: query.as_of_month ?? null,
        legal_entity_ids: entityIds,
        accounts: totals.map(line),
      });
    },
  }),

  route({
    method: 'GET',
    url: '/v1/trial-balance',
    action: 'reports.read',
    tags,
    summary:
      'Entity trial balance: activity, opening and closing balance per account; date bounds select whole posting months',
    query: Type.Object({
      legal_entity_id: Uuid,
      from_date: Type.Optional(DateString),
      to_date: Type.Optional(DateString),
    }),
    response: Envelope(TrialBalance),
    errors: ['legal_entity_not_found'],
    handler: async ({ query, reply }, deps) => {
      const db = deps.database.db;
      await entityOr404(db, query.legal_entity_id);
      const fromMonth = query.from_date ? monthOf(query.from_date) : null;
      const toMonth = query.to_date ? monthOf(query.to_date) : null;
      const totals = await trialTotals(db, query.legal_entity_id, fromMonth, toMonth);
      return reply.envelope({
        legal_entity_id: query.legal_entity_id,
        from_month: fromMonth,
        to_month: toMonth,
        accounts: totals.map(trialLine),
        totals: {
          debit: totals.reduce((s, t) => s + t.debit, 0),
          credit: totals.reduce((s, t) => s + t.credit, 0),
        },
      });
    },
  }),

  route({
    method: 'GET',
    url: '/v1/balance-sheet',
    action: 'reports.read',
    tags,
    summary: 'Assets, liabilities and equity as of a posting month',
    query: Type.Object({ legal_entity_id: Uuid, as_of_month: Type.Optional(YearMonth) }),
    response: Envelope(BalanceSheet),
    errors: ['legal_entity_not_found'],
    handler: async ({ query, reply }, deps) => {
      const db = deps.database.db;
      await entityOr404(db, query.legal_entity_id);
      const totals = (
        await accountTotals(db, {
          entityIds: [query.legal_entity_id],
          toMonth: query.as_of_month ? fromYearMonth(query.as_of_month) : null,
        })
      ).map(line);
      const section = (c: string) => {
        const accounts = totals.filter((t) => t.classification === c);
        return { accounts, total: accounts.reduce((s, a) => s + a.balance, 0) };
      };
      const retained = section('revenue').total - section('expense').total;
      const equity = section('equity');
      const liabilities = section('liability');
      return reply.envelope({
        legal_entity_id: query.legal_entity_id,
        as_of_month: query.as_of_month ?? null,
        assets: section('asset'),
        liabilities,
        equity: { accounts: equity.accounts, total: equity.total + retained },
        retained_earnings: retained,
        total_liabilities_and_equity: liabilities.total + equity.total + retained,
      });
    },
  }),
];
