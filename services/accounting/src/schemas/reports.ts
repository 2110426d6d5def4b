import { Type } from '@sinclair/typebox';
import { DateString, MonthStart, SignedMoney, Uuid, YearMonth } from './common.ts';

export const AccountBalance = Type.Object({
  account_id: Uuid,
  legal_entity_id: Type.Union([Uuid, Type.Null()]),
  as_of_month: Type.Union([YearMonth, Type.Null()]),
  debit: SignedMoney,
  credit: SignedMoney,
  /** On the account's normal side: debit - credit for assets and expenses, credit - debit otherwise. */
  balance: SignedMoney,
});

export const ReportLine = Type.Object({
  account_id: Uuid,
  code: Type.String(),
  name: Type.String(),
  classification: Type.String(),
  debit: SignedMoney,
  credit: SignedMoney,
  balance: SignedMoney,
});

export const ConsolidatedBalances = Type.Object({
  chart_code: Type.String(),
  as_of_month: Type.Union([YearMonth, Type.Null()]),
  legal_entity_ids: Type.Array(Uuid),
  accounts: Type.Array(ReportLine),
});

/**
 * debit, credit and balance are the activity between the bounds; opening_balance is the balance
 * before from_month and closing_balance the balance at the end of to_month, both on the
 * account's normal side, so the closing column ties to the balance sheet as of to_month.
 */
export const TrialBalanceLine = Type.Object({
  ...ReportLine.properties,
  opening_balance: Type.Integer({ description: 'Minor units: the balance before from_month (0 without from_date)' }),
  closing_balance: Type.Integer({
    description: 'Minor units: opening_balance + balance, the balance at the end of to_month',
  }),
});

export const TrialBalance = Type.Object({
  legal_entity_id: Uuid,
  from_month: Type.Union([MonthStart, Type.Null()]),
  to_month: Type.Union([MonthStart, Type.Null()]),
  accounts: Type.Array(TrialBalanceLine),
  totals: Type.Object({ debit: SignedMoney, credit: SignedMoney }),
});

const Section = Type.Object({ accounts: Type.Array(ReportLine), total: SignedMoney });
export const BalanceSheet = Type.Object({
  legal_entity_id: Uuid,
  as_of_month: Type.Union([YearMonth, Type.Null()]),
  assets: Section,
  liabilities: Section,
  equity: Section,
  /** Revenue less expenses to date, shown within equity's total. */
  retained_earnings: SignedMoney,
  total_liabilities_and_equity: SignedMoney,
});

export { DateString };
