import { notFound } from '@platform/kit';
import { monthOf } from '../domain/budgets.ts';
import { actorName } from '../domain/people.ts';
import { type BudgetRow, budgetRow } from '../schemas/budgets.ts';
import { budgetFigures, clearOverride, type DefaultBudget, writeDefault, writeOverride } from '../store/budgets.ts';
import type { Db } from '../store/db.ts';
import { findByFid } from '../store/people.ts';
import type { CommandCtx } from './context.ts';

export const personNotFound = () => notFound('Person', 'person_not_found');

/** One identity's budget row this month (404 person_not_found when the roster lacks it). */
export async function budgetRowOf(db: Db, fid: string, now: Date): Promise<BudgetRow> {
  const month = monthOf(now);
  const { items } = await budgetFigures(db, { scope: { everyone: true }, only: fid }, month);
  if (!items[0]) throw personNotFound();
  return budgetRow(items[0], month.month);
}

/** Sets the default monthly limit, and service credentials' default when given (issue 14.4). */
export function setDefaultBudget(
  { trx, principal, now }: CommandCtx,
  input: { limit: number; service_limit?: number },
): Promise<DefaultBudget> {
  return writeDefault(trx, input.limit, actorName(principal), now, input.service_limit);
}

/** An identity's own limit, overriding the default; answers its row this month. */
export async function overrideBudget({ trx, principal, now }: CommandCtx, fid: string, cents: number) {
  if (!(await findByFid(trx, fid))) throw personNotFound();
  await writeOverride(trx, fid, cents, actorName(principal), now);
  return budgetRowOf(trx, fid, now);
}

/** Clears an identity's override: its limit is the default of its kind again; answers its row. */
export async function clearBudgetOverride({ trx, now }: CommandCtx, fid: string) {
  if (!(await findByFid(trx, fid))) throw personNotFound();
  await clearOverride(trx, fid);
  return budgetRowOf(trx, fid, now);
}
