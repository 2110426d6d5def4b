import { Envelope, notFound } from '@platform/kit';
import { Type } from '@sinclair/typebox';
import { fromYearMonth, monthOf } from '../domain/months.ts';
import { DateString, IdParams, Uuid, YearMonth } from '../schemas/common.ts';
import { AccountBalance, BalanceSheet, ConsolidatedBalances, TrialBalance } from '../schemas/reports.ts';
import { findAccount } from '../store/accounts.ts';
import { findEntity } from '../store/entities.ts';
import {
  type AccountTotals,
  accountTotals,
  entitiesOfChart,
  normalBalance,
  type TrialTotals,
  trialTotals,
} from '../store/reports.ts';
import { type RouteModule, reader } from './deps.ts';

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

export const reportRoutes: RouteModule = (app, deps) => {
  const db = deps.database.db;
  const entityOr404 = async (id: string) => {
    const e = await findEntity(db, id);
    if (!e) throw notFound('Legal entity', 'legal_entity_not_found');
    return e;
  };

  app.get(
    '/v1/accounts/:id/balance',
    {
      preValidation: reader('reports.read'),
      schema: {
        tags,
        summary: 'Account balance by posting month (as_of_month includes the whole month)',
        params: IdParams,
        querystring: Type.Object({ legal_entity_id: Type.Optional(Uuid), as_of_month: Type.Optional(YearMonth) }),
        response: { 200: Envelope(AccountBalance) },
      },
    },
    async (req, reply) => {
      const account = await findAccount(db, req.params.id);
      if (!account) throw notFound('Account', 'account_not_found');
      if (req.query.legal_entity_id) await entityOr404(req.query.legal_entity_id);
      const [t] = await accountTotals(db, {
        accountId: account.id,
        entityIds: req.query.legal_entity_id ? [req.query.legal_entity_id] : undefined,
        toMonth: req.query.as_of_month ? fromYearMonth(req.query.as_of_month) : null,
      });
      const debit = t?.debit ?? 0;
      const credit = t?.credit ?? 0;
      return reply.envelope({
        account_id: account.id,
        legal_entity_id: req.query.legal_entity_id ?? null,
        as_of_month: req.query.as_of_month ?? null,
        debit,
        credit,
        balance: normalBalance(account.classification, debit, credit),
      });
    },
  );

  app.get(
    '/v1/balances/consolidated',
    {
      preValidation: reader('reports.read'),
      schema: {
        tags,
        summary: 'Balances of every account of a chart across all its legal entities',
        querystring: Type.Object({ chart_code: Type.String({ minLength: 1 }), as_of_month: Type.Optional(YearMonth) }),
        response: { 200: Envelope(ConsolidatedBalances) },
      },
    },
    async (req, reply) => {
      const entityIds = await entitiesOfChart(db, req.query.chart_code);
      const totals = await accountTotals(db, {
        chartCode: req.query.chart_code,
        entityIds,
        toMonth: req.query.as_of_month ? fromYearMonth(req.query.as_of_month) : null,
      });
      return reply.envelope({
        chart_code: req.query.chart_code,
        as_of_month: req.query.as_of_month ?? null,
        legal_entity_ids: entityIds,
        accounts: totals.map(line),
      });
    },
  );

  app.get(
    '/v1/trial-balance',
    {
      preValidation: reader('reports.read'),
      schema: {
        tags,
        summary:
          'Entity trial balance: activity, opening and closing balance per account; date bounds select whole posting months',
        querystring: Type.Object({
          legal_entity_id: Uuid,
          from_date: Type.Optional(DateString),
          to_date: Type.Optional(DateString),
        }),
        response: { 200: Envelope(TrialBalance) },
      },
    },
    async (req, reply) => {
      await entityOr404(req.query.legal_entity_id);
      const fromMonth = req.query.from_date ? monthOf(req.query.from_date) : null;
      const toMonth = req.query.to_date ? monthOf(req.query.to_date) : null;
      const totals = await trialTotals(db, req.query.legal_entity_id, fromMonth, toMonth);
      return reply.envelope({
        legal_entity_id: req.query.legal_entity_id,
        from_month: fromMonth,
        to_month: toMonth,
        accounts: totals.map(trialLine),
        totals: {
          debit: totals.reduce((s, t) => s + t.debit, 0),
          credit: totals.reduce((s, t) => s + t.credit, 0),
        },
      });
    },
  );

  app.get(
    '/v1/balance-sheet',
    {
      preValidation: reader('reports.read'),
      schema: {
        tags,
        summary: 'Assets, liabilities and equity as of a posting month',
        querystring: Type.Object({ legal_entity_id: Uuid, as_of_month: Type.Optional(YearMonth) }),
        response: { 200: Envelope(BalanceSheet) },
      },
    },
    async (req, reply) => {
      await entityOr404(req.query.legal_entity_id);
      const totals = (
        await accountTotals(db, {
          entityIds: [req.query.legal_entity_id],
          toMonth: req.query.as_of_month ? fromYearMonth(req.query.as_of_month) : null,
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
        legal_entity_id: req.query.legal_entity_id,
        as_of_month: req.query.as_of_month ?? null,
        assets: section('asset'),
        liabilities,
        equity: { accounts: equity.accounts, total: equity.total + retained },
        retained_earnings: retained,
        total_liabilities_and_equity: liabilities.total + equity.total + retained,
      });
    },
  );
};
