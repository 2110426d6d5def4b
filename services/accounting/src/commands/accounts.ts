import { conflict, notFound, unprocessable, uuidv7 } from '@platform/kit';
import type { AccountInput } from '../schemas/accounts.ts';
import { findAccount, findAccountByCode, insertAccount, setPostable } from '../store/accounts.ts';
import { lockEntitiesOfChart } from '../store/locks.ts';
import type { CommandCtx, WhyValue } from './context.ts';

export async function createAccount({ trx, principal, now, emit }: CommandCtx, input: AccountInput, why?: WhyValue) {
  let parentId: string | null = null;
  if (input.parent_code !== undefined) {
    const parent = await findAccountByCode(trx, input.chart_code, input.parent_code);
    if (!parent) {
      throw unprocessable(
        'parent_not_found',
        `No account ${input.parent_code} in chart ${input.chart_code}`,
        'data/parent_code',
      );
    }
    parentId = parent.id;
  }
  const account = await insertAccount(trx, uuidv7(now.getTime()), input, parentId, principal.id, now);
  if (!account)
    throw conflict('account_code_exists', `Account ${input.code} already exists in chart ${input.chart_code}`);
  await emit({ type: 'account.created', data: { account, actor_fid: principal.id, why: why ?? null } });
  return account;
}

/** An account-use change: whether journal lines may reference the account. */
export async function setAccountPostability(
  { trx, principal, now, emit }: CommandCtx,
  id: string,
  isPostable: boolean,
  why?: WhyValue,
) {
  const found = await findAccount(trx, id);
  if (!found) throw notFound('Account', 'account_not_found');
  await lockEntitiesOfChart(trx, found.chart_code);
  // Read again under the locks: another change may have committed while this one waited.
  const before = (await findAccount(trx, id)) ?? found;
  if (before.is_postable !== isPostable) {
    await setPostable(trx, id, isPostable);
    await emit({
      type: 'account.postability_changed',
      data: { account_id: id, is_postable: isPostable, actor_fid: principal.id, why: why ?? null },
    });
  }
  return { ...before, is_postable: isPostable };
}
